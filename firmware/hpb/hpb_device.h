// The device side of HPB: HPB READ (0xF8) with entries verified by the crypto
// engine, READ BUFFER (0xF9, buffer id 0x01) publishing a sub-region's signed
// entries, WRITE BUFFER (0xFA, ids 0x01 / 0x02 / 0x03), per-sub-region dirty
// tracking with generations (rtl/README.md, "Freshness"), device control mode
// recommendations in RESPONSE sense data (descriptor 0x80), and the HPB fields of
// the descriptors, attributes and flags the host reads through QUERY.
//
// HpbDevice is the composition root of its parts: HpbRegions (what the host holds),
// HpbFreshness (entries tracked one by one), HpbReadVerify (HPB READ and WRITE BUFFER
// 0x02) and HpbEntryServer (READ BUFFER). It decodes the commands, routes each crypto
// result and host transfer to the part that started it, and answers QUERY. The parts
// reach the FTL through HpbFtl (hpb/hpb_ftl.h) and the hardware through the HAL.
// Protocol facts follow the Linux driver (drivers/ufs/core/ufshpb.{c,h}).
#pragma once
#include <cstdint>
#include <vector>
#include "command/command_table.h"
#include "ftl/l2p_map.h"
#include "hal/hal.h"
#include "hpb/hpb_entry_server.h"
#include "hpb/hpb_freshness.h"
#include "hpb/hpb_ftl.h"
#include "hpb/hpb_params.h"
#include "hpb/hpb_read_verify.h"
#include "hpb/hpb_regions.h"
#include "protocol/ufs_protocol.h"
#include "query/query_server.h"
#include "stats_visitor.h"

namespace ufs {

// Every HPB counter at once (tests); each part keeps its own (stats()).
struct HpbStats : HpbReadStats, HpbServerStats, HpbRegionStats, HpbFreshnessStats {
  uint64_t check_conditions = 0;       // malformed HPB CDBs / parameters
  uint64_t write_buffer_inactivate = 0, write_buffer_inactivate_all = 0;
  uint64_t resets = 0;                 // fHPBReset
  uint64_t queries = 0;
  uint64_t entries_signed = 0;         // READ BUFFER's and the updated ones
};

class HpbDevice : public L2pObserver, public QueryHandler, public ResponseHook {
 public:
  HpbDevice(Hal& hal, HpbFtl& ftl, const HpbDeviceParams& params);

  void on_command(const HostCommand& c);
  void on_crypto_done(const HpbCryptoResult& r);
  // The event's handler ends: the updated entries it programmed go to be signed, one batch.
  void end_event() { freshness_.flush(); }
  void on_data_in_done(uint8_t tag) { server_.data_in_done(tag); }
  void on_data_out_done(uint8_t tag) { reads_.prefetch_received(tag); }
  void on_power_up();  // the session key is new: every entry handed out before is dead
  // QUERY: the HPB flags and attribute (registered with the server) and descriptor fields.
  void register_queries(QueryServer& server);
  QueryResponse query(const QueryRequest& q) override;
  void describe(uint8_t idn, std::vector<uint8_t>& d) const override;

  // The FTL changes the mapping of lba to value (host write, UNMAP, GC or wear-levelling
  // move): the sub-region becomes dirty, or with response_entries the change is tracked
  // entry by entry and the new entry goes back to the host in a RESPONSE.
  void on_map_change(uint64_t lba, uint32_t value) override {
    const uint32_t s = regions_.subregion_of(lba);
    if (regions_.dirty(s)) return;
    if (params_.response_entries) freshness_.track_change(lba, value);
    else regions_.mark_dirty(s);
  }
  // Every RESPONSE passes here: ends the command's HPB state and adds pending updated
  // entries and recommendations to a GOOD response.
  void on_response(CommandResponse& r) override;

  // The parts other firmware parts talk to: the read engine asks the read verifier
  // whether entries still hold, the map store tells the entry server of loads and the
  // regions of SRAM misses.
  VerifiedEntries& verified_entries() { return reads_; }
  MapLoadListener& map_load_listener() { return server_; }
  MapMissListener& map_miss_listener() { return regions_; }

  HpbStats stats() const;
  void visit_stats(StatsVisitor& v) const;
  const HpbDeviceParams& params() const { return params_; }
  bool enabled() const { return enabled_; }
  const HpbRegions& regions() const { return regions_; }
  const HpbFreshness& freshness() const { return freshness_; }

 private:
  void start_write_buffer(const HostCommand& c);
  void fail(const HostCommand& c, uint8_t asc);

  Hal& hal_;
  HpbFtl& ftl_;
  HpbDeviceParams params_;
  bool enabled_;
  HpbRegions regions_;
  HpbFreshness freshness_;
  HpbReadVerify reads_;
  HpbEntryServer server_;
  uint64_t check_conditions_ = 0;
  uint64_t write_buffer_inactivate_ = 0, write_buffer_inactivate_all_ = 0;
  uint64_t resets_ = 0, queries_ = 0;
};

}  // namespace ufs
