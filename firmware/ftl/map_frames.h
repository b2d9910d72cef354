// The map pages' frames in the controller's SRAM (issue 20): a map page resident in the map
// cache holds its entries in a frame. An entry not known yet (the page was made resident by an
// update, without a load) is kUnknown until the page's NAND copy fills it (a load, a merge read,
// or the zero-time peek). A page with write-backs pending (queued or programming) keeps what
// changed when it leaves the cache: the write-back buffer its program takes the entries from,
// freed once no write-back is pending and the page is not resident. That buffer is the frame
// itself, or, when few entries changed since the frame was made (an update miss changes one or
// two before the page goes again), just those entries (offset, value): a random-write burst
// queues hundreds of write-backs of pages that changed a few entries each (the others are the
// NAND copy's, which the write-back's merge read brings). A frame given to a page that is neither
// resident nor held (an entry set outside the cache: recovery) is detached: it stays until a
// write-back of its page has landed.
#pragma once
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace ufs {

class MapFrames {
 public:
  static constexpr uint32_t kNoFrame = ~0u;
  static constexpr uint32_t kSparse = 0x80000000u;   // frame_of(): a page's few known entries (sparse())
  static constexpr uint32_t kUnknown = 0xFFFFFFFEu;  // never an entry: a cached entry never goes in a frame
  using Entries = std::vector<std::pair<uint32_t, uint32_t>>;  // (offset, value), by offset

  MapFrames(uint32_t pages, uint32_t entries_per_page);

  uint32_t entries_per_page() const { return epp_; }
  // The page's frame: kNoFrame, a frame (below kSparse: words()) or kSparse | a sparse buffer.
  uint32_t frame_of(uint32_t page) const { return frame_of_[page]; }
  static bool dense(uint32_t frame) { return frame < kSparse; }
  uint32_t* words(uint32_t frame) { return frames_[frame].words.get(); }
  const uint32_t* words(uint32_t frame) const { return frames_[frame].words.get(); }
  uint32_t unknown(uint32_t frame) const { return frames_[frame].unknown; }
  const Entries& sparse(uint32_t frame) const { return sparse_[frame & ~kSparse]; }
  // A sparse buffer's entry at `off`, or kUnknown.
  uint32_t sparse_entry(uint32_t frame, uint32_t off) const;
  bool resident(uint32_t page) const {
    const uint32_t f = frame_of_[page];
    return dense(f) && frames_[f].resident;
  }
  bool held(uint32_t page) const { return holds_[page] != 0; }
  // The page's frame, made if it has none (every entry unknown; a sparse buffer's entries known).
  uint32_t attach(uint32_t page);
  // A frame for the page, which has none, holding a NAND copy's `words` (swapped in: all known).
  uint32_t attach(uint32_t page, std::unique_ptr<uint32_t[]>& words);
  void set(uint32_t frame, uint32_t off, uint32_t value) {
    Frame& fr = frames_[frame];
    uint32_t& w = fr.words[off];
    if (w == kUnknown) --fr.unknown;
    w = value;
    uint64_t& bits = fr.changed[off / 64];
    fr.changes += !((bits >> (off % 64)) & 1);
    bits |= 1ull << (off % 64);
  }
  // The unknown entries from a NAND copy of the page (kUnknown there: not carried, stays unknown).
  void fill(uint32_t frame, const uint32_t* nand);

  // The map cache: the page became resident (its frame made if need be) or left. `loaded`
  // (optional): a NAND copy of the page just read, entries_per_page words: a new frame takes
  // the buffer itself (the buffer gets the frame's old words: no copy), a frame the page still
  // has (a write-back pending) learns its unknown entries from it.
  void set_resident(uint32_t page, bool resident, std::unique_ptr<uint32_t[]>* loaded = nullptr);
  // The map writer: a write-back of the page is pending / has landed (or was dropped).
  void hold(uint32_t page);
  void release(uint32_t page);

  uint32_t frames() const { return uint32_t(frames_.size()); }  // made so far (the pool only grows)
  uint32_t in_use() const { return in_use_; }
  uint32_t peak() const { return peak_; }
  uint64_t sparse_peak_bytes() const { return sparse_peak_ * sizeof(Entries::value_type); }
  // Per page tables and per frame state (the frames' words: words_bytes()).
  uint64_t table_bytes() const;
  uint64_t words_bytes() const { return uint64_t(frames_.size()) * epp_ * sizeof(uint32_t); }

 private:
  struct Frame {
    std::unique_ptr<uint32_t[]> words;
    std::unique_ptr<uint64_t[]> changed;  // per entry: set since the frame was made (not a copy's)
    uint32_t page = 0;
    uint32_t unknown = 0;
    uint32_t changes = 0;
    bool resident = false;
  };
  void maybe_free(uint32_t page);
  uint32_t take_frame(uint32_t page);  // a free frame (or a new one) for the page
  void free_frame(uint32_t f);
  void to_sparse(uint32_t page);       // a held page that left the cache with few entries changed
  uint32_t epp_;
  std::vector<uint32_t> frame_of_;  // per map page
  std::vector<uint8_t> holds_;      // per map page: write-backs pending
  std::vector<Frame> frames_;
  std::vector<uint32_t> free_;
  std::vector<Entries> sparse_;     // sparse write-back buffers (and spare ones)
  std::vector<uint32_t> sparse_free_;
  uint64_t sparse_entries_ = 0, sparse_peak_ = 0;  // entries the sparse buffers hold, most at once
  uint32_t in_use_ = 0, peak_ = 0;
};

}  // namespace ufs
