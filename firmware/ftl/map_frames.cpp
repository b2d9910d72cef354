#include "ftl/map_frames.h"
#include <algorithm>

namespace ufs {

MapFrames::MapFrames(uint32_t pages, uint32_t entries_per_page)
    : epp_(entries_per_page), frame_of_(pages, kNoFrame), holds_(pages, 0) {}

uint32_t MapFrames::sparse_entry(uint32_t frame, uint32_t off) const {
  const Entries& e = sparse(frame);
  const auto it = std::lower_bound(e.begin(), e.end(), std::make_pair(off, uint32_t(0)));
  return it != e.end() && it->first == off ? it->second : kUnknown;
}

uint32_t MapFrames::take_frame(uint32_t page) {
  uint32_t f;
  if (!free_.empty()) {
    f = free_.back();
    free_.pop_back();
  } else {
    f = uint32_t(frames_.size());
    frames_.emplace_back();
  }
  Frame& fr = frames_[f];
  fr.page = page;
  fr.resident = false;
  if (!fr.changed) fr.changed.reset(new uint64_t[(epp_ + 63) / 64]);
  std::fill_n(fr.changed.get(), (epp_ + 63) / 64, 0);
  fr.changes = 0;
  frame_of_[page] = f;
  if (++in_use_ > peak_) peak_ = in_use_;
  return f;
}

void MapFrames::free_frame(uint32_t f) {
  free_.push_back(f);
  --in_use_;
}

uint32_t MapFrames::attach(uint32_t page) {
  const uint32_t had = frame_of_[page];
  if (dense(had)) return had;
  const uint32_t f = take_frame(page);
  Frame& fr = frames_[f];
  if (!fr.words) fr.words.reset(new uint32_t[epp_]);
  std::fill_n(fr.words.get(), epp_, kUnknown);
  fr.unknown = epp_;
  if (had != kNoFrame) {  // back from a sparse buffer: its entries, the buffer kept for the next
    Entries& e = sparse_[had & ~kSparse];
    for (const auto& [off, value] : e) set(f, off, value);
    sparse_entries_ -= e.size();
    e.clear();
    sparse_free_.push_back(had & ~kSparse);
  }
  return f;
}

uint32_t MapFrames::attach(uint32_t page, std::unique_ptr<uint32_t[]>& words) {
  const uint32_t f = take_frame(page);
  Frame& fr = frames_[f];
  fr.words.swap(words);
  if (!words) words.reset(new uint32_t[epp_]);
  fr.unknown = 0;  // a copy's words are entries, never kUnknown
  return f;
}

void MapFrames::fill(uint32_t frame, const uint32_t* nand) {
  Frame& fr = frames_[frame];
  if (fr.unknown == 0) return;
  uint32_t unknown = 0;
  for (uint32_t i = 0; i < epp_; ++i) {
    uint32_t& w = fr.words[i];
    if (w == kUnknown) w = nand[i];
    unknown += w == kUnknown;
  }
  fr.unknown = unknown;
}

void MapFrames::set_resident(uint32_t page, bool resident, std::unique_ptr<uint32_t[]>* loaded) {
  if (resident) {
    uint32_t f = frame_of_[page];
    if (loaded && f == kNoFrame) {
      f = attach(page, *loaded);
    } else {
      f = attach(page);
      if (loaded) fill(f, loaded->get());
    }
    frames_[f].resident = true;
    return;
  }
  const uint32_t f = frame_of_[page];
  if (!dense(f)) return;
  frames_[f].resident = false;
  if (holds_[page] && frames_[f].changes <= epp_ / 16) to_sparse(page);
  else maybe_free(page);
}

// What changed in the frame, as (offset, value): an 8-byte pair an entry instead of the 16 KiB
// frame (the entries it learnt from a NAND copy are that copy's).
void MapFrames::to_sparse(uint32_t page) {
  const uint32_t f = frame_of_[page];
  uint32_t s;
  if (!sparse_free_.empty()) {
    s = sparse_free_.back();
    sparse_free_.pop_back();
  } else {
    s = uint32_t(sparse_.size());
    sparse_.emplace_back();
  }
  Entries& e = sparse_[s];
  const Frame& fr = frames_[f];
  for (uint32_t k = 0; k < (epp_ + 63) / 64; ++k)
    for (uint64_t bits = fr.changed[k]; bits; bits &= bits - 1) {
      const uint32_t i = k * 64 + uint32_t(__builtin_ctzll(bits));
      e.emplace_back(i, fr.words[i]);
    }
  sparse_entries_ += e.size();
  sparse_peak_ = std::max(sparse_peak_, sparse_entries_);
  frame_of_[page] = kSparse | s;
  free_frame(f);
}

void MapFrames::hold(uint32_t page) { ++holds_[page]; }

void MapFrames::release(uint32_t page) {
  if (holds_[page] == 0) return;
  --holds_[page];
  maybe_free(page);
}

// A frame goes when its page is neither resident nor waiting for a write-back: its entries are
// then all on NAND.
void MapFrames::maybe_free(uint32_t page) {
  const uint32_t f = frame_of_[page];
  if (f == kNoFrame || holds_[page] || (dense(f) && frames_[f].resident)) return;
  frame_of_[page] = kNoFrame;
  if (dense(f)) {
    free_frame(f);
    return;
  }
  Entries& e = sparse_[f & ~kSparse];
  sparse_entries_ -= e.size();
  e.clear();
  sparse_free_.push_back(f & ~kSparse);
}

uint64_t MapFrames::table_bytes() const {
  uint64_t b = uint64_t(frame_of_.capacity()) * sizeof(uint32_t) + holds_.capacity() +
               uint64_t(frames_.capacity()) * sizeof(Frame) + uint64_t(free_.capacity()) * sizeof(uint32_t) +
               uint64_t(sparse_.capacity()) * sizeof(Entries) + uint64_t(sparse_free_.capacity()) * sizeof(uint32_t);
  return b + uint64_t(frames_.size()) * ((epp_ + 63) / 64) * sizeof(uint64_t);  // the frames' change bits
}

}  // namespace ufs
