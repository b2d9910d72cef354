// End-of-life write protection alone on the fake platform: when it turns the device
// read-only, and how it refuses.
#include <catch2/catch.hpp>
#include "part_fixture.h"
#include "protect/write_protection.h"

using namespace ufs;
using namespace ufs::test;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace write_protection_test {

namespace {
struct Rig : PartFixture, WriteProtectHooks, FlashClient {
  LatencySplit latency{256};
  CommandTable table{hw, 600, 500, latency};
  WriteProtection protection{table, flash, *this};
  uint32_t client = flash.attach(*this);
  uint32_t reclaims = 0, entered = 0, completions = 0;
  bool gc_finds_victim = false;  // reclaim_space() puts a GC read on the flash
  bool on_when_told = false;

  void reclaim_space() override {
    ++reclaims;
    if (gc_finds_victim) flash.read(client, 0, blocks.layout().address_of(1, 0), 0, 1, 0);
  }
  void write_protect_entered() override {
    ++entered;
    on_when_told = protection.on();
  }
  void on_flash_done(uint64_t, const FlashCompletion&) override { ++completions; }

  static HostCommand command(uint8_t tag, uint8_t lun) {
    HostCommand c;
    c.tag = tag;
    c.lun = lun;
    return c;
  }
};
}  // namespace

TEST_CASE("Write protection: read-only only when GC's last chance puts nothing on the flash",
          "[firmware][write-protection]") {
  Rig r;
  CHECK_FALSE(r.protection.on());
  CHECK(r.protection.may_be_stuck());
  // Something on the flash: a later completion may still free a block.
  r.flash.read(r.client, 0, r.blocks.layout().address_of(2, 0), 0, 1, 0);
  CHECK_FALSE(r.protection.may_be_stuck());
  r.hw.run();
  CHECK(r.protection.may_be_stuck());
  // GC still finds a victim: the device waits for it.
  r.gc_finds_victim = true;
  r.protection.out_of_space();
  CHECK(r.reclaims == 1);
  CHECK(r.flash.in_flight() == 1);
  CHECK_FALSE(r.protection.on());
  CHECK(r.entered == 0);
  r.hw.run();
  // Nothing left to clean: read-only for good, and the rest of the firmware is told once.
  r.gc_finds_victim = false;
  r.protection.out_of_space();
  CHECK(r.reclaims == 2);
  CHECK(r.protection.on());
  CHECK(r.entered == 1);
  CHECK(r.on_when_told);  // commands refused from within the hook are counted as refused
  CHECK_FALSE(r.protection.may_be_stuck());
  CHECK(r.hw.responses_.empty());
}

TEST_CASE("Write protection: writes, UNMAPs and syncs get DATA PROTECT once read-only, counted",
          "[firmware][write-protection]") {
  Rig r;
  CHECK_FALSE(r.protection.refuses(Rig::command(3, 1)));  // not read-only: goes on
  CHECK(r.hw.responses_.empty());
  r.protection.out_of_space();
  REQUIRE(r.protection.on());
  r.table.claim(3, CommandKind::Write, 1);
  r.hw.command(Rig::command(3, 1));
  r.hw.run();
  CHECK(r.protection.refuses(Rig::command(3, 1)));
  REQUIRE(r.hw.responses_.size() == 1);
  const CommandResponse& f = r.hw.responses_.back();
  CHECK(f.tag == 3);
  CHECK(f.lun == 1);
  CHECK(f.status == scsi_status::kCheckCondition);
  CHECK(f.sense_key == sense_key::kDataProtect);
  CHECK(f.asc == asc::kWriteProtected);
  CHECK(r.table.kind(3) == CommandKind::Idle);
  // A command in progress, by its tag: its LUN from the table; a free tag: nothing to refuse.
  r.table.claim(9, CommandKind::Sync, 2);
  r.hw.command(Rig::command(9, 2));
  r.hw.run();
  r.protection.refuse(9);
  r.protection.refuse(10);
  REQUIRE(r.hw.responses_.size() == 2);
  CHECK(r.hw.responses_.back().tag == 9);
  CHECK(r.hw.responses_.back().lun == 2);
  CHECK(r.hw.responses_.back().sense_key == sense_key::kDataProtect);
  CHECK(r.protection.rejects() == 2);
  CHECK(fw_count(r.protection, "ftl.write_protect_rejects") == 2);
  CHECK(r.hw.protocol_violations_ == 0);
}

}  // namespace write_protection_test
