// Value parsing shared by the synthetic workload spec and the trace options:
// fio-style sizes ("4k", "8g", binary units) and durations ("2s", "10ms").
// Errors name the key and the text: "bs: '4q' is not a size".
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace ufs {

constexpr uint64_t kLogicalBlockBytes = 4096;
constexpr uint64_t kPsPerUs = 1000000ULL;
constexpr uint64_t kPsPerMs = 1000000000ULL;
constexpr uint64_t kPsPerSecond = 1000000000000ULL;
// The longest simulated time anything may reach: 100 days. The kernel counts 64-bit
// picoseconds (213 days); a run, a duration or an arrival beyond this is refused instead
// of saturating into nonsense results.
constexpr uint64_t kMaxSimulatedPs = 100ULL * 86400ULL * kPsPerSecond;

// Bytes; suffixes k/m/g/t/p (optionally followed by "b" or "ib", any case) are
// powers of 1024 as in fio. Fractions are allowed if the result is whole bytes.
uint64_t parse_size(std::string_view key, std::string_view text);
// Picoseconds; units ps/ns/us/ms/s/m/h, a bare number is in `default_unit_ps`.
uint64_t parse_duration_ps(std::string_view key, std::string_view text, uint64_t default_unit_ps);
uint64_t parse_count(std::string_view key, std::string_view text);
double parse_number(std::string_view key, std::string_view text);
bool parse_flag(std::string_view key, std::string_view text);

// "512 GiB", "4 KiB", "1.5 GiB", "512 B": for messages and reports.
std::string format_bytes(uint64_t bytes);
// "1.250 s", "3.000 ms", "12.000 us".
std::string format_duration_ps(uint64_t ps);

}  // namespace ufs
