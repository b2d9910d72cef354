// The device side of HPB: HPB READ (0xF8) with entries verified by the crypto
// engine, READ BUFFER (0xF9, buffer id 0x01) publishing a sub-region's signed
// entries, WRITE BUFFER (0xFA, ids 0x01 / 0x02 / 0x03), per-sub-region dirty
// tracking with generations (rtl/README.md, "Freshness"), device control mode
// recommendations in RESPONSE sense data (descriptor 0x80), and the HPB fields of
// the descriptors, attributes and flags the host reads through QUERY.
//
// It talks to the rest of the firmware through HpbFtl (what it needs of the FTL
// and the command machinery) and to the hardware through the HAL. Protocol facts
// follow the Linux driver (drivers/ufs/core/ufshpb.{c,h}).
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <vector>
#include "command/command_table.h"
#include "command/read_engine.h"
#include "map/map_store.h"
#include "ftl/l2p_map.h"
#include "hal/hal.h"
#include "hpb/hpb_params.h"
#include "protocol/ufs_protocol.h"
#include "query/query_server.h"
#include "stats_visitor.h"

namespace ufs {

struct HpbStats {
  uint64_t hpb_reads = 0;              // HPB READ commands accepted
  uint64_t hpb_read_blocks = 0;
  uint64_t verified = 0;               // entries the crypto engine accepted and the read used
  uint64_t rejected_forged = 0;        // crypto says not issued for this (LU, LBA, generation): forged, moved, replayed
  uint64_t rejected_dirty = 0;         // sub-region changed since published (or never published)
  uint64_t rejected_no_ppn = 0;        // authentic entry of an LBA with no NAND copy at publication
  uint64_t rejected_not_contiguous = 0;// multi-block run not physically contiguous
  uint64_t rejected_stale_in_flight = 0; // map changed between verify and the NAND read
  uint64_t fallbacks = 0;              // HPB READs served by the normal lookup
  uint64_t check_conditions = 0;       // malformed HPB CDBs / parameters
  uint64_t read_buffers = 0;           // READ BUFFER (map) commands served
  uint64_t entries_signed = 0;
  uint64_t read_buffer_map_loads = 0;  // map pages READ BUFFER had to load from NAND
  uint64_t write_buffer_inactivate = 0, write_buffer_prefetch = 0, write_buffer_inactivate_all = 0;
  uint64_t dirty_marks = 0;            // clean published sub-regions made dirty (writes, UNMAP, GC)
  uint64_t activate_recommendations = 0, inactivate_recommendations = 0;
  uint64_t responses_with_hpb_sense = 0;
  uint64_t resets = 0;                 // fHPBReset
  uint64_t queries = 0;
  // hpb.response_entries (HotStorage'17): host-written entries kept clean and sent back
  uint64_t delta_changes = 0;          // map changes tracked entry by entry instead of dirtying the sub-region
  uint64_t delta_overflows = 0;        // tracking full: the sub-region was marked dirty instead
  uint64_t response_entries_sent = 0;  // updated entries sent in RESPONSE UPIUs
  uint64_t rejected_updated = 0;       // entry older than the device's tracked change (or block still in the write cache)
  uint64_t delta_peak = 0;             // most changed entries tracked at once
};

// What HpbDevice needs from the FTL and its command machinery (DeviceFirmware).
class HpbFtl {
 public:
  virtual ~HpbFtl() = default;
  virtual uint64_t hpb_logical_blocks() const = 0;
  // The mapping of lba now: a physical sector address (PPA), or hpb_op::kNoPpn.
  virtual uint32_t hpb_mapping(uint64_t lba) const = 0;
  virtual void hpb_claim_tag(uint8_t tag, uint8_t lun) = 0;  // the command is in progress
  virtual void hpb_fail(const HostCommand& c, uint8_t key, uint8_t asc) = 0;  // CHECK CONDITION, tag freed
  virtual void hpb_respond(uint8_t tag, uint8_t lun) = 0;   // GOOD, tag freed
  // Start a read of [lba, lba + blocks); hpb = true: the PPAs come from HpbDevice::resolved_ppa.
  virtual void hpb_start_read(const HostCommand& c, uint64_t lba, uint32_t blocks, bool hpb) = 0;
  // True if lba's map page is in the L2P SRAM; otherwise its load is started (or joined)
  // and HpbDevice::on_map_page_loaded follows.
  virtual bool hpb_map_page_ready(uint64_t lba) = 0;
  virtual uint64_t hpb_map_page_entries() const = 0;  // LBAs one map page covers
  // An HPB READ's entries enter (begin) or leave the crypto engine: the latency split's part.
  virtual void hpb_verify_time(uint8_t tag, bool begin) = 0;
};

class HpbDevice : public L2pObserver, public QueryHandler, public ResponseHook, public VerifiedEntries,
                  public MapMissListener, public MapLoadListener {
 public:
  HpbDevice(Hal& hal, HpbFtl& ftl, const HpbDeviceParams& params);

  void on_command(const HostCommand& c);
  void on_crypto_done(const HpbCryptoResult& r);
  void on_data_in_done(uint8_t tag);
  void on_data_out_done(uint8_t tag);
  void on_map_page_loaded() override;
  void on_power_up();
  // QUERY: the HPB flags and attribute (registered with the server) and descriptor fields.
  void register_queries(QueryServer& server);
  QueryResponse query(const QueryRequest& q) override;
  void describe(uint8_t idn, std::vector<uint8_t>& d) const override;

  // The FTL changes the mapping of lba to value (host write, UNMAP, GC or wear-levelling
  // move): the sub-region becomes dirty, or with response_entries the change is tracked
  // entry by entry and the new entry goes back to the host in a RESPONSE.
  void on_map_change(uint64_t lba, uint32_t value) override {
    const uint64_t s = lba / subregion_blocks_;
    if (dirty_[s]) return;
    if (params_.response_entries) track_change(lba, value);
    else mark_dirty(uint32_t(s));
  }
  // A host read missed the L2P SRAM (device control mode counts these).
  void on_map_miss(uint64_t lba) override;
  // Every RESPONSE passes here: ends the command's HPB state and adds pending
  // recommendations to a GOOD response (device control mode).
  void on_response(CommandResponse& r) override;
  // An HPB read about to look its blocks up: false if its entries can no longer be
  // trusted (the map changed since they were verified); the read then falls back.
  bool still_fresh(uint8_t tag) const override;
  // For an HPB read in progress (still_fresh): the PPA of block i of the command.
  uint32_t resolved_ppa(uint8_t tag, uint32_t block) const override {
    const TagState& t = tags_[tag];
    return t.ppas.empty() ? t.ppa + block : t.ppas[block];
  }
  bool tag_busy(uint8_t tag) const { return tags_[tag].kind != Kind::Idle; }
  bool enabled() const { return enabled_; }

  const HpbStats& stats() const { return stats_; }
  void visit_stats(StatsVisitor& v) const;
  const HpbDeviceParams& params() const { return params_; }
  uint32_t subregions() const { return uint32_t(dirty_.size()); }
  uint32_t regions() const { return regions_; }
  uint64_t subregion_blocks() const { return subregion_blocks_; }
  uint32_t active_regions() const { return uint32_t(active_lru_.size()); }
  bool subregion_clean(uint32_t s) const { return !dirty_[s]; }

  // Token bit DeviceFirmware routes to on_data_in_done / on_data_out_done.
  static constexpr uint64_t kToken = 1ull << 62;
  static constexpr uint64_t kCryptoSign = 1ull << 62, kCryptoVerify = 1ull << 61, kCryptoUpdate = 1ull << 60;

 private:
  enum class Kind : uint8_t { Idle, Verify, Read, ReadBufferLoad, ReadBufferSign, ReadBufferSend, Prefetch };
  struct TagState {
    Kind kind = Kind::Idle;
    HostCommand command;
    uint64_t lba = 0;
    uint32_t blocks = 0;
    uint32_t subregion = 0, last_subregion = 0;     // sub-regions of the first and last block
    uint32_t generation = 0, last_generation = 0;   // their generations when the command started
    uint32_t changes = 0, last_changes = 0;         // their tracked-change counts then (response_entries)
    uint32_t ppa = 0;             // HPB READ: verified PPA of the first block
    // READ BUFFER
    uint32_t entries = 0;         // entries to send
    uint32_t chunk = 0;           // current chunk (512 entries = 4 KiB)
    uint32_t pending = 0;         // crypto jobs outstanding
    uint32_t prev_ppa = 0;        // READ BUFFER: PPA of the entry before (contiguity record)
    bool counted_loads = false;
    std::vector<uint8_t> data;    // one chunk of entries
    // HPB 2.0 prefetch (WRITE BUFFER 0x02) and HPB READ with a read id
    std::vector<uint64_t> prefetched;
    std::vector<uint32_t> ppas;   // verified PPA per block (multi-entry reads)
    uint32_t failed = 0;
  };
  struct Prefetch {               // WRITE BUFFER 0x02 held for an HPB READ with this read id
    bool valid = false;
    uint64_t lba = 0;
    std::vector<uint64_t> entries;
  };

  void start_hpb_read(const HostCommand& c);
  void verify_done(uint8_t tag, const HpbCryptoResult& r);
  void finish_verify(uint8_t tag);
  void fallback(uint8_t tag);
  void start_read_buffer(const HostCommand& c);
  void read_buffer_pages_ready(uint8_t tag);
  void sign_chunk(uint8_t tag);
  void start_write_buffer(const HostCommand& c);
  void fail(const HostCommand& c, uint8_t asc);
  void mark_dirty(uint32_t s);
  void track_change(uint64_t lba, uint32_t value);
  void drop_changes(uint32_t s);  // forget a sub-region's tracked changes (dirty or republished)
  bool has_changes(uint32_t s) const;
  bool changed_entry_ok(uint64_t lba, uint32_t ppa) const;  // false: the entry predates a tracked change
  void publish(uint32_t s);
  void activate_region(uint32_t region, bool recommend, uint32_t subregion);
  void deactivate_region(uint32_t region);
  bool pinned(uint32_t region) const {
    return region >= params_.pinned_start_region && region < params_.pinned_start_region + params_.pinned_regions;
  }
  uint64_t control_address(uint8_t tag) const { return kByteRegionBase + uint64_t(tag) * 4096; }

  Hal& hal_;
  HpbFtl& ftl_;
  HpbDeviceParams params_;
  bool enabled_;
  uint64_t subregion_blocks_;
  uint32_t subregions_per_region_;
  uint32_t regions_;
  uint32_t global_generation_ = 0;
  std::vector<uint8_t> dirty_;          // per sub-region: changed since published (1 = never published too)
  std::vector<uint32_t> generation_;    // per sub-region: generation of its last publication
  std::vector<uint8_t> update_recommended_;  // per sub-region: re-activation already recommended
  std::vector<uint16_t> miss_count_;    // per sub-region: SRAM misses (device control mode)
  std::vector<std::vector<uint64_t>> contiguous_;  // per published sub-region: bit i = PPA(i+1) == PPA(i)+1
  std::vector<uint8_t> region_active_;  // per region: the host was told to hold it (device control mode)
  std::deque<uint32_t> active_lru_;     // active regions, least recently activated first
  std::deque<std::pair<uint32_t, uint32_t>> to_activate_;  // (region, sub-region) recommendations pending
  std::deque<uint32_t> to_inactivate_;
  bool reset_pending_ = false;
  std::vector<TagState> tags_;
  std::array<Prefetch, 256> prefetch_{};
  // response_entries: changed entries by LBA (kInCache: the new data is still in the write
  // cache), per-sub-region change counts (in-flight HPB reads compare them), updates being
  // signed and signed ones waiting for a RESPONSE.
  static constexpr uint32_t kInCache = 0xFFFFFFFEu;
  std::map<uint64_t, uint32_t> changed_;
  std::vector<uint32_t> change_count_;
  struct SignedUpdate { uint64_t lba; uint32_t ppa; uint64_t entry; };
  std::deque<SignedUpdate> updates_ready_;
  uint8_t publish_lun_ = 0;  // the LU whose entries the host fetches (updates are signed for it)
  HpbStats stats_;
};

}  // namespace ufs
