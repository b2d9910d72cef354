// Allocation pools and the registered stripe orders (firmware/ftl/allocation_policy), each alone.
#include <catch2/catch.hpp>
#include "firmware_params.h"
#include "ftl/allocation_policy.h"

using namespace ufs;

namespace {
FlashGeometry two_by_two() {
  FlashGeometry g;
  g.channels = 2; g.ways_per_channel = 1; g.dies_per_way = 2; g.planes_per_die = 2;
  return g;  // dies 0, 1 on channel 0; dies 2, 3 on channel 1
}
std::vector<uint32_t> dies_of(const AllocationPolicy& a) {
  std::vector<uint32_t> out;
  for (uint32_t p = 0; p < a.pools(); ++p) out.push_back(a.die(p));
  return out;
}
}  // namespace

TEST_CASE("Stripe order channel-first: one die of each channel in turn, any plane", "[firmware][alloc]") {
  const AllocationPolicy channel(two_by_two(), "channel-first", false);
  CHECK(dies_of(channel) == std::vector<uint32_t>{0, 2, 1, 3});
  CHECK(channel.plane(0) == AllocationPolicy::kAnyPlane);
  CHECK_FALSE(channel.per_plane());
  CHECK_FALSE(channel.static_mapping());
}

TEST_CASE("Stripe order die-first: the dies of one channel, then the next channel", "[firmware][alloc]") {
  const AllocationPolicy die(two_by_two(), "die-first", false);
  CHECK(dies_of(die) == std::vector<uint32_t>{0, 1, 2, 3});
  CHECK(die.plane(3) == AllocationPolicy::kAnyPlane);
  CHECK_FALSE(die.per_plane());
}

TEST_CASE("Stripe order plane-first: each plane a pool, dies channel-first", "[firmware][alloc]") {
  const AllocationPolicy plane(two_by_two(), "plane-first", true);
  REQUIRE(plane.pools() == 8);
  CHECK(plane.per_plane());
  CHECK(dies_of(plane) == std::vector<uint32_t>{0, 0, 2, 2, 1, 1, 3, 3});
  CHECK(plane.plane(0) == 0);
  CHECK(plane.plane(1) == 1);
  CHECK(plane.plane(2) == 0);
  CHECK(plane.static_mapping());
  CHECK(plane.pool_of(13) == 5);  // static mapping: logical page modulo pools
  // One plane per die: still a pool per plane (an open block per plane slot).
  FlashGeometry g = two_by_two();
  g.planes_per_die = 1;
  const AllocationPolicy single(g, "plane-first", false);
  CHECK(single.pools() == 4);
  CHECK(single.per_plane());
}

TEST_CASE("Stripe orders: the registry lists them, other names are refused naming the key", "[firmware][alloc]") {
  CHECK(stripe_order_names() == "channel-first | die-first | plane-first");
  CHECK(is_stripe_order("die-first"));
  CHECK_FALSE(is_stripe_order("diagonal"));
  CHECK(make_stripe_order("diagonal") == nullptr);
  const AllocationPolicy fallback(two_by_two(), "diagonal", false);  // past validate() only by mistake: die-first
  const AllocationPolicy die_first(two_by_two(), "die-first", false);
  REQUIRE(fallback.pools() == die_first.pools());
  for (uint32_t i = 0; i < die_first.pools(); ++i) CHECK(fallback.die(i) == die_first.die(i));
  FirmwareParams p;
  p.stripe_order = "diagonal";
  const std::string e = p.validate();
  CHECK(e.find("stripe_order: must be one of channel-first | die-first | plane-first") == 0);
  CHECK(e.find('\n') == std::string::npos);
}
