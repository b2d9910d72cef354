// HPB device side on the fake platform (crypto answered by the reference codec):
// QUERY fields, READ BUFFER, HPB READ verified / rejected / fallen back, dirty
// tracking, device control mode recommendations, bad CDBs, and a hostile host.
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include "fake_platform.h"

using namespace ufs;
using namespace ufs::test;

namespace {

FlashGeometry hpb_geometry() {
  FlashGeometry g;
  g.channels = 2; g.ways_per_channel = 1; g.dies_per_way = 2; g.planes_per_die = 2;
  g.blocks_per_plane = 16; g.pages_per_block = 24; g.page_bytes = 16384;
  return g;  // 12288 sectors = 48 MiB raw
}

FirmwareParams hpb_params(uint32_t l2p_sram_kib = 1024) {
  FirmwareParams p;
  p.over_provisioning = 0.25;
  p.data_buffer_kib = 1024;
  p.write_cache_kib = 512;
  p.l2p_sram_kib = l2p_sram_kib;
  p.hpb.enabled = true;
  p.hpb.subregion_size_exp = 13;  // 1024 blocks (4 MiB) per sub-region
  p.hpb.region_size_exp = 14;     // 2 sub-regions per region
  p.hpb.max_active_regions = 2;
  p.hpb.dcm_activate_misses = 2;
  return p;
}

struct HpbRig {
  FlashGeometry geo = hpb_geometry();
  FirmwareParams params;
  FakePlatform hw;
  DeviceFirmware fw;
  explicit HpbRig(FirmwareParams p = hpb_params()) : params(p), hw(geo, p.data_buffer_kib / 4), fw(hw, params, geo) {
    hw.crypto_on = true;
    hw.attach(&fw);
    fw.on_power_up();
  }
  HpbStats stats() const { return fw.hpb()->stats(); }
  CommandResponse run(const HostCommand& c, std::vector<SectorStamp> data = {}, std::vector<uint8_t> bytes = {}) {
    const size_t before = hw.responses_.size();
    hw.command(c, std::move(data), std::move(bytes));
    hw.run();
    REQUIRE(hw.responses_.size() == before + 1);
    return hw.responses_.back();
  }
  void write(uint64_t lba, uint32_t n, uint64_t version) {
    std::vector<SectorStamp> v(n);
    for (uint32_t i = 0; i < n; ++i) v[i] = SectorStamp{lba + i, version};
    REQUIRE(run(make_rw(1, true, lba, n), v).status == scsi_status::kGood);
  }
  // READ BUFFER of one sub-region: its entries, in LBA order.
  std::vector<uint64_t> read_buffer(uint16_t region, uint16_t sub, uint8_t tag = 3) {
    const uint32_t entries = uint32_t(fw.hpb()->regions().subregion_blocks());
    const CommandResponse r = run(read_buffer_cdb(tag, region, sub, entries * 8));
    REQUIRE(r.status == scsi_status::kGood);
    const auto& b = hw.done_bytes_[tag];
    REQUIRE(b.size() == entries * 8);
    std::vector<uint64_t> out(entries);
    for (uint32_t i = 0; i < entries; ++i) out[i] = get_be64(b.data() + 8 * i);
    return out;
  }
  static HostCommand read_buffer_cdb(uint8_t tag, uint16_t region, uint16_t sub, uint32_t alloc) {
    HostCommand c;
    c.tag = tag;
    c.direction = DataDirection::Read;
    c.expected_length = alloc;
    c.cdb[0] = hpb_op::kReadBuffer;
    c.cdb[1] = hpb_op::kReadBufferMapId;
    put_be16(&c.cdb[2], region);
    put_be16(&c.cdb[4], sub);
    c.cdb[6] = uint8_t(alloc >> 16); c.cdb[7] = uint8_t(alloc >> 8); c.cdb[8] = uint8_t(alloc);
    return c;
  }
};

HostCommand write_buffer(uint8_t tag, uint8_t id, uint16_t region = 0) {
  HostCommand c;
  c.tag = tag;
  c.cdb[0] = hpb_op::kWriteBuffer;
  c.cdb[1] = id;
  put_be16(&c.cdb[2], region);
  return c;
}

HostCommand prefetch(uint8_t tag, uint64_t lba, uint8_t read_id, uint32_t entries) {
  HostCommand c;
  c.tag = tag;
  c.direction = DataDirection::Write;
  c.expected_length = entries * 8;
  c.cdb[0] = hpb_op::kWriteBuffer;
  c.cdb[1] = hpb_op::kWriteBufferPrefetch;
  put_be32(&c.cdb[2], uint32_t(lba));
  c.cdb[6] = read_id;
  put_be16(&c.cdb[7], uint16_t(entries * 8));
  return c;
}

HostCommand sync_cache(uint8_t tag) {
  HostCommand c;
  c.tag = tag;
  c.cdb[0] = 0x35;
  return c;
}

std::vector<uint8_t> entry_bytes(const std::vector<uint64_t>& entries) {
  std::vector<uint8_t> b(entries.size() * 8);
  for (size_t i = 0; i < entries.size(); ++i) put_be64(&b[8 * i], entries[i]);
  return b;
}

}  // namespace

