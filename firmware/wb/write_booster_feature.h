// WriteBooster as one feature, built by the composition root only when
// writebooster.enabled: the SLC buffer's state, flags, QUERY and statistics
// (ftl/write_booster) and its idle flush (gc/write_booster_flush), which empties sealed SLC
// blocks through the garbage collector. Building it reserves each die's SLC blocks and
// registers the WriteBooster flags and attributes with the QUERY server; the root hands the
// buffer to placement, the write cache and power-loss recovery, and the flush to the idle
// scheduler and the collector.
#pragma once
#include "firmware_params.h"
#include "ftl/block_manager.h"
#include "ftl/write_booster.h"
#include "gc/garbage_collector.h"
#include "gc/write_booster_flush.h"
#include "query/query_server.h"

namespace ufs {

class WriteBoosterFeature {
 public:
  WriteBoosterFeature(const FirmwareParams& params, const FlashGeometry& geometry, BlockManager& blocks,
                      GarbageCollector& gc, QueryServer& query);
  WriteBoosterFeature(const WriteBoosterFeature&) = delete;
  WriteBoosterFeature& operator=(const WriteBoosterFeature&) = delete;

  WriteBooster& buffer() { return buffer_; }
  const WriteBooster& buffer() const { return buffer_; }
  WriteBoosterFlush& flush() { return flush_; }

 private:
  WriteBooster buffer_;
  WriteBoosterFlush flush_;
};

}  // namespace ufs
