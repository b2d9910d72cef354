// Host writes paced by foreground GC's progress (issue 14 item 2). While a die cleans a
// victim below its GC threshold, host units may be placed on it only as GC earns them: a
// victim with V valid and R reclaimable sectors earns R/V host sectors per sector moved
// (the rest of R when it is erased), and each host unit placed there spends its size. So
// host writes share the die with GC at the victim's own ratio, unit by unit, instead of
// taking the die's free blocks at full speed and then waiting, all at once, for the many
// victims it takes to free one (the hard limit, placement's last free block, stays).
// This is the proportional (incremental) GC of real controllers; MQSim's soft and hard
// thresholds alone keep the bursts: the host runs free until the hard threshold, then stops.
#pragma once
#include <cstdint>
#include <vector>

namespace ufs {

class HostPacing {
 public:
  explicit HostPacing(uint32_t dies, uint32_t cap_sectors) : dies_(dies), cap_(int64_t(cap_sectors)) {}

  // A foreground victim was taken on `die` (valid sectors whose moves are told, 0 for a map
  // block's; reclaimable sectors, earned by the moves and the erase); fresh: the
  // die's first since its GC last stopped (a debt from an earlier episode is forgiven).
  void victim_taken(uint32_t die, uint32_t valid, uint32_t reclaim, bool fresh);
  // One of the victim's sectors was moved: true when the die's credit turned positive.
  bool sector_moved(uint32_t die);
  // The victim was erased: it earns what it has not yet (the die stays paced until its GC
  // stops). True when the die's credit turned positive.
  bool victim_erased(uint32_t die);
  void stop(uint32_t die) { dies_[die].paced = false; }  // the die's foreground GC stopped

  bool paced(uint32_t die) const { return dies_[die].paced; }
  bool may_place(uint32_t die) const { return !dies_[die].paced || dies_[die].credit > 0; }
  void placed(uint32_t die, uint32_t sectors);
  // The die's moved data went to another die's block: true when its credit turned positive.
  bool refund(uint32_t die, uint32_t sectors);
  int64_t credit(uint32_t die) const { return dies_[die].credit; }
  uint64_t refusals() const { return refusals_; }
  void count_refusal() { ++refusals_; }

 private:
  struct Die {
    bool paced = false;
    uint32_t valid = 0, reclaim = 0;  // the victim's, when taken
    uint32_t moved = 0;               // its sectors moved so far
    uint32_t earned = 0;              // credit it gave so far
    int64_t credit = 0;               // host sectors the die may take (negative: overdrawn)
  };
  bool earn(Die& d, uint32_t target);
  std::vector<Die> dies_;
  int64_t cap_;  // credit kept at most (a host idle during GC gets no burst after it)
  uint64_t refusals_ = 0;
};

}  // namespace ufs
