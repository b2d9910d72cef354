#include <catch2/catch.hpp>

#include "workload/spec_values.h"
#include "workload/text_scan.h"
#include "workload/workload_error.h"

using namespace ufs;

TEST_CASE("sizes use fio's binary suffixes", "[workload][spec]") {
  CHECK(parse_size("bs", "4k") == 4096);
  CHECK(parse_size("bs", "4K") == 4096);
  CHECK(parse_size("bs", "4KiB") == 4096);
  CHECK(parse_size("bs", "1m") == 1048576);
  CHECK(parse_size("size", "8g") == 8ULL << 30);
  CHECK(parse_size("size", "1.5g") == 3ULL << 29);
  CHECK(parse_size("size", "8192") == 8192);
  CHECK_THROWS_WITH(parse_size("bs", "4q"), "bs: '4q' is not a size");
  CHECK_THROWS_WITH(parse_size("bs", ""), "bs: '' is not a size");
  CHECK_THROWS_WITH(parse_size("bs", "k"), "bs: 'k' is not a size");
  CHECK_THROWS_AS(parse_size("bs", "0.3"), WorkloadError);  // not whole bytes
}

TEST_CASE("durations take units and a default unit", "[workload][spec]") {
  CHECK(parse_duration_ps("runtime", "2s", kPsPerSecond) == 2 * kPsPerSecond);
  CHECK(parse_duration_ps("runtime", "2", kPsPerSecond) == 2 * kPsPerSecond);
  CHECK(parse_duration_ps("thinktime", "10", kPsPerUs) == 10 * kPsPerUs);
  CHECK(parse_duration_ps("x", "10ms", 1) == 10 * kPsPerMs);
  CHECK(parse_duration_ps("x", "1.5us", 1) == 1500000);
  CHECK(parse_duration_ps("x", "3ns", 1) == 3000);
  CHECK(parse_duration_ps("x", "1m", 1) == 60 * kPsPerSecond);
  CHECK_THROWS_WITH(parse_duration_ps("runtime", "2 weeks", 1),
                    "runtime: '2 weeks' is not a duration (units ps, ns, us, ms, s, m, h)");
}

TEST_CASE("byte and time formatting for messages", "[workload][spec]") {
  CHECK(format_bytes(512ULL << 30) == "512 GiB");
  CHECK(format_bytes(4096) == "4 KiB");
  CHECK(format_bytes(100) == "100 B");
  CHECK(format_bytes(3ULL << 29) == "1.5 GiB");
  CHECK(format_duration_ps(2 * kPsPerSecond) == "2.000 s");
}

TEST_CASE("fixed-point parsing keeps picoseconds exact", "[workload][text]") {
  int64_t v = 0;
  REQUIRE(text::parse_fixed_point("159273.83748699998", 12, v));
  CHECK(v == 159273837486999980LL);
  REQUIRE(text::parse_fixed_point("5265.313", 9, v));
  CHECK(v == 5265313000000LL);
  REQUIRE(text::parse_fixed_point("7", 3, v));
  CHECK(v == 7000);
  REQUIRE(text::parse_fixed_point("1.5e-3", 6, v));
  CHECK(v == 1500);
  CHECK_FALSE(text::parse_fixed_point("12a", 3, v));
  CHECK_FALSE(text::parse_fixed_point("", 3, v));
  CHECK_FALSE(text::parse_fixed_point(".", 3, v));
  uint64_t u = 0;
  CHECK(text::parse_u64("18446744073709551615", u));
  CHECK_FALSE(text::parse_u64("18446744073709551616", u));
  CHECK_FALSE(text::parse_u64("-1", u));
}
