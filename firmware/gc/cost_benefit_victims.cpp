// Cost-benefit victim choice (Rosenblum & Ousterhout, LFS): the candidate with the highest
// age * (1 - u) / 2u, u its valid fraction, age the time since its last write in ms (+1, so
// a block written just now still scores); an empty block first.
#include "gc/victim_policy.h"

namespace ufs {

namespace {
class CostBenefitVictims : public VictimPolicy {
 public:
  uint32_t pick(const BlockManager& blocks, const VictimQuery& q) override {
    return pick_highest_score(blocks, q, [&q](const BlockInfo& b, double u) {
      const double age = double(q.now_ps - b.last_write_ps) * 1e-9 + 1.0;
      return u == 0 ? 1e300 : age * (1.0 - u) / (2.0 * u);
    });
  }
};
}  // namespace

std::unique_ptr<VictimPolicy> make_cost_benefit_victims(const VictimPolicyContext&) {
  return std::make_unique<CostBenefitVictims>();
}

}  // namespace ufs
