#include "text_scan.h"

#include <cmath>
#include <cstdlib>
#include <string>

namespace ufs::text {

std::string_view trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && (is_space(s[b]) || s[b] == '\r' || s[b] == '\n')) ++b;
  while (e > b && (is_space(s[e - 1]) || s[e - 1] == '\r' || s[e - 1] == '\n')) --e;
  return s.substr(b, e - b);
}

namespace {

// Rare path: exponent notation goes through strtod (rounded, not exact).
template <class Int>
bool parse_with_strtod(std::string_view s, unsigned frac_digits, Int& out) {
  std::string copy(s);
  char* end = nullptr;
  const long double v = std::strtold(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || !std::isfinite(v)) return false;
  const long double scaled = v * std::pow(10.0L, static_cast<long double>(frac_digits));
  const long double limit = sizeof(Int) == 8 ? 9.2e18L : 1.7e38L;
  if (std::fabs(scaled) >= limit) return false;
  out = static_cast<Int>(std::llround(scaled));
  if (std::fabs(scaled) >= 9.2e18L) out = static_cast<Int>(scaled);  // beyond llround's range: truncated
  return true;
}

template <class Int>
bool parse_fixed(std::string_view s, unsigned frac_digits, Int& out) {
  bool negative = false;
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) {
    negative = s[i] == '-';
    ++i;
  }
  Int v = 0;
  size_t int_digits = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++int_digits)
    if (__builtin_mul_overflow(v, Int{10}, &v) || __builtin_add_overflow(v, Int{s[i] - '0'}, &v)) return false;
  unsigned frac_used = 0;
  size_t frac_seen = 0;
  if (i < s.size() && s[i] == '.') {
    for (++i; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++frac_seen) {
      if (frac_used < frac_digits) {
        if (__builtin_mul_overflow(v, Int{10}, &v) || __builtin_add_overflow(v, Int{s[i] - '0'}, &v)) return false;
        ++frac_used;
      }
    }
  }
  if (int_digits + frac_seen == 0) return false;
  if (i < s.size()) {
    if (s[i] == 'e' || s[i] == 'E') return parse_with_strtod(s, frac_digits, out);
    return false;
  }
  for (; frac_used < frac_digits; ++frac_used)
    if (__builtin_mul_overflow(v, Int{10}, &v)) return false;
  out = negative ? -v : v;
  return true;
}

}  // namespace

bool parse_fixed_point(std::string_view s, unsigned frac_digits, int64_t& out) { return parse_fixed(s, frac_digits, out); }
bool parse_fixed_point(std::string_view s, unsigned frac_digits, __int128& out) { return parse_fixed(s, frac_digits, out); }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

}  // namespace ufs::text