TEST_CASE("HPB fields read through QUERY: support bit, version, control, sizes, regions, flags", "[firmware][hpb]") {
  FirmwareParams p = hpb_params();
  p.hpb.pinned_start_region = 1;
  p.hpb.pinned_regions = 1;
  HpbRig r(p);
  DeviceFirmware& h = r.fw;  // QUERY goes to the device's server, which routes it to HPB
  using namespace ufs_query;
  QueryResponse q = h.query({kReadDescriptor, kDescDevice});
  REQUIRE(q.status == kSuccess);
  CHECK((q.descriptor[kDeviceUfsFeatures] & kFeatureHpb) != 0);
  CHECK(get_be16(&q.descriptor[kDeviceHpbVersion]) == 0x200);
  CHECK(q.descriptor[kDeviceHpbControl] == 0x01);
  q = h.query({kReadDescriptor, kDescGeometry});
  CHECK(q.descriptor[kGeometryRegionSize] == 14);
  CHECK(q.descriptor[kGeometrySubregionSize] == 13);
  CHECK(get_be16(&q.descriptor[kGeometryMaxActiveRegions]) == 2);
  q = h.query({kReadDescriptor, kDescUnit, 0});
  CHECK(get_be16(&q.descriptor[kUnitPinnedStart]) == 1);
  CHECK(get_be16(&q.descriptor[kUnitPinnedCount]) == 1);
  CHECK(h.query({kReadDescriptor, kDescUnit, 5}).status == kInvalidIdn);
  CHECK(h.query({kReadAttribute, kAttrMaxHpbSingleCmd}).value == 128);
  CHECK(h.query({kWriteAttribute, kAttrMaxHpbSingleCmd}).status == kReadOnly);
  CHECK(h.query({kReadFlag, kFlagHpbEnable}).value == 1);
  CHECK(h.query({kReadAttribute, 0x77}).status == kInvalidIdn);
  CHECK(h.query({0x42, 0}).status == kInvalidOpcode);
  // HPB 1.0 takes one block per HPB READ
  FirmwareParams p1 = hpb_params();
  p1.hpb.version = 0x100;
  HpbRig r1(p1);
  CHECK(r1.fw.query({kReadAttribute, kAttrMaxHpbSingleCmd}).value == 1);
  // fHPBEn cleared: HPB commands are refused
  CHECK(h.query({kClearFlag, kFlagHpbEnable}).status == kSuccess);
  const CommandResponse c = r.run(make_hpb_read(4, 0, 0, 1));
  CHECK(c.status == scsi_status::kCheckCondition);
  CHECK(c.asc == asc::kInvalidOpcode);
}

