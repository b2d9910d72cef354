// A whole logical-to-physical map in the host's memory, one 32-bit entry per 4 KiB logical
// block (L2pMap's encoding). Since issue 20 it is not the firmware's map (ftl/l2p_map.h: the map
// pages on NAND are): it holds the whole map where the whole map is resident (firmware.map_cache
// false), the checker's copy with firmware.map_verify, and a precondition fill's entries until
// their map pages are written.
// Stored in chunks of 4096 entries (one 16 KiB map page) allocated when first
// written, so an untouched 512 GB device costs only the chunk directory.
//
// A chunk starts compact: a sorted list of runs, each mapping consecutive LBAs to
// consecutive entries (a write unit's sectors go to consecutive PPAs), 8 bytes a run
// instead of 4 bytes an LBA. A sequentially written chunk is a few dozen runs (a full
// 512 GB fill: the map ~477 -> ~10 MiB, issue 18 goal 3). Scattered writes split runs;
// a chunk with more than kMaxRuns runs turns dense (4 bytes an entry) for good, so a
// lookup is a binary search over at most kMaxRuns runs or a single load.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

namespace ufs {

class L2pRuns {
 public:
  static constexpr uint32_t kUnmapped = 0xFFFFFFFFu;
  static constexpr uint32_t kEntriesPerChunk = 4096;
  // Runs a compact chunk may hold (4 KiB of runs, a quarter of the dense chunk).
  static constexpr uint32_t kMaxRuns = 512;

  explicit L2pRuns(uint64_t logical_blocks);

  uint32_t get(uint64_t lba) const {
    const Chunk& c = chunks_[lba / kEntriesPerChunk];
    const uint32_t off = uint32_t(lba % kEntriesPerChunk);
    if (c.dense) return c.dense[off];
    return c.runs.empty() ? kUnmapped : get_compact(c, off);
  }
  // The entries of [first, first + count) into out, each physical one as it is and any other
  // (unmapped, in the write cache) as `none`: one walk of each chunk's runs, in order, as a
  // map page is read, instead of a search per entry.
  void physical_range(uint64_t first, uint32_t count, uint32_t* out, uint32_t none) const;
  void set(uint64_t lba, uint32_t value);
  // The entries of LBAs [first, first + count) into out (kUnmapped past the end); a map page's
  // worth at a time without a search per entry.
  void entries(uint64_t first, uint32_t* out, uint32_t count) const;

  static bool is_physical(uint32_t e) { return !(e & 0x80000000u); }  // not a write-cache slot (kUnmapped has the flag)

  uint64_t logical_blocks() const { return logical_blocks_; }
  // Chunks holding (or having held) a mapped entry, compact or dense.
  uint64_t chunks_allocated() const { return chunks_allocated_; }
  uint64_t chunks_dense() const { return chunks_dense_; }
  // Heap bytes the chunks hold (runs' capacity and dense arrays; not the directory).
  uint64_t bytes() const;
  // bytes() and the chunk directory: everything the map holds.
  uint64_t heap_bytes() const { return bytes() + uint64_t(chunks_.capacity()) * sizeof(Chunk); }

 private:
  // Offsets [off, off + len) of the chunk map to value, value + 1, ...
  struct Run {
    uint16_t off;
    uint16_t len;
    uint32_t value;
    uint32_t end() const { return uint32_t(off) + len; }
  };
  struct Chunk {
    std::unique_ptr<uint32_t[]> dense;  // set: dense form
    std::vector<Run> runs;              // compact form (sorted, disjoint)
    bool allocated = false;
  };
  static uint32_t get_compact(const Chunk& c, uint32_t off);
  void set_compact(Chunk& c, uint32_t off, uint32_t value);
  void make_dense(Chunk& c);

  uint64_t logical_blocks_;
  std::vector<Chunk> chunks_;
  uint64_t chunks_allocated_ = 0;
  uint64_t chunks_dense_ = 0;
};

}  // namespace ufs
