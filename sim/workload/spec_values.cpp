#include "spec_values.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "text_scan.h"
#include "workload_error.h"

namespace ufs {

namespace {

[[noreturn]] void bad_value(std::string_view key, std::string_view text, const char* what) {
  throw WorkloadError(std::string(key) + ": '" + std::string(text) + "' is not " + what);
}

// Splits "12.5ms" into the number "12.5" and the unit "ms".
void split_number_unit(std::string_view text, std::string_view& number, std::string_view& unit) {
  size_t i = 0;
  while (i < text.size() && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.')) ++i;
  number = text.substr(0, i);
  unit = text.substr(i);
}

// number * multiplier, exact when `number` is a plain decimal; false if the
// result is not whole or overflows.
bool scale_decimal(std::string_view number, uint64_t multiplier, uint64_t& out) {
  int64_t fixed = 0;  // value * 10^6
  if (number.empty() || !text::parse_fixed_point(number, 6, fixed) || fixed < 0) return false;
  __uint128_t product = static_cast<__uint128_t>(fixed) * multiplier;
  if (product % 1000000 != 0) return false;
  product /= 1000000;
  if (product > UINT64_MAX) return false;
  out = static_cast<uint64_t>(product);
  return true;
}

}  // namespace

uint64_t parse_size(std::string_view key, std::string_view text) {
  std::string_view number, unit;
  split_number_unit(text, number, unit);
  uint64_t mult = 1;
  if (!unit.empty()) {
    char u = unit[0];
    if (u >= 'A' && u <= 'Z') u = static_cast<char>(u - 'A' + 'a');
    std::string_view rest = unit.substr(1);
    switch (u) {
      case 'k': mult = 1ULL << 10; break;
      case 'm': mult = 1ULL << 20; break;
      case 'g': mult = 1ULL << 30; break;
      case 't': mult = 1ULL << 40; break;
      case 'p': mult = 1ULL << 50; break;
      case 'b': mult = 1; break;
      default: bad_value(key, text, "a size");
    }
    if (u == 'b') {
      if (!rest.empty()) bad_value(key, text, "a size");
    } else if (!(rest.empty() || text::iequals(rest, "b") || text::iequals(rest, "ib"))) {
      bad_value(key, text, "a size");
    }
  }
  uint64_t bytes = 0;
  if (!scale_decimal(number, mult, bytes)) bad_value(key, text, "a size");
  return bytes;
}

uint64_t parse_duration_ps(std::string_view key, std::string_view text, uint64_t default_unit_ps) {
  std::string_view number, unit;
  split_number_unit(text, number, unit);
  // An exponent belongs to the number ("1e15", "2.5e-3ms"), not to the unit.
  if (!unit.empty() && (unit[0] == 'e' || unit[0] == 'E') && !number.empty()) {
    size_t i = 1;
    if (i < unit.size() && (unit[i] == '+' || unit[i] == '-')) ++i;
    const size_t digits = i;
    while (i < unit.size() && unit[i] >= '0' && unit[i] <= '9') ++i;
    if (i > digits) {
      number = text.substr(0, number.size() + i);
      unit = unit.substr(i);
    }
  }
  uint64_t mult = default_unit_ps;
  if (!unit.empty()) {
    if (unit == "ps") mult = 1;
    else if (unit == "ns") mult = 1000;
    else if (unit == "us") mult = kPsPerUs;
    else if (unit == "ms") mult = kPsPerMs;
    else if (unit == "s") mult = kPsPerSecond;
    else if (unit == "m" || unit == "min") mult = 60 * kPsPerSecond;
    else if (unit == "h") mult = 3600 * kPsPerSecond;
    else bad_value(key, text, "a duration (units ps, ns, us, ms, s, m, h)");
  }
  const std::string copy(number);
  char* end = nullptr;
  const long double approx = number.empty() ? -1.0L : std::strtold(copy.c_str(), &end);
  if (number.empty() || end != copy.c_str() + copy.size() || !(approx >= 0))
    bad_value(key, text, "a duration (units ps, ns, us, ms, s, m, h)");
  if (approx * static_cast<long double>(mult) > static_cast<long double>(kMaxSimulatedPs))
    bad_value(key, text, "a duration within 100 days (the longest simulated time)");
  uint64_t ps = 0;
  if (!scale_decimal(number, mult, ps)) {
    // Exponent forms and sub-picosecond fractions: rounded to the picosecond.
    const long double rounded = std::floor(approx * static_cast<long double>(mult) + 0.5L);
    if (number.find_first_of("eE") == std::string_view::npos && rounded != approx * static_cast<long double>(mult))
      bad_value(key, text, "a whole number of picoseconds");
    ps = static_cast<uint64_t>(rounded);
  }
  return ps;
}

uint64_t parse_count(std::string_view key, std::string_view text) {
  uint64_t v = 0;
  if (!text::parse_u64(text, v)) bad_value(key, text, "a whole number");
  return v;
}

double parse_number(std::string_view key, std::string_view text) {
  std::string copy(text);
  // Decimal only: strtod also takes hex floats ("0x10"), "inf" and leading blanks.
  if (copy.find_first_not_of("0123456789+-.eE") != std::string::npos) bad_value(key, text, "a number");
  char* end = nullptr;
  double v = std::strtod(copy.c_str(), &end);
  if (copy.empty() || end != copy.c_str() + copy.size() || !std::isfinite(v)) bad_value(key, text, "a number");
  return v;
}

bool parse_flag(std::string_view key, std::string_view text) {
  if (text == "1" || text == "true" || text == "yes" || text == "on") return true;
  if (text == "0" || text == "false" || text == "no" || text == "off") return false;
  bad_value(key, text, "0 or 1");
}

std::string format_bytes(uint64_t bytes) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int u = 0;
  uint64_t whole = bytes;
  while (u < 5 && whole >= 1024 && whole % 1024 == 0) {
    whole /= 1024;
    ++u;
  }
  if (whole < 1024 || u == 5) return std::to_string(whole) + " " + units[u];
  double v = static_cast<double>(bytes);
  u = 0;
  while (u < 5 && v >= 1024.0) {
    v /= 1024.0;
    ++u;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

std::string format_duration_ps(uint64_t ps) {
  char buf[64];
  double v = static_cast<double>(ps);
  if (ps >= kPsPerSecond) std::snprintf(buf, sizeof buf, "%.3f s", v / 1e12);
  else if (ps >= kPsPerMs) std::snprintf(buf, sizeof buf, "%.3f ms", v / 1e9);
  else if (ps >= kPsPerUs) std::snprintf(buf, sizeof buf, "%.3f us", v / 1e6);
  else std::snprintf(buf, sizeof buf, "%.3f ns", v / 1e3);
  return buf;
}

}  // namespace ufs
