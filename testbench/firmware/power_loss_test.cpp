// Sudden power-off at random instants during mixed I/O with GC running, on the
// fake platform: the firmware is thrown away with everything in SRAM, pages being
// programmed are torn, a fresh firmware recovers from the NAND alone (OOB scan),
// and every block acknowledged as durable (FUA, or written before a SYNCHRONIZE
// CACHE that completed) must read back as that version or a newer acknowledged one.
#include <catch2/catch.hpp>
#include "debug_state.h"
#include "power_loss_rig.h"

using namespace ufs;
using namespace ufs::test;
using namespace ufs::test::power_loss;

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
  r.new_firmware();
  r.fw->recover_on_power_up();
  r.hw.post(r.hw.now_ps(), [&] { r.fw->on_power_up(); });
  r.hw.on_response = nullptr;
  r.hw.command(make_rw(2, false, 10, 1));
  r.hw.run([&] { return !r.hw.responses_.empty() && r.hw.responses_.back().tag == 2; });
  CHECK(r.hw.responses_.back().status == scsi_status::kCheckCondition);
  CHECK(r.hw.responses_.back().sense_key == sense_key::kNotReady);
  r.hw.run();
  CHECK_FALSE(r.fw->recovery().active());
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
  FirmwareParams p = spo_params();
  p.program_pages = 1;
  REQUIRE(p.validate_for(spo_hybrid_geometry()).empty());
  power_loss_cycles(p, 15, spo_hybrid_geometry());
}

// Other workloads and cut instants: with these three seeds a cut in the first cycles left
// every die's GC without a large-page block to write (the test below), the whole device
// turned read-only and refused writes from then on.
TEST_CASE("Sudden power-off with hybrid page size under other workloads and cut instants", "[firmware][power-loss][hybrid]") {
  FirmwareParams p = spo_params();
  p.program_pages = 1;
  for (uint64_t seed : {95029u, 150462u, 182138u}) {
    INFO("seed " << seed);
    power_loss_cycles(p, 3, spo_hybrid_geometry(), make_native, seed);
  }
}

// The NAND does not say which stream wrote a block. When the power goes while GC moves a
// victim into a block it took as its pool's last free one (host data never takes that one),
// recovery must give that block back to GC: handed to the host instead, GC has nowhere to
// write, never frees a block, and the device turns read-only with free blocks in the other
// pool (seen on the emulated core, whose timing reaches such an instant with the rig's seed).
TEST_CASE("Power-loss recovery gives GC a write point when its victim took the pool's last free block",
          "[firmware][power-loss][hybrid]") {
  FirmwareParams p = spo_params();
  p.program_pages = 1;
  PowerLossRig r(p, spo_hybrid_geometry());
  r.start_io();
  r.hw.run_until(r.hw.now_ps() + 400'000'000'000ull);
  // An instant when a die's large-page pool has no free block, its GC is moving a victim into
  // a large-page block of its own with pages programmed, and host data has no such block there.
  const BlockManager* b = &r.fw->ftl().blocks();
  uint32_t die = ~0u;
  for (int step = 0; step < 20000 && die == ~0u; ++step) {
    r.hw.run_until(r.hw.now_ps() + 100'000'000ull);  // 0.1 ms
    for (uint32_t d = 0; d < r.geo.dies() && die == ~0u; ++d) {
      const uint32_t gc_block = b->write_points().open_block(d, WriteStream::Gc, 0, true);
      if (b->pools().free_blocks(d, true) == 0 && r.fw->gc().active(d) && gc_block != BlockManager::kNoBlock &&
          b->info(gc_block).next_page > b->info(gc_block).programs_in_flight &&
          b->write_points().open_block(d, WriteStream::Host, 0, true) == BlockManager::kNoBlock)
        die = d;
    }
  }
  REQUIRE(die != ~0u);
  r.power_cycle();
  b = &r.fw->ftl().blocks();
  CHECK(b->pools().free_blocks(die, true) == 0);
  CHECK(b->write_points().open_block(die, WriteStream::Gc, 0, true) != BlockManager::kNoBlock);
  uint64_t lost = 0, wrong = 0;
  r.check_all(lost, wrong);
  CHECK(lost == 0);
  CHECK(wrong == 0);
  // The device goes on writing: GC frees blocks, nothing is refused.
  r.start_io();
  r.hw.run_until(r.hw.now_ps() + 200'000'000'000ull);
  r.issuing = false;
  r.hw.run();
  INFO(debug_state(*r.fw));
  CHECK(!r.fw->gc().active(die));
  CHECK(r.count("ftl.erases") > 0);
  CHECK(r.count("ftl.write_protect_rejects") == 0);
  CHECK(r.bad_status == 0);
  CHECK(r.wrong_live == 0);
}
