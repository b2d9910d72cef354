// The hostile host against the HPB device on the fake platform (crypto answered by the
// reference codec): forged, moved, stale, replayed, pre-power-cycle, other-LU and
// out-of-range entries, malformed HPB READ / READ BUFFER / WRITE BUFFER commands,
// mixed with writes (GC runs) and honest HPB traffic. A scoreboard checks every
// block read back; every malformed command must get the right CHECK CONDITION.
// Either build of the firmware (firmware_under_test.h): hpb_hostile_test.cpp runs it
// native, testbench/iss/iss_hostile_test.cpp on the emulated core.
#pragma once
#include <catch2/catch.hpp>
#include <random>
#include "firmware_under_test.h"

namespace ufs::test::hostile {


struct Hostile {
  FlashGeometry geo;
  FirmwareParams params;
  FakePlatform hw;
  std::unique_ptr<FirmwareUnderTest> fw;
  std::mt19937_64 rng{20260707};
  std::vector<uint64_t> version;   // per LBA: last acknowledged version (0: never written)
  std::vector<uint64_t> entry;     // per LBA: the last entry the host was given (0: none)
  uint64_t next_version = 1;
  uint64_t mismatches = 0, wrong_status = 0, blocks_checked = 0, commands = 0;
  uint64_t logical = 0;
  uint32_t sub_blocks = 0, regions = 0;

  static FlashGeometry geometry() {
    FlashGeometry g;
    g.channels = 2; g.ways_per_channel = 1; g.dies_per_way = 2; g.planes_per_die = 2;
    g.blocks_per_plane = 16; g.pages_per_block = 24; g.page_bytes = 16384;
    return g;
  }
  static FirmwareParams make_params(uint32_t response_entries) {
    FirmwareParams p;
    p.hpb.response_entries = response_entries;
    p.hpb.response_delta_entries = 32;  // small: the table overflows and dirties sub-regions too
    p.over_provisioning = 0.25;
    p.data_buffer_kib = 1024;
    p.write_cache_kib = 512;
    p.l2p_sram_kib = 32;  // two map pages: lookups miss often
    p.hpb.enabled = true;
    p.hpb.subregion_size_exp = 12;  // 512 blocks per sub-region
    p.hpb.region_size_exp = 13;
    p.hpb.max_active_regions = 4;
    p.hpb.max_single_cmd_blocks = 16;
    return p;
  }
  uint64_t updates_taken = 0;
  explicit Hostile(uint32_t response_entries = 0, const FirmwareMaker& make = make_native)
      : geo(geometry()), params(make_params(response_entries)), hw(geo, params.data_buffer_kib / 4) {
    {  // the HPB layout, from a native firmware of the same parameters (the core's is not readable)
      FakePlatform scratch(geo, params.data_buffer_kib / 4);
      DeviceFirmware probe(scratch, params, geo);
      sub_blocks = uint32_t(probe.hpb()->regions().subregion_blocks());
      regions = probe.hpb()->regions().regions();
    }
    fw = make(hw, params, geo);
    hw.crypto_on = true;
    hw.attach(&fw->events());
    fw->events().on_power_up();
    logical = fw->logical_blocks();
    version.assign(logical, 0);
    entry.assign(logical, 0);
  }
  uint64_t count(const std::string& key) const { return fw_count(*fw, key); }

