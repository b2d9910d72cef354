// The write engine alone on the fake platform, with the write cache, placement and
// read-modify-write fill it drives, and a read engine to read the data back.
#include <catch2/catch.hpp>
#include <vector>
#include "command/read_engine.h"
#include "command/scsi_dispatch.h"
#include "part_fixture.h"
#include "write/page_fill.h"
#include "write/preconditioner.h"
#include "write/unit_placement.h"
#include "write/write_cache.h"
#include "write/write_engine.h"

using namespace ufs;
using namespace ufs::test;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace write_engine_test {

namespace {
// Two dies of one plane, 8 blocks of 4 pages of 4 sectors; program units of one page.
bool configure(FirmwareParams& p, uint32_t logical_page_kib) {
  p.program_pages = 1;
  p.logical_page_kib = logical_page_kib;
  p.map_cache = false;        // the whole map in SRAM
  p.data_buffer_kib = 256;    // 64 slots: 48 for reads,
  p.write_cache_kib = 64;     // 16 for the write cache (four units of 4 sectors)
  p.read_segment_blocks = 16;
  return true;
}

struct Collector : GcUnitEvents, VictimMoveListener, FreeSpaceListener {
  void moved(uint64_t, uint32_t, uint32_t) override {}
  void unit_programmed(uint32_t, bool) override {}
  void units_freed() override {}
  void moves_may_be_done(uint32_t) override {}
  void free_space_changed(uint32_t) override {}
};
struct NoMisses : MapLookups {
  uint32_t wait_for_lookups(uint64_t, uint32_t, MapWaiter&, uint32_t) override { return 0; }
};
// What write protection asks of the rest: no GC here; the writes refuse what waits.
struct Hooks : WriteProtectHooks {
  WriteEngine* writes = nullptr;
  uint32_t entered = 0;
  void reclaim_space() override {}
  void write_protect_entered() override {
    ++entered;
    writes->refuse_undurable();
  }
};

std::vector<SectorStamp> stamps_for(uint64_t lba, uint32_t n, uint64_t version) {
  std::vector<SectorStamp> v;
  for (uint32_t i = 0; i < n; ++i) v.push_back(SectorStamp{lba + i, version});
  return v;
}
HostCommand make_sync(uint8_t tag) {
  HostCommand c;
  c.tag = tag;
  c.cdb[0] = 0x35;  // SYNCHRONIZE CACHE (10), the whole device
  return c;
}

struct Rig : PartFixture {
  bool configured;  // the parameters, before the parts below read them
  LatencySplit latency{256};
  CommandTable table{hw, 600, 500, latency};
  L2pMap map{512};
  MapStore store;
  AllocationPolicy alloc{geo, "die-first", false};
  Collector gc;
  Hooks hooks;
  WriteProtection protection{table, flash, hooks};
  NoMisses lookups;
  UnitPlacement placement;
  WriteCache cache;
  PageFill fill;
  WriteEngine writes;
  ReadEngine reads;
  Preconditioner preconditioner;
  ScsiDispatch scsi{table, reads, writes, protection, 64, 512};  // READ/WRITE up to 64 blocks
  std::vector<CommandResponse> answered;

  explicit Rig(uint32_t logical_page_kib = 4)
      : PartFixture(part_geometry(2, 8, 4)),
        configured(configure(params, logical_page_kib)),
        store(hw, params, geo, map, blocks.layout(), flash),
        placement(hw, params, geo, blocks, alloc, gc),
        cache(hw, params, geo, 48, blocks, map, store, flash, placement, gc, gc),
        fill(hw, params, blocks.layout(), map, flash, cache),
        writes(hw, params, geo, 512, table, latency, map, store, alloc, nullptr, blocks, cache, fill, protection),
        reads(hw, params, 48, table, latency, map, blocks.layout(), flash, lookups),
        preconditioner(params, geo, 512, blocks, map, store, flash, placement, cache, cache, alloc, nullptr) {
    hooks.writes = &writes;
    cache.set_durability_listener(&writes);
    cache.set_freed_listener(&writes);
    cache.set_gc_units(&gc);
    writes.set_reads(&reads);
    reads.set_next_waiters(&writes);
    events.command = [this](const HostCommand& c) {
      const ScsiCommand s = decode_cdb(c.cdb);
      if (s.op == ScsiOp::Write) writes.start_write(c, s);
      else if (s.op == ScsiOp::Read) reads.start(c, s.lba, s.blocks, false);
      else if (s.op == ScsiOp::SynchronizeCache) writes.start_sync(c);
      else if (s.op == ScsiOp::Unmap) writes.start_unmap(c, s);
    };
    events.data_out = [this](uint8_t tag, uint64_t token) { writes.data_out_done(tag, token); };
    events.data_in = [this](uint8_t tag, uint64_t token) { reads.data_in_done(tag, token); };
    hw.on_response = [this](const CommandResponse& r) { answered.push_back(r); };
  }
  // LBAs [first, first + n) with version 1 through the preconditioner.
  void prefill(uint64_t first, uint32_t n) {
    preconditioner.fill(first, n, hw);
  }
  std::vector<SectorStamp> read_back(uint8_t tag, uint64_t lba, uint32_t n) {
    hw.command(make_rw(tag, false, lba, n));
    hw.run();
    std::vector<SectorStamp> got(hw.host_in_[tag].begin(), hw.host_in_[tag].begin() + n);
    return got;
  }
  bool answered_good(uint8_t tag) const {
    for (const auto& r : answered) if (r.tag == tag) return r.status == scsi_status::kGood;
    return false;
  }
};
}  // namespace

TEST_CASE("Write engine: a write is answered once its data is in the cache, SYNCHRONIZE CACHE once it is on NAND",
          "[firmware][write-engine]") {
  Rig r;
  r.hw.command(make_rw(1, true, 10, 6), stamps_for(10, 6, 5));
  bool synced_on_nand = false;
  r.hw.on_response = [&](const CommandResponse& resp) {
    r.answered.push_back(resp);
    if (resp.tag == 2) synced_on_nand = L2pMap::is_physical(r.map.get(15));
  };
  r.hw.run([&] { return r.answered_good(1); });
  CHECK(L2pMap::is_cached(r.map.get(15)));  // answered from the cache: the last unit is still filling
  r.hw.command(make_sync(2));
  r.hw.run();
  CHECK(r.answered_good(2));
  CHECK(synced_on_nand);
  CHECK(r.writes.stats().host_write_blocks == 6);
  CHECK(r.writes.stats().flushes == 1);
  CHECK(r.read_back(3, 10, 6) == stamps_for(10, 6, 5));
  CHECK(r.hw.protocol_violations_ == 0);
}

TEST_CASE("Write engine: FUA answers only once every sector is programmed", "[firmware][write-engine]") {
  Rig r;
  bool durable_at_answer = false;
  r.hw.on_response = [&](const CommandResponse& resp) {
    r.answered.push_back(resp);
    durable_at_answer = L2pMap::is_physical(r.map.get(20)) && L2pMap::is_physical(r.map.get(21));
  };
  r.hw.command(make_rw(1, true, 20, 2, true), stamps_for(20, 2, 3));  // half a unit: closed for the FUA
  r.hw.run();
  REQUIRE(r.answered_good(1));
  CHECK(durable_at_answer);
  CHECK(r.cache.stats().padding_sectors == 2);
}

TEST_CASE("Write engine: a write smaller than a logical page reads the rest and rewrites it whole",
          "[firmware][write-engine]") {
  Rig r(16);  // logical pages of 4 sectors
  r.prefill(0, 8);
  CHECK(r.read_back(1, 0, 8) == stamps_for(0, 8, 0));
  r.hw.command(make_rw(2, true, 5, 1), stamps_for(5, 1, 7));
  r.hw.command(make_sync(3));
  r.hw.run();
  CHECK(r.answered_good(2));
  CHECK(r.writes.stats().rmw_writes == 1);
  CHECK(r.fill.stats().flash_sectors == 3);  // LBAs 4, 6, 7
  std::vector<SectorStamp> expect = stamps_for(0, 8, 0);
  expect[5] = SectorStamp{5, 7};
  CHECK(r.read_back(4, 0, 8) == expect);
  CHECK(r.blocks.layout().page_of(r.map.get(4)) == r.blocks.layout().page_of(r.map.get(7)));  // the logical page together
}

TEST_CASE("Write engine: writes with no unit free wait in order and all complete", "[firmware][write-engine]") {
  Rig r;
  // Three units for host data (one stays GC's): 12 sectors at once; these need 10 units.
  r.hw.command(make_rw(1, true, 0, 24), stamps_for(0, 24, 1));
  r.hw.command(make_rw(2, true, 100, 16), stamps_for(100, 16, 2));
  bool waited = false;
  r.hw.run([&] { waited = waited || r.writes.waiting() > 0; return false; });
  CHECK(waited);
  CHECK(r.answered_good(1));
  CHECK(r.answered_good(2));
  r.hw.command(make_sync(3));
  r.hw.run();
  CHECK(r.read_back(4, 0, 24) == stamps_for(0, 24, 1));
  CHECK(r.read_back(5, 100, 16) == stamps_for(100, 16, 2));
  CHECK(r.hw.protocol_violations_ == 0);
}

TEST_CASE("Write engine: UNMAP drops mappings and the NAND copies they held", "[firmware][write-engine]") {
  Rig r;
  r.prefill(0, 8);
  auto valid = [&r] {
    uint32_t n = 0;
    for (uint32_t b = 0; b < r.blocks.layout().block_count(); ++b) n += r.blocks.info(b).valid;
    return n;
  };
  CHECK(valid() == 8);
  std::vector<uint8_t> list(24, 0);
  list[1] = 22; list[3] = 16;
  list[15] = 2;    // LBA 2
  list[19] = 3;    // 3 blocks
  HostCommand u;
  u.tag = 1; u.direction = DataDirection::Write; u.expected_length = 24;
  u.cdb[0] = 0x42; u.cdb[8] = 24;
  r.hw.command(u, {}, list);
  r.hw.run();
  REQUIRE(r.answered_good(1));
  CHECK(r.map.get(2) == L2pMap::kUnmapped);
  CHECK(r.map.get(4) == L2pMap::kUnmapped);
  CHECK(L2pMap::is_physical(r.map.get(5)));
  CHECK(valid() == 5);
  CHECK(r.writes.stats().unmapped_blocks == 3);
  list[19] = 0; list[18] = 0x10;  // 4096 blocks: beyond the device
  r.answered.clear();
  r.hw.command(u, {}, list);
  r.hw.run();
  REQUIRE(r.answered.size() == 1);
  CHECK(r.answered[0].asc == asc::kLbaOutOfRange);
  CHECK(L2pMap::is_physical(r.map.get(5)));  // nothing changed
}

TEST_CASE("Write engine: once write protected, waiting writes and FUA writes that cannot be durable are refused",
          "[firmware][write-engine]") {
  Rig r;
  // No die can take a host unit: units wait for a die.
  for (uint32_t d = 0; d < 2; ++d)
    while (r.blocks.pools().free_blocks(d) > 1) r.blocks.take_free_block(d);
  r.hw.command(make_rw(1, true, 0, 2, true), stamps_for(0, 2, 1));   // FUA: its unit is sealed, never programmed
  r.hw.command(make_rw(2, true, 10, 16), stamps_for(10, 16, 1));     // fills the cache, then waits
  r.hw.run();
  CHECK(r.writes.waiting() == 1);
  CHECK(r.answered.empty());
  REQUIRE(r.protection.may_be_stuck());  // nothing on the flash, units wait for a die
  r.protection.out_of_space();
  CHECK(r.protection.on());
  CHECK(r.hooks.entered == 1);
  r.hw.run();
  CHECK(r.protection.rejects() == 2);
  CHECK(r.answered.size() == 2);
  for (const auto& a : r.answered) CHECK(a.sense_key == sense_key::kDataProtect);
  CHECK(L2pMap::is_cached(r.map.get(0)));  // the data stays readable from the cache
  CHECK(r.read_back(3, 0, 2) == stamps_for(0, 2, 1));
}

TEST_CASE("Preconditioner: a range written as the write path would place it, map and valid counts included",
          "[firmware][write-engine]") {
  Rig r;
  r.prefill(3, 30);
  CHECK(r.map.get(2) == L2pMap::kUnmapped);
  CHECK(r.map.get(33) == L2pMap::kUnmapped);
  uint32_t valid = 0;
  for (uint32_t b = 0; b < r.blocks.layout().block_count(); ++b) valid += r.blocks.info(b).valid;
  CHECK(valid == 30);
  // Units striped over the dies like host writes: LBAs 3-6 on one die, 7-10 on the other.
  CHECK(r.blocks.layout().die_of_block(r.blocks.layout().block_of(r.map.get(6))) == 0);
  CHECK(r.blocks.layout().die_of_block(r.blocks.layout().block_of(r.map.get(7))) == 1);
  CHECK(r.read_back(1, 0, 34) == [] {
    std::vector<SectorStamp> v(34);
    for (uint64_t lba = 3; lba < 33; ++lba) v[lba] = SectorStamp{lba, 0};
    return v;
  }());
  CHECK(r.flash.in_flight() == 0);
  for (uint32_t b = 0; b < r.blocks.layout().block_count(); ++b) CHECK(r.blocks.info(b).programs_in_flight == 0);
}

TEST_CASE("SCSI dispatch: commands answered by the device, checks before the engines, the rest refused",
          "[firmware][scsi-dispatch]") {
  Rig r;
  r.events.command = [&r](const HostCommand& c) { r.scsi.dispatch(c); };
  r.events.data_in = [&r](uint8_t tag, uint64_t token) {
    if (token & kControlToken) r.table.control_data_sent(tag);
    else r.reads.data_in_done(tag, token);
  };
  auto run = [&r](const HostCommand& c, std::vector<SectorStamp> data = {}) {
    r.answered.clear();
    r.hw.command(c, std::move(data));
    r.hw.run();
    REQUIRE(r.answered.size() == 1);
    return r.answered[0];
  };
  HostCommand tur;
  tur.tag = 1;
  CHECK(run(tur).status == scsi_status::kGood);  // TEST UNIT READY: all zeros
  HostCommand inquiry;
  inquiry.tag = 2;
  inquiry.direction = DataDirection::Read;
  inquiry.expected_length = 36;
  inquiry.cdb[0] = 0x12;
  inquiry.cdb[4] = 36;
  CHECK(run(inquiry).status == scsi_status::kGood);
  const std::vector<uint8_t>& id = r.hw.done_bytes_[2];
  REQUIRE(id.size() == 36);
  CHECK(std::string(id.begin() + 8, id.begin() + 16) == "UFSTLM  ");
  HostCommand capacity;
  capacity.tag = 3;
  capacity.direction = DataDirection::Read;
  capacity.expected_length = 8;
  capacity.cdb[0] = 0x25;  // READ CAPACITY (10)
  CHECK(run(capacity).status == scsi_status::kGood);
  CHECK(get_be32(r.hw.done_bytes_[3].data()) == 511);  // the last LBA
  CHECK(get_be32(r.hw.done_bytes_[3].data() + 4) == kSectorBytes);
  // Checks before the engines: too long, past the end, less room than the blocks.
  const CommandResponse too_long = run(make_rw(4, true, 0, 65));
  CHECK(too_long.asc == asc::kInvalidFieldInCdb);
  const CommandResponse past_end = run(make_rw(5, false, 510, 4));
  CHECK(past_end.status == scsi_status::kCheckCondition);
  CHECK(past_end.asc == asc::kLbaOutOfRange);
  HostCommand short_buffer = make_rw(6, false, 0, 4);
  short_buffer.expected_length = 2 * kSectorBytes;
  CHECK(run(short_buffer).asc == asc::kInvalidFieldInCdb);
  HostCommand unknown;
  unknown.tag = 7;
  unknown.cdb[0] = 0xC5;
  CHECK(run(unknown).asc == asc::kInvalidOpcode);
  CHECK(r.writes.stats().host_write_blocks == 0);  // nothing reached the engines
  // What passes goes to its engine: a write and its read back.
  CHECK(run(make_rw(8, true, 100, 4), stamps_for(100, 4, 3)).status == scsi_status::kGood);
  CHECK(run(make_rw(9, false, 100, 4)).status == scsi_status::kGood);
  CHECK(std::vector<SectorStamp>(r.hw.host_in_[9].begin(), r.hw.host_in_[9].begin() + 4) == stamps_for(100, 4, 3));
}

}  // namespace write_engine_test
