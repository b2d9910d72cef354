// The per-tag command table alone on the fake platform: how commands end.
#include <catch2/catch.hpp>
#include "command/buffer_layout.h"
#include "command/command_table.h"
#include "fake_platform.h"

using namespace ufs;
using namespace ufs::test;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace command_table_test {

namespace {
struct Rig : ResponseHook, CommandEndListener {
  FlashGeometry geo;
  FakePlatform hw{geo, 16};
  PartEvents events;
  LatencySplit latency{256};
  CommandTable table{hw, 600, 500, latency};
  uint32_t hooked = 0, ended = 0;
  Rig() {
    hw.attach(&events);
    events.data_in = [this](uint8_t tag, uint64_t token) { if (token & kControlToken) table.control_data_sent(tag); };
    table.set_response_hook(this);
    table.set_end_listener(this);
  }
  void on_response(CommandResponse& r) override { ++hooked; r.hpb_entry_count = 1; }  // the hook may add to it
  void command_ended() override { ++ended; }
  HostCommand command(uint8_t tag, uint32_t expected) {
    HostCommand c;
    c.tag = tag;
    c.lun = 2;
    c.expected_length = expected;
    return c;
  }
};
}  // namespace

TEST_CASE("Command table: GOOD and CHECK CONDITION free the tag, pass the hook and end the command",
          "[firmware][command-table]") {
  Rig r;
  r.table.claim(5, CommandKind::Write, 2);
  r.latency.start(5, 0);
  CHECK(r.table.kind(5) == CommandKind::Write);
  CHECK(!r.table.all_idle());
  r.table.respond(5, 2);
  REQUIRE(r.hw.responses_.size() == 1);
  CHECK(r.hw.responses_[0].status == scsi_status::kGood);
  CHECK(r.hw.responses_[0].lun == 2);
  CHECK(r.hw.responses_[0].hpb_entry_count == 1);  // what the hook added went out
  CHECK(r.latency.writes().commands == 1);           // a write's time went into the split
  CHECK(r.hw.cycles_ == 600);
  CHECK(r.table.all_idle());
  r.table.claim(6, CommandKind::Read, 2);
  r.table.fail(r.command(6, 8192), sense_key::kIllegalRequest, asc::kLbaOutOfRange);
  const CommandResponse& f = r.hw.responses_.back();
  CHECK(f.status == scsi_status::kCheckCondition);
  CHECK(f.sense_key == sense_key::kIllegalRequest);
  CHECK(f.asc == asc::kLbaOutOfRange);
  CHECK(f.residual == 8192);
  CHECK(r.table.kind(6) == CommandKind::Idle);
  CHECK(r.latency.reads().commands == 0);  // a failed command's time is not a read's
  CHECK(r.hooked == 2);
  CHECK(r.ended == 2);
  CHECK(r.table.stats().check_conditions == 1);
}

TEST_CASE("Command table: an overlapped tag gets CHECK CONDITION and its command goes on", "[firmware][command-table]") {
  Rig r;
  r.table.claim(9, CommandKind::Read, 0);
  r.table.reject_overlap(r.command(9, 4096));
  CHECK(r.hw.responses_.back().asc == asc::kInvalidFieldInCdb);
  CHECK(r.table.kind(9) == CommandKind::Read);
  CHECK(r.hooked == 0);
  CHECK(r.ended == 1);
  CHECK(r.table.stats().check_conditions == 1);
}

TEST_CASE("Command table: control data goes by DATA IN, cut to the allocation length, then GOOD",
          "[firmware][command-table]") {
  Rig r;
  const uint8_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  r.hw.command(r.command(3, 4096));  // the fake host expects DATA IN for tag 3
  r.hw.run();
  r.table.send_control_data(r.command(3, 4096), data, sizeof data, 6);
  CHECK(r.table.kind(3) == CommandKind::Control);
  CHECK(r.hw.responses_.empty());
  r.hw.run();
  REQUIRE(r.hw.responses_.size() == 1);
  CHECK(r.hw.responses_[0].status == scsi_status::kGood);
  CHECK(r.hw.done_bytes_[3] == std::vector<uint8_t>({1, 2, 3, 4, 5, 6}));
  // Nothing to send: GOOD at once.
  r.table.send_control_data(r.command(4, 0), data, sizeof data, 8);
  CHECK(r.hw.responses_.size() == 2);
  CHECK(r.table.all_idle());
}

}  // namespace command_table_test
