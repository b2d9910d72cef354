#include "hpb/hpb_feature.h"

namespace ufs {

HpbFeature::HpbFeature(Hal& hal, const HpbDeviceParams& params, uint64_t logical_blocks, const HpbFeatureLinks& l)
    : port_(hal, logical_blocks, l.map, l.table, l.reads, l.store, l.latency), device_(hal, port_, params) {
  l.map.set_observer(&device_);  // every mapping change marks its sub-region dirty
  device_.register_queries(l.query);
  l.table.set_response_hook(&device_);                         // device control mode recommendations ride on responses
  l.reads.set_verified_entries(&device_.verified_entries());   // HPB READ: PPAs from verified entries
  l.store.set_miss_listener(&device_.map_miss_listener());     // device control mode counts map misses
  l.store.set_load_listener(&device_.map_load_listener());     // READ BUFFER waits for map pages
}

}  // namespace ufs
