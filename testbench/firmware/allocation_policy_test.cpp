// Allocation pools and stripe orders (firmware/ftl/allocation_policy), without the kernel.
#include <catch2/catch.hpp>
#include "ftl/allocation_policy.h"

using namespace ufs;

namespace {
FlashGeometry two_by_two() {
  FlashGeometry g;
  g.channels = 2; g.ways_per_channel = 1; g.dies_per_way = 2; g.planes_per_die = 2;
  return g;  // dies 0, 1 on channel 0; dies 2, 3 on channel 1
}
}  // namespace

TEST_CASE("Stripe orders: channel-first, die-first and plane-first pool sequences", "[firmware][alloc]") {
  const FlashGeometry g = two_by_two();
  AllocationPolicy::Order o;
  REQUIRE(AllocationPolicy::parse_order("channel-first", o));
  AllocationPolicy channel(g, o, false);
  REQUIRE(channel.pools() == 4);
  CHECK(std::vector<uint32_t>{channel.die(0), channel.die(1), channel.die(2), channel.die(3)} ==
        std::vector<uint32_t>{0, 2, 1, 3});
  CHECK(channel.plane(0) == AllocationPolicy::kAnyPlane);
  REQUIRE(AllocationPolicy::parse_order("die-first", o));
  AllocationPolicy die(g, o, false);
  CHECK(std::vector<uint32_t>{die.die(0), die.die(1), die.die(2), die.die(3)} == std::vector<uint32_t>{0, 1, 2, 3});
  REQUIRE(AllocationPolicy::parse_order("plane-first", o));
  AllocationPolicy plane(g, o, true);
  REQUIRE(plane.pools() == 8);
  CHECK(plane.per_plane());
  CHECK(plane.die(0) == 0); CHECK(plane.plane(0) == 0);
  CHECK(plane.die(1) == 0); CHECK(plane.plane(1) == 1);
  CHECK(plane.die(2) == 2); CHECK(plane.plane(2) == 0);
  CHECK(plane.static_mapping());
  CHECK(plane.pool_of(13) == 5);
  CHECK_FALSE(AllocationPolicy::parse_order("diagonal", o));
}
