#include "nand/page_words.h"
#include <algorithm>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ufs {

namespace {
// A page's first varint: its word count << 2 | its format.
enum : uint64_t { kRuns = 0, kPlain = 1, kMarks = 2 };
// A coded page ends with this many spare bytes, so that a varint is read as one 8-byte load.
constexpr size_t kPad = 8;

// Varints of up to 35 bits, 7 bits a byte; the length (n bytes) is in the first byte's low bits,
// n - 1 ones then a zero, so that neither writing nor reading one branches on its length.
inline uint8_t* put(uint8_t* p, uint64_t v) {
  const uint32_t bits = 64 - uint32_t(__builtin_clzll(v | 1));
  const uint32_t n = (bits + 6) / 7;  // 1..5
  const uint64_t x = v << n | ((uint64_t(1) << (n - 1)) - 1);
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "varints are read and written as little-endian words");
  std::memcpy(p, &x, 8);  // the buffer has the room
  return p + n;
}
inline uint64_t get(const uint8_t*& p) {
  uint64_t b;
  std::memcpy(&b, p, 8);  // kPad: there are 8 bytes
  const uint32_t n = uint32_t(__builtin_ctzll(~b)) + 1;
  p += n;
  return b >> n & ((uint64_t(1) << (7 * n)) - 1);
}
// A word against the word predicted, modulo 2^32 (added back modulo 2^32): at most 5 bytes.
inline uint32_t zigzag(uint32_t delta) {
  const int32_t d = int32_t(delta);
  return (uint32_t(d) << 1) ^ uint32_t(d >> 31);
}
inline uint32_t unzigzag(uint64_t z) { return uint32_t(z >> 1) ^ (0u - uint32_t(z & 1)); }
// Without -mpopcnt the builtin is a library call; this is a few instructions inline.
inline uint32_t popcount(uint64_t x) {
  x -= x >> 1 & 0x5555555555555555ull;
  x = (x & 0x3333333333333333ull) + (x >> 2 & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return uint32_t((x * 0x0101010101010101ull) >> 56);
}
// The bits of a mark word k that hold words below `count`.
inline uint64_t below(size_t k, uint32_t count) {
  const uint64_t lo = uint64_t(k) * 64;
  return count >= lo + 64 ? ~0ull : count <= lo ? 0 : (uint64_t(1) << (count - lo)) - 1;
}
}  // namespace

// One pass finds, per word, whether it repeats the previous word (eq_) or counts up from it
// (up_), 64 words a mark word, without a branch per word (SSE2 where there is: 16 words a step).
void PageWords::mark(const uint32_t* words, uint32_t count) {
  const size_t n = size_t(count) / 64 + 1;  // bit `count` stays clear: the runs coder reads it
  eq_.resize(n);
  up_.resize(n);
  for (size_t k = 0; k < n; ++k) {
    const uint32_t lo = uint32_t(k * 64), hi = std::min<uint32_t>(count, lo + 64);
    uint64_t e = 0, u = 0;
    uint32_t i = std::max<uint32_t>(lo, 1);
#if defined(__SSE2__)
    if (lo > 0 && hi == lo + 64) {
      const __m128i zero = _mm_setzero_si128(), one = _mm_set1_epi32(1);
      for (uint32_t j = 0; j < 64; j += 16) {
        const uint32_t* const w = words + lo + j;
        __m128i d[4];
        for (int q = 0; q < 4; ++q)
          d[q] = _mm_sub_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w + 4 * q)),
                               _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + 4 * q - 1)));
        auto bits = [&](__m128i v) {  // 16 lanes' compare results -> 16 bits, in word order
          const __m128i lo8 = _mm_packs_epi32(_mm_cmpeq_epi32(d[0], v), _mm_cmpeq_epi32(d[1], v));
          const __m128i hi8 = _mm_packs_epi32(_mm_cmpeq_epi32(d[2], v), _mm_cmpeq_epi32(d[3], v));
          return uint64_t(uint32_t(_mm_movemask_epi8(_mm_packs_epi16(lo8, hi8))));
        };
        e |= bits(zero) << j;
        u |= bits(one) << j;
      }
      i = hi;
    }
