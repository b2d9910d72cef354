// Greedy victim choice: the candidate with the fewest valid sectors (the first on a tie).
#include "gc/victim_policy.h"

namespace ufs {

namespace {
class GreedyVictims : public VictimPolicy {
 public:
  uint32_t pick(const BlockManager& blocks, const VictimQuery& q) override {
    return pick_highest_score(blocks, q, [](const BlockInfo&, double u) { return 1.0 - u; });
  }
};
}  // namespace

std::unique_ptr<VictimPolicy> make_greedy_victims(const VictimPolicyContext&) {
  return std::make_unique<GreedyVictims>();
}

}  // namespace ufs
