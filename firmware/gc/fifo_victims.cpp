// FIFO victim choice (MQSim's FIFO): the candidate written longest ago, i.e. the block
// closed first, whatever it holds: a circular log, cheap to run, blind to valid data.
// Blocks written at the same time (preconditioning) go in block order.
#include "gc/victim_policy.h"

namespace ufs {

namespace {
class FifoVictims : public VictimPolicy {
 public:
  uint32_t pick(const BlockManager& blocks, const VictimQuery& q) override {
    uint32_t best = BlockManager::kNoBlock;
    uint64_t oldest = ~0ull;
    for_each_victim_candidate(blocks, q, [&](uint32_t block, const BlockInfo& b, double) {
      if ((best == BlockManager::kNoBlock || b.last_write_ps < oldest) && q.allowed(block)) {
        oldest = b.last_write_ps;
        best = block;
      }
    });
    return best;
  }
};
}  // namespace

std::unique_ptr<VictimPolicy> make_fifo_victims(const VictimPolicyContext&) {
  return std::make_unique<FifoVictims>();
}

}  // namespace ufs
