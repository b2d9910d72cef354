// Wear levelling inside GC (the rules: ftl/wear_leveller.h): rate limiting's veto on a
// victim candidate (one random draw per question) and, after an erase, cold-data migration:
// a worn block just erased takes the cold data of a young one, which joins the pool instead.
// It also reports the erase counts of the blocks in use.
#pragma once
#include <cstdint>
#include "firmware_params.h"
#include "ftl/block_manager.h"
#include "ftl/wear_leveller.h"
#include "hal/hal.h"
#include "stats_visitor.h"

namespace ufs {

class WearMigration {
 public:
  WearMigration(Hal& hal, const FirmwareParams& params, BlockManager& blocks);

  bool rate_limits() const { return wear_.rate_limits(); }
  // Rate limiting: may `block` be cleaned now? Draws a random number; a veto is counted.
  bool may_clean(uint32_t block);
  // `block` of `die` was erased (and stays in use): back to its pool, or the die's Cold
  // write point when it takes a young block's cold data; returns that young block (the
  // migration's victim) or kNoBlock.
  uint32_t erased(uint32_t die, uint32_t block);

  uint64_t expired_blocks() const { return expired_; }
  uint64_t migrations() const { return migrations_; }
  uint64_t rate_limited() const { return rate_limited_; }
  // The erase counts of the blocks in use (Agrawal et al.'s table 7 columns) and the counters.
  void visit_stats(StatsVisitor& v) const;

 private:
  Hal& hal_;
  BlockManager& blocks_;
  WearLeveller wear_;
  uint64_t expired_ = 0;       // blocks whose erase count reached block_lifetime
  uint64_t migrations_ = 0;    // cold blocks moved into worn blocks
  uint64_t rate_limited_ = 0;  // victim candidates passed over by rate limiting
};

}  // namespace ufs
