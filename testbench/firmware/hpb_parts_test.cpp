// HPB's parts alone on the fake platform (crypto jobs recorded, results fed back by the
// test): the regions' publication, dirt and recommendations, entry-by-entry freshness,
// the HPB READ verifier and the READ BUFFER entry server, each behind a stand-in FTL.
#include <catch2/catch.hpp>
#include <string>
#include <vector>
#include "ftl/l2p_map.h"
#include "hpb/hpb_entry_server.h"
#include "hpb/hpb_freshness.h"
#include "hpb/hpb_read_verify.h"
#include "hpb/hpb_regions.h"
#include "part_fixture.h"
#include "scsi/scsi_command.h"

using namespace ufs;
using namespace ufs::test;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace hpb_parts_test {

namespace {

constexpr uint64_t kLogical = 8192;  // 8 sub-regions of 1024 blocks, 2 per region: 4 regions

HpbDeviceParams small_hpb(const std::string& mode = "device") {
  HpbDeviceParams p;
  p.enabled = true;
  p.control_mode = mode;
  p.subregion_size_exp = 13;  // 1024 blocks
  p.region_size_exp = 14;     // 2 sub-regions
  p.max_active_regions = 2;
  p.dcm_activate_misses = 2;
  return p;
}

// The FTL as the HPB parts see it: a mapping table, map pages that may be missing, and a log.
struct StubFtl : HpbFtl {
  std::vector<uint32_t> mapping = std::vector<uint32_t>(kLogical, hpb_op::kNoPpn);
  std::vector<bool> page_missing = std::vector<bool>(kLogical / 512, false);
  std::vector<std::string> log;
  uint64_t hpb_logical_blocks() const override { return kLogical; }
  uint32_t hpb_mapping(uint64_t lba) const override { return mapping[lba]; }
  void hpb_mappings(uint64_t first, uint32_t count, uint32_t* ppas) const override {
    for (uint32_t i = 0; i < count; ++i) ppas[i] = mapping[first + i];
  }
  void hpb_claim_tag(uint8_t tag, uint8_t) override { log.push_back("claim " + std::to_string(tag)); }
  void hpb_fail(const HostCommand& c, uint8_t, uint8_t) override { log.push_back("fail " + std::to_string(c.tag)); }
  void hpb_respond(uint8_t tag, uint8_t) override { log.push_back("respond " + std::to_string(tag)); }
  void hpb_start_read(const HostCommand& c, uint64_t lba, uint32_t blocks, bool hpb) override {
    log.push_back("read " + std::to_string(c.tag) + " " + std::to_string(lba) + "+" + std::to_string(blocks) +
                  (hpb ? " verified" : " normal"));
  }
  bool hpb_map_page_ready(uint64_t lba) override { return !page_missing[lba / 512]; }
  uint64_t hpb_map_page_entries() const override { return 512; }
  void hpb_verify_time(uint8_t, bool) override {}
};

HostCommand hpb_read(uint8_t tag, uint32_t lba, uint64_t entry, uint8_t blocks = 1, uint8_t read_id = 0) {
  HostCommand c;
  c.tag = tag;
  c.direction = DataDirection::Read;
  c.expected_length = blocks * uint32_t(kSectorBytes);
  c.cdb[0] = hpb_op::kHpbRead;
  put_be32(&c.cdb[2], lba);
  put_be64(&c.cdb[6], entry);
  c.cdb[14] = blocks;
  c.cdb[15] = read_id;
  return c;
}

HostCommand read_buffer(uint8_t tag, uint16_t region, uint16_t sub, uint32_t entries) {
  HostCommand c;
  c.tag = tag;
  c.direction = DataDirection::Read;
  c.expected_length = entries * hpb_op::kEntryBytes;
  c.cdb[0] = hpb_op::kReadBuffer;
  c.cdb[1] = hpb_op::kReadBufferMapId;
  put_be16(&c.cdb[2], region);
  put_be16(&c.cdb[4], sub);
  const uint32_t bytes = entries * hpb_op::kEntryBytes;  // allocation length, 24 bits
  c.cdb[6] = uint8_t(bytes >> 16);
  c.cdb[7] = uint8_t(bytes >> 8);
  c.cdb[8] = uint8_t(bytes);
  return c;
}

HpbCryptoResult result(const HpbCryptoJob& job, bool valid, uint32_t ppn) {
  HpbCryptoResult r;
  r.kind = job.kind;
  r.cookie = job.cookie;
  r.valid = valid;
  r.ppn = ppn;
  r.entry = 0xE000 + job.lba;
  return r;
}

struct Rig : PartFixture {
  HpbDeviceParams hpb;
  StubFtl ftl;
  HpbRegions regions;
  HpbFreshness freshness;
  HpbReadVerify reads;
  HpbEntryServer server;
  explicit Rig(const HpbDeviceParams& p = small_hpb())
      : hpb(p), regions(hw, hpb, kLogical), freshness(hw, hpb, regions), reads(hw, ftl, hpb, regions, freshness),
        server(hw, ftl, hpb, regions) {
    regions.set_changes(&freshness);
  }
  std::vector<HpbCryptoJob> take_jobs() { return std::move(hw.crypto_jobs_); }
};

}  // namespace

TEST_CASE("HPB regions: a publication is clean under a fresh generation, a republication of a clean one keeps it") {
  Rig r;
  CHECK(r.regions.subregions() == 8);
  CHECK(r.regions.regions() == 4);
  CHECK(r.regions.dirty(3));
  r.regions.publish(3);
  CHECK_FALSE(r.regions.dirty(3));
  const uint32_t g = r.regions.generation(3);
  CHECK(g == 1);
  r.regions.publish(3);
  CHECK(r.regions.generation(3) == g);  // the same entries as before
  r.regions.mark_dirty(3);
  r.regions.publish(3);
  CHECK(r.regions.generation(3) == 2);
  CHECK(r.regions.stats().dirty_marks == 1);
  r.regions.power_up();
  CHECK(r.regions.dirty(3));  // a new session key: nothing published holds
}

TEST_CASE("HPB regions: device control mode recommends a dirtied sub-region once and evicts the oldest region") {
  Rig r;
  r.regions.publish(0);  // region 0
  r.regions.publish(2);  // region 1: two active, the most allowed
  CHECK(r.regions.active_regions() == 2);
  r.regions.mark_dirty(2);
  r.regions.mark_dirty(2);  // already recommended
  CHECK(r.regions.stats().activate_recommendations == 1);
  r.regions.publish(4);  // region 2: region 0 goes, and the host is told
  CHECK(r.regions.active_regions() == 2);
  CHECK(r.regions.dirty(0));
  CHECK(r.regions.stats().inactivate_recommendations == 1);
  CommandResponse resp;
  resp.lun = 0;
  r.regions.add_recommendations(resp);
  CHECK(resp.hpb_update_alert);
  CHECK(resp.hpb_sense_descriptor[2] == hpb_op::kRspRegionUpdate);
  CHECK(resp.hpb_sense_descriptor[4] == 1);  // activate region 1 sub-region 0
  CHECK(get_be16(&resp.hpb_sense_descriptor[6]) == 1);
  CHECK(get_be16(&resp.hpb_sense_descriptor[8]) == 0);
  CHECK(resp.hpb_sense_descriptor[5] == 1);  // inactivate region 0
  CHECK(get_be16(&resp.hpb_sense_descriptor[14]) == 0);
  CommandResponse next;
  r.regions.add_recommendations(next);
  CHECK_FALSE(next.hpb_update_alert);  // nothing left to say
  r.regions.reset();
  r.regions.add_recommendations(next);
  CHECK(next.hpb_sense_descriptor[2] == hpb_op::kRspDeviceReset);
  CHECK(r.regions.active_regions() == 0);
}

TEST_CASE("HPB regions: SRAM misses count toward a recommendation in device control mode only") {
  Rig device;
  device.regions.on_map_miss(5000);  // sub-region 4
  CHECK(device.regions.stats().activate_recommendations == 0);
  device.regions.on_map_miss(5001);
  CHECK(device.regions.stats().activate_recommendations == 1);
  CHECK(device.regions.active_regions() == 1);
  Rig host(small_hpb("host"));
  for (int i = 0; i < 10; ++i) host.regions.on_map_miss(5000);
  host.regions.mark_dirty(4);
  CHECK(host.regions.stats().activate_recommendations == 0);
  CommandResponse resp;
  host.regions.add_recommendations(resp);
  CHECK_FALSE(resp.hpb_update_alert);
}

TEST_CASE("HPB regions: pinned regions stay active through WRITE BUFFER inactivations, not when HPB is disabled") {
  HpbDeviceParams p = small_hpb();
  p.pinned_start_region = 1;
  p.pinned_regions = 1;
  Rig r(p);
  r.regions.publish(2);  // pinned region 1
  r.regions.inactivate(1);
  r.regions.inactivate_all(false);
  CHECK_FALSE(r.regions.dirty(2));
  r.regions.inactivate_all(true);
  CHECK(r.regions.dirty(2));
}

TEST_CASE("HPB regions: a run is contiguous only where recorded, and a changed entry breaks the runs through it") {
  Rig r;
  r.regions.publish(0);
  for (uint32_t i = 10; i < 14; ++i) r.regions.record_contiguous(0, i);  // 10..14 one run
  CHECK(r.regions.contiguous_run(0, 10, 5));
  CHECK_FALSE(r.regions.contiguous_run(0, 10, 6));
  CHECK(r.regions.contiguous_run(0, 20, 1));  // one block is always a run
  r.regions.break_run(0, 12);
  CHECK_FALSE(r.regions.contiguous_run(0, 11, 2));  // 11 -> 12
  CHECK_FALSE(r.regions.contiguous_run(0, 12, 2));  // 12 -> 13
  CHECK(r.regions.contiguous_run(0, 10, 2));
  CHECK(r.regions.contiguous_run(0, 13, 2));
}

TEST_CASE("HPB freshness: a host write is tracked, its programmed entry signed and sent back while still the latest") {
  HpbDeviceParams p = small_hpb();
  p.response_entries = 2;
  Rig r(p);
  r.regions.publish(0);
  r.freshness.set_publish_lun(0);
  r.freshness.track_change(7, L2pMap::cached(3));  // in the write cache
  CHECK(r.freshness.tracking());
  CHECK(r.freshness.changes(0) == 1);
  CHECK_FALSE(r.freshness.entry_ok(7, 100));  // the old entry predates the write
  CHECK(r.freshness.entry_ok(8, 100));
  r.freshness.flush();
  CHECK(r.hw.sign_batches_ == 0);  // nothing to sign until programmed
  r.freshness.track_change(7, 500);
  CHECK(r.hw.sign_batches_ == 0);  // signed when the handler ends
  r.freshness.flush();
  REQUIRE(r.hw.sign_batch_list_.size() == 1);
  const HpbSignBatch& b = r.hw.sign_batch_list_[0];
  REQUIRE(b.count == 1);
  CHECK(b.items[0].lba == 7);
  CHECK(b.items[0].ppn == 500);
  CHECK(b.items[0].generation == r.regions.generation(0));
  CHECK((b.cookie & hpb_cookie::kUpdate) != 0);
  CHECK(r.take_jobs().empty());  // no single jobs
  CHECK(r.freshness.entry_ok(7, 500));
  r.freshness.update_signed(r.hw.finish_sign_batch(0, [](const HpbSignItem& i) { return 0xE000 + i.lba; }));
  CommandResponse resp;
  r.freshness.add_updates(resp);
  REQUIRE(resp.hpb_entry_count == 1);
  CHECK(resp.hpb_entries[0].lba == 7);
  CHECK(resp.hpb_entries[0].entry == 0xE000 + 7);
  CHECK_FALSE(r.regions.dirty(0));  // the sub-region stayed clean
  // A signed update overtaken by a newer write is not sent.
  r.freshness.track_change(9, L2pMap::cached(4));
  r.freshness.track_change(9, 600);
  r.freshness.flush();
  r.freshness.update_signed(r.hw.finish_sign_batch(1, [](const HpbSignItem& i) { return 0xE000 + i.lba; }));
  r.freshness.track_change(9, L2pMap::cached(5));
  CommandResponse later;
  r.freshness.add_updates(later);
  CHECK(later.hpb_entry_count == 0);
  CHECK(r.freshness.stats().response_entries_sent == 1);
}

TEST_CASE("HPB freshness: UNMAP, an untracked move and a full table dirty the sub-region, and republishing drops the changes") {
  HpbDeviceParams p = small_hpb();
  p.response_entries = 1;
  p.response_delta_entries = 2;
  Rig r(p);
  r.regions.publish(0);
  r.freshness.track_change(1, L2pMap::kUnmapped);
  CHECK(r.regions.dirty(0));
  r.regions.publish(0);
  r.freshness.track_change(2, 900);  // a GC move of an entry not tracked
  CHECK(r.regions.dirty(0));
  r.regions.publish(1);
  r.freshness.track_change(1024, L2pMap::cached(6));
  r.freshness.track_change(1025, L2pMap::cached(6));
  CHECK_FALSE(r.regions.dirty(1));
  CHECK(r.freshness.has_changes(1));
  r.freshness.track_change(1026, L2pMap::cached(6));  // the table holds 2
  CHECK(r.regions.dirty(1));
  CHECK(r.freshness.stats().delta_overflows == 1);
  CHECK_FALSE(r.freshness.has_changes(1));  // dirtying dropped them
  CHECK(r.freshness.stats().delta_peak == 2);
}

TEST_CASE("HPB read verify: an authentic entry of a clean sub-region reads its PPA, a forged one falls back") {
  Rig r;
  r.regions.publish(0);
  CHECK(r.reads.start(hpb_read(4, 100, 0xABCD)) == 0);
  std::vector<HpbCryptoJob> jobs = r.take_jobs();
  REQUIRE(jobs.size() == 1);
  CHECK(jobs[0].kind == HpbCryptoJob::Verify);
  CHECK(jobs[0].entry == 0xABCD);
  CHECK(jobs[0].generation == r.regions.generation(0));
  CHECK(r.ftl.log == std::vector<std::string>{"claim 4"});
  r.reads.verify_done(result(jobs[0], true, 7000));
  CHECK(r.ftl.log.back() == "read 4 100+1 verified");
  CHECK(r.reads.still_fresh(4));
  CHECK(r.reads.resolved_ppa(4, 0) == 7000);
  r.reads.end(4);
  CHECK(r.reads.start(hpb_read(5, 100, 0xBAD)) == 0);
  r.reads.verify_done(result(r.take_jobs()[0], false, 0));
  CHECK(r.ftl.log.back() == "read 5 100+1 normal");
  CHECK(r.reads.stats().verified == 1);
  CHECK(r.reads.stats().rejected_forged == 1);
  CHECK(r.reads.stats().fallbacks == 1);
}

TEST_CASE("HPB read verify: dirty, changed in flight, not contiguous or malformed") {
  Rig r;
  CHECK(r.reads.start(hpb_read(1, 100, 1)) == 0);  // never published: no crypto
  CHECK(r.take_jobs().empty());
  CHECK(r.ftl.log.back() == "read 1 100+1 normal");
  CHECK(r.reads.stats().rejected_dirty == 1);
  r.regions.publish(0);
  CHECK(r.reads.start(hpb_read(2, 100, 1)) == 0);
  const HpbCryptoJob job = r.take_jobs()[0];
  r.regions.mark_dirty(0);  // a write while the entry was in the engine
  r.reads.verify_done(result(job, true, 7000));
  CHECK(r.ftl.log.back() == "read 2 100+1 normal");
  CHECK(r.reads.stats().rejected_stale_in_flight == 1);
  r.regions.publish(0);
  CHECK(r.reads.start(hpb_read(3, 100, 1, 4)) == 0);  // a run from one entry, no contiguity recorded
  r.reads.verify_done(result(r.take_jobs()[0], true, 7000));
  CHECK(r.reads.stats().rejected_not_contiguous == 1);
  CHECK(r.reads.start(hpb_read(6, 1020, 1, 8)) == 0);  // across sub-regions 0 and 1 (1 is dirty)
  CHECK(r.reads.stats().rejected_dirty == 2);
  CHECK(r.reads.start(hpb_read(7, 100, 1, 0)) == asc::kInvalidFieldInCdb);
  CHECK(r.reads.start(hpb_read(7, kLogical - 1, 1, 2)) == asc::kLbaOutOfRange);
}

TEST_CASE("HPB read verify: WRITE BUFFER 0x02 entries are held for the HPB READ with that read id, each verified") {
  Rig r;
  r.events.data_out = [&](uint8_t tag, uint64_t) { r.reads.prefetch_received(tag); };
  r.regions.publish(0);
  HostCommand wb;
  wb.tag = 9;
  wb.direction = DataDirection::Write;
  wb.expected_length = 3 * hpb_op::kEntryBytes;
  wb.cdb[0] = hpb_op::kWriteBuffer;
  wb.cdb[1] = hpb_op::kWriteBufferPrefetch;
  put_be32(&wb.cdb[2], 200);
  wb.cdb[6] = 5;  // read id
  put_be16(&wb.cdb[7], 3 * hpb_op::kEntryBytes);
  std::vector<uint8_t> list(3 * hpb_op::kEntryBytes);
  for (uint32_t i = 0; i < 3; ++i) put_be64(&list[i * hpb_op::kEntryBytes], 0x100 + i);
  r.hw.command(wb, {}, list);  // the host's side: the entries it will send
  r.hw.run();
  CHECK(r.reads.start_prefetch(wb) == 0);
  r.hw.run();
  CHECK(r.hw.protocol_violations_ == 0);
  CHECK(r.ftl.log.back() == "respond 9");
  CHECK(r.reads.stats().write_buffer_prefetch == 1);
  r.reads.end(9);
  CHECK(r.reads.start(hpb_read(4, 200, 0, 3, 5)) == 0);
  const std::vector<HpbCryptoJob> jobs = r.take_jobs();
  REQUIRE(jobs.size() == 3);
  for (uint32_t i = 0; i < 3; ++i) {
    CHECK(jobs[i].lba == 200 + i);
    CHECK(jobs[i].entry == 0x100 + i);
    r.reads.verify_done(result(jobs[i], true, 3000 + 7 * i));  // scattered PPAs are fine with an entry each
  }
  CHECK(r.ftl.log.back() == "read 4 200+3 verified");
  CHECK(r.reads.resolved_ppa(4, 2) == 3014);
  CHECK(r.reads.start(hpb_read(8, 200, 0, 3, 5)) == 0);  // the held entries were used up
  CHECK(r.take_jobs().size() == 1);
}

TEST_CASE("HPB entry server: READ BUFFER waits for its map pages, signs every entry and records the runs") {
  Rig r;
  r.events.data_in = [&](uint8_t tag, uint64_t) { r.server.data_in_done(tag); };
  for (uint32_t l = 1024; l < 2048; ++l) r.ftl.mapping[l] = 4000 + l;  // sub-region 1: one physical run
  r.ftl.mapping[1500] = hpb_op::kNoPpn;                                // ... but 1500 has no NAND copy
  r.ftl.page_missing[1536 / 512] = true;
  HostCommand c = read_buffer(6, 0, 1, 1024);
  r.hw.command(c);
  r.hw.run();
  CHECK(r.server.start(c) == 0);
  CHECK(r.take_jobs().empty());  // waiting for the map page of 1536..2047
  CHECK(r.server.stats().read_buffer_map_loads == 1);
  CHECK_FALSE(r.regions.dirty(1));  // published at once: changes from now on dirty it
  CHECK(r.hw.sign_batches_ == 0);
  r.ftl.page_missing[1536 / 512] = false;
  r.server.on_map_page_loaded();
  for (size_t chunk = 0; chunk < 2; ++chunk) {
    CHECK(r.take_jobs().empty());  // no job per entry: one sign batch per chunk
    REQUIRE(r.hw.sign_batch_list_.size() == chunk + 1);
    const HpbSignBatch& b = r.hw.sign_batch_list_[chunk];
    REQUIRE(b.count == 512);
    CHECK((b.cookie & hpb_cookie::kSign) != 0);
    for (uint32_t i = 0; i < b.count; ++i) {
      const uint64_t lba = 1024 + 512 * chunk + i;
      CHECK(b.items[i].lba == lba);
      CHECK(b.items[i].ppn == (lba == 1500 ? hpb_op::kNoPpn : 4000 + lba));
      CHECK(b.items[i].generation == r.regions.generation(1));
    }
    r.hw.run();
    CHECK(r.hw.done_bytes_[6].size() == 512 * chunk * hpb_op::kEntryBytes);  // nothing sent before the batch is done
    r.server.sign_done(r.hw.finish_sign_batch(chunk, [](const HpbSignItem& i) { return 0xE000 + i.lba; }));
    r.hw.run();  // the chunk goes to the host; its DATA IN done brings the next
  }
  CHECK(r.ftl.log.back() == "respond 6");
  CHECK(r.hw.protocol_violations_ == 0);
  CHECK(r.server.stats().entries_signed == 1024);
  const std::vector<uint8_t>& sent = r.hw.done_bytes_[6];
  REQUIRE(sent.size() == 1024 * hpb_op::kEntryBytes);
  CHECK(get_be64(&sent[5 * hpb_op::kEntryBytes]) == 0xE000 + 1024 + 5);
  CHECK(r.regions.contiguous_run(1, 0, 476));     // 1024..1499
  CHECK_FALSE(r.regions.contiguous_run(1, 475, 2));  // into 1500
  CHECK_FALSE(r.regions.contiguous_run(1, 476, 2));  // out of 1500
  CHECK(r.regions.contiguous_run(1, 477, 547));   // 1501..2047
  CHECK(r.server.start(read_buffer(7, 9, 0, 1)) == asc::kInvalidFieldInCdb);  // no region 9
}

}  // namespace hpb_parts_test
