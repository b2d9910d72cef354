// The hostile HPB host (testbench/firmware/hpb_hostile.h) against firmware.elf on the
// emulated core, cost measured from the executed instructions: the same mix and checks as
// the native tests. In the suite 100,000 HPB commands each (the core runs them about ten
// times slower than the native firmware); the million of issue 20's done-when on demand:
//   build/testbench/test_iss "[.iss-1m]"
#include <catch2/catch.hpp>
#include "iss_under_test.h"
#include "../firmware/hpb_hostile.h"

using namespace ufs;
using namespace ufs::test;
using namespace ufs::test::hostile;

TEST_CASE("ISS: a hostile host, forged, moved, stale, replayed and malformed HPB commands, 0 mismatches",
          "[iss][hpb][hostile]") {
  Hostile h(0, make_iss);
  run_million(h, 100'000);
}

TEST_CASE("ISS: a hostile host with updated entries in responses, stale entries of rewritten blocks caught",
          "[iss][hpb][hostile]") {
  Hostile h(4, make_iss);
  run_updated_entries(h, 100'000);
}

TEST_CASE("ISS: a hostile host, a million HPB commands, 0 mismatches", "[.iss-1m]") {
  Hostile h(0, make_iss);
  run_million(h);
}