  CommandResponse run(const HostCommand& c, std::vector<SectorStamp> data = {}, std::vector<uint8_t> bytes = {}) {
    ++commands;
    const size_t before = hw.responses_.size();
    hw.command(c, std::move(data), std::move(bytes));
    hw.run();
    if (hw.responses_.size() != before + 1) { ++wrong_status; return CommandResponse{}; }
    const CommandResponse r = hw.responses_.back();
    hw.responses_.clear();
    // Updated entries riding on the response: taken half the time (the other half the host
    // keeps its old entry and replays it later, which the device must catch).
    for (uint32_t i = 0; i < r.hpb_entry_count; ++i)
      if (rng() % 2 && r.hpb_entries[i].lba < logical) { entry[r.hpb_entries[i].lba] = r.hpb_entries[i].entry; ++updates_taken; }
    return r;
  }
  void expect_good(const CommandResponse& r) { if (r.status != scsi_status::kGood) ++wrong_status; }
  void expect_check(const CommandResponse& r, uint8_t asc_code) {
    if (r.status != scsi_status::kCheckCondition || r.sense_key != sense_key::kIllegalRequest || r.asc != asc_code)
      ++wrong_status;
  }
  void check_data(uint8_t tag, uint64_t lba, uint32_t n) {
    const auto& got = hw.host_in_[tag];
    for (uint32_t i = 0; i < n; ++i) {
      ++blocks_checked;
      const SectorStamp want = version[lba + i] ? SectorStamp{lba + i, version[lba + i]} : SectorStamp{};
      if (!(got[i] == want)) ++mismatches;
    }
  }
  uint64_t any_lba(uint32_t n = 1) { return rng() % (logical - n + 1); }

