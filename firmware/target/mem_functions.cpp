// memcpy, memmove and memset by words for the target build. Debian's picolibc has them as
// byte loops (built for size), which no controller firmware would ship, and each guest
// store is the ISS's costliest step (Unicorn 2.0.1 takes its slow path for every store,
// unicorn#1970): a byte loop is four times the stores, and four times the instructions
// charged as the handler's cost. The EABI names are defined too, so that nothing pulls
// picolibc's objects in beside these.
#include <cstddef>
#include <cstdint>

namespace {
typedef uint32_t __attribute__((may_alias)) word;
}

// No loop may be turned back into a call of the function it implements.
#define UFS_NO_PATTERNS __attribute__((optimize("no-tree-loop-distribute-patterns")))

extern "C" {

UFS_NO_PATTERNS void* memcpy(void* __restrict dst, const void* __restrict src, size_t n) {
  auto* d = static_cast<uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
  if (((uintptr_t(d) ^ uintptr_t(s)) & 3) == 0) {
    for (; n && (uintptr_t(d) & 3); --n) *d++ = *s++;
    auto* dw = reinterpret_cast<word*>(d);
    const auto* sw = reinterpret_cast<const word*>(s);
    for (; n >= 16; n -= 16, dw += 4, sw += 4) {
      const uint32_t a = sw[0], b = sw[1], c = sw[2], e = sw[3];
      dw[0] = a; dw[1] = b; dw[2] = c; dw[3] = e;
    }
    for (; n >= 4; n -= 4) *dw++ = *sw++;
    d = reinterpret_cast<uint8_t*>(dw);
    s = reinterpret_cast<const uint8_t*>(sw);
  }
  while (n--) *d++ = *s++;
  return dst;
}

UFS_NO_PATTERNS void* memmove(void* dst, const void* src, size_t n) {
  auto* d = static_cast<uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
  if (d <= s || d >= s + n) {
    // Forward is safe: with the same alignment, each word stored lies below the next read.
    if (((uintptr_t(d) ^ uintptr_t(s)) & 3) == 0) {
      for (; n && (uintptr_t(d) & 3); --n) *d++ = *s++;
      auto* dw = reinterpret_cast<word*>(d);
      const auto* sw = reinterpret_cast<const word*>(s);
      for (; n >= 4; n -= 4) *dw++ = *sw++;
      d = reinterpret_cast<uint8_t*>(dw);
      s = reinterpret_cast<const uint8_t*>(sw);
    }
    while (n--) *d++ = *s++;
    return dst;
  }
  d += n;
  s += n;
  if (((uintptr_t(d) ^ uintptr_t(s)) & 3) == 0) {
    for (; n && (uintptr_t(d) & 3); --n) *--d = *--s;
    auto* dw = reinterpret_cast<word*>(d);
    const auto* sw = reinterpret_cast<const word*>(s);
    for (; n >= 4; n -= 4) *--dw = *--sw;
    d = reinterpret_cast<uint8_t*>(dw);
    s = reinterpret_cast<const uint8_t*>(sw);
  }
  while (n--) *--d = *--s;
  return dst;
}

UFS_NO_PATTERNS void* memset(void* dst, int c, size_t n) {
  auto* d = static_cast<uint8_t*>(dst);
  const uint8_t b = uint8_t(c);
  for (; n && (uintptr_t(d) & 3); --n) *d++ = b;
  auto* dw = reinterpret_cast<word*>(d);
  const uint32_t w = 0x01010101u * b;
  for (; n >= 16; n -= 16, dw += 4) {
    dw[0] = w; dw[1] = w; dw[2] = w; dw[3] = w;
  }
  for (; n >= 4; n -= 4) *dw++ = w;
  d = reinterpret_cast<uint8_t*>(dw);
  while (n--) *d++ = b;
  return dst;
}

// The run-time ABI's names (argument order as the ABI has it: memset's value last).
void __aeabi_memcpy(void* d, const void* s, size_t n) { memcpy(d, s, n); }
void __aeabi_memcpy4(void* d, const void* s, size_t n) { memcpy(d, s, n); }
void __aeabi_memcpy8(void* d, const void* s, size_t n) { memcpy(d, s, n); }
void __aeabi_memmove(void* d, const void* s, size_t n) { memmove(d, s, n); }
void __aeabi_memmove4(void* d, const void* s, size_t n) { memmove(d, s, n); }
void __aeabi_memmove8(void* d, const void* s, size_t n) { memmove(d, s, n); }
void __aeabi_memset(void* d, size_t n, int c) { memset(d, c, n); }
void __aeabi_memset4(void* d, size_t n, int c) { memset(d, c, n); }
void __aeabi_memset8(void* d, size_t n, int c) { memset(d, c, n); }
void __aeabi_memclr(void* d, size_t n) { memset(d, 0, n); }
void __aeabi_memclr4(void* d, size_t n) { memset(d, 0, n); }
void __aeabi_memclr8(void* d, size_t n) { memset(d, 0, n); }

}  // extern "C"
