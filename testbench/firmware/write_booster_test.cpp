// WriteBooster on the fake platform: host writes land in SLC blocks while the buffer
// has room and in TLC after; an idle flush moves the sealed SLC blocks to TLC and leaves
// the open ones open (an erase cycle per block's worth of writes, not per idle gap);
// the QUERY flags and attributes; sudden power-off with WriteBooster on loses nothing
// acknowledged as durable. The fake platform checks every op's SLC mode against its block.
#include <catch2/catch.hpp>
#include <random>
#include "fake_platform.h"

using namespace ufs;
using namespace ufs::test;
using namespace ufs::ufs_query;

namespace {

FlashGeometry wb_geometry() {
  FlashGeometry g;
  g.channels = 2; g.ways_per_channel = 1; g.dies_per_way = 1; g.planes_per_die = 2;
  g.blocks_per_plane = 16; g.pages_per_block = 36; g.page_bytes = 16384; g.bits_per_cell = 3;
  return g;  // 2 dies x 32 blocks; SLC blocks have 12 pages (192 KiB)
}

FirmwareParams wb_params() {
  FirmwareParams p;
  p.over_provisioning = 0.25;
  p.data_buffer_kib = 1024;
  p.write_cache_kib = 512;
  p.writebooster.enabled = true;
  p.writebooster.buffer_mib = 2;  // 2 MiB over 2 dies: 6 SLC blocks of 192 KiB per die (1152 KiB)
  p.writebooster.idle_flush_us = 2000;
  p.writebooster.hibernate_idle_us = 10000;
  return p;
}

struct WbRig {
  FlashGeometry geo = wb_geometry();
  FirmwareParams params;
  FakePlatform hw;
  DeviceFirmware fw;
  uint64_t version = 0;
  std::vector<uint64_t> written;
  explicit WbRig(const FirmwareParams& p = wb_params(), const FlashGeometry& g = wb_geometry())
      : geo(g), params(p), hw(geo, p.data_buffer_kib / 4), fw(hw, params, geo), written(fw.logical_blocks(), 0) {
    hw.attach(&fw);
  }
  // Sequential writes of `blocks` LBAs from `lba` in 32-block commands, 8 in flight.
  void write(uint64_t lba, uint64_t blocks) {
    uint32_t tag = 0;
    for (uint64_t done = 0; done < blocks; done += 32) {
      const uint32_t n = uint32_t(std::min<uint64_t>(32, blocks - done));
      ++version;
      std::vector<SectorStamp> data;
      for (uint32_t k = 0; k < n; ++k) { data.push_back(SectorStamp{lba + done + k, version}); written[lba + done + k] = version; }
      hw.command(make_rw(uint8_t(tag), true, lba + done, n), data);
      if (++tag == 8) {
        tag = 0;
        const size_t want = hw.responses_.size() + 8;
        hw.run([&] { return hw.responses_.size() >= want; });
      }
    }
    const size_t want = hw.responses_.size() + tag;
    hw.run([&] { return hw.responses_.size() >= want; });
    // SYNCHRONIZE CACHE: the write cache's last partial unit is programmed too.
    HostCommand sync;
    sync.tag = 30;
    sync.cdb[0] = 0x35;
    hw.command(sync);
    hw.run([&] { return !hw.responses_.empty() && hw.responses_.back().tag == 30; });
    hw.responses_.back().tag = 0xFF;
  }
  uint64_t wrong_reads() {
    uint64_t wrong = 0;
    for (uint64_t lba = 0; lba < written.size(); lba += 8) {
      const uint32_t n = uint32_t(std::min<uint64_t>(8, written.size() - lba));
      hw.command(make_rw(20, false, lba, n));
      hw.run([&] { return !hw.responses_.empty() && hw.responses_.back().tag == 20; });
      hw.responses_.back().tag = 0xFF;
      for (uint32_t k = 0; k < n; ++k)
        wrong += written[lba + k] ? hw.host_in_[20][k] != SectorStamp{lba + k, written[lba + k]}
                                  : hw.host_in_[20][k].lba != kNoLba;
    }
    return wrong;
  }
  uint32_t attr(uint8_t idn) { return fw.query({kReadAttribute, idn}).value; }
  // Sectors written into the open SLC blocks (what a flush of sealed blocks leaves in the buffer).
  uint64_t open_slc_sectors() const {
    const BlockManager& b = fw.ftl().blocks();
    uint64_t n = 0;
    for (uint32_t die = 0; die < geo.dies(); ++die)
      for (uint32_t slot = 0; slot < geo.planes_per_die; ++slot) {
        const uint32_t open = b.write_points().open_block(die, WriteStream::Slc, slot);
        if (open != BlockManager::kNoBlock) n += uint64_t(b.info(open).next_page) * geo.sectors_per_page();
      }
    return n;
  }
  // Valid sectors in sealed SLC blocks: what a flush moves.
  uint64_t sealed_slc_valid() const {
    const BlockManager& b = fw.ftl().blocks();
    uint64_t n = 0;
    for (uint32_t block = 0; block < b.layout().block_count(); ++block)
      if (b.info(block).slc && b.info(block).state == BlockState::Closed) n += b.info(block).valid;
    return n;
  }
};

}  // namespace