#endif
    for (; i < hi; ++i) {
      e |= uint64_t(words[i] == words[i - 1]) << (i - lo);
      u |= uint64_t(words[i] == words[i - 1] + 1) << (i - lo);
    }
    eq_[k] = e;
    up_[k] = u;
  }
}

// How many of words [from, to) neither repeat nor count up from the word before (from >= 1).
uint32_t PageWords::others(const uint32_t* words, uint32_t from, uint32_t to) {
  uint32_t n = 0;
  for (uint32_t i = from; i < to; ++i) n += uint32_t(words[i] - words[i - 1] > 1u);
  return n;
}

// Three formats, chosen before anything is coded:
//  - runs (few runs: a sequentially written or unwritten page): per run a varint of length - 1
//    and whether it repeats or counts up, and its first word against the previous run's next;
//    a run breaks where a word neither repeats nor counts up, or switches between the two;
//  - marks (a page with more runs, as random writes leave a sequentially filled one): the two
//    mark bitmaps, then each word that neither repeats nor counts up, as it is (a varint delta
//    would save ~1 byte of 4 at ~20 instructions a word instead of ~6), taken from the bitmaps
//    without a branch per word or run;
//  - plain where the marks would take more than 3/4 of the plain words (a mostly random page,
//    as long random writes make every map page). Four spread samples of 64 words pick it before
//    the marks are made (more than 3/4 of them neither repeat nor count up).
void PageWords::store(uint64_t key, const uint32_t* words, uint32_t count) {
  const size_t plain = size_t(count) * 4;
  if (count >= 1024) {
    uint32_t sampled = 0;
    for (uint32_t q = 0; q < 4; ++q) sampled += others(words, q * (count / 4) + 1, q * (count / 4) + 65);
    if (sampled > 256 * 3 / 4) {
      store_plain(key, words, count);
      return;
    }
  }
  mark(words, count);
  const size_t n = eq_.size();
  uint64_t runs = 0, singles = 0, carry_eq = 0, carry_up = 0;  // singles: neither repeat nor step
  for (size_t k = 0; k < n; ++k) {
    const uint64_t e = eq_[k], u = up_[k];
    const uint64_t pe = e << 1 | carry_eq, pu = u << 1 | carry_up;  // the previous word's marks
    carry_eq = e >> 63;
    carry_up = u >> 63;
    const uint64_t valid = below(k, count), other = ~(e | u) & valid;
    runs += uint64_t(popcount(other | (e & pu) | (u & pe)));
    singles += uint64_t(popcount(other));
  }
  const size_t whole = (size_t(count) + 63) / 64;  // mark words the marks format keeps
  const size_t marks_bytes = whole * 16;
  const bool few_runs = runs * 8 <= marks_bytes;  // runs take at most 8 bytes: no more than the marks
  if (!few_runs && (marks_bytes + singles * 4) * 4 > plain * 3) {
    store_plain(key, words, count);
    return;
  }
  const size_t room = 8 + (few_runs ? size_t(runs) * 8 : marks_bytes + size_t(singles) * 4) + kPad;
  if (scratch_.size() < room) scratch_.resize(room);
  uint8_t* const begin = scratch_.data();
  uint8_t* p = put(begin, uint64_t(count) << 2 | (few_runs ? kRuns : kMarks));
  if (few_runs) {
    uint32_t start = 0, next = 0;  // the run being emitted, the word the previous run predicts
    auto emit = [&](uint32_t end) {
      const uint32_t len = end - start;
      // Repeats or counts up, as its second word says; a one-word run is told to repeat where the
      // next run starts on the same word, so that the next delta is zero.
      const uint32_t step = 1 - uint32_t(eq_[(start + 1) >> 6] >> ((start + 1) & 63) & 1);
      const uint32_t first = words[start];
      p = put(p, uint64_t(len - 1) << 1 | step);
      p = put(p, zigzag(first - next));
      next = first + len * step;
      start = end;
    };
    carry_eq = carry_up = 0;
    for (size_t k = 0; k < n; ++k) {
      const uint64_t e = eq_[k], u = up_[k];
      uint64_t m = (~(e | u) | (e & (u << 1 | carry_up)) | (u & (e << 1 | carry_eq))) & below(k, count);
      carry_eq = e >> 63;
      carry_up = u >> 63;
      if (k == 0) m &= ~uint64_t(1);  // word 0 starts the first run: nothing ends there
      for (; m; m &= m - 1) emit(uint32_t(k * 64 + uint64_t(__builtin_ctzll(m))));
    }
    if (count > 0) emit(count);
  } else {
    std::memcpy(p, eq_.data(), whole * 8);
    std::memcpy(p + whole * 8, up_.data(), whole * 8);
    p += marks_bytes;
    for (size_t k = 0; k < whole; ++k) {
      for (uint64_t m = ~(eq_[k] | up_[k]) & below(k, count); m; m &= m - 1) {
        std::memcpy(p, words + k * 64 + size_t(__builtin_ctzll(m)), 4);
        p += 4;
      }
    }
  }
  std::memset(p, 0, kPad);
  std::vector<uint8_t> code(begin, p + kPad);
  keep(key, code);
}

