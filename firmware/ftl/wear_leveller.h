// Wear levelling as in Agrawal et al., "Design Tradeoffs for SSD Performance"
// (USENIX ATC 2008, section 3.6): greedy cleaning alone wears the blocks holding hot
// data while blocks holding cold data stay young. Two remedies, on top of greedy:
//  - rate limiting: a block whose remaining life is below (1 - age_variance) of the
//    mean remaining life is cleaned only with a probability falling linearly from 1
//    there to 0 at no life left;
//  - cold-data migration: a block whose remaining life is below retirement_age of the
//    mean is, once cleaned, not put back in the pool: the cold data of the youngest
//    block of its die moves into it, and that young block joins the pool instead.
// Remaining life = block_lifetime - erase count. Erase counts live in the firmware's
// block table (a real device keeps them in its metadata; a power loss forgets them here).
#pragma once
#include <cstdint>
#include <string>
#include "ftl/block_manager.h"

namespace ufs {

class WearLeveller {
 public:
  enum class Policy : uint8_t { Off, RateLimit, Migration };  // Migration includes rate limiting

  WearLeveller(const std::string& policy, uint32_t block_lifetime, double retirement_age, double age_variance);

  bool rate_limits() const { return policy_ != Policy::Off; }
  bool migrates() const { return policy_ == Policy::Migration; }
  uint32_t lifetime() const { return lifetime_; }

  // Rate limiting: may `block` be cleaned now? `uniform` is a random number in [0, 1).
  bool may_clean(const BlockManager& bm, uint32_t block, double uniform) const;
  // Migration: should this just-erased block take cold data rather than go to the pool?
  bool wants_cold_data(const BlockManager& bm, uint32_t block) const;
  // The block whose data should move into `worn`: the closed data block of the same die
  // with the most life left (the oldest write on a tie), kNoBlock when none is younger.
  uint32_t pick_cold_block(const BlockManager& bm, uint32_t worn) const;
  // The erase count reached the lifetime (counted, not retired: see the README).
  bool expired(uint32_t erase_count) const { return lifetime_ && erase_count >= lifetime_; }

 private:
  double mean_remaining(const BlockManager& bm) const;
  double remaining(const BlockManager& bm, uint32_t block) const {
    return double(lifetime_) - double(bm.info(block).erase_count);
  }
  Policy policy_;
  uint32_t lifetime_;
  double retirement_age_;
  double age_variance_;
};

}  // namespace ufs
