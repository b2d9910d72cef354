// Sudden power-off at random instants during mixed I/O with GC running, on the
// fake platform: the firmware is thrown away with everything in SRAM, pages being
// programmed are torn, a fresh firmware recovers from the NAND alone (OOB scan),
// and every block acknowledged as durable (FUA, or written before a SYNCHRONIZE
// CACHE that completed) must read back as that version or a newer acknowledged one.
#include <catch2/catch.hpp>
#include <memory>
#include <random>
#include "fake_platform.h"

using namespace ufs;
using namespace ufs::test;

namespace {

FlashGeometry spo_geometry() {
  FlashGeometry g;
  g.channels = 2; g.ways_per_channel = 1; g.dies_per_way = 2; g.planes_per_die = 2;
  g.blocks_per_plane = 16; g.pages_per_block = 24; g.page_bytes = 16384;
  return g;  // 4 dies * 32 blocks * 96 sectors = 48 MiB
}

HostCommand sync_command(uint8_t tag) {
  HostCommand s;
  s.tag = tag;
  s.cdb[0] = 0x35;
  return s;
}

struct PowerLossRig {
  FlashGeometry geo = spo_geometry();
  FirmwareParams params;
  FakePlatform hw;
  std::unique_ptr<DeviceFirmware> fw;
  std::mt19937_64 rng{7};
  uint64_t cap = 0;
  uint64_t span = 0;  // LBAs the workload writes: 90% of the device
  std::vector<uint64_t> acked, durable;  // per LBA: last acknowledged / guaranteed version (0: none)
  std::vector<uint32_t> busy;
  struct Inflight { enum Kind { Read, Write, Sync } kind = Read; uint64_t lba = 0; uint32_t n = 0; uint64_t version = 0;
                    bool fua = false; bool active = false; std::vector<uint64_t> snapshot; };
  std::array<Inflight, 16> slots{};
  uint64_t version = 0, completed = 0, bad_status = 0, wrong_live = 0;
  bool issuing = true;

  explicit PowerLossRig(FirmwareParams p, FlashGeometry g = spo_geometry())
      : geo(g), params(p), hw(geo, p.data_buffer_kib / 4) {
    fw = std::make_unique<DeviceFirmware>(hw, params, geo);
    hw.attach(fw.get());
    cap = fw->logical_blocks();
    span = cap * 9 / 10;
    acked.assign(cap, 0);
    durable.assign(cap, 0);
    busy.assign(cap, 0);
    hw.on_response = [this](const CommandResponse& r) { completed_command(r); };
  }

  void issue(uint8_t tag) {
    const uint32_t dice = uint32_t(rng() % 100);
    if (dice < 2) {
      slots[tag] = Inflight{Inflight::Sync, 0, 0, 0, false, true, acked};
      hw.command(sync_command(tag));
      return;
    }
    for (;;) {
      const bool write = dice < 62;
      const uint32_t n = 1 + uint32_t(rng() % 8);
      const uint64_t lba = rng() % (span - n);
      bool free = true;
      for (uint32_t i = 0; i < n; ++i) free = free && busy[lba + i] == 0;
      if (!free) continue;
      for (uint32_t i = 0; i < n; ++i) ++busy[lba + i];
      const bool fua = write && rng() % 10 == 0;
      slots[tag] = Inflight{write ? Inflight::Write : Inflight::Read, lba, n, ++version, fua, true, {}};
      std::vector<SectorStamp> data;
      for (uint32_t i = 0; write && i < n; ++i) data.push_back(SectorStamp{lba + i, version});
      hw.command(make_rw(tag, write, lba, n, fua), data);
      return;
    }
  }

  void completed_command(const CommandResponse& r) {
    Inflight& f = slots[r.tag];
    if (!f.active) return;
    f.active = false;
    ++completed;
    if (r.status != scsi_status::kGood) ++bad_status;
    if (f.kind == Inflight::Sync) {
      for (uint64_t lba = 0; lba < cap; ++lba) durable[lba] = std::max(durable[lba], f.snapshot[lba]);
    } else {
      for (uint32_t i = 0; i < f.n; ++i) {
        const uint64_t lba = f.lba + i;
        --busy[lba];
        if (f.kind == Inflight::Write) {
          acked[lba] = f.version;
          if (f.fua) durable[lba] = std::max(durable[lba], f.version);
        } else {
          const SectorStamp& s = hw.host_in_[r.tag][i];
          const bool ok = acked[lba] == 0 ? s.lba == kNoLba : s == SectorStamp{lba, acked[lba]};
          if (!ok) ++wrong_live;
        }
      }
    }
    if (issuing) issue(r.tag);
  }

  void start_io() {
    issuing = true;
    for (uint8_t t = 0; t < 16; ++t) issue(t);
  }