void PageWords::store_plain(uint64_t key, const uint32_t* words, uint32_t count) {
  uint8_t head[8 + kPad];
  const size_t head_bytes = size_t(put(head, uint64_t(count) << 2 | kPlain) - head);
  std::vector<uint8_t> code(head_bytes + size_t(count) * 4 + kPad, 0);
  std::memcpy(code.data(), head, head_bytes);
  std::memcpy(code.data() + head_bytes, words, size_t(count) * 4);
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
  return uint32_t(get(p) >> 2);
}

bool PageWords::load(uint64_t key, uint32_t* out, uint32_t count) const {
  const auto it = pages_.find(key);
  if (it == pages_.end()) return false;
  const uint8_t* p = it->second.data();
  const uint64_t head = get(p);
  const uint32_t stored = uint32_t(head >> 2), limit = std::min(stored, count);
  switch (head & 3) {
    case kPlain:
      std::memcpy(out, p, size_t(limit) * 4);
      break;
    case kRuns: {
      uint32_t next = 0;
      for (uint32_t i = 0; i < limit;) {
        const uint64_t run = get(p);
        const uint32_t len = uint32_t(run >> 1) + 1, step = uint32_t(run & 1);
        const uint32_t first = next + unzigzag(get(p));
        const uint32_t end = std::min(limit, i + len);
        for (uint32_t v = first; i < end; ++i, v += step) out[i] = v;
        next = first + len * step;
      }
      break;
    }
    default: {  // marks
      const size_t whole = (size_t(stored) + 63) / 64;
      const uint8_t* const marks = p;
      p += whole * 16;
      uint32_t prev = 0, i = 0;
      for (size_t k = 0; k < whole && i < limit; ++k) {
        uint64_t e, u;
        std::memcpy(&e, marks + k * 8, 8);
        std::memcpy(&u, marks + (whole + k) * 8, 8);
        const uint32_t hi = std::min<uint32_t>(limit, uint32_t(k * 64 + 64));
        for (uint64_t m = ~(e | u) & below(k, limit); m; m &= m - 1) {
          const uint32_t at = uint32_t(k * 64 + uint64_t(__builtin_ctzll(m)));
          for (; i < at; ++i) out[i] = prev += uint32_t(u >> (i & 63) & 1);
          std::memcpy(&prev, p, 4);
          p += 4;
          out[i++] = prev;
        }
        for (; i < hi; ++i) out[i] = prev += uint32_t(u >> (i & 63) & 1);
      }
    }
  }
  std::fill(out + limit, out + count, ~0u);  // a shorter page: the rest reads as erased
  return true;
}

void PageWords::drop_block(uint64_t block_key) {
  auto it = pages_.lower_bound(page_key(block_key, 0));
  const auto end = pages_.lower_bound(page_key(block_key + 1, 0));
  for (auto k = it; k != end; ++k) bytes_ -= k->second.size();
  pages_.erase(it, end);
}

}  // namespace ufs
