// Allocation-free field parsing for the trace readers. Hand-written instead of
// strtoull/sscanf/iostream because the readers must run at millions of lines/s and
// must reject (not silently accept) trailing junk such as "12ab".
#pragma once
#include <cstdint>
#include <string_view>

namespace ufs::text {

inline bool is_space(char c) { return c == ' ' || c == '\t'; }

// Next whitespace-separated token; advances `rest` past it. Empty at end of line.
inline std::string_view next_token(std::string_view& rest) {
  size_t i = 0;
  while (i < rest.size() && is_space(rest[i])) ++i;
  size_t j = i;
  while (j < rest.size() && !is_space(rest[j])) ++j;
  std::string_view token = rest.substr(i, j - i);
  rest.remove_prefix(j);
  return token;
}

// Next field up to `delim` (the delimiter is consumed). `found` is false when the
// line had no more fields.
inline std::string_view next_field(std::string_view& rest, char delim, bool& found) {
  size_t pos = rest.find(delim);
  std::string_view field;
  if (pos == std::string_view::npos) {
    field = rest;
    rest = std::string_view();
    found = false;
  } else {
    field = rest.substr(0, pos);
    rest.remove_prefix(pos + 1);
    found = true;
  }
  return field;
}

std::string_view trim(std::string_view s);

// Unsigned decimal integer, digits only; false on empty, junk or overflow.
inline bool parse_u64(std::string_view s, uint64_t& out) {
  if (s.empty() || s.size() > 20) return false;
  uint64_t v = 0;
  for (char c : s) {
    unsigned d = static_cast<unsigned char>(c) - '0';
    if (d > 9) return false;
    if (__builtin_mul_overflow(v, 10u, &v) || __builtin_add_overflow(v, d, &v)) return false;
  }
  out = v;
  return true;
}

// Decimal "[-]123.456" (or with an exponent, "1.5e-3") as an integer count of
// 10^-frac_digits units, exactly for plain decimals (extra fraction digits are
// truncated). Keeps picosecond timestamps exact where a double would round.
bool parse_fixed_point(std::string_view s, unsigned frac_digits, int64_t& out);
// The same with 128 bits: absolute timestamps in picoseconds (a phone up for 107 days has
// passed 2^63 ps); readers subtract the first timestamp before narrowing to 64 bits.
bool parse_fixed_point(std::string_view s, unsigned frac_digits, __int128& out);

// Case-insensitive ASCII comparison.
bool iequals(std::string_view a, std::string_view b);

}  // namespace ufs::text
