// Read-modify-write fill: the sectors of a logical page a write does not cover go into
// its unit's slots, copied from the write cache, zero when never written (they stay
// unmapped), or read from NAND (one read per run of sectors in one page, through its own
// flash client). Their map entries move to the cache only once the data is there, and
// only if nothing newer was written meanwhile; the NAND copy read stays valid (the slot's
// superseded copy) until the unit is programmed, as for host data.
#pragma once
#include <cstdint>
#include <vector>
#include "firmware_params.h"
#include "flash/flash_port.h"
#include "ftl/block_layout.h"
#include "ftl/l2p_map.h"
#include "hal/hal.h"
#include "stats_visitor.h"
#include "write/write_cache.h"

namespace ufs {

struct PageFillStats {
  uint64_t flash_sectors = 0;  // sectors of the rest of a logical page read from NAND
  uint64_t cache_sectors = 0;  // ... copied from the write cache
};

class PageFill final : public FlashClient {
 public:
  PageFill(Hal& hal, const FirmwareParams& params, const BlockLayout& layout, L2pMap& map, FlashPort& flash,
           WriteCache& cache);

  // Sectors [lba, lba + n) into the unit's next n slots (staged here).
  void fill(uint32_t unit, uint64_t lba, uint32_t n);

  const PageFillStats& stats() const { return stats_; }
  void visit_stats(StatsVisitor& v) const;

 private:
  struct Read { uint32_t unit, pos, count; };
  void on_flash_done(uint64_t index, const FlashCompletion& c) override;

  Hal& hal_;
  const FirmwareParams& params_;
  const BlockLayout& layout_;
  L2pMap& map_;
  FlashPort& flash_;
  uint32_t client_;
  WriteCache& cache_;
  std::vector<Read> reads_;
  std::vector<uint32_t> free_reads_;
  PageFillStats stats_;
};

}  // namespace ufs
