// HPB as one feature, built by the composition root only when hpb.enabled: the FTL as HPB
// sees it (hpb/hpb_ftl_port) and the HPB device logic (hpb/hpb_device), wired into the FTL
// at construction: every mapping change marks its sub-region dirty (the map's observer),
// device control mode's recommendations ride on responses (the command table's hook), HPB
// READ takes PPAs from verified entries (the read engine), the map store tells HPB of map
// misses and of the map pages READ BUFFER waits for, and HPB's flags, attribute and
// descriptor fields are registered with the QUERY server.
#pragma once
#include <cstdint>
#include "command/command_table.h"
#include "command/read_engine.h"
#include "ftl/l2p_map.h"
#include "ftl/latency_split.h"
#include "hal/hal.h"
#include "hpb/hpb_device.h"
#include "hpb/hpb_ftl_port.h"
#include "map/map_store.h"
#include "query/query_server.h"

namespace ufs {

// The parts of the FTL the HPB feature is wired into.
struct HpbFeatureLinks {
  L2pMap& map;
  CommandTable& table;
  ReadEngine& reads;
  MapStore& store;
  LatencySplit& latency;
  QueryServer& query;
};

class HpbFeature {
 public:
  HpbFeature(Hal& hal, const HpbDeviceParams& params, uint64_t logical_blocks, const HpbFeatureLinks& links);
  HpbFeature(const HpbFeature&) = delete;
  HpbFeature& operator=(const HpbFeature&) = delete;

  // The device logic: the root hands it HPB commands, its DMA and crypto events, power-up.
  HpbDevice& device() { return device_; }
  const HpbDevice& device() const { return device_; }

 private:
  HpbFtlPort port_;
  HpbDevice device_;
};

}  // namespace ufs
