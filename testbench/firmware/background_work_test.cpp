// Background work (idle/background_work) alone on the fake platform with stand-ins for the
// collector, the WriteBooster flush and the write path: idle time starts GC, then the flush,
// once each threshold passes after the last command; a command ends both; power-loss recovery
// pauses idle time and holds the flush, then hands the replayed map pages to the write path
// and every die to GC; end of life gives GC its last chance, then stops both and refuses the
// writes waiting; preconditioning holds both.
#include <catch2/catch.hpp>
#include <string>
#include <vector>
#include "idle/background_work.h"
#include "part_fixture.h"

using namespace ufs;
using namespace ufs::test;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace background_work_test {

namespace {
// A background writer that logs what it is told, "gc" or "flush" first.
struct Writer : BackgroundWriter {
  std::string name;
  uint64_t after_ps;
  std::vector<std::string>& log;
  bool held = false, stopped = false;
  Writer(std::string n, uint64_t after, std::vector<std::string>& l) : name(std::move(n)), after_ps(after), log(l) {}
  uint64_t idle_after_ps() const override { return after_ps; }
  void idle_began() override { log.push_back(name + " idle"); }
  void idle_ended() override { log.push_back(name + " busy"); }
  void hold(bool on) override { held = on; }
  void stop() override { stopped = true; }
};
struct Dies : FreeSpaceListener {
  std::vector<uint32_t> told;
  void free_space_changed(uint32_t die) override { told.push_back(die); }
};
struct Writes : PendingWrites {
  std::vector<uint8_t> written_back;
  uint32_t refused = 0;
  void write_back_map_pages(const std::vector<uint8_t>& replayed) override { written_back = replayed; }
  void refuse_undurable() override { ++refused; }
};

struct Rig {
  FakePlatform hw{part_geometry(), 16};
  PartEvents events;
  std::vector<std::string> log;
  Writer gc{"gc", 1'000'000, log};       // 1 us
  Writer flush{"flush", 3'000'000, log};  // 3 us
  Dies dies;
  Writes writes;
  BackgroundWork work;
  explicit Rig(bool with_flush = true)
      : work(hw, BackgroundWorkLinks{gc, dies, with_flush ? &flush : nullptr, writes, 4}) {
    hw.attach(&events);
    events.timer = [this](uint64_t cookie) { work.on_timer(cookie); };
  }
  // A command that starts and ends now.
  void command() {
    work.command_started();
    work.command_ended();
  }
};
}  // namespace

TEST_CASE("Background work: idle time starts GC, then the flush, at their thresholds, and a command ends both",
          "[firmware][background-work]") {
  Rig r;
  r.command();
  r.hw.run_until(2'000'000);
  CHECK(r.log == std::vector<std::string>{"gc busy", "flush busy", "gc idle"});
  r.hw.run();
  CHECK(r.log == std::vector<std::string>{"gc busy", "flush busy", "gc idle", "flush idle"});
  CHECK(r.hw.now_ps() == 3'000'000);
  r.log.clear();
  r.work.command_started();
  CHECK(r.log == std::vector<std::string>{"gc busy", "flush busy"});
  CHECK(r.work.idle().outstanding() == 1);
  r.hw.run();  // a command outstanding: no idle time
  CHECK(r.log.size() == 2);
}

TEST_CASE("Background work: recovery pauses idle time and holds the flush, then writes back the replayed map pages "
          "and asks GC about every die",
          "[firmware][background-work]") {
  Rig r;
  RecoveryListener& recovery = r.work;
  recovery.recovery_started();
  CHECK(r.flush.held);
  CHECK_FALSE(r.gc.held);
  r.command();
  r.hw.run();
  CHECK(r.log == std::vector<std::string>{"gc busy", "flush busy"});  // paused: nothing started
  CHECK(r.writes.written_back.empty());
  recovery.recovery_finished({0, 1, 1, 0});
  CHECK_FALSE(r.flush.held);
  CHECK(r.writes.written_back == std::vector<uint8_t>{0, 1, 1, 0});
  CHECK(r.dies.told == std::vector<uint32_t>{0, 1, 2, 3});
  r.command();  // idle time works again
  r.hw.run();
  CHECK(r.log.back() == "flush idle");
}

TEST_CASE("Background work: at end of life GC gets its last chance, then GC and the flush stop and waiting writes "
          "are refused",
          "[firmware][background-work]") {
  Rig r;
  WriteProtectHooks& hooks = r.work;
  hooks.reclaim_space();
  CHECK(r.dies.told == std::vector<uint32_t>{0, 1, 2, 3});
  CHECK_FALSE(r.gc.stopped);
  CHECK(r.writes.refused == 0);
  hooks.write_protect_entered();
  CHECK(r.gc.stopped);
  CHECK(r.flush.stopped);
  CHECK(r.writes.refused == 1);
}

TEST_CASE("Background work: preconditioning holds GC and the flush, without WriteBooster only GC",
          "[firmware][background-work]") {
  Rig r;
  r.work.hold(true);
  CHECK(r.gc.held);
  CHECK(r.flush.held);
  r.work.hold(false);
  CHECK_FALSE(r.gc.held);
  CHECK_FALSE(r.flush.held);

  Rig alone(false);
  alone.work.hold(true);
  CHECK(alone.gc.held);
  CHECK_FALSE(alone.flush.held);
  static_cast<WriteProtectHooks&>(alone.work).write_protect_entered();
  CHECK(alone.gc.stopped);
  CHECK_FALSE(alone.flush.stopped);
  alone.command();
  alone.hw.run();
  CHECK(alone.log == std::vector<std::string>{"gc busy", "gc idle"});  // the flush was never added
}

}  // namespace background_work_test