  void write() {
    const uint32_t n = 1 + uint32_t(rng() % 8);
    // most writes go to a hot quarter, so other sub-regions stay clean for a while
    const uint64_t lba = rng() % 4 ? rng() % (logical / 8) : rng() % (logical / 2);
    std::vector<SectorStamp> v(n);
    for (uint32_t i = 0; i < n; ++i) v[i] = SectorStamp{lba + i, next_version + i};
    const CommandResponse r = run(make_rw(uint8_t(rng() % 32), true, lba, n), v);
    expect_good(r);
    for (uint32_t i = 0; i < n; ++i) version[lba + i] = next_version++;
  }
  void read_buffer() {
    const uint32_t s = uint32_t(rng() % ((logical + sub_blocks - 1) / sub_blocks));
    HostCommand c;
    c.tag = uint8_t(rng() % 32);
    c.direction = DataDirection::Read;
    const uint32_t alloc = sub_blocks * 8;
    c.expected_length = alloc;
    c.cdb[0] = hpb_op::kReadBuffer;
    c.cdb[1] = hpb_op::kReadBufferMapId;
    put_be16(&c.cdb[2], s / 2);
    put_be16(&c.cdb[4], s % 2);
    c.cdb[6] = uint8_t(alloc >> 16); c.cdb[7] = uint8_t(alloc >> 8); c.cdb[8] = uint8_t(alloc);
    expect_good(run(c));
    const auto& b = hw.done_bytes_[c.tag];
    const uint64_t first = uint64_t(s) * sub_blocks;
    for (uint64_t i = 0; i < b.size() / 8; ++i) entry[first + i] = get_be64(b.data() + 8 * i);
  }
  // An HPB READ with a honest, stale, moved, forged, flipped or other-LU entry; or a prefetched list.
  void hpb_read() {
    const uint32_t n = rng() % 4 == 0 ? 1 + uint32_t(rng() % 16) : 1;
    uint64_t lba = any_lba(n);
    if (rng() % 2) {  // aim at LBAs the host holds entries for
      for (int k = 0; k < 8 && !entry[lba]; ++k) lba = any_lba(n);
    }
    uint64_t e = entry[lba];
    uint8_t lun = 0;
    switch (rng() % 8) {
      case 0: e = rng(); break;                                 // forged
      case 1: e = entry[any_lba()]; break;                      // moved from another LBA
      case 2: e ^= 1ull << (rng() % 64); break;                 // one bit flipped
      case 3: lun = 1; break;                                   // moved to another LU
      case 4: {                                                 // HPB 2.0 prefetch list, some entries tampered
        const uint8_t tag = uint8_t(rng() % 32), read_id = uint8_t(1 + rng() % 255);
        std::vector<uint8_t> list(n * 8);
        for (uint32_t i = 0; i < n; ++i) {
          uint64_t x = entry[lba + i];
          if (rng() % 8 == 0) x = entry[any_lba()];
          put_be64(&list[8 * i], x);
        }
        HostCommand pf;
        pf.tag = tag;
        pf.direction = DataDirection::Write;
        pf.expected_length = n * 8;
        pf.cdb[0] = hpb_op::kWriteBuffer;
        pf.cdb[1] = hpb_op::kWriteBufferPrefetch;
        put_be32(&pf.cdb[2], uint32_t(lba));
        pf.cdb[6] = read_id;
        put_be16(&pf.cdb[7], uint16_t(n * 8));
        expect_good(run(pf, {}, list));
        const uint8_t rtag = uint8_t(rng() % 32);
        expect_good(run(make_hpb_read(rtag, lba, 0, n, read_id)));
        check_data(rtag, lba, n);
        return;
      }
      default: break;                                           // honest (maybe stale after writes)
    }
    const uint8_t tag = uint8_t(rng() % 32);
    expect_good(run(make_hpb_read(tag, lba, e, n, 0, lun)));
    check_data(tag, lba, n);
  }
  void malformed() {
    const uint8_t tag = uint8_t(rng() % 32);
    switch (rng() % 9) {
      case 0: expect_check(run(make_hpb_read(tag, any_lba(), rng(), 0)), asc::kInvalidFieldInCdb); break;
      case 1: expect_check(run(make_hpb_read(tag, any_lba(), rng(), 17 + rng() % 239)), asc::kInvalidFieldInCdb); break;
      case 2: expect_check(run(make_hpb_read(tag, logical + rng() % 1000, rng(), 1)), asc::kLbaOutOfRange); break;
      case 3: expect_check(run(make_hpb_read(tag, logical - 1, entry[logical - 1], 2)), asc::kLbaOutOfRange); break;
      case 4: {  // READ BUFFER: bad id, region, sub-region or allocation length
        HostCommand c;
        c.tag = tag;
        c.direction = DataDirection::Read;
        c.expected_length = 8192;
        c.cdb[0] = hpb_op::kReadBuffer;
        c.cdb[1] = hpb_op::kReadBufferMapId;
        c.cdb[8] = 8;
        switch (rng() % 4) {
          case 0: c.cdb[1] = uint8_t(2 + rng() % 254); break;
          case 1: put_be16(&c.cdb[2], uint16_t(1000 + rng() % 60000)); break;
          case 2: put_be16(&c.cdb[4], uint16_t(2 + rng() % 60000)); break;
          default: c.cdb[8] = uint8_t(1 + rng() % 7); break;
        }
        expect_check(run(c), asc::kInvalidFieldInCdb);
        break;
      }
      case 5: {  // WRITE BUFFER with an unknown id
        HostCommand c;
        c.tag = tag;
        c.cdb[0] = hpb_op::kWriteBuffer;
        c.cdb[1] = uint8_t(4 + rng() % 252);
        expect_check(run(c), asc::kInvalidFieldInCdb);
        break;
      }
      case 6: {  // prefetch list length not whole entries
        HostCommand c;
        c.tag = tag;
        c.direction = DataDirection::Write;
        c.expected_length = 64;
        c.cdb[0] = hpb_op::kWriteBuffer;
        c.cdb[1] = hpb_op::kWriteBufferPrefetch;
        c.cdb[6] = 1;
        put_be16(&c.cdb[7], uint16_t(1 + rng() % 7));
        expect_check(run(c, {}, std::vector<uint8_t>(64)), asc::kParamListLength);
        break;
      }
      case 7: {  // WRITE BUFFER inactivate: a region that does not exist
        HostCommand c;
        c.tag = tag;
        c.cdb[0] = hpb_op::kWriteBuffer;
        c.cdb[1] = hpb_op::kWriteBufferInactivate;
        put_be16(&c.cdb[2], uint16_t(1000 + rng() % 60000));
        expect_check(run(c), asc::kInvalidFieldInCdb);
        break;
      }
      default: {  // an HPB READ whose prefetch read id was never sent: its entry field decides
        const uint64_t lba = any_lba();
        expect_good(run(make_hpb_read(tag, lba, entry[lba], 1, uint8_t(1 + rng() % 255))));
        check_data(tag, lba, 1);
        break;
      }
    }
  }
  void inactivate() {
    HostCommand c;
    c.tag = uint8_t(rng() % 32);
    c.cdb[0] = hpb_op::kWriteBuffer;
    c.cdb[1] = rng() % 4 ? hpb_op::kWriteBufferInactivate : hpb_op::kWriteBufferInactivateAll;
    put_be16(&c.cdb[2], uint16_t(rng() % regions));
    expect_good(run(c));
  }
  void plain_read() {
    const uint32_t n = 1 + uint32_t(rng() % 8);
    const uint64_t lba = any_lba(n);
    const uint8_t tag = uint8_t(rng() % 32);
    expect_good(run(make_rw(tag, false, lba, n)));
    check_data(tag, lba, n);
  }
};

// The hostile mix: writes (GC runs), READ BUFFERs, inactivations, plain reads, malformed and
// tampered HPB commands, rare power cycles, until `target` HPB commands were sent.
inline void run_hostile(Hostile& h, uint64_t target) {
  // Fill half the device so reads have data and GC runs under the later writes (which stay in that half).
  for (uint64_t lba = 0; lba + 8 <= h.logical / 2; lba += 8) {
    std::vector<SectorStamp> v(8);
    for (uint32_t i = 0; i < 8; ++i) v[i] = SectorStamp{lba + i, h.next_version + i};
    h.expect_good(h.run(make_rw(1, true, lba, 8), v));
    for (uint32_t i = 0; i < 8; ++i) h.version[lba + i] = h.next_version++;
  }
  uint64_t hpb_commands = 0;
  while (hpb_commands < target) {
    const uint32_t r = uint32_t(h.rng() % 1000);
    if (r < 100) { h.write(); continue; }
    if (r < 160) { h.read_buffer(); ++hpb_commands; continue; }
    if (r < 162) { h.inactivate(); ++hpb_commands; continue; }
    if (r < 200) { h.plain_read(); continue; }
    if (r < 260) { h.malformed(); ++hpb_commands; continue; }
    if (r == 999 && h.rng() % 64 == 0) { h.fw->events().on_power_up(); h.hw.run(); continue; }  // power cycle: new session key
    h.hpb_read();
    ++hpb_commands;
  }
}

// The two test cases' runs and checks, for either build. The counts expected scale with the
// commands sent (a million natively; the core runs fewer in the suite, all on demand).
inline void run_million(Hostile& h, uint64_t target = 1'000'000) {
  run_hostile(h, target);
  const uint64_t verified = h.count("hpb.device.verified"), forged = h.count("hpb.device.rejected_forged"),
                 dirty = h.count("hpb.device.rejected_dirty"), not_contiguous = h.count("hpb.device.rejected_not_contiguous"),
                 check_conditions = h.count("hpb.device.check_conditions"), victims = h.count("ftl.gc_victims");
  INFO("commands " << h.commands << ", blocks checked " << h.blocks_checked << ", verified " << verified << ", forged "
                   << forged << ", dirty " << dirty << ", not contiguous " << not_contiguous << ", no ppn "
                   << h.count("hpb.device.rejected_no_ppn") << ", check conditions " << check_conditions
                   << ", GC victims " << victims);
  CHECK(h.mismatches == 0);
  CHECK(h.wrong_status == 0);
  // every kind of rejection happened, and honest entries were used
  CHECK(verified > target / 100);
  CHECK(forged > target / 100);
  CHECK(dirty > 0);
  CHECK(not_contiguous > 0);
  CHECK(check_conditions > target / 100);
  CHECK(victims > 0);
}

inline void run_updated_entries(Hostile& h, uint64_t target = 300'000) {
  run_hostile(h, target);
  const uint64_t verified = h.count("hpb.device.verified"), updated = h.count("hpb.device.rejected_updated"),
                 sent = h.count("hpb.device.response_entries_sent"), overflows = h.count("hpb.device.delta_overflows");
  INFO("commands " << h.commands << ", verified " << verified << ", updated " << updated << ", sent " << sent
                   << ", taken " << h.updates_taken << ", overflows " << overflows << ", dirty "
                   << h.count("hpb.device.rejected_dirty"));
  CHECK(h.mismatches == 0);
  CHECK(h.wrong_status == 0);
  CHECK(sent > target / 300);
  CHECK(h.updates_taken > target / 600);
  CHECK(updated > 0);
  CHECK(overflows > 0);
  CHECK(verified > target / 60);
}

}  // namespace ufs::test::hostile
