// The write path as one sub-root (write/write_path) alone on the fake platform: host writes
// through its write engine, cache and placement reach NAND; its parts attach to the flash
// port in trace-cookie order; as the collector's GcEraseListener it lets units waiting for a
// die go again; preconditioning fills through the backdoor.
#include <catch2/catch.hpp>
#include <set>
#include <vector>
#include "command/read_engine.h"
#include "part_fixture.h"
#include "write/write_path.h"

using namespace ufs;
using namespace ufs::test;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace write_path_test {

namespace {
// Two dies of one plane, 8 blocks of 4 pages of 4 sectors; program units of one page.
bool configure(FirmwareParams& p) {
  p.program_pages = 1;
  p.map_cache = false;        // the whole map in SRAM
  p.data_buffer_kib = 256;    // 64 slots: 48 for reads,
  p.write_cache_kib = 64;     // 16 for the write cache (four units of 4 sectors)
  p.read_segment_blocks = 16;
  return true;
}

// The collector's side: units' events, free space, victims, and its pace for host units.
struct Collector : GcUnitEvents, VictimMoveListener, FreeSpaceListener, HostWriteGate {
  bool pace = true;  // host units may go to a die
  void moved(uint64_t, uint32_t, uint32_t) override {}
  void unit_programmed(uint32_t, bool) override {}
  void units_freed() override {}
  void moves_may_be_done(uint32_t) override {}
  void free_space_changed(uint32_t) override {}
  bool host_may_place(uint32_t, bool) override { return pace; }
  bool may_open_block(uint32_t, bool) override { return true; }
};
struct NoMisses : MapLookups {
  uint32_t wait_for_lookups(uint64_t, uint32_t, MapWaiter&, uint32_t) override { return 0; }
};
struct NoHooks : WriteProtectHooks {
  void reclaim_space() override {}
  void write_protect_entered() override {}
};
// The fake platform's events, noting which flash client each completion goes back to.
struct ClientLog : PartEvents {
  std::set<uint64_t> clients;
  void on_flash_complete(const FlashCompletion& c) override {
    clients.insert(c.cookie >> 56);
    PartEvents::on_flash_complete(c);
  }
};

std::vector<SectorStamp> stamps_for(uint64_t lba, uint32_t n, uint64_t version) {
  std::vector<SectorStamp> v;
  for (uint32_t i = 0; i < n; ++i) v.push_back(SectorStamp{lba + i, version});
  return v;
}

struct Rig : PartFixture {
  bool configured;  // the parameters, before the parts below read them
  ClientLog log;
  LatencySplit latency{256};
  CommandTable table{hw, 600, 500, latency};
  L2pMap map{512};
  MapStore store;  // flash client 0, as in the device
  Collector gc;
  NoHooks hooks;
  WriteProtection protection{table, flash, hooks};
  WritePath path;  // clients 1 (write cache), 2 (page fill), 3 (map writer)
  NoMisses lookups;
  ReadEngine reads;  // client 4
  std::vector<CommandResponse> answered;

  Rig()
      : PartFixture(part_geometry(2, 8, 4)),
        configured(configure(params)),
        store(hw, params, geo, map, blocks.layout(), flash),
        path(hw, params, geo, 512, 48, WritePathLinks{blocks, map, store, flash, table, latency, protection, gc, gc}),
        reads(hw, params, 48, table, latency, map, blocks.layout(), flash, lookups) {
    log.port = &flash;
    hw.attach(&log);
    path.set_gc(gc, gc);
    path.writes().set_reads(&reads);
    reads.set_next_waiters(&path.writes());
    log.command = [this](const HostCommand& c) {
      const ScsiCommand s = decode_cdb(c.cdb);
      if (s.op == ScsiOp::Write) path.writes().start_write(c, s);
      else if (s.op == ScsiOp::Read) reads.start(c, s.lba, s.blocks, false);
      else if (s.op == ScsiOp::SynchronizeCache) path.writes().start_sync(c);
    };
    log.data_out = [this](uint8_t tag, uint64_t token) { path.writes().data_out_done(tag, token); };
    log.data_in = [this](uint8_t tag, uint64_t token) { reads.data_in_done(tag, token); };
    hw.on_response = [this](const CommandResponse& r) { answered.push_back(r); };
  }
  bool answered_good(uint8_t tag) const {
    for (const auto& r : answered) if (r.tag == tag) return r.status == scsi_status::kGood;
    return false;
  }
  std::vector<SectorStamp> read_back(uint8_t tag, uint64_t lba, uint32_t n) {
    hw.command(make_rw(tag, false, lba, n));
    hw.run();
    return std::vector<SectorStamp>(hw.host_in_[tag].begin(), hw.host_in_[tag].begin() + n);
  }
};
HostCommand make_sync(uint8_t tag) {
  HostCommand c;
  c.tag = tag;
  c.cdb[0] = 0x35;  // SYNCHRONIZE CACHE (10), the whole device
  return c;
}
}  // namespace

TEST_CASE("Write path: host writes reach NAND through its cache and placement, programs from the write cache's client",
          "[firmware][write-path]") {
  Rig r;
  r.hw.command(make_rw(1, true, 10, 12), stamps_for(10, 12, 5));
  r.hw.command(make_sync(2));
  r.hw.run();
  CHECK(r.answered_good(1));
  CHECK(r.answered_good(2));
  for (uint64_t lba = 10; lba < 22; ++lba) CHECK(L2pMap::is_physical(r.map.get(lba)));
  CHECK(r.path.writes().stats().host_write_blocks == 12);
  CHECK(r.path.cache().stats().host_program_sectors == 12);
  CHECK(r.log.clients == std::set<uint64_t>{1});  // every program: the write cache (client 1)
  CHECK(r.read_back(3, 10, 12) == stamps_for(10, 12, 5));
  CHECK(r.log.clients == std::set<uint64_t>({1, 4}));  // the reads: the read engine (client 4)
  CHECK(!r.path.programs_waiting());
  CHECK(r.hw.protocol_violations_ == 0);
}

TEST_CASE("Write path: a unit refused by every die waits, and goes when the collector's pace allows it again",
          "[firmware][write-path]") {
  Rig r;
  r.gc.pace = false;  // both dies in foreground GC, no room earned yet
  r.hw.command(make_rw(1, true, 40, 4, true), stamps_for(40, 4, 2));  // FUA: the unit is sealed at once
  r.hw.run();
  CHECK(r.path.programs_waiting());
  CHECK(!r.answered_good(1));
  CHECK(L2pMap::is_cached(r.map.get(40)));
  r.gc.pace = true;
  r.path.pace_earned(0);  // GcEraseListener: the die earned host units room
  r.hw.run();
  CHECK(!r.path.programs_waiting());
  CHECK(r.answered_good(1));
  CHECK(L2pMap::is_physical(r.map.get(40)));
  CHECK(r.read_back(2, 40, 4) == stamps_for(40, 4, 2));
}

TEST_CASE("Write path: preconditioning fills through the backdoor, no flash operation", "[firmware][write-path]") {
  Rig r;
  CHECK(!r.path.preconditioning());
  const uint64_t ops = r.hw.flash_ops_;
  r.path.precondition(0, 24, r.hw);
  CHECK(!r.path.preconditioning());
  CHECK(r.hw.flash_ops_ == ops);
  for (uint64_t lba = 0; lba < 24; ++lba) CHECK(L2pMap::is_physical(r.map.get(lba)));
  CHECK(r.read_back(1, 0, 24) == stamps_for(0, 24, 0));
}

}  // namespace write_path_test
