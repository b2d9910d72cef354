#include "ftl/l2p_runs.h"
#include <algorithm>

namespace ufs {

L2pRuns::L2pRuns(uint64_t logical_blocks)
    : logical_blocks_(logical_blocks),
      chunks_((logical_blocks + kEntriesPerChunk - 1) / kEntriesPerChunk) {}

uint32_t L2pRuns::get_compact(const Chunk& c, uint32_t off) {
  // The last run starting at or before off (past the last run: a chunk being filled).
  const Run& last = c.runs.back();
  if (off >= last.off) return off < last.end() ? last.value + (off - last.off) : kUnmapped;
  const Run* lo = c.runs.data();
  size_t n = c.runs.size() - 1;
  while (n > 1) {
    const size_t half = n / 2;
    if (lo[half].off <= off) lo += half;
    n -= half;
  }
  return off >= lo->off && off < lo->end() ? lo->value + (off - lo->off) : kUnmapped;
}

void L2pRuns::physical_range(uint64_t first, uint32_t count, uint32_t* out, uint32_t none) const {
  while (count) {
    const Chunk& c = chunks_[first / kEntriesPerChunk];
    uint32_t off = uint32_t(first % kEntriesPerChunk);
    const uint32_t n = count < kEntriesPerChunk - off ? count : kEntriesPerChunk - off;
    if (c.dense) {
      const uint32_t* e = c.dense.get() + off;
      for (uint32_t i = 0; i < n; ++i) out[i] = is_physical(e[i]) ? e[i] : none;
    } else {
      // The first run that ends after off, then on through the runs.
      const Run* r = c.runs.data();
      const Run* end = r + c.runs.size();
      size_t left = c.runs.size();
      while (left > 0) {
        const size_t half = left / 2;
        if (r[half].end() <= off) r += half + 1, left -= half + 1;
        else left = half;
      }
      for (uint32_t i = 0; i < n; ++i, ++off) {
        while (r != end && r->end() <= off) ++r;
        const uint32_t e = r != end && off >= r->off ? r->value + (off - r->off) : kUnmapped;
        out[i] = is_physical(e) ? e : none;
      }
    }
    out += n;
    first += n;
    count -= n;
  }
}

void L2pRuns::set(uint64_t lba, uint32_t value) {
  Chunk& c = chunks_[lba / kEntriesPerChunk];
  const uint32_t off = uint32_t(lba % kEntriesPerChunk);
  if (c.dense) {
    c.dense[off] = value;
    return;
  }
  if (!c.allocated) {
    if (value == kUnmapped) return;
    c.allocated = true;
    ++chunks_allocated_;
  }
  set_compact(c, off, value);
  if (c.runs.size() > kMaxRuns) make_dense(c);
}

void L2pRuns::entries(uint64_t first, uint32_t* out, uint32_t count) const {
  const uint64_t end = std::min(first + count, logical_blocks_);
  uint64_t lba = first;
  while (lba < end) {
    const Chunk& c = chunks_[lba / kEntriesPerChunk];
    const uint64_t base = lba - lba % kEntriesPerChunk;
    const uint64_t stop = std::min(end, base + kEntriesPerChunk);
    if (c.dense) {
      std::copy(c.dense.get() + (lba - base), c.dense.get() + (stop - base), out + (lba - first));
    } else {
      uint64_t at = lba;  // out is written up to here
      for (const Run& r : c.runs) {
        const uint64_t from = std::max<uint64_t>(base + r.off, at), to = std::min<uint64_t>(base + r.end(), stop);
        if (from >= to) continue;
        std::fill(out + (at - first), out + (from - first), kUnmapped);
        for (uint64_t l = from; l < to; ++l) out[l - first] = r.value + uint32_t(l - base - r.off);
        at = to;
      }
      std::fill(out + (at - first), out + (stop - first), kUnmapped);
    }
    lba = stop;
  }
  std::fill(out + (std::max(lba, first) - first), out + count, kUnmapped);  // past the device's end
}

void L2pRuns::set_compact(Chunk& c, uint32_t off, uint32_t value) {
  std::vector<Run>& runs = c.runs;
  // The common case, a sequential write: extend the last run.
  if (!runs.empty() && value != kUnmapped) {
    Run& last = runs.back();
    if (last.end() == off && last.value + last.len == value) {
      ++last.len;
      return;
    }
  }
  // i: the first run starting after off; i - 1 may hold off.
  size_t i = runs.empty() || off >= runs.back().off
                 ? runs.size()
                 : size_t(std::upper_bound(runs.begin(), runs.end(), off,
                                           [](uint32_t o, const Run& r) { return o < r.off; }) -
                          runs.begin());
  if (i > 0 && off < runs[i - 1].end()) {
    Run& r = runs[i - 1];
    if (r.value + (off - r.off) == value) return;  // unchanged
    // Take off out of r: r keeps [r.off, off), a new run the part after off.
    const uint32_t end = r.end();
    const uint32_t head = off - r.off;
    if (off + 1 < end) {
      const Run tail{uint16_t(off + 1), uint16_t(end - off - 1), r.value + head + 1};
      runs.insert(runs.begin() + long(i), tail);
    }
    if (head) {
      runs[i - 1].len = uint16_t(head);
    } else {
      runs.erase(runs.begin() + long(i - 1));
      --i;
    }
  }
  if (value == kUnmapped) return;
  // Now no run holds off; runs[i - 1] ends at or before it, runs[i] starts after it.
  const bool join_prev = i > 0 && runs[i - 1].end() == off && runs[i - 1].value + runs[i - 1].len == value;
  const bool join_next = i < runs.size() && runs[i].off == off + 1 && runs[i].value == value + 1;
  if (join_prev && join_next) {
    runs[i - 1].len = uint16_t(runs[i - 1].len + 1 + runs[i].len);
    runs.erase(runs.begin() + long(i));
  } else if (join_prev) {
    ++runs[i - 1].len;
  } else if (join_next) {
    runs[i].off = uint16_t(off);
    runs[i].value = value;
    ++runs[i].len;
  } else {
    // Grow by a quarter, not std::vector's doubling: a filled chunk's runs are most of the map.
    if (runs.size() == runs.capacity()) runs.reserve(runs.size() + runs.size() / 4 + 4);
    runs.insert(runs.begin() + long(i), Run{uint16_t(off), 1, value});
  }
}

void L2pRuns::make_dense(Chunk& c) {
  c.dense.reset(new uint32_t[kEntriesPerChunk]);
  std::fill_n(c.dense.get(), kEntriesPerChunk, kUnmapped);
  for (const Run& r : c.runs)
    for (uint32_t k = 0; k < r.len; ++k) c.dense[r.off + k] = r.value + k;
  std::vector<Run>().swap(c.runs);
  ++chunks_dense_;
}

uint64_t L2pRuns::bytes() const {
  uint64_t b = 0;
  for (const Chunk& c : chunks_)
    b += c.dense ? uint64_t(kEntriesPerChunk) * sizeof(uint32_t) : c.runs.capacity() * sizeof(Run);
  return b;
}

}  // namespace ufs
