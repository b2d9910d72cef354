// Program/erase suspend for reads (fcc.suspend_for_read): a read submitted while its
// die is in the array phase of a program or erase suspends it; the die then runs
// reads until none waits (no cap), and the program/erase resumes with the array time
// it had left. Owns each die's suspended group and that time.
#pragma once
#include <systemc>
#include <cstdint>
#include <string>
#include <vector>

namespace ufs {

class DieSequencer;
class FlashTimeline;
class OpPool;

class SuspendResume {
 public:
  SuspendResume(bool enabled, uint32_t dies, DieSequencer& sequencer, std::string owner);

  // A read arrived for `die`: suspends its program/erase if it may; true if it did
  // (the die is then free for reads).
  bool try_suspend(uint32_t die);
  bool suspended(uint32_t die) const { return !dies_[die].group.empty(); }
  // No read waits: the suspended group takes the array again.
  void resume(uint32_t die);
  // Power cut: tears the suspended programs' pages; returns the pages torn.
  uint64_t cut_power(uint32_t die);
  // Timeline at the end of the run: each group still suspended (FlashTimeline::suspended).
  void trace_in_flight(FlashTimeline& timeline, const OpPool& pool) const;

  uint64_t suspensions() const { return suspensions_; }  // granted to reads

 private:
  struct Die {
    std::vector<uint32_t> group;  // the program/erase group set aside
    sc_core::sc_time left;        // array time it still needs
    sc_core::sc_time since;       // when it was suspended
  };
  bool enabled_;
  DieSequencer& sequencer_;
  std::string owner_;  // for the log
  std::vector<Die> dies_;
  uint64_t suspensions_ = 0;
};

}  // namespace ufs
