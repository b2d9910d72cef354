// Sudden power-off at random instants during mixed I/O with GC running, on the
// fake platform: the firmware is thrown away with everything in SRAM, pages being
// programmed are torn, a fresh firmware recovers from the NAND alone (OOB scan),
// and every block acknowledged as durable (FUA, or written before a SYNCHRONIZE
// CACHE that completed) must read back as that version or a newer acknowledged one.
// A write or sync the device refuses (CHECK CONDITION) acknowledges nothing: it counts in
// bad_status, and a refused write's blocks may read back as the old or the refused data.
// The rig, for either build of the firmware (firmware_under_test.h): power_loss_test.cpp
// runs it native, testbench/iss/iss_power_loss_test.cpp on the emulated core.
#pragma once
#include <catch2/catch.hpp>
#include <memory>
#include <random>
#include "firmware_under_test.h"

namespace ufs::test::power_loss {

inline FlashGeometry spo_geometry() {
  FlashGeometry g;
  g.channels = 2; g.ways_per_channel = 1; g.dies_per_way = 2; g.planes_per_die = 2;
  g.blocks_per_plane = 16; g.pages_per_block = 24; g.page_bytes = 16384;
  return g;  // 4 dies * 32 blocks * 96 sectors = 48 MiB
}

// Hybrid page size: 4 KiB- and 8 KiB-page blocks in each plane (16 and 8), one page a unit.
inline FlashGeometry spo_hybrid_geometry() {
  FlashGeometry g = spo_geometry();
  g.page_bytes = 4096;
  g.blocks_per_plane = 24;
  g.pages_per_block = 64;
  g.small_blocks_per_plane = 16;
  g.large_page_bytes = 8192;
  return g;
}

inline HostCommand sync_command(uint8_t tag) {
  HostCommand s;
  s.tag = tag;
  s.cdb[0] = 0x35;
  return s;
}

struct PowerLossRig {
  FlashGeometry geo = spo_geometry();
  FirmwareParams params;
  FakePlatform hw;
  FirmwareMaker make;
  std::unique_ptr<FirmwareUnderTest> fut;
  DeviceFirmware* fw = nullptr;  // the native firmware (null on the core)
  std::mt19937_64 rng{7};
  uint64_t cap = 0;
  uint64_t span = 0;  // LBAs the workload writes: 90% of the device
  std::vector<uint64_t> acked, durable;  // per LBA: last acknowledged / guaranteed version (0: none)
  std::vector<uint64_t> refused;  // per LBA: a refused write's version since acked (0: none)
  std::vector<uint32_t> busy;
  struct Inflight { enum Kind { Read, Write, Sync } kind = Read; uint64_t lba = 0; uint32_t n = 0; uint64_t version = 0;
                    bool fua = false; bool active = false; std::vector<uint64_t> snapshot; };
  std::array<Inflight, 16> slots{};
  uint64_t version = 0, completed = 0, bad_status = 0, wrong_live = 0;
  bool issuing = true;

  explicit PowerLossRig(FirmwareParams p, FlashGeometry g = spo_geometry(), FirmwareMaker m = make_native)
      : geo(g), params(p), hw(geo, p.data_buffer_kib / 4), make(std::move(m)) {
    new_firmware();
    cap = fut->logical_blocks();
    span = cap * 9 / 10;
    acked.assign(cap, 0);
    durable.assign(cap, 0);
    refused.assign(cap, 0);
    busy.assign(cap, 0);
    hw.on_response = [this](const CommandResponse& r) { completed_command(r); };
  }

  // A fresh firmware: everything in SRAM is gone.
  void new_firmware() {
    fut = make(hw, params, geo);
    fw = fut->native();
    hw.attach(&fut->events());
  }
  uint64_t count(const std::string& key) const { return fw_count(*fut, key); }

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
    const bool good = r.status == scsi_status::kGood;
    bad_status += !good;
    if (f.kind == Inflight::Sync) {
      for (uint64_t lba = 0; good && lba < cap; ++lba) durable[lba] = std::max(durable[lba], f.snapshot[lba]);
    } else {
      for (uint32_t i = 0; i < f.n; ++i) {
        const uint64_t lba = f.lba + i;
        --busy[lba];
        if (f.kind == Inflight::Write) {
          (good ? acked : refused)[lba] = f.version;
          if (good) refused[lba] = 0;
          if (good && f.fua) durable[lba] = std::max(durable[lba], f.version);
        } else if (good) {
          const SectorStamp& s = hw.host_in_[r.tag][i];
          const bool ok = acked[lba] == 0 ? s.lba == kNoLba : s == SectorStamp{lba, acked[lba]};
          if (!ok && !(refused[lba] && s == SectorStamp{lba, refused[lba]})) ++wrong_live;
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
    new_firmware();
    fut->recover_on_power_up();
    hw.post(hw.now_ps(), [this] { fut->events().on_power_up(); });
    if (fw) hw.run([this] { return !fw->recovery().active() && fw->recovery().stats().recoveries > 0; });
    else hw.run();  // the core's recovery state is not readable from here: until nothing is pending
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
        refused[lba + i] = 0;
      }
    }
    hw.on_response = saved;
  }
};

// seed: the workload's and the cut instants' (each seed another order of events).
inline void power_loss_cycles(FirmwareParams p, uint32_t cycles, FlashGeometry g = spo_geometry(),
                              FirmwareMaker make = make_native, uint64_t seed = 7) {
  PowerLossRig r(p, g, std::move(make));
  r.rng.seed(seed);
  r.start_io();
  r.hw.run_until(r.hw.now_ps() + 400'000'000'000ull);  // 400 ms: the device is full and GC runs
  REQUIRE(r.count("ftl.gc_victims") > 0);
  if (p.logical_page_kib > 4) REQUIRE(r.count("ftl.rmw_flash_sectors") > 0);  // the cuts meet read-modify-writes
  uint64_t lost = 0, wrong = 0, torn = 0, gc_before_cut = 0, max_recovery_ps = 0;
  for (uint32_t c = 0; c < cycles; ++c) {
    // Cut at a random instant 1..80 ms into this power cycle's I/O.
    r.hw.run_until(r.hw.now_ps() + 1'000'000'000ull + r.rng() % 79'000'000'000ull);
    gc_before_cut += r.count("ftl.gc_victims");
    const uint64_t torn_before = r.hw.torn_pages_;
    r.power_cycle();
    torn += r.hw.torn_pages_ - torn_before;
    if (r.fw) {  // recovery's own figures are the native firmware's (not in its statistics)
      const RecoveryStats& s = r.fw->recovery().stats();
      CHECK(s.recoveries == 1);
      CHECK(s.page_reads > 0);
      max_recovery_ps = std::max(max_recovery_ps, s.recovery_ps);
    }
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

inline FirmwareParams spo_params() {
  FirmwareParams p;
  p.over_provisioning = 0.25;
  p.data_buffer_kib = 1024;
  p.write_cache_kib = 512;
  return p;
}


}  // namespace ufs::test::power_loss
