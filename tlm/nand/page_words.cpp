#include "nand/page_words.h"
#include <algorithm>
#include <cstring>

namespace ufs {

namespace {
// At most 10 bytes (a 64-bit varint) at p; returns the next free byte.
uint8_t* put(uint8_t* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = uint8_t(v) | 0x80;
    v >>= 7;
  }
  *p++ = uint8_t(v);
  return p;
}
uint64_t get(const uint8_t*& p) {
  uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    const uint8_t b = *p++;
    v |= uint64_t(b & 0x7f) << shift;
    if (b < 0x80) return v;
  }
}
uint64_t zz(int64_t d) { return (uint64_t(d) << 1) ^ uint64_t(d >> 63); }
int64_t unzz(uint64_t z) { return int64_t(z >> 1) ^ -int64_t(z & 1); }
}  // namespace

void PageWords::store(uint64_t key, const uint32_t* words, uint32_t count) {
  // Coded into a scratch buffer first, then copied once at its size. Where the runs take more
  // than the plain words would (a randomly written map page: ~5 bytes a word), already over the
  // page's first quarter or at any point over the whole page, the words go plain instead.
  const size_t plain = size_t(count) * 4;
  if (scratch_.size() < plain + 32) scratch_.resize(plain + 32);
  uint8_t* const begin = scratch_.data();
  uint8_t* p = put(begin, uint64_t(count) << 1);
  uint32_t next = 0;  // the word the previous run predicts
  bool sampled = false;
  for (uint32_t i = 0; i < count;) {
    const size_t coded = size_t(p - begin);
    const bool sample = !sampled && i >= count / 4;
    sampled |= sample;
    if (coded > plain || (sample && coded > size_t(i) * 4)) {
      const size_t head = size_t(put(begin, uint64_t(count) << 1 | 1) - begin);
      const auto* bytes = reinterpret_cast<const uint8_t*>(words);
      std::vector<uint8_t> code;
      code.reserve(head + size_t(count) * 4);
      code.insert(code.end(), begin, begin + head);
      code.insert(code.end(), bytes, bytes + size_t(count) * 4);
      keep(key, code);
      return;
    }
    const uint32_t first = words[i];
    // A run: repeats (step 0) or counts up (step 1), whichever its second word says.
    const uint32_t step = i + 1 < count && words[i + 1] == first ? 0 : 1;
    uint32_t len = 1;
    while (i + len < count && words[i + len] == first + len * step) ++len;
    p = put(p, (uint64_t(len - 1) << 1) | step);
    p = put(p, zz(int64_t(first) - int64_t(next)));
    next = first + len * step;
    i += len;
  }
  std::vector<uint8_t> code(begin, p);
  keep(key, code);
}

void PageWords::keep(uint64_t key, std::vector<uint8_t>& code) {
  auto [it, fresh] = pages_.try_emplace(key);
  if (!fresh) bytes_ -= it->second.size();
  bytes_ += code.size();
  it->second.swap(code);
}

uint32_t PageWords::words(uint64_t key) const {
  const auto it = pages_.find(key);
  if (it == pages_.end()) return 0;
  const uint8_t* p = it->second.data();
  return uint32_t(get(p) >> 1);
}

bool PageWords::load(uint64_t key, uint32_t* out, uint32_t count) const {
  const auto it = pages_.find(key);
  if (it == pages_.end()) return false;
  const uint8_t* p = it->second.data();
  const uint64_t head = get(p);
  const uint32_t stored = uint32_t(head >> 1);
  uint32_t next = 0, i = 0;
  if (head & 1) {  // plain
    i = std::min(stored, count);
    std::memcpy(out, p, size_t(i) * 4);
    std::fill(out + i, out + count, ~0u);
    return true;
  }
  while (i < stored) {
    const uint64_t head = get(p);
    const uint32_t len = uint32_t(head >> 1) + 1, step = uint32_t(head & 1);
    const uint32_t first = uint32_t(int64_t(next) + unzz(get(p)));
    for (uint32_t k = 0; k < len && i + k < count; ++k) out[i + k] = first + k * step;
    next = first + len * step;
    i += len;
  }
  for (; i < count; ++i) out[i] = ~0u;  // a shorter page: the rest reads as erased
  return true;
}

void PageWords::drop_block(uint64_t block_key) {
  auto it = pages_.lower_bound(page_key(block_key, 0));
  const auto end = pages_.lower_bound(page_key(block_key + 1, 0));
  for (auto k = it; k != end; ++k) bytes_ -= k->second.size();
  pages_.erase(it, end);
}

}  // namespace ufs
