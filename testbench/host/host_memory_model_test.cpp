// HostMemoryModel: lmkd kills the least recently used background app under
// pressure; the HPBvalve regulator spares recently used apps by shrinking HPB.
#include <catch2/catch.hpp>

#include "host/host_memory_model.h"

using ufs::HostMemoryModel;
using ufs::HostMemoryParams;

namespace {
constexpr uint64_t kMiB = 1024 * 1024;
constexpr uint64_t kSecond = 1'000'000'000'000ull;

HostMemoryParams small_phone() {
  HostMemoryParams p;
  p.total_mib = 4096;
  p.reserved_mib = 1024;
  p.lmk_minfree_mib = 256;
  p.cold_launch_ms = 300;
  p.regulator_recent_ms = 60'000;
  p.regulator_cost_us = 1800;
  return p;
}
}  // namespace

TEST_CASE("host memory: cold and warm launches", "[host_memory]") {
  HostMemoryModel m(small_phone());
  const uint32_t a = m.add_app("game", 1000);
  CHECK(m.free_bytes() == (4096 - 1024) * kMiB);
  CHECK(m.bring_to_foreground(a, 0) == 300'000'000'000ull);  // first start is cold
  CHECK(m.free_bytes() == (4096 - 1024 - 1000) * kMiB);
  CHECK(m.bring_to_foreground(a, kSecond) == 0);              // still alive: warm
  CHECK(m.stats().launches == 2);
  CHECK(m.stats().cold_launches == 1);
}

TEST_CASE("host memory: lmkd kills the least recently used background app", "[host_memory]") {
  HostMemoryModel m(small_phone());
  const uint32_t a = m.add_app("a", 1000), b = m.add_app("b", 1000), c = m.add_app("c", 1000);
  m.bring_to_foreground(a, 0 * kSecond);
  m.bring_to_foreground(b, 1 * kSecond);
  CHECK(m.stats().kills == 0);  // 1024 + 2000 used of 4096: 1072 MiB free
  m.bring_to_foreground(c, 2 * kSecond);  // 48 MiB free < 256: the oldest background app goes
  CHECK_FALSE(m.alive(a));
  CHECK(m.alive(b));
  CHECK(m.alive(c));
  CHECK(m.stats().kills == 1);
  CHECK(m.bring_to_foreground(a, 3 * kSecond) > 0);  // killed: cold again, and b (now oldest) goes
  CHECK_FALSE(m.alive(b));
  CHECK(m.kills_of(a) == 1);
  CHECK(m.kills_of(b) == 1);
}

TEST_CASE("host memory: HPB memory adds pressure, without the regulator apps die for it", "[host_memory]") {
  HostMemoryModel m(small_phone());
  const uint32_t a = m.add_app("a", 1000), b = m.add_app("b", 1000);
  uint64_t asked = 0;
  m.set_hpb_shrink([&](uint64_t want) { asked += want; return want; });
  m.bring_to_foreground(a, 0);
  m.bring_to_foreground(b, kSecond);
  m.set_hpb_bytes(1000 * kMiB, 2 * kSecond);  // 72 MiB free: lmkd kills a, HPB keeps its memory
  CHECK_FALSE(m.alive(a));
  CHECK(m.hpb_bytes() == 1000 * kMiB);
  CHECK(asked == 0);
  CHECK(m.stats().kills_avoided == 0);
}

TEST_CASE("host memory: the regulator shrinks HPB to spare a recently used app", "[host_memory]") {
  HostMemoryParams p = small_phone();
  p.hpb_regulator = true;
  HostMemoryModel m(p);
  const uint32_t a = m.add_app("a", 1000), b = m.add_app("b", 1000);
  uint64_t asked = 0;
  m.set_hpb_shrink([&](uint64_t want) { asked += want; return want; });
  m.bring_to_foreground(a, 0);
  m.bring_to_foreground(b, kSecond);
  m.set_hpb_bytes(1000 * kMiB, 2 * kSecond);  // a used 2 s ago: HPB gives back the shortfall instead
  CHECK(m.alive(a));
  CHECK(m.stats().kills_avoided == 1);
  CHECK(asked == (256 - 72) * kMiB);
  CHECK(m.hpb_bytes() == (1000 - 184) * kMiB);
  CHECK(m.free_bytes() == 256 * kMiB);
  CHECK(m.stats().regulator_time_ps == 1'800'000'000ull);
  CHECK(m.hpb_headroom_bytes() == m.hpb_bytes());
}

TEST_CASE("host memory: a victim not used recently is killed even with the regulator", "[host_memory]") {
  HostMemoryParams p = small_phone();
  p.hpb_regulator = true;
  HostMemoryModel m(p);
  const uint32_t a = m.add_app("a", 1000), b = m.add_app("b", 1000);
  uint64_t asked = 0;
  m.set_hpb_shrink([&](uint64_t want) { asked += want; return want; });
  m.bring_to_foreground(a, 0);
  m.bring_to_foreground(b, 100 * kSecond);
  m.set_hpb_bytes(1000 * kMiB, 200 * kSecond);  // a last used 200 s ago: not important
  CHECK_FALSE(m.alive(a));
  CHECK(asked == 0);
  CHECK(m.hpb_bytes() == 1000 * kMiB);
}

TEST_CASE("host memory: an HPB that cannot give enough back does not save the app", "[host_memory]") {
  HostMemoryParams p = small_phone();
  p.hpb_regulator = true;
  HostMemoryModel m(p);
  const uint32_t a = m.add_app("a", 1000), b = m.add_app("b", 1000);
  m.set_hpb_shrink([](uint64_t want) { return want / 4; });  // pinned entries: only a quarter is freed
  m.bring_to_foreground(a, 0);
  m.bring_to_foreground(b, kSecond);
  m.set_hpb_bytes(100 * kMiB, 2 * kSecond);
  m.bring_to_foreground(m.add_app("c", 900), 3 * kSecond);
  CHECK_FALSE(m.alive(a));  // HPB shrank to what it could, then lmkd still killed a
  CHECK(m.alive(b));
  CHECK(m.stats().kills == 1);
  CHECK(m.stats().hpb_bytes_reclaimed > 0);
}

TEST_CASE("host memory: bad parameters name the key", "[host_memory]") {
  HostMemoryParams p = small_phone();
  p.reserved_mib = 4000;
  CHECK_THROWS_WITH(HostMemoryModel(p), Catch::Contains("host_memory.reserved_mib"));
  p = small_phone();
  p.total_mib = 0;
  CHECK_THROWS_WITH(HostMemoryModel(p), Catch::Contains("total_mib"));
}