TEST_CASE("WriteBooster: writes fill the SLC buffer, then go to TLC, an idle flush empties its sealed blocks",
          "[firmware][writebooster]") {
  WbRig r;
  const WriteBooster& wb = *r.fw.writebooster();
  REQUIRE(wb.slc_blocks_per_die() == 6);
  CHECK(wb.capacity_sectors() == 2 * 6 * 12 * 4);
  // Dedicated buffer: its blocks come off the exported capacity (12 of 64 blocks' TLC space).
  CHECK(r.fw.logical_blocks() == uint64_t(double((64 - 12) * 144) * 0.75));
  CHECK(r.attr(kAttrWbAvailableSize) == 10);
  r.write(0, 256);  // 1 MiB: fits the 2.25 MiB buffer
  r.hw.run_until(r.hw.now_ps() + 1'000'000'000ull);  // 1 ms: below the idle threshold
  CHECK(wb.stats().slc_write_sectors == 256);
  CHECK(wb.stats().tlc_write_sectors == 0);
  CHECK(wb.stats().flushed_sectors == 0);
  CHECK(wb.used_sectors() == 264);  // 22 units of 12 sectors, the last one padded
  CHECK(r.attr(kAttrWbAvailableSize) == 5);  // 312 of 576 sectors left: 54% -> 5 (10% steps, down)
  CHECK(r.hw.slc_ops_ > 0);
  const uint64_t sealed = r.sealed_slc_valid(), open = r.open_slc_sectors();
  CHECK(sealed >= 4 * 48);  // 132 sectors a die: two full blocks each, the rest in the open ones
  CHECK(open > 0);
  CHECK(open == wb.used_sectors() - 4 * 48);
  r.hw.run();  // idle: the flush moves the sealed blocks to TLC and erases them; the open ones stay
  CHECK(wb.stats().flushes_started == 1);
  CHECK(wb.stats().flushed_sectors == sealed);
  CHECK(wb.stats().flushed_blocks == 4);
  CHECK(wb.stats().slc_erases == 4);
  CHECK(wb.used_sectors() == open);
  CHECK(r.open_slc_sectors() == open);
  CHECK(r.attr(kAttrWbFlushStatus) == kWbFlushIdle);
  CHECK(r.wrong_reads() == 0);
  // More than the buffer's room in one go (no idle time): the rest goes straight to TLC.
  r.write(1024, 1024);
  CHECK(wb.stats().slc_write_sectors == 256 + 576 - open);
  CHECK(wb.stats().tlc_write_sectors == 1024 - (576 - open));
  r.hw.run();
  CHECK(wb.used_sectors() == r.open_slc_sectors());
  CHECK(r.wrong_reads() == 0);
  CHECK(r.hw.mode_violations_ == 0);
  CHECK(r.hw.violations_ == 0);
}

TEST_CASE("WriteBooster with plane-first striping: each plane of a die has its own open SLC block", "[firmware][writebooster]") {
  // So two units for one die land on its two planes and the demux can pair them into one
  // two-plane SLC program, as it does TLC ones (one open SLC block per die would put both
  // on one plane: half the buffer's write rate).
  FirmwareParams p = wb_params();
  p.stripe_order = "plane-first";
  WbRig r(p);
  const WriteBooster& wb = *r.fw.writebooster();
  r.write(0, 256);  // 1 MiB: fits the buffer
  r.hw.run_until(r.hw.now_ps() + 1'000'000'000ull);  // below the idle threshold
  CHECK(wb.stats().slc_write_sectors == 256);
  CHECK(wb.stats().tlc_write_sectors == 0);
  const uint64_t plane0 = r.hw.slc_programs_by_plane_[0], plane1 = r.hw.slc_programs_by_plane_[1];
  CHECK(plane0 >= 10);
  CHECK(plane1 >= 10);
  CHECK(plane0 + 1 >= plane1);  // units alternate planes (the last one may be odd)
  CHECK(plane1 + 1 >= plane0);
  // More than the buffer's room (576 - 264 sectors): the rest goes to TLC; an idle flush then
  // empties every plane's blocks.
  r.write(1024, 1024);
  CHECK(wb.stats().slc_write_sectors == 256 + 576 - 264);
  CHECK(wb.stats().tlc_write_sectors == 1024 - (576 - 264));
  r.hw.run();
  CHECK(wb.used_sectors() == 0);
  CHECK(r.wrong_reads() == 0);
  CHECK(r.hw.mode_violations_ == 0);
  CHECK(r.hw.violations_ == 0);
}

TEST_CASE("WriteBooster: a command pauses a flush at its next unit and the flush goes on in the next idle time",
          "[firmware][writebooster]") {
  FlashGeometry g = wb_geometry();
  g.pages_per_block = 144;  // SLC blocks of 48 pages: 16 units of 12 sectors to move per block
  WbRig r(wb_params(), g);  // 2 SLC blocks of 192 sectors per die
  const WriteBooster& wb = *r.fw.writebooster();
  r.write(0, 512);  // 2 MiB into the SLC buffer: a sealed block per die, the rest in the open ones
  const uint64_t sealed = r.sealed_slc_valid();
  REQUIRE(sealed == 2 * 192);
  const uint64_t idle_from = r.hw.now_ps();
  r.hw.run_until(idle_from + 2'100'000'000ull);  // 0.1 ms into the flush (idle_flush_us = 2000)
  REQUIRE(wb.stats().flushes_started == 1);
  const uint64_t flushed_before = wb.stats().flushed_sectors;
  // At most a unit per plane in flight on each die: 2 dies x 2 planes x 12 sectors (taking the
  // whole block at once would read all 256).
  CHECK(flushed_before > 0);
  CHECK(flushed_before <= 2 * 2 * 12);
  // A write arrives: it finds buffer units free (the flush keeps at most a unit per plane in
  // flight) and waits for no more than the programs already on the die.
  const uint64_t t0 = r.hw.now_ps();
  r.hw.command(make_rw(3, true, 4096, 8), std::vector<SectorStamp>(8, SectorStamp{4096, 99}));
  r.hw.run([&] { return !r.hw.responses_.empty() && r.hw.responses_.back().tag == 3; });
  CHECK(r.hw.now_ps() - t0 < 1'200'000'000ull);  // below 1.2 ms: two 500 us programs at most
  // The flush took no new unit while the command was in (at most one per die finishing).
  CHECK(wb.stats().flushed_sectors - flushed_before <= 2 * 12);
  r.hw.run();  // idle again: the flush goes on and empties the sealed blocks
  CHECK(wb.stats().flushed_sectors == sealed);
  CHECK(wb.stats().flushed_blocks == 2);
  CHECK(wb.used_sectors() == r.open_slc_sectors());
  CHECK(r.hw.mode_violations_ == 0);
  CHECK(r.hw.violations_ == 0);
}

TEST_CASE("WriteBooster: QUERY flags and attributes (JESD220E)", "[firmware][writebooster]") {
  WbRig r;
  DeviceFirmware& wb = r.fw;  // QUERY goes to the device's server, which routes it to WriteBooster
  const WriteBoosterStats& stats = r.fw.writebooster()->stats();
  CHECK(wb.query({kReadFlag, kFlagWbEn}).value == 1);
  CHECK(wb.query({kReadFlag, kFlagWbFlushEn}).value == 1);
  CHECK(wb.query({kReadFlag, kFlagWbFlushDuringHibernate}).value == 1);
  CHECK(wb.query({kReadAttribute, kAttrWbCurrentSize}).value == 576);
  CHECK(wb.query({kReadAttribute, kAttrWbLifeTimeEst}).value == 1);
  CHECK(wb.query({kWriteAttribute, kAttrWbAvailableSize, 0, 0, 3}).status == kReadOnly);
  CHECK(wb.query({kReadAttribute, 0x55}).status == kInvalidIdn);
  CHECK(wb.query({kSetFlag, 0x55}).status == kInvalidIdn);
  CHECK(wb.query({0x42, kFlagWbEn}).status == kInvalidOpcode);
  // fWriteBoosterEn cleared: host writes bypass the buffer.
  CHECK(wb.query({kClearFlag, kFlagWbEn}).value == 0);
  r.write(0, 128);
  CHECK(stats.slc_write_sectors == 0);
  CHECK(stats.tlc_write_sectors == 128);
  CHECK(wb.query({kSetFlag, kFlagWbEn}).value == 1);
  // No flush flag: the buffer keeps its data however long the device idles.
  wb.query({kClearFlag, kFlagWbFlushEn});
  wb.query({kClearFlag, kFlagWbFlushDuringHibernate});
  r.write(512, 128);
  r.hw.run();
  CHECK(stats.slc_write_sectors == 128);
  CHECK(stats.flushed_sectors == 0);
  CHECK(r.attr(kAttrWbAvailableSize) < 10);
  // Flush during hibernate only: it starts once the link would be in Hibern8.
  wb.query({kSetFlag, kFlagWbFlushDuringHibernate});
  r.write(2048, 32);
  const uint64_t sealed = r.sealed_slc_valid();
  REQUIRE(sealed > 0);
  r.hw.run_until(r.hw.now_ps() + 8'000'000'000ull);
  CHECK(stats.flushed_sectors == 0);
  r.hw.run();
  CHECK(stats.flushed_sectors == sealed);
  CHECK(r.wrong_reads() == 0);
  CHECK(r.hw.mode_violations_ == 0);
}

TEST_CASE("WriteBooster: buffer size and type are checked against the geometry", "[firmware][writebooster]") {
  FlashGeometry g = wb_geometry();
  WriteBoosterParams w;
  w.enabled = true;
  w.buffer_mib = 64;
  CHECK(w.validate_for(g, 3).rfind("buffer_mib:", 0) == 0);
  w.buffer_mib = 2;
  CHECK(w.validate_for(g, 3) == "");
  CHECK(w.validate_for(g, 5).rfind("enabled:", 0) == 0);
  g.bits_per_cell = 1;
  CHECK(w.validate_for(g, 3).rfind("enabled:", 0) == 0);
  w.buffer_type = "both";
  CHECK(w.validate().rfind("buffer_type:", 0) == 0);
  // Shared: the exported capacity stays that of the whole array.
  FirmwareParams p = wb_params();
  p.writebooster.buffer_type = "shared";
  WbRig r(p);
  CHECK(r.fw.logical_blocks() == uint64_t(double(64 * 144) * 0.75));
}

// fWBBufferFlushDuringHibernate acts when the link enters Hibern8: with the link's
// auto-hibernate off it never triggers a flush; the idle flush still does.
TEST_CASE("WriteBooster: flush during hibernate follows the link's auto-hibernate", "[firmware][writebooster]") {
  const FlashGeometry g = wb_geometry();
  WriteBoosterParams p;
  p.enabled = true;
  p.buffer_mib = 1;
  p.flush_during_idle = false;
  p.flush_during_hibernate = true;
  p.hibernate_idle_us = 0;  // link never hibernates
  CHECK(WriteBooster(p, g).flush_idle_ps() == 0);
  p.hibernate_idle_us = 150000;  // Linux's auto-hibernate
  CHECK(WriteBooster(p, g).flush_idle_ps() == 150000ull * 1000000ull);
  p.flush_during_idle = true;
  p.idle_flush_us = 5000;  // the earlier trigger wins
  CHECK(WriteBooster(p, g).flush_idle_ps() == 5000ull * 1000000ull);
  p.hibernate_idle_us = 0;
  CHECK(WriteBooster(p, g).flush_idle_ps() == 5000ull * 1000000ull);
}

// A phone writes a little, idles a little, again and again: each idle gap may flush only the
// sealed SLC blocks, so a block is erased once per block's worth of writes (issue 14 item 4:
// flushing the open block at every gap erased thousands of nearly empty blocks per GB).
TEST_CASE("WriteBooster: idle gaps between small writes leave the open SLC block open", "[firmware][writebooster]") {
  WbRig r;  // SLC blocks of 48 sectors, 6 per die
  const WriteBooster& wb = *r.fw.writebooster();
  const uint64_t block_sectors = 48;
  uint64_t lba = 0;
  for (int gap = 0; gap < 60; ++gap) {
    r.write(lba, 8);  // 8 sectors (32 KiB), then an idle gap past idle_flush_us
    lba += 8;
    r.hw.run_until(r.hw.now_ps() + 3'000'000'000ull);
  }
  r.hw.run();
  const WriteBoosterStats& w = wb.stats();
  INFO("slc sectors " << w.slc_write_sectors << ", erases " << w.slc_erases << ", idle flushes " << w.flushes_started);
  CHECK(w.flushes_started >= 50);
  CHECK(w.slc_write_sectors == 480);
  // Each 8-sector write is padded to a 12-sector unit: 720 sectors of SLC pages, 15 blocks.
  CHECK(w.slc_erases <= 720 / block_sectors);
  CHECK(w.slc_erases >= 720 / block_sectors - 2 * r.geo.dies());
  CHECK(w.flushed_blocks == w.slc_erases);
  CHECK(wb.used_sectors() == r.open_slc_sectors());
  CHECK(r.wrong_reads() == 0);
  CHECK(r.hw.mode_violations_ == 0);
}

// bWBBufferLifeTimeEst follows the most worn buffer block; once its erases reach
// slc_endurance (0Bh, exceeded) host writes go straight to TLC, as JESD220E says ("processed
// as if WriteBooster feature was disabled"), and no SLC block is erased any more.
TEST_CASE("WriteBooster: the buffer's life time estimate and writes past its end", "[firmware][writebooster]") {
  FirmwareParams p = wb_params();
  p.writebooster.slc_endurance = 4;
  WbRig r(p);
  const WriteBooster& wb = *r.fw.writebooster();
  CHECK(r.attr(kAttrWbLifeTimeEst) == 1);
  uint32_t seen_est = 1;
  uint64_t lba = 0;
  for (int round = 0; round < 12 && !wb.life_exceeded(); ++round) {
    r.write(lba % 2048, 576);  // the whole buffer, then an idle flush of its sealed blocks
    lba += 576;
    r.hw.run();
    const uint32_t est = r.attr(kAttrWbLifeTimeEst);
    CHECK(est >= seen_est);  // never goes back
    seen_est = est;
    CHECK(est == std::min<uint32_t>(wb.max_erase_count() * 10 / 4 + 1, 0x0B));
  }
  REQUIRE(wb.life_exceeded());
  CHECK(r.attr(kAttrWbLifeTimeEst) == 0x0B);
  const WriteBoosterStats before = wb.stats();
  r.write(3000, 256);
  r.hw.run();
  CHECK(wb.stats().slc_write_sectors == before.slc_write_sectors);
  CHECK(wb.stats().tlc_write_sectors == before.tlc_write_sectors + 256);
  CHECK(r.wrong_reads() == 0);
  CHECK(r.hw.mode_violations_ == 0);
}