TEST_CASE("HPB READ with a published entry skips the map load, a stale, moved or forged one falls back", "[firmware][hpb]") {
  HpbRig r(hpb_params(16));  // one map page of SRAM: every other sub-region's lookup misses
  for (uint64_t lba = 0; lba < 4096; lba += 64) r.write(lba, 64, 1);
  REQUIRE(r.run(sync_cache(9)).status == scsi_status::kGood);
  std::vector<uint64_t> e = r.read_buffer(0, 0);  // LBAs 0..1023
  CHECK(r.stats().entries_signed == 1024);
  // touch another map page so the one of sub-region 0 leaves the SRAM
  REQUIRE(r.run(make_rw(5, false, 3000, 1)).status == scsi_status::kGood);
  const uint64_t map_reads = r.hw.map_reads_;
  CommandResponse c = r.run(make_hpb_read(6, 10, e[10], 1));
  REQUIRE(c.status == scsi_status::kGood);
  CHECK(r.hw.host_in_[6][0] == (SectorStamp{10, 1}));
  CHECK(r.stats().verified == 1);
  CHECK(r.hw.map_reads_ == map_reads);  // no map page load
  // HPB 2.0: a physically contiguous run from one entry
  c = r.run(make_hpb_read(7, 24, e[24], 8));
  REQUIRE(c.status == scsi_status::kGood);
  for (uint32_t i = 0; i < 8; ++i) CHECK(r.hw.host_in_[7][i] == (SectorStamp{24 + i, 1}));
  CHECK(r.stats().verified == 2);
  // an entry moved to another LBA, a forged one: rejected by the crypto, correct data anyway
  c = r.run(make_hpb_read(8, 11, e[10], 1));
  CHECK(r.hw.host_in_[8][0] == (SectorStamp{11, 1}));
  c = r.run(make_hpb_read(8, 12, 0x0123456789ABCDEFull, 1));
  CHECK(r.hw.host_in_[8][0] == (SectorStamp{12, 1}));
  CHECK(r.stats().rejected_forged == 2);
  // a write makes the sub-region dirty: the old entry is ignored, the new data comes back
  r.write(10, 1, 2);
  c = r.run(make_hpb_read(9, 10, e[10], 1));
  CHECK(r.hw.host_in_[9][0] == (SectorStamp{10, 2}));
  CHECK(r.stats().rejected_dirty == 1);
  // republished: the old entry is stale under the new generation (replay fails cryptographically)
  std::vector<uint64_t> e2 = r.read_buffer(0, 0);
  c = r.run(make_hpb_read(9, 10, e[10], 1));
  CHECK(r.hw.host_in_[9][0] == (SectorStamp{10, 2}));
  CHECK(r.stats().rejected_forged == 3);
  CHECK(r.stats().fallbacks == 4);
  // an entry from before a power cycle no longer verifies
  r.fw.on_power_up();
  r.read_buffer(0, 0);
  c = r.run(make_hpb_read(9, 30, e2[30], 1));
  CHECK(r.hw.host_in_[9][0] == (SectorStamp{30, 1}));
  CHECK(r.stats().rejected_forged == 4);
}

TEST_CASE("HPB 2.0 prefetch (WRITE BUFFER 0x02) carries one verified entry per block", "[firmware][hpb]") {
  HpbRig r;
  for (uint64_t i = 0; i < 1024; ++i) r.write(i * 37 % 1024, 1, 3);  // scattered: not contiguous
  std::vector<uint64_t> e = r.read_buffer(0, 0);
  std::vector<uint64_t> run(e.begin() + 14, e.begin() + 30);
  REQUIRE(r.run(prefetch(10, 14, 5, 16), {}, entry_bytes(run)).status == scsi_status::kGood);
  REQUIRE(r.run(make_hpb_read(11, 14, 0, 16, 5)).status == scsi_status::kGood);
  for (uint32_t i = 0; i < 16; ++i)
    CHECK(r.hw.host_in_[11][i] == (SectorStamp{14 + i, 3}));
  INFO("dirty " << r.stats().rejected_dirty << " forged " << r.stats().rejected_forged << " noppn "
       << r.stats().rejected_no_ppn << " nc " << r.stats().rejected_not_contiguous << " fb " << r.stats().fallbacks
       << " prefetch " << r.stats().write_buffer_prefetch);
  CHECK(r.stats().verified == 16);
  // the same run from one entry is not contiguous: rejected, served by the normal lookup
  REQUIRE(r.run(make_hpb_read(11, 14, e[14], 16)).status == scsi_status::kGood);
  CHECK(r.stats().rejected_not_contiguous == 1);
  CHECK(r.hw.host_in_[11][7] == (SectorStamp{21, 3}));
  // one forged entry in the list rejects the whole command
  run[3] ^= 1;
  REQUIRE(r.run(prefetch(10, 14, 6, 16), {}, entry_bytes(run)).status == scsi_status::kGood);
  REQUIRE(r.run(make_hpb_read(11, 14, 0, 16, 6)).status == scsi_status::kGood);
  CHECK(r.stats().rejected_forged == 1);
  CHECK(r.hw.host_in_[11][0] == (SectorStamp{14, 3}));
}

