// The write cache as the garbage collector sees it (GcUnits): units for moved data on the
// victim's die, staged for the victim's page reads, their LBAs and ages from the OOB read
// with the data; and the map following a move (or the cached data it backs).
#pragma once
#include <cstdint>
#include "ftl/block_manager.h"
#include "ftl/l2p_map.h"
#include "gc/victim_mover.h"
#include "map/map_store.h"
#include "write/write_cache.h"

namespace ufs {

class CacheGcUnits final : public GcUnits {
 public:
  CacheGcUnits(WriteCache& cache, L2pMap& map, MapStore& store, BlockManager& blocks)
      : cache_(cache), map_(map), store_(store), blocks_(blocks) {}

  uint32_t gc_unit(WriteStream stream, bool large, uint32_t die, bool flush) override;
  uint32_t gc_unit_room(uint32_t unit) const override { return cache_.units().room(unit); }
  uint64_t gc_stage(uint32_t unit, uint32_t from, uint32_t n, uint32_t& pos) override;
  void gc_data_arrived(uint32_t unit, uint32_t pos, uint32_t n, const PageOob& oob) override;
  void gc_seal(uint32_t unit) override { cache_.seal(unit); }
  void gc_release(uint32_t unit) override { cache_.release(unit); }
  bool gc_follow_move(uint64_t lba, uint32_t from, uint32_t to) override;

 private:
  WriteCache& cache_;
  L2pMap& map_;
  MapStore& store_;
  BlockManager& blocks_;
};

}  // namespace ufs