  // Cut power now: commands in flight are gone, a fresh firmware recovers from the NAND.
  void power_cycle() {
    issuing = false;
    hw.power_cut();
    for (auto& f : slots) {
      if (f.active && f.kind != Inflight::Sync)
        for (uint32_t i = 0; i < f.n; ++i) --busy[f.lba + i];
      f.active = false;
    }
    fw = std::make_unique<DeviceFirmware>(hw, params, geo);
    hw.attach(fw.get());
    fw->recover_on_power_up();
    hw.post(hw.now_ps(), [this] { fw->on_power_up(); });
    hw.run([this] { return !fw->recovering() && fw->recovery().stats().recoveries > 0; });
  }

  // Read every LBA back: each must be its durable version or a newer acknowledged one
  // (never erased, never older). What is read becomes the new acknowledged and durable state.
  void check_all(uint64_t& lost, uint64_t& wrong) {
    const auto saved = hw.on_response;
    hw.on_response = nullptr;
    for (uint64_t lba = 0; lba < cap; lba += 8) {
      const uint32_t n = uint32_t(std::min<uint64_t>(8, cap - lba));
      hw.command(make_rw(0, false, lba, n));
      hw.run();
      REQUIRE(hw.responses_.back().status == scsi_status::kGood);
      for (uint32_t i = 0; i < n; ++i) {
        const SectorStamp& s = hw.host_in_[0][i];
        const uint64_t want = durable[lba + i];
        if (s.lba == kNoLba) { if (want != 0) ++lost; }
        else if (s.lba != lba + i || s.version < want || s.version > version) ++wrong;
        const uint64_t now = s.lba == kNoLba ? 0 : s.version;
        acked[lba + i] = durable[lba + i] = now;
      }
    }
    hw.on_response = saved;
  }
};

void power_loss_cycles(FirmwareParams p, uint32_t cycles, FlashGeometry g = spo_geometry()) {
  PowerLossRig r(p, g);
  r.start_io();
  r.hw.run_until(r.hw.now_ps() + 400'000'000'000ull);  // 400 ms: the device is full and GC runs
  REQUIRE(r.fw->gc().stats().victims > 0);
  if (p.logical_page_kib > 4) REQUIRE(fw_count(*r.fw, "ftl.rmw_flash_sectors") > 0);  // the cuts meet read-modify-writes
  uint64_t lost = 0, wrong = 0, torn = 0, gc_before_cut = 0, max_recovery_ps = 0;
  for (uint32_t c = 0; c < cycles; ++c) {
    // Cut at a random instant 1..80 ms into this power cycle's I/O.
    r.hw.run_until(r.hw.now_ps() + 1'000'000'000ull + r.rng() % 79'000'000'000ull);
    gc_before_cut += r.fw->gc().stats().victims;
    const uint64_t torn_before = r.hw.torn_pages_;
    r.power_cycle();
    torn += r.hw.torn_pages_ - torn_before;
    const RecoveryStats& s = r.fw->recovery().stats();
    CHECK(s.recoveries == 1);
    CHECK(s.page_reads > 0);
    max_recovery_ps = std::max(max_recovery_ps, s.recovery_ps);
    r.check_all(lost, wrong);
    r.start_io();
  }
  r.issuing = false;
  r.hw.run();
  INFO("cycles " << cycles << ", torn pages " << torn << ", GC victims before the cuts " << gc_before_cut
                 << ", slowest recovery " << max_recovery_ps / 1e9 << " ms");
  CHECK(lost == 0);
  CHECK(wrong == 0);
  CHECK(r.wrong_live == 0);
  CHECK(r.bad_status == 0);
  CHECK(torn > 0);           // cuts did land in the middle of programs
  CHECK(gc_before_cut > 0);  // and GC was running
  CHECK(r.hw.violations_ == 0);
}

FirmwareParams spo_params() {
  FirmwareParams p;
  p.over_provisioning = 0.25;
  p.data_buffer_kib = 1024;
  p.write_cache_kib = 512;
  return p;
}

}  // namespace

TEST_CASE("Sudden power-off at random instants loses no durable block", "[firmware][power-loss]") {
  power_loss_cycles(spo_params(), 25);
}

TEST_CASE("Sudden power-off with a small demand-loaded map cache loses no durable block", "[firmware][power-loss][map]") {
  FirmwareParams p = spo_params();
  p.l2p_sram_kib = 32;  // 2 of 3 map pages: map write-backs and map GC are in flight at the cuts
  power_loss_cycles(p, 25);
}

TEST_CASE("Commands during recovery get NOT READY, recovery reports its time", "[firmware][power-loss]") {
  PowerLossRig r(spo_params());
  r.hw.command(make_rw(1, true, 10, 4, true), {SectorStamp{10, 1}, SectorStamp{11, 1}, SectorStamp{12, 1}, SectorStamp{13, 1}});
  r.slots[1] = PowerLossRig::Inflight{PowerLossRig::Inflight::Write, 10, 4, 1, true, true, {}};
  r.version = 1;
  for (int i = 0; i < 4; ++i) ++r.busy[10 + i];
  r.issuing = false;
  r.hw.run();
  REQUIRE(r.durable[12] == 1);
  r.hw.power_cut();
  r.fw = std::make_unique<DeviceFirmware>(r.hw, r.params, r.geo);
  r.hw.attach(r.fw.get());
  r.fw->recover_on_power_up();
  r.hw.post(r.hw.now_ps(), [&] { r.fw->on_power_up(); });
  r.hw.on_response = nullptr;
  r.hw.command(make_rw(2, false, 10, 1));
  r.hw.run([&] { return !r.hw.responses_.empty() && r.hw.responses_.back().tag == 2; });
  CHECK(r.hw.responses_.back().status == scsi_status::kCheckCondition);
  CHECK(r.hw.responses_.back().sense_key == sense_key::kNotReady);
  r.hw.run();
  CHECK_FALSE(r.fw->recovering());
  CHECK(r.fw->recovery().stats().recovered_lbas == 4);
  CHECK(r.fw->recovery().stats().recovery_ps > 0);
  uint64_t lost = 0, wrong = 0;
  r.check_all(lost, wrong);
  CHECK(lost == 0);
  CHECK(wrong == 0);
}

TEST_CASE("Sudden power-off with logical pages of two program units and plane-first static placement",
          "[firmware][power-loss][lpage]") {
  FirmwareParams p = spo_params();
  p.logical_page_kib = 96;  // 2 program units of 48 KiB: a write unit is 2 programs, small writes are RMW
  p.stripe_order = "plane-first";
  p.lba_mapping = "static";
  REQUIRE(p.validate_for(spo_geometry()).empty());
  power_loss_cycles(p, 15);
}

// WriteBooster on: host data sits in SLC blocks, idle gaps start flushes into TLC, and
// the cuts land during I/O and during flushes. The recovery scan reads SLC blocks in SLC
// mode (the fake platform counts any access in the wrong mode).
TEST_CASE("Sudden power-off with WriteBooster (SLC buffer, idle flushes) loses no durable block",
          "[firmware][power-loss][writebooster]") {
  FlashGeometry g = spo_geometry();
  g.pages_per_block = 36;  // 12 pages as SLC: a whole number of 3-page write units
  g.bits_per_cell = 3;
  FirmwareParams p = spo_params();
  p.writebooster.enabled = true;
  p.writebooster.buffer_mib = 3;  // 4 SLC blocks of 192 KiB per die
  p.writebooster.idle_flush_us = 1000;
  PowerLossRig r(p, g);
  REQUIRE(r.fw->writebooster()->slc_blocks_per_die() == 4);
  r.start_io();
  r.hw.run_until(r.hw.now_ps() + 300'000'000'000ull);  // the device is full, GC runs
  REQUIRE(r.fw->gc().stats().victims > 0);
  uint64_t lost = 0, wrong = 0, slc_writes = 0, flushed = 0, cut_in_flush = 0;
  for (uint32_t c = 0; c < 24; ++c) {
    r.hw.run_until(r.hw.now_ps() + 1'000'000'000ull + r.rng() % 30'000'000'000ull);
    if (c % 2) {  // stop the host: after 1 ms idle the flush starts; cut somewhere in it
      r.issuing = false;
      r.hw.run_until(r.hw.now_ps() + 1'000'000'000ull + r.rng() % 40'000'000'000ull);
      cut_in_flush += r.fw->query({ufs_query::kReadAttribute, ufs_query::kAttrWbFlushStatus}).value;
    }
    slc_writes += r.fw->writebooster()->stats().slc_write_sectors;
    flushed += r.fw->writebooster()->stats().flushed_sectors;
    r.power_cycle();
    CHECK(r.fw->recovery().stats().recoveries == 1);
    r.check_all(lost, wrong);
    r.start_io();
  }
  r.issuing = false;
  r.hw.run();
  INFO("SLC writes " << slc_writes << ", flushed " << flushed << ", cuts during a flush " << cut_in_flush);
  CHECK(lost == 0);
  CHECK(wrong == 0);
  CHECK(r.wrong_live == 0);
  CHECK(r.bad_status == 0);
  CHECK(slc_writes > 0);
  CHECK(flushed > 0);
  CHECK(cut_in_flush > 0);
  CHECK(r.hw.violations_ == 0);
  CHECK(r.hw.mode_violations_ == 0);
}

// Hybrid page size: 4 KiB- and 8 KiB-page blocks in each plane, writes split between them;
// the recovery scan reads each block with its own page size.
TEST_CASE("Sudden power-off with hybrid page size loses no durable block", "[firmware][power-loss][hybrid]") {
  FlashGeometry g = spo_geometry();
  g.page_bytes = 4096;
  g.blocks_per_plane = 24;
  g.pages_per_block = 64;
  g.small_blocks_per_plane = 16;
  g.large_page_bytes = 8192;
  FirmwareParams p = spo_params();
  p.program_pages = 1;
  REQUIRE(p.validate_for(g).empty());
  power_loss_cycles(p, 15, g);
}
