// Randomized greedy (d-choices) victim choice, MQSim's RGA after Van Houdt (SIGMETRICS
// 2013): sample d distinct candidates of the die at random and clean the one with the
// fewest valid sectors. d = firmware.gc_victim_choices; 0 takes MQSim's own default,
// log2(blocks per plane). d at least the candidate count is plain greedy. The samples come
// from the HAL's generator, so a run is repeatable with its seed.
#include <cmath>
#include <vector>
#include "firmware_params.h"
#include "gc/victim_policy.h"

namespace ufs {

namespace {
class RandomizedGreedyVictims : public VictimPolicy {
 public:
  RandomizedGreedyVictims(uint32_t d, std::function<uint64_t()> random64) : d_(d), random64_(std::move(random64)) {}

  uint32_t pick(const BlockManager& blocks, const VictimQuery& q) override {
    candidates_.clear();
    for_each_victim_candidate(blocks, q, [&](uint32_t block, const BlockInfo&, double) { candidates_.push_back(block); });
    // The first d of a partial Fisher-Yates shuffle: d distinct candidates, uniformly.
    const size_t n = candidates_.size(), d = std::min<size_t>(d_, n);
    for (size_t i = 0; i < d && d < n; ++i) std::swap(candidates_[i], candidates_[i + random64_() % (n - i)]);
    uint32_t best = BlockManager::kNoBlock, fewest = ~0u;
    for (size_t i = 0; i < d; ++i) {
      const uint32_t block = candidates_[i];
      if (blocks.info(block).valid < fewest && q.allowed(block)) { fewest = blocks.info(block).valid; best = block; }
    }
    return best;
  }

 private:
  uint32_t d_;
  std::function<uint64_t()> random64_;
  std::vector<uint32_t> candidates_;  // kept: no allocation per pick
};
}  // namespace

std::unique_ptr<VictimPolicy> make_randomized_greedy_victims(const VictimPolicyContext& ctx) {
  uint32_t d = ctx.params.gc.victim_choices;
  if (d == 0) d = std::max<uint32_t>(1, uint32_t(std::log2(double(std::max<uint32_t>(1, ctx.geometry.blocks_per_plane)))));
  return std::make_unique<RandomizedGreedyVictims>(d, ctx.random64);
}

}  // namespace ufs
