// GC victim choice as plug-ins: the garbage collector asks a VictimPolicy for the block of a
// die to clean next; firmware.gc_victim names the policy. Adding a policy: one new file
// (a class deriving from VictimPolicy and a make_ function), its line in kPolicies
// (victim_policy.cpp), and the key value users put in firmware.gc_victim.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include "ftl/block_manager.h"

namespace ufs {

struct FirmwareParams;

// What the collector asks: a victim on `die` (hybrid page size: of the `large` pool) with at
// most max_valid valid sectors (a fuller one gives no program unit back).
struct VictimQuery {
  uint32_t die = 0;
  bool large = false;
  uint32_t max_valid = 0;
  uint64_t now_ps = 0;
  // Wear levelling's rate limiting may veto a candidate (it draws a random number per call:
  // a policy asks it only about a block it would take, as the best so far).
  const std::function<bool(uint32_t)>* allow = nullptr;
  bool allowed(uint32_t block) const { return !allow || !*allow || (*allow)(block); }
};

class VictimPolicy {
 public:
  virtual ~VictimPolicy() = default;
  // The block to clean, or BlockManager::kNoBlock when no candidate is worth cleaning.
  virtual uint32_t pick(const BlockManager& blocks, const VictimQuery& q) = 0;
};

// Each candidate block of the query (closed, not a WriteBooster block, no program in flight,
// at most max_valid valid sectors, of the asked pool) in block order, with its valid fraction.
template <class F>
void for_each_victim_candidate(const BlockManager& bm, const VictimQuery& q, F&& f) {
  const FlashGeometry& g = bm.layout().geometry();
  const uint32_t per_die = g.planes_per_die * g.blocks_per_plane;
  const uint32_t first = q.die * per_die;
  for (uint32_t block = first; block < first + per_die; ++block) {
    const BlockInfo& b = bm.info(block);
    if (b.state != BlockState::Closed || b.slc || b.programs_in_flight || b.valid > q.max_valid) continue;
    if (bm.layout().hybrid() && b.large != q.large) continue;
    const double u = double(b.valid) / (bm.layout().hybrid() ? bm.sectors_in_block(block) : bm.layout().sectors_per_block());
    f(block, b, u);
  }
}

// The candidate with the highest score(info, valid fraction), the first on a tie; the
// rate-limiting veto is asked about each new best.
template <class Score>
uint32_t pick_highest_score(const BlockManager& bm, const VictimQuery& q, Score&& score) {
  uint32_t best = BlockManager::kNoBlock;
  double best_score = -1.0;
  for_each_victim_candidate(bm, q, [&](uint32_t block, const BlockInfo& b, double u) {
    const double s = score(b, u);
    if (s > best_score && q.allowed(block)) { best_score = s; best = block; }
  });
  return best;
}

// What a policy may use besides the block table: the parameters and the run's random numbers.
struct VictimPolicyContext {
  const FirmwareParams& params;
  const FlashGeometry& geometry;
  std::function<uint64_t()> random64;  // the HAL's generator: runs stay repeatable by seed
};

// The registered policies.
std::unique_ptr<VictimPolicy> make_victim_policy(const std::string& name, const VictimPolicyContext& ctx);
bool is_victim_policy(const std::string& name);
std::string victim_policy_names();  // "greedy | cost-benefit | ...", for messages and help

// The policies' factories (one file each).
std::unique_ptr<VictimPolicy> make_greedy_victims(const VictimPolicyContext& ctx);
std::unique_ptr<VictimPolicy> make_cost_benefit_victims(const VictimPolicyContext& ctx);
std::unique_ptr<VictimPolicy> make_randomized_greedy_victims(const VictimPolicyContext& ctx);
std::unique_ptr<VictimPolicy> make_fifo_victims(const VictimPolicyContext& ctx);

}  // namespace ufs
