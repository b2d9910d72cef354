// HpbValveLaunchProfile: per-app launch sub-regions, first-read order, bounded bytes.
#include <catch2/catch.hpp>

#include "host/hpbvalve_launch_profile.h"

TEST_CASE("HPBvalve launch profile: order, dedup and the 1 MB bound", "[hpbvalve]") {
  // 4096 entries * 8 bytes = 32 KiB per sub-region: 1 MiB holds 32 of them.
  ufs::HpbValveLaunchProfile p(1024 * 1024, 4096 * 8);
  CHECK(p.prefetch("cam").empty());
  for (uint32_t s = 100; s < 140; ++s) p.record("cam", s);
  CHECK(p.record("cam", 100));  // already there
  CHECK_FALSE(p.record("cam", 500));
  CHECK(p.prefetch("cam").size() == 32);
  CHECK(p.prefetch("cam").front() == 100);
  CHECK(p.prefetch("cam").back() == 131);
  CHECK(p.bytes("cam") == 1024 * 1024);
  CHECK(p.record("maps", 7));  // apps have their own budgets
  CHECK(p.prefetch("maps").size() == 1);
}