TEST_CASE("Malformed HPB commands get CHECK CONDITION ILLEGAL REQUEST with the right ASC", "[firmware][hpb][errors]") {
  HpbRig r;
  const uint64_t logical = r.fw.logical_blocks();
  auto check = [&](const HostCommand& c, uint8_t want, std::vector<uint8_t> bytes = {}) {
    const CommandResponse resp = r.run(c, {}, std::move(bytes));
    CHECK(resp.status == scsi_status::kCheckCondition);
    CHECK(resp.sense_key == sense_key::kIllegalRequest);
    CHECK(int(resp.asc) == int(want));
  };
  check(make_hpb_read(1, 0, 0, 0), asc::kInvalidFieldInCdb);            // no blocks
  check(make_hpb_read(1, 0, 0, 129), asc::kInvalidFieldInCdb);          // beyond bMAX_DATA_SIZE_FOR_HPB_SINGLE_CMD
  check(make_hpb_read(1, logical - 1, 0, 2), asc::kLbaOutOfRange);
  check(make_hpb_read(1, 0xFFFFFFF0u, 0, 1), asc::kLbaOutOfRange);
  HostCommand c = HpbRig::read_buffer_cdb(2, 0, 0, 8192);
  c.cdb[1] = 0x07;
  check(c, asc::kInvalidFieldInCdb);                               // unknown buffer id
  check(HpbRig::read_buffer_cdb(2, 999, 0, 8192), asc::kInvalidFieldInCdb);  // no such region
  check(HpbRig::read_buffer_cdb(2, 0, 2, 8192), asc::kInvalidFieldInCdb);    // no such sub-region
  check(HpbRig::read_buffer_cdb(2, 0, 0, 12), asc::kInvalidFieldInCdb);      // not whole entries
  check(write_buffer(3, 0x09), asc::kInvalidFieldInCdb);           // unknown WRITE BUFFER id
  check(write_buffer(3, 0x01, 999), asc::kInvalidFieldInCdb);
  check(prefetch(3, 0, 0, 4), asc::kInvalidFieldInCdb, std::vector<uint8_t>(32));  // read id 0
  HostCommand pf = prefetch(3, 0, 1, 4);
  put_be16(&pf.cdb[7], 30);
  check(pf, asc::kParamListLength, std::vector<uint8_t>(32));
  check(prefetch(3, logical - 2, 1, 4), asc::kLbaOutOfRange, std::vector<uint8_t>(32));
  CHECK(r.stats().check_conditions == 13);
  // and the device goes on serving
  r.write(5, 1, 9);
  std::vector<uint64_t> e = r.read_buffer(0, 0);
  REQUIRE(r.run(make_hpb_read(4, 5, e[5], 1)).status == scsi_status::kGood);
  CHECK(r.hw.host_in_[4][0] == (SectorStamp{5, 9}));
}

