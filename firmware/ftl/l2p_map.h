// Page-level logical-to-physical map, one 32-bit entry per 4 KiB logical block.
// Stored in chunks of 4096 entries (one 16 KiB map page) allocated when first
// written, so an untouched 512 GB device costs only the chunk directory.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

namespace ufs {

// Told of every mapping change (HPB dirty tracking: host writes, UNMAP, GC and
// wear-levelling moves all go through L2pMap::set).
class L2pObserver {
 public:
  virtual ~L2pObserver() = default;
  // Called before the entry changes; value: the new entry (L2pMap encoding).
  virtual void on_map_change(uint64_t lba, uint32_t value) = 0;
};

class L2pMap {
 public:
  static constexpr uint32_t kUnmapped = 0xFFFFFFFFu;
  static constexpr uint32_t kCachedFlag = 0x80000000u;  // entry names a write-cache slot
  static constexpr uint32_t kEntriesPerChunk = 4096;

  explicit L2pMap(uint64_t logical_blocks);

  uint32_t get(uint64_t lba) const {
    const auto& chunk = chunks_[lba / kEntriesPerChunk];
    return chunk ? chunk[lba % kEntriesPerChunk] : kUnmapped;
  }
  void set(uint64_t lba, uint32_t value);
  void set_observer(L2pObserver* observer) { observer_ = observer; }

  static bool is_cached(uint32_t e) { return e != kUnmapped && (e & kCachedFlag); }
  static bool is_physical(uint32_t e) { return !(e & kCachedFlag); }  // kUnmapped has the flag set
  static uint32_t cached(uint32_t slot) { return kCachedFlag | slot; }
  static uint32_t slot_of(uint32_t e) { return e & ~kCachedFlag; }

  uint64_t logical_blocks() const { return logical_blocks_; }
  uint64_t chunks_allocated() const { return chunks_allocated_; }

 private:
  uint64_t logical_blocks_;
  std::vector<std::unique_ptr<uint32_t[]>> chunks_;
  uint64_t chunks_allocated_ = 0;
  L2pObserver* observer_ = nullptr;
};

}  // namespace ufs
