// The FTL as the HPB device logic sees it (HpbFtl): mappings from the L2P map, the command
// table's tags and endings, reads through the read engine, map pages from the map store,
// HPB verify time in the latency split. Built by the composition root when HPB is on.
#pragma once
#include <cstdint>
#include "command/command_table.h"
#include "command/read_engine.h"
#include "ftl/l2p_map.h"
#include "ftl/latency_split.h"
#include "hal/hal.h"
#include "hpb/hpb_ftl.h"
#include "map/map_store.h"

namespace ufs {

class HpbFtlPort final : public HpbFtl {
 public:
  HpbFtlPort(Hal& hal, uint64_t logical_blocks, const L2pMap& map, CommandTable& table, ReadEngine& reads,
             MapStore& map_store, LatencySplit& latency)
      : hal_(hal), logical_blocks_(logical_blocks), map_(map), table_(table), reads_(reads), map_store_(map_store),
        latency_(latency) {}

  uint64_t hpb_logical_blocks() const override { return logical_blocks_; }
  uint32_t hpb_mapping(uint64_t lba) const override;
  void hpb_mappings(uint64_t first, uint32_t count, uint32_t* ppas) const override;
  void hpb_claim_tag(uint8_t tag, uint8_t lun) override { table_.claim(tag, CommandKind::Control, lun); }
  void hpb_fail(const HostCommand& c, uint8_t key, uint8_t asc_code) override { table_.fail(c, key, asc_code); }
  void hpb_respond(uint8_t tag, uint8_t lun) override { table_.respond(tag, lun); }
  void hpb_start_read(const HostCommand& c, uint64_t lba, uint32_t blocks, bool hpb) override {
    reads_.start(c, lba, blocks, hpb);
  }
  bool hpb_map_page_ready(uint64_t lba) override { return map_store_.ready_for(lba); }
  uint64_t hpb_map_page_entries() const override { return map_store_.entries_per_page(); }
  void hpb_verify_time(uint8_t tag, bool begin) override;

 private:
  Hal& hal_;
  uint64_t logical_blocks_;
  const L2pMap& map_;
  CommandTable& table_;
  ReadEngine& reads_;
  MapStore& map_store_;
  LatencySplit& latency_;
};

}  // namespace ufs