TEST_CASE("Device control mode: misses recommend activation, LRU regions inactivation, writes re-activation", "[firmware][hpb][dcm]") {
  HpbRig r(hpb_params(16));  // one map page in SRAM: alternating sub-regions miss
  for (uint64_t lba = 0; lba < 8192; lba += 128) r.write(lba, 128, 1);
  REQUIRE(r.run(sync_cache(9)).status == scsi_status::kGood);
  std::vector<std::pair<uint16_t, uint16_t>> activate;
  std::vector<uint16_t> inactivate;
  r.hw.on_response = [&](const CommandResponse& resp) {
    if (!resp.hpb_update_alert) return;
    const auto& d = resp.hpb_sense_descriptor;
    REQUIRE(d[0] == 0x80);
    REQUIRE(d[2] == hpb_op::kRspRegionUpdate);
    for (int i = 0; i < d[4]; ++i) activate.emplace_back(get_be16(&d[6 + 4 * i]), get_be16(&d[8 + 4 * i]));
    for (int i = 0; i < d[5]; ++i) inactivate.push_back(uint16_t(get_be16(&d[14 + 2 * i])));
  };
  // reads alternate between map pages 0, 1, 2 (sub-regions 0, 4, 8 = regions 0, 2, 4): every lookup misses
  for (int round = 0; round < 3; ++round)
    for (uint64_t lba : {0ull, 4096ull, 8192ull})
      REQUIRE(r.run(make_rw(2, false, lba + round, 1)).status == scsi_status::kGood);
  REQUIRE(activate.size() == 3);
  CHECK(activate[0] == std::make_pair(uint16_t(0), uint16_t(0)));
  CHECK(activate[1] == std::make_pair(uint16_t(2), uint16_t(0)));
  CHECK(activate[2] == std::make_pair(uint16_t(4), uint16_t(0)));
  // max 2 active regions: activating the third recommends dropping the least recent
  REQUIRE(inactivate.size() == 1);
  CHECK(inactivate[0] == 0);
  CHECK(r.fw.hpb()->regions().active_regions() == 2);
  // the host fetches region 4's sub-region; a write to it then recommends re-activation
  r.read_buffer(4, 0);
  activate.clear();
  r.write(8192 + 5, 1, 2);
  REQUIRE(activate.size() == 1);
  CHECK(activate.back() == std::make_pair(uint16_t(4), uint16_t(0)));
  CHECK(r.stats().dirty_marks >= 1);
}

// hpb.response_entries (HotStorage'17's prototype): a host write leaves its sub-region clean;
// the entry stays unusable while the data is in the write cache, the new signed entry comes
// back in a later RESPONSE once programmed, and the old entry is refused from then on.
TEST_CASE("Updated entries in responses: a rewritten block's new entry comes back, its old one is refused",
          "[firmware][hpb]") {
  FirmwareParams p = hpb_params(16);
  p.hpb.response_entries = 2;
  HpbRig r(p);
  for (uint64_t lba = 0; lba < 4096; lba += 64) r.write(lba, 64, 1);
  REQUIRE(r.run(sync_cache(9)).status == scsi_status::kGood);
  const std::vector<uint64_t> e = r.read_buffer(0, 0);
  r.write(10, 1, 2);  // into the write cache: the sub-region stays clean
  CHECK(!r.fw.hpb()->regions().dirty(0));
  CHECK(r.stats().dirty_marks == 0);
  CommandResponse c = r.run(make_hpb_read(6, 10, e[10], 1));  // old entry while the new data is cached
  CHECK(r.hw.host_in_[6][0] == (SectorStamp{10, 2}));
  CHECK(r.stats().rejected_updated == 1);
  CHECK(c.hpb_entry_count == 0);
  // programmed: the next responses carry the new entry for LBA 10
  REQUIRE(r.run(sync_cache(9)).status == scsi_status::kGood);
  uint64_t fresh = 0;
  for (int i = 0; i < 4 && !fresh; ++i) {
    c = r.run(make_rw(5, false, 2000, 1));
    for (uint32_t k = 0; k < c.hpb_entry_count; ++k)
      if (c.hpb_entries[k].lba == 10) fresh = c.hpb_entries[k].entry;
  }
  REQUIRE(fresh != 0);
  CHECK(fresh != e[10]);
  CHECK(r.stats().response_entries_sent >= 1);
  c = r.run(make_hpb_read(7, 10, fresh, 1));  // the new entry is served without a map load
  CHECK(r.hw.host_in_[7][0] == (SectorStamp{10, 2}));
  CHECK(r.stats().verified == 1);
  c = r.run(make_hpb_read(8, 10, e[10], 1));  // the old one is still authentic but refused
  CHECK(r.hw.host_in_[8][0] == (SectorStamp{10, 2}));
  CHECK(r.stats().rejected_updated == 2);
  c = r.run(make_hpb_read(8, 11, e[11], 1));  // untouched neighbours keep working
  CHECK(r.hw.host_in_[8][0] == (SectorStamp{11, 1}));
  CHECK(r.stats().verified == 2);
  CHECK(!r.fw.hpb()->regions().dirty(0));
}
