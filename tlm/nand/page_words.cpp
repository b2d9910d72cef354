#include "nand/page_words.h"

namespace ufs {

namespace {
void put(std::vector<uint8_t>& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(uint8_t(v) | 0x80);
    v >>= 7;
  }
  out.push_back(uint8_t(v));
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
  std::vector<uint8_t> code;
  put(code, count);
  uint32_t next = 0;  // the word the previous run predicts
  for (uint32_t i = 0; i < count;) {
    const uint32_t first = words[i];
    // A run: repeats (step 0) or counts up (step 1), whichever its second word says.
    const uint32_t step = i + 1 < count && words[i + 1] == first ? 0 : 1;
    uint32_t len = 1;
    while (i + len < count && words[i + len] == first + len * step) ++len;
    put(code, (uint64_t(len - 1) << 1) | step);
    put(code, zz(int64_t(first) - int64_t(next)));
    next = first + len * step;
    i += len;
  }
  code.shrink_to_fit();
  auto [it, fresh] = pages_.try_emplace(key);
  if (!fresh) bytes_ -= it->second.size();
  bytes_ += code.size();
  it->second.swap(code);
}

uint32_t PageWords::words(uint64_t key) const {
  const auto it = pages_.find(key);
  if (it == pages_.end()) return 0;
  const uint8_t* p = it->second.data();
  return uint32_t(get(p));
}

bool PageWords::load(uint64_t key, uint32_t* out, uint32_t count) const {
  const auto it = pages_.find(key);
  if (it == pages_.end()) return false;
  const uint8_t* p = it->second.data();
  const uint32_t stored = uint32_t(get(p));
  uint32_t next = 0, i = 0;
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
