// The host HPB cache taking updated entries from RESPONSEs (hpb.response_entries): a written
// block's entry is dirty until its update arrives, and an update is ignored while a newer
// write of the block is still in flight.
#include <catch2/catch.hpp>
#include "hpb_cache_test_util.h"
#include "scsi/scsi_command.h"
#include "host/hpb_host_cache.h"

using namespace ufs;

namespace {
struct CacheRig {
  std::unique_ptr<HpbHostCache> cache;
  uint64_t now = 0;
  CacheRig() {
    HpbHostParams p;
    p.policy = "host";
    p.activation_reads = 1;
    cache = std::make_unique<HpbHostCache>(p, test::one_subregion_regions(4, 4));
  }
  // A read of lba: returns the entry sent in the HPB READ, or 0 for a normal READ.
  uint64_t read(uint64_t lba) {
    HostCommand cmd;
    uint64_t host_ns = 0;
    now += 1'000'000'000;
    if (!cache->prepare_read(lba, 1, cmd, now, host_ns)) return 0;
    return get_be64(&cmd.cdb[6]);
  }
  void drain() {  // every queued READ BUFFER completes with entries 1000 + offset
    test::complete_read_buffers(*cache, now, 1000);
    now += 1'000'000'000;
  }
  void update(uint32_t lba, uint64_t entry) {
    CommandResponse r;
    r.hpb_entry_count = 1;
    r.hpb_entries[0] = HpbEntryUpdate{lba, entry};
    cache->on_response(r, now);
  }
};
}  // namespace

TEST_CASE("HPB host cache: updated entries from responses clean written blocks, not while a newer write is in flight",
          "[host][hpb]") {
  CacheRig rig;
  rig.read(5);  // host control, one read activates
  rig.drain();
  REQUIRE(rig.read(5) == 1005);
  rig.cache->on_write(5, 1);
  CHECK(rig.read(5) == 0);  // dirty: a normal READ
  rig.update(5, 7777);      // the write is still in flight: newer than this update
  CHECK(rig.read(5) == 0);
  CHECK(rig.cache->stats().response_entries_used == 0);
  rig.cache->on_write_done(5, 1);
  rig.update(5, 8888);
  CHECK(rig.read(5) == 8888);
  CHECK(rig.read(6) == 1006);
  CHECK(rig.cache->stats().response_entries == 2);
  CHECK(rig.cache->stats().response_entries_used == 1);
}
