// fold=remap: gives each distinct 4 KiB block of a trace a dense new address in
// first-touch order, so a trace spread over 119 GiB with a 10 GiB footprint fits a
// small simulated device while keeping its reuse. Open addressing with 16-byte
// slots at most half full: about 32-64 bytes per touched block.
#pragma once
#include <cstdint>
#include <vector>

namespace ufs {

class BlockRemapper {
 public:
  BlockRemapper();
  // The dense address of `block`, assigning the next one on first touch.
  uint64_t map(uint64_t block);
  uint64_t size() const { return count_; }

 private:
  struct Slot {
    uint64_t key;    // original block + 1; 0 = empty
    uint64_t value;
  };
  void grow();

  std::vector<Slot> slots_;
  uint64_t count_ = 0;
};

}  // namespace ufs
