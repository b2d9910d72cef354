// GC copy-back (Agrawal et al., ATC'08, sec. 3.5 and 4.4): a valid page of a victim
// moves inside its plane with the NAND's copy-back command (read into the page
// register, program elsewhere in the plane), so the data never crosses the channel;
// only the page's spare area comes out, for the LBAs the map must follow. The
// destination is the die's GC open block of the victim's plane.
#pragma once
#include <cstdint>
#include <vector>
#include "ftl/block_manager.h"
#include "hal/flash_types.h"

namespace ufs {

class GcCopyBack {
 public:
  struct Move {
    uint32_t die = 0, victim = 0, src_page = 0, dst_block = 0, dst_page = 0;
  };
  explicit GcCopyBack(BlockManager& blocks) : blocks_(blocks) {}

  // Plans the copy-back of the victim's `page` into the GC open block of the victim's
  // plane, taking a free block of that plane when none is open; move(index) says where.
  // False when that plane has no block to give.
  bool plan(uint32_t die, uint32_t victim, uint32_t page, uint64_t now_ps, uint32_t& index);
  const Move& move(uint32_t index) const { return moves_[index]; }
  // The completed move's record (its index is free again).
  Move finish(uint32_t index);
  // The copy-back failed: its destination block takes no more pages (it is retired
  // after GC when the program failed).
  void destination_failed(const Move& m, bool retire);

 private:
  BlockManager& blocks_;
  std::vector<Move> moves_;
  std::vector<uint32_t> free_;
};

}  // namespace ufs
