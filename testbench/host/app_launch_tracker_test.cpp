// AppLaunchTracker: the host memory model bound to workload streams (no kernel):
// foreground switches, launch time, background and system streams, HPB memory.
#include <catch2/catch.hpp>
#include "host/app_launch_tracker.h"
#include "host/hpb_host_cache.h"
#include "host/hpb_valve_policy.h"
#include "hpb_cache_test_util.h"

using namespace ufs;

namespace {
constexpr uint64_t kMs = 1'000'000'000ull;
// Streams: 0 "game", 1 "chat", 2 "game-bg", 3 "kworker".
std::string name_of(uint32_t s) {
  static const char* const names[] = {"game", "chat", "game-bg", "kworker"};
  return s < 4 ? names[s] : "";
}
HostMemoryParams phone(uint64_t total_mib) {
  HostMemoryParams p;
  p.enabled = true;
  p.apps = "game=1000,chat=500";
  p.total_mib = total_mib;
  p.reserved_mib = 1000;
  p.lmk_minfree_mib = 100;
  p.cold_launch_ms = 200;
  p.launch_reads = 2;
  return p;
}
// One read of `stream` issued at t and completing `latency_ms` later.
void read(AppLaunchTracker& t, uint32_t stream, uint64_t at_ms, uint64_t latency_ms, bool hpb = false) {
  IoRecord r;
  r.request = BlockRequest{BlockOp::Read, 0, 1};
  r.request.stream = stream;
  r.arrival_ps = at_ms * kMs;
  r.complete_ps = (at_ms + latency_ms) * kMs;
  t.on_issue(r.request, r.arrival_ps);
  t.on_complete(r, hpb, r.complete_ps);
}
}  // namespace

TEST_CASE("app launches: time = cold start + the launch reads' latencies", "[host][apps]") {
  AppLaunchTracker t(phone(8000), name_of, nullptr, false, false);
  read(t, 0, 0, 3);     // game starts cold: launch read 1
  read(t, 0, 10, 5, true);  // launch read 2: the launch is complete
  read(t, 0, 20, 50);   // after the launch: not counted
  read(t, 1, 100, 1);   // chat: cold
  read(t, 1, 110, 1);
  read(t, 0, 200, 4);   // game again: warm (alive)
  read(t, 0, 210, 6);
  t.finish();
  const auto& a = t.apps();
  REQUIRE(a.size() == 2);
  CHECK(a[0].launches == 2);
  CHECK(a[0].cold_launches == 1);
  CHECK(a[0].launch_ps == (200 + 3 + 5 + 4 + 6) * kMs);
  CHECK(a[0].launch_reads == 4);
  CHECK(a[0].hpb_reads == 1);
  CHECK(a[1].launch_ps == (200 + 1 + 1) * kMs);
  CHECK(t.memory().stats().kills == 0);
}

TEST_CASE("app launches: launch reads that waited for a map page load are counted", "[host][apps]") {
  AppLaunchTracker t(phone(8000), name_of, nullptr, false, false);
  t.set_map_probe([](uint8_t tag) { return tag == 7; });  // the device: tag 7 loaded a map page
  IoRecord r;
  r.request = BlockRequest{BlockOp::Read, 0, 1};
  for (uint8_t tag : {7, 3}) {
    r.tag = tag;
    t.on_issue(r.request, 0);
    t.on_complete(r, false, 0);
  }
  t.finish();
  CHECK(t.apps()[0].launch_reads == 2);
  CHECK(t.apps()[0].map_load_reads == 1);
}

TEST_CASE("app launches: background and system streams neither switch nor count", "[host][apps]") {
  AppLaunchTracker t(phone(8000), name_of, nullptr, false, false);
  read(t, 1, 0, 1);
  BlockRequest bg{BlockOp::Read, 0, 1};
  bg.stream = 2;  // game-bg
  const auto role = t.on_issue(bg, 5 * kMs);
  CHECK(role.known);
  CHECK_FALSE(role.foreground);
  CHECK(role.app == 0);
  read(t, 2, 5, 7);  // game-bg
  read(t, 3, 6, 7);  // kworker
  read(t, 1, 8, 2);  // chat's second launch read
  t.finish();
  CHECK(t.apps()[0].launches == 0);
  CHECK(t.apps()[1].launches == 1);
  CHECK(t.apps()[1].launch_ps == (200 + 1 + 2) * kMs);
  CHECK(t.memory().stats().launches == 1);
}

TEST_CASE("app launches: under memory pressure the unused app is killed and starts cold again", "[host][apps]") {
  // 1600 MiB phone: 1000 reserved + 100 minfree leave 500 MiB, one app at a time.
  AppLaunchTracker t(phone(1600), name_of, nullptr, false, false);
  read(t, 0, 0, 1);
  read(t, 0, 1, 1);
  read(t, 1, 100, 1);   // chat: lmkd kills game (the least recently used background app)
  read(t, 1, 101, 1);
  read(t, 0, 200, 1);   // game: cold again
  read(t, 0, 201, 1);
  t.finish();
  CHECK(t.apps()[0].kills >= 1);
  CHECK(t.apps()[0].cold_launches == 2);
}

TEST_CASE("app launches: the regulator takes HPBvalve's memory back instead of killing a recent app",
          "[host][apps][hpbvalve]") {
  // HPB cache of 64 one-sub-region regions of 1024 blocks (8 KiB of entries each).
  HpbHostParams hp;
  hp.budget_mib = 1;
  HpbHostCache cache(hp, test::one_subregion_regions(64, 64), std::make_unique<HpbValvePolicy>());
  // game 1000 + chat 500 + 1000 reserved + 100 minfree = 2600 MiB: exactly full without HPB.
  AppLaunchTracker t(phone(2600), name_of, &cache, false, true);
  read(t, 0, 0, 1);
  // game reads sub-regions 0..7 in the foreground: HPBvalve caches them at once (the READ
  // BUFFERs complete); only game is alive, so memory is not short yet.
  for (uint32_t s = 0; s < 8; ++s) {
    HostCommand cmd;
    uint64_t host_ns = 0;
    cache.prepare_read(uint64_t(s) * 1024, 1, cmd, (20 + s) * kMs, host_ns, 0, true);
    test::complete_read_buffers(cache, (20 + s) * kMs);
  }
  REQUIRE(cache.stats().peak_memory_bytes > 0);
  read(t, 0, 30, 1);  // the tracker sees the HPB memory
  read(t, 1, 40, 1);  // chat starts: memory is short; game (used 40 ms ago) is spared, HPB shrinks
  const auto& m = t.memory().stats();
  CHECK(m.kills == 0);
  CHECK(m.kills_avoided >= 1);
  CHECK(m.hpb_bytes_reclaimed > 0);
  CHECK(cache.stats().regulator_drops > 0);
  CHECK(t.apps()[0].kills == 0);
}
