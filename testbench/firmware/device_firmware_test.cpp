// Firmware unit tests against the plain fake platform (no SystemC kernel).
#include <catch2/catch.hpp>
#include <random>
#include <set>
#include "fake_platform.h"

using namespace ufs;
using namespace ufs::test;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace device_firmware_test {

namespace {

FlashGeometry small_geometry() {
  FlashGeometry g;
  g.channels = 2; g.ways_per_channel = 1; g.dies_per_way = 2; g.planes_per_die = 2;
  g.blocks_per_plane = 16; g.pages_per_block = 24; g.page_bytes = 16384;
  return g;  // 4 dies * 32 blocks * 96 sectors = 12288 sectors = 48 MiB
}

FirmwareParams small_params() {
  FirmwareParams p;
  p.over_provisioning = 0.25;
  p.data_buffer_kib = 1024;
  p.write_cache_kib = 512;
  return p;
}

struct Rig {
  FlashGeometry geo = small_geometry();
  FirmwareParams params;
  FakePlatform hw;
  DeviceFirmware fw;
  explicit Rig(FirmwareParams p = small_params())
      : params(p), hw(geo, params.data_buffer_kib / 4), fw(hw, params, geo) {
    hw.attach(&fw);
  }
  CommandResponse last() const { return hw.responses_.back(); }
};

std::vector<SectorStamp> stamps_for(uint64_t lba, uint32_t n, uint64_t version) {
  std::vector<SectorStamp> v(n);
  for (uint32_t i = 0; i < n; ++i) v[i] = SectorStamp{lba + i, version};
  return v;
}

}  // namespace

TEST_CASE("CDB decoding of the commands the device supports", "[firmware][scsi]") {
  std::array<uint8_t, 16> cdb{};
  cdb[0] = 0x28; cdb[2] = 0x01; cdb[5] = 0x02; cdb[8] = 0x10;
  ScsiCommand c = decode_cdb(cdb);
  CHECK(c.op == ScsiOp::Read);
  CHECK(c.lba == 0x01000002);
  CHECK(c.blocks == 16);
  cdb = {}; cdb[0] = 0x8A; cdb[1] = 0x08; cdb[9] = 7; cdb[13] = 3;
  c = decode_cdb(cdb);
  CHECK(c.op == ScsiOp::Write);
  CHECK(c.fua);
  CHECK(c.lba == 7);
  CHECK(c.blocks == 3);
  cdb = {}; cdb[0] = 0x9E; cdb[1] = 0x10; cdb[13] = 32;
  CHECK(decode_cdb(cdb).op == ScsiOp::ReadCapacity16);
  cdb = {}; cdb[0] = 0xC7;
  c = decode_cdb(cdb);
  CHECK(c.op == ScsiOp::Unsupported);
  CHECK(c.invalid_asc == asc::kInvalidOpcode);
}

TEST_CASE("A written block reads back, an unwritten one reads as zeros", "[firmware]") {
  Rig r;
  r.hw.command(make_rw(1, true, 100, 2), stamps_for(100, 2, 5));
  r.hw.run();
  REQUIRE(r.last().status == scsi_status::kGood);
  r.hw.command(make_rw(2, false, 99, 4));
  r.hw.run();
  REQUIRE(r.last().status == scsi_status::kGood);
  const auto& got = r.hw.host_in_[2];
  CHECK(got[0].lba == kNoLba);
  CHECK(got[1] == (SectorStamp{100, 5}));
  CHECK(got[2] == (SectorStamp{101, 5}));
  CHECK(got[3].lba == kNoLba);
  CHECK(r.fw.reads().stats().read_cache_hits == 2);  // still in the write cache
}

TEST_CASE("Bad commands get CHECK CONDITION with ILLEGAL REQUEST and the device goes on", "[firmware][errors]") {
  Rig r;
  const uint64_t cap = r.fw.logical_blocks();
  r.hw.command(make_rw(1, false, cap, 1));
  r.hw.run();
  CHECK(r.last().status == scsi_status::kCheckCondition);
  CHECK(r.last().sense_key == sense_key::kIllegalRequest);
  CHECK(r.last().asc == asc::kLbaOutOfRange);
  r.hw.command(make_rw(2, false, cap - 1, 2));
  r.hw.run();
  CHECK(r.last().asc == asc::kLbaOutOfRange);
  r.hw.command(make_rw(3, true, 0, 0));
  r.hw.run();
  CHECK(r.last().asc == asc::kInvalidFieldInCdb);
  r.hw.command(make_rw(4, false, 0, r.params.max_transfer_blocks + 1));
  r.hw.run();
  CHECK(r.last().asc == asc::kInvalidFieldInCdb);
  HostCommand bad;
  bad.tag = 5;
  bad.cdb[0] = 0xEE;
  r.hw.command(bad);
  r.hw.run();
  CHECK(r.last().asc == asc::kInvalidOpcode);
  CHECK(r.fw.commands().stats().check_conditions == 5);
  r.hw.command(make_rw(6, true, 0, 1), stamps_for(0, 1, 1));
  r.hw.run();
  CHECK(r.last().status == scsi_status::kGood);
}

TEST_CASE("INQUIRY and READ CAPACITY return the device's identity and size", "[firmware][scsi]") {
  Rig r;
  HostCommand c;
  c.tag = 3; c.direction = DataDirection::Read; c.expected_length = 36;
  c.cdb[0] = 0x12; c.cdb[4] = 36;
  r.hw.command(c);
  r.hw.run();
  REQUIRE(r.last().status == scsi_status::kGood);
  REQUIRE(r.hw.done_bytes_[3].size() == 36);
  CHECK(r.hw.done_bytes_[3][0] == 0x00);
  CHECK(std::string(r.hw.done_bytes_[3].begin() + 8, r.hw.done_bytes_[3].begin() + 14) == "UFSTLM");
  c = HostCommand{};
  c.tag = 4; c.direction = DataDirection::Read; c.expected_length = 32;
  c.cdb[0] = 0x9E; c.cdb[1] = 0x10; c.cdb[13] = 32;
  r.hw.command(c);
  r.hw.run();
  const auto& d = r.hw.done_bytes_[4];
  REQUIRE(d.size() == 32);
  uint64_t last = 0;
  for (int i = 0; i < 8; ++i) last = last << 8 | d[i];
  CHECK(last == r.fw.logical_blocks() - 1);
  CHECK((uint32_t(d[8]) << 24 | d[9] << 16 | d[10] << 8 | d[11]) == 4096u);
}

TEST_CASE("UNMAP drops the mapping, a bad descriptor rejects the command", "[firmware][scsi]") {
  Rig r;
  r.hw.command(make_rw(1, true, 10, 4), stamps_for(10, 4, 9));
  r.hw.run();
  std::vector<uint8_t> list(24, 0);
  list[1] = 22; list[3] = 16;
  list[15] = 11;   // LBA 11
  list[19] = 2;    // 2 blocks
  HostCommand u;
  u.tag = 2; u.direction = DataDirection::Write; u.expected_length = 24;
  u.cdb[0] = 0x42; u.cdb[8] = 24;
  r.hw.command(u, {}, list);
  r.hw.run();
  REQUIRE(r.last().status == scsi_status::kGood);
  r.hw.command(make_rw(3, false, 10, 4));
  r.hw.run();
  const auto& got = r.hw.host_in_[3];
  CHECK(got[0] == (SectorStamp{10, 9}));
  CHECK(got[1].lba == kNoLba);
  CHECK(got[2].lba == kNoLba);
  CHECK(got[3] == (SectorStamp{13, 9}));
  list[8] = 0xFF;  // LBA far beyond capacity
  r.hw.command(u, {}, list);
  r.hw.run();
  CHECK(r.last().asc == asc::kLbaOutOfRange);
}

TEST_CASE("SYNCHRONIZE CACHE and FUA answer only once the data is on NAND", "[firmware][durability]") {
  Rig r;
  r.hw.command(make_rw(1, true, 0, 1), stamps_for(0, 1, 1));
  r.hw.run();
  const uint64_t acked = r.hw.now();
  CHECK(acked < 100'000'000);  // write-back: acknowledged from the cache
  CHECK(fw_count(r.fw, "ftl.host_program_sectors") == 0);
  HostCommand s;
  s.tag = 2; s.cdb[0] = 0x35;
  r.hw.command(s);
  r.hw.run();
  CHECK(r.last().status == scsi_status::kGood);
  CHECK(r.hw.now() - acked >= 500'000'000);  // waited for tPROG
  CHECK(fw_count(r.fw, "ftl.host_program_sectors") == 1);
  CHECK(fw_count(r.fw, "ftl.padding_sectors") == 11);
  const uint64_t before = r.hw.now();
  r.hw.command(make_rw(3, true, 50, 2, true), stamps_for(50, 2, 2));
  r.hw.run();
  CHECK(r.last().status == scsi_status::kGood);
  CHECK(r.hw.now() - before >= 500'000'000);
}

// firmware.write_through (SSDsim's and DiskSim's SSDs have no RAM write buffer): a write
// without FUA answers only once every block of it is programmed, never from the cache.
TEST_CASE("Write-through: a write answers once its data is programmed, without FUA", "[firmware][durability]") {
  for (const bool through : {false, true}) {
    FirmwareParams p = small_params();
    p.write_through = through;
    Rig r(p);
    uint64_t answered = 0, programmed_at_answer = 0;
    r.hw.on_response = [&](const CommandResponse&) {
      answered = r.hw.now();
      programmed_at_answer = fw_count(r.fw, "ftl.host_program_sectors");
    };
    // 40 blocks: more than one 16 KiB page (write unit) of 4 KiB sectors, the tail a partial unit.
    r.hw.command(make_rw(1, true, 8, 40), stamps_for(8, 40, 1));
    r.hw.run();
    REQUIRE(r.last().status == scsi_status::kGood);
    if (through) {
      CHECK(answered >= 500'000'000);         // after tPROG (500 us on the fake platform)
      CHECK(programmed_at_answer == 40);      // every block of it was on NAND
    } else {
      CHECK(answered < 100'000'000);          // write-back: acknowledged from the cache
      CHECK(programmed_at_answer == 0);       // none of it was on NAND yet
    }
    // Either way the data reads back.
    r.hw.command(make_rw(2, false, 8, 40));
    r.hw.run();
    for (uint32_t i = 0; i < 40; ++i) CHECK(r.hw.host_in_[2][i] == (SectorStamp{8 + i, 1}));
  }
}

TEST_CASE("A failed program is retried elsewhere without losing data", "[firmware][badblock]") {
  Rig r;
  r.hw.fail_next_program_ = true;
  r.hw.command(make_rw(1, true, 0, 12), stamps_for(0, 12, 3));
  r.hw.run();
  CHECK(fw_count(r.fw, "ftl.program_failures") == 1);
  CHECK(fw_count(r.fw, "ftl.host_program_sectors") == 12);
  r.hw.command(make_rw(2, false, 0, 12));
  r.hw.run();
  for (uint32_t i = 0; i < 12; ++i) CHECK(r.hw.host_in_[2][i] == (SectorStamp{i, 3}));
}

TEST_CASE("Precondition fills the map through the backdoor in zero time", "[firmware]") {
  Rig r;
  r.fw.precondition(0, 1000, r.hw);
  CHECK(r.hw.now() == 0);
  r.hw.command(make_rw(1, false, 500, 8));
  r.hw.run();
  for (uint32_t i = 0; i < 8; ++i) CHECK(r.hw.host_in_[1][i] == (SectorStamp{500 + i, 0}));
}

// Random mixed I/O on a small device overwritten several times: GC must run and
// every read must return the last acknowledged write.
namespace {
void random_io_through_gc(Rig& r) {
  const uint64_t cap = r.fw.logical_blocks();
  std::mt19937_64 rng(42);
  std::vector<uint64_t> expected(cap, 0);   // 0 = never written
  std::vector<uint64_t> busy(cap, 0);       // in-flight commands touching the LBA
  struct Inflight { bool write; uint64_t lba; uint32_t n; uint64_t version; bool active = false; };
  std::array<Inflight, 16> slots{};
  uint64_t version = 0, issued = 0, mismatches = 0, completed = 0;
  const uint64_t total = 60000;

  r.hw.on_response = [&](const CommandResponse& resp) {
    Inflight& f = slots[resp.tag];
    REQUIRE(resp.status == scsi_status::kGood);
    for (uint32_t i = 0; i < f.n; ++i) {
      --busy[f.lba + i];
      if (f.write) expected[f.lba + i] = f.version;
      else {
        const SectorStamp& s = r.hw.host_in_[resp.tag][i];
        const bool ok = expected[f.lba + i] == 0 ? s.lba == kNoLba : s == SectorStamp{f.lba + i, expected[f.lba + i]};
        if (!ok) ++mismatches;
      }
    }
    f.active = false;
    ++completed;
  };
  auto issue = [&](uint8_t tag) {
    for (;;) {
      const bool write = rng() % 100 < 60;
      const uint32_t n = 1 + uint32_t(rng() % 8);
      const uint64_t lba = rng() % (cap - n);
      bool free = true;
      for (uint32_t i = 0; i < n; ++i) free = free && busy[lba + i] == 0;
      if (!free) continue;
      for (uint32_t i = 0; i < n; ++i) ++busy[lba + i];
      slots[tag] = Inflight{write, lba, n, ++version, true};
      r.hw.command(make_rw(tag, write, lba, n), write ? stamps_for(lba, n, version) : std::vector<SectorStamp>{});
      ++issued;
      return;
    }
  };
  for (uint8_t t = 0; t < 16; ++t) issue(t);
  while (completed < total) {
    r.hw.run([&] {
      for (uint8_t t = 0; t < 16; ++t) if (!slots[t].active) return true;
      return false;
    });
    for (uint8_t t = 0; t < 16 && issued < total; ++t) if (!slots[t].active) issue(t);
    if (issued >= total) { r.hw.run(); break; }
  }
  r.hw.run();
  CHECK(mismatches == 0);
  CHECK(r.hw.violations_ == 0);
  CHECK(r.hw.protocol_violations_ == 0);
  CHECK(r.fw.gc().stats().victims > 50);
  CHECK(r.fw.gc().stats().erases > 50);
  CHECK(fw_figure(r.fw, "ftl.write_amplification") > 1.0);
  // Everything written reads back after the cache is flushed.
  r.hw.on_response = nullptr;
  HostCommand s;
  s.tag = 20; s.cdb[0] = 0x35;
  r.hw.command(s);
  r.hw.run();
  uint64_t lost = 0;
  for (uint64_t lba = 0; lba + 8 <= cap; lba += 8) {
    r.hw.command(make_rw(21, false, lba, 8));
    r.hw.run();
    for (uint32_t i = 0; i < 8; ++i) {
      const SectorStamp& got = r.hw.host_in_[21][i];
      if (expected[lba + i] == 0 ? got.lba != kNoLba : got != SectorStamp{lba + i, expected[lba + i]}) ++lost;
    }
  }
  CHECK(lost == 0);
}
}  // namespace

TEST_CASE("Random mixed I/O through GC keeps every block intact", "[firmware][gc][stress]") {
  Rig r;
  random_io_through_gc(r);
  CHECK(fw_count(r.fw, "ftl.map_cache.page_loads") == 0);  // the whole map of this device fits the default SRAM
}

// A 32 KiB L2P SRAM holds 2 of the device's 3 map pages: lookups miss and load, updates
// dirty pages that are written back (merged when never loaded), and GC rewrites map blocks.
TEST_CASE("Random mixed I/O with a small demand-loaded map cache keeps every block intact", "[firmware][map][stress]") {
  FirmwareParams p = small_params();
  p.l2p_sram_kib = 32;
  p.map_cache_policy = GENERATE(as<std::string>{}, "lru", "fifo", "clock");
  INFO("map_cache_policy " << p.map_cache_policy);
  Rig r(p);
  random_io_through_gc(r);
  CHECK(fw_count(r.fw, "ftl.map_cache.read_misses") > 1000);
  CHECK(fw_count(r.fw, "ftl.map_cache.page_loads") > 1000);
  CHECK(fw_count(r.fw, "ftl.map_cache.page_writes") > 1000);
  CHECK(fw_count(r.fw, "ftl.map_cache.merge_reads") > 0);
  CHECK(fw_count(r.fw, "ftl.map_cache.relocations") > 0);
}

// Issue 14 item 1: 256 KiB reads and writes at QD32 with a read area of 16 slots less than
// two segments per read. A read left in the read waiters after it got its segments some
// other way (its own DATA IN ending) was staged again once its tag carried a new command:
// DATA IN and a second RESPONSE for a write. Tags are reused the moment they complete.
TEST_CASE("Large mixed I/O with a read area that runs short: one RESPONSE per command, data intact",
          "[firmware][protocol]") {
  FirmwareParams p = small_params();
  p.data_buffer_kib = 1024;
  p.write_cache_kib = 768;  // 64 read slots: two 32-block segments
  Rig r(p);
  const uint64_t cap = r.fw.logical_blocks();
  r.fw.precondition(0, cap, r.hw);
  std::mt19937_64 rng(7);
  std::vector<uint64_t> expected(cap, 0);  // version; preconditioned blocks carry 0
  std::vector<uint32_t> busy(cap, 0);
  struct Inflight { bool write = false; uint64_t lba = 0; uint32_t n = 0; uint64_t version = 0; bool active = false; };
  constexpr uint8_t kDepth = 32;
  std::array<Inflight, kDepth> slots{};
  uint64_t version = 0, issued = 0, completed = 0, mismatches = 0, not_good = 0;
  const uint64_t total = 3000;
  r.hw.on_response = [&](const CommandResponse& resp) {
    Inflight& f = slots[resp.tag];
    if (!f.active) return;  // counted by the platform as a protocol violation
    not_good += resp.status != scsi_status::kGood;
    for (uint32_t i = 0; i < f.n; ++i) {
      --busy[f.lba + i];
      if (f.write) expected[f.lba + i] = f.version;
      else if (r.hw.host_in_[resp.tag][i] != SectorStamp{f.lba + i, expected[f.lba + i]}) ++mismatches;
    }
    f.active = false;
    ++completed;
  };
  auto issue = [&](uint8_t tag) {
    for (;;) {
      const bool write = rng() % 2;
      const uint32_t n = 64;
      const uint64_t lba = rng() % (cap - n) / 8 * 8;
      bool free = true;
      for (uint32_t i = 0; i < n; ++i) free = free && busy[lba + i] == 0;
      if (!free) continue;
      for (uint32_t i = 0; i < n; ++i) ++busy[lba + i];
      slots[tag] = Inflight{write, lba, n, ++version, true};
      r.hw.command(make_rw(tag, write, lba, n), write ? stamps_for(lba, n, version) : std::vector<SectorStamp>{});
      ++issued;
      return;
    }
  };
  for (uint8_t t = 0; t < kDepth; ++t) issue(t);
  while (issued < total) {
    r.hw.run([&] {
      for (const Inflight& f : slots) if (!f.active) return true;
      return false;
    });
    bool any = false;
    for (uint8_t t = 0; t < kDepth && issued < total; ++t)
      if (!slots[t].active) { issue(t); any = true; }
    if (!any) break;  // nothing completes any more: a stall
  }
  r.hw.run();
  CHECK(r.hw.protocol_violations_ == 0);
  CHECK(completed == issued);
  CHECK(r.hw.responses_.size() == issued);
  CHECK(not_good == 0);
  CHECK(mismatches == 0);
  CHECK(r.fw.idle());
}

TEST_CASE("With map_cache off the whole map is resident", "[firmware][map]") {
  FirmwareParams p = small_params();
  p.map_cache = false;
  Rig r(p);
  r.hw.command(make_rw(1, true, 7, 1), stamps_for(7, 1, 2));
  r.hw.run();
  r.hw.command(make_rw(2, false, 7, 1));
  r.hw.run();
  CHECK(r.hw.host_in_[2][0] == (SectorStamp{7, 2}));
  CHECK(fw_count(r.fw, "ftl.map_cache.read_misses") == 0);
  CHECK(fw_count(r.fw, "ftl.map_cache.page_writes") == 0);
}

TEST_CASE("Power-up loads a fresh HPB session key into the crypto engine", "[firmware][crypto]") {
  Rig r;
  r.fw.on_power_up();
  const auto& regs = r.hw.crypto_regs_;
  REQUIRE(regs.size() == 5);
  for (uint32_t i = 0; i < 4; ++i) CHECK(regs[i].first == hpb_crypto_reg::kKey0 + 4 * i);
  CHECK(regs[4] == std::make_pair(hpb_crypto_reg::kCtrl, hpb_crypto_reg::kCtrlKeyCommit));
  const std::vector<std::pair<uint32_t, uint32_t>> first(regs.begin(), regs.end());
  r.hw.crypto_regs_.clear();
  r.fw.on_power_up();  // the next power cycle draws another key
  CHECK(r.hw.crypto_regs_[0].second != first[0].second);
  CHECK(r.fw.stats().session_keys_loaded == 2);
}

// ---------------------------------------------------------------- logical pages and allocation

namespace {
// 64 KiB logical pages (16 sectors), one 16 KiB page per program: four programs per page.
FirmwareParams big_page_params() {
  FirmwareParams p = small_params();
  p.program_pages = 1;
  p.logical_page_kib = 64;
  return p;
}
void flush(Rig& r) {
  HostCommand s;
  s.tag = 30; s.cdb[0] = 0x35;
  r.hw.command(s);
  r.hw.run();
}
}  // namespace

TEST_CASE("Logical pages: geometry checks name the problem", "[firmware][lpage]") {
  FirmwareParams p = big_page_params();
  const FlashGeometry g = small_geometry();  // 96 sectors (384 KiB) per block
  CHECK(p.validate_for(g).empty());
  p.logical_page_kib = 12;
  CHECK(p.validate().empty());
  CHECK(p.validate_for(g).find("logical_page_kib") == 0);  // 3 sectors vs a 4-sector program
  p.logical_page_kib = 256;
  CHECK(p.validate_for(g).find("logical_page_kib: must divide the block") == 0);
  p.logical_page_kib = 6;
  CHECK(p.validate().find("logical_page_kib") == 0);
  p = big_page_params();
  p.write_cache_kib = 192;
  CHECK(p.validate_for(g).find("write_cache_kib") == 0);
  p = small_params();
  p.stripe_order = "random";
  CHECK(p.validate().find("stripe_order") == 0);
  p.stripe_order = "plane-first";
  p.lba_mapping = "hashed";
  CHECK(p.validate().find("lba_mapping") == 0);
}

TEST_CASE("Logical pages: a small write reads the rest of its page from NAND and rewrites it whole",
          "[firmware][lpage]") {
  Rig r(big_page_params());
  r.hw.command(make_rw(1, true, 32, 16), stamps_for(32, 16, 1));  // logical page 2, whole
  r.hw.run();
  flush(r);
  CHECK(fw_count(r.fw, "ftl.rmw_writes") == 0);
  const uint64_t reads_before = r.hw.data_reads_;
  r.hw.command(make_rw(2, true, 37, 2, true), stamps_for(37, 2, 2));  // 2 sectors inside it, FUA
  r.hw.run();
  REQUIRE(r.last().status == scsi_status::kGood);
  CHECK(fw_count(r.fw, "ftl.rmw_writes") == 1);
  CHECK(fw_count(r.fw, "ftl.rmw_flash_sectors") == 14);
  CHECK(r.hw.data_reads_ - reads_before == 5);  // the other 14 sectors: runs within 16 KiB pages (36 and 39 apart)
  CHECK(fw_count(r.fw, "ftl.host_program_sectors") == 32);
  // The page is whole again in one place: 16 consecutive sectors of one block.
  const uint32_t first = r.fw.ftl().map().get(32);
  REQUIRE(L2pMap::is_physical(first));
  CHECK(first % 16 == 0);
  for (uint32_t i = 0; i < 16; ++i) CHECK(r.fw.ftl().map().get(32 + i) == first + i);
  r.hw.command(make_rw(3, false, 32, 16));
  r.hw.run();
  for (uint32_t i = 0; i < 16; ++i)
    CHECK(r.hw.host_in_[3][i] == (SectorStamp{32 + i, i == 5 || i == 6 ? 2u : 1u}));
}

TEST_CASE("Logical pages: the rest comes from the write cache, never-written sectors stay unmapped",
          "[firmware][lpage]") {
  Rig r(big_page_params());
  r.hw.command(make_rw(1, true, 64, 3), stamps_for(64, 3, 1));  // logical page 4: 3 sectors, 13 never written
  r.hw.run();
  r.hw.command(make_rw(2, true, 70, 1), stamps_for(70, 1, 2));  // same page, while the first is cached or on NAND
  r.hw.run();
  flush(r);
  CHECK(fw_count(r.fw, "ftl.rmw_writes") == 2);
  CHECK(fw_count(r.fw, "ftl.rmw_flash_sectors") + fw_count(r.fw, "ftl.rmw_cache_sectors") == 3);
  r.hw.command(make_rw(3, false, 64, 16));
  r.hw.run();
  for (uint32_t i = 0; i < 16; ++i) {
    const SectorStamp want = i < 3 ? SectorStamp{64 + i, 1} : i == 6 ? SectorStamp{70, 2} : SectorStamp{};
    CHECK(r.hw.host_in_[3][i] == want);
  }
  CHECK(r.fw.ftl().map().get(65) != L2pMap::kUnmapped);
  CHECK(r.fw.ftl().map().get(71) == L2pMap::kUnmapped);
}

TEST_CASE("Logical pages: random mixed I/O through GC keeps every block intact", "[firmware][lpage][stress]") {
  Rig r(big_page_params());
  random_io_through_gc(r);
  CHECK(fw_count(r.fw, "ftl.rmw_writes") > 1000);
  CHECK(fw_figure(r.fw, "ftl.write_amplification") > 3.0);  // 1-8 sector writes into 16-sector pages
}

TEST_CASE("Static mapping: a logical page always lands in the pool its number names", "[firmware][alloc]") {
  FirmwareParams p = big_page_params();
  p.lba_mapping = "static";
  p.stripe_order = "channel-first";
  Rig r(p);
  const AllocationPolicy policy(r.geo, "channel-first", true);
  for (uint8_t t = 0; t < 8; ++t) r.hw.command(make_rw(t, true, uint64_t(t) * 16 + 3, 4), stamps_for(t * 16 + 3, 4, 1));
  r.hw.run();
  flush(r);
  for (uint64_t lp = 0; lp < 8; ++lp) {
    const uint32_t e = r.fw.ftl().map().get(lp * 16 + 3);
    REQUIRE(L2pMap::is_physical(e));
    CHECK(r.fw.ftl().blocks().layout().die_of_block(r.fw.ftl().blocks().layout().block_of(e)) == policy.die(policy.pool_of(lp)));
  }
}

TEST_CASE("Plane-first: consecutive write units alternate the planes of a die", "[firmware][alloc]") {
  FirmwareParams p = small_params();
  p.program_pages = 1;
  p.stripe_order = "plane-first";
  Rig r(p);
  r.hw.command(make_rw(1, true, 0, 16), stamps_for(0, 16, 1));  // four 16 KiB units
  r.hw.run();
  flush(r);
  const BlockManager& b = r.fw.ftl().blocks();
  auto where = [&](uint64_t lba) {
    const uint32_t block = b.layout().block_of(r.fw.ftl().map().get(lba));
    return std::make_pair(b.layout().die_of_block(block), b.layout().plane_of_block(block));
  };
  CHECK(where(0) == std::make_pair(0u, 0u));
  CHECK(where(4) == std::make_pair(0u, 1u));
  CHECK(where(8) == std::make_pair(2u, 0u));  // then the next die, channel-first
  CHECK(where(12) == std::make_pair(2u, 1u));
}

TEST_CASE("Static plane-first mapping: random mixed I/O through GC keeps every block intact",
          "[firmware][alloc][stress]") {
  FirmwareParams p = big_page_params();
  p.lba_mapping = "static";
  p.stripe_order = "plane-first";
  Rig r(p);
  random_io_through_gc(r);
}

// ---------------------------------------------------------------- GC copy-back

namespace {
FirmwareParams copy_back_params() {
  FirmwareParams p = small_params();
  p.program_pages = 1;  // copy-back moves one page: write units of one page
  p.gc.copy_back = true;
  return p;
}
}  // namespace

TEST_CASE("GC copy-back: needs write units of one page", "[firmware][gc][copyback]") {
  FirmwareParams p = small_params();
  p.gc.copy_back = true;
  CHECK(p.validate_for(small_geometry()).find("gc_copy_back") == 0);  // 3-page one-shot units
  p.program_pages = 1;
  CHECK(p.validate_for(small_geometry()).empty());
  p.logical_page_kib = 32;
  CHECK(p.validate_for(small_geometry()).find("gc_copy_back") == 0);
}

TEST_CASE("GC copy-back: random mixed I/O through GC moves pages inside their plane with every block intact",
          "[firmware][gc][copyback][stress]") {
  Rig r(copy_back_params());
  random_io_through_gc(r);  // checks data, and no copy-back across planes or dies (violations)
  const GcStats& s = r.fw.gc().stats();
  INFO("copy-backs " << s.copy_backs << ", buffered GC reads " << s.buffered_reads << ", moved sectors "
                     << s.moved_sectors);
  CHECK(s.copy_backs > 1000);
  CHECK(r.hw.copy_backs_ == s.copy_backs);
  CHECK(s.buffered_reads > 0);  // partly valid pages (4 KiB sectors in 16 KiB pages) are compacted through the buffer
  CHECK(s.moved_sectors > 0);
  CHECK(s.cleaned > 50);
  CHECK(s.clean_ps > 0);
}

// GC host pacing with copy-back: GC has a block per plane; its room is all of them (moved
// data through the buffer fills any). Counting its first write point only, or leaving the
// other planes' room stranded, host data took a die's last free block GC needed and the device
// turned read-only (issue 14 item 2, session 19).
TEST_CASE("GC copy-back: random mixed I/O with GC host pacing asked for, every write accepted and intact",
          "[firmware][gc][copyback]") {
  FirmwareParams p = copy_back_params();
  p.gc.host_pacing = true;
  Rig r(p);
  random_io_through_gc(r);  // every command GOOD, data intact
  CHECK(r.fw.gc().stats().copy_backs > 1000);
}

TEST_CASE("GC copy-back: a failed copy-back retires its block and GC finishes through the buffer",
          "[firmware][gc][copyback]") {
  Rig r(copy_back_params());
  r.hw.fail_next_copy_back_ = true;
  random_io_through_gc(r);  // no data lost
  CHECK_FALSE(r.hw.fail_next_copy_back_);
  CHECK(fw_count(r.fw, "ftl.program_failures") == 1);
  CHECK(r.fw.gc().stats().buffered_reads > 0);
}

}  // namespace device_firmware_test
