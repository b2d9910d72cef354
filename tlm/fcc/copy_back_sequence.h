// A copy-back (internal data move: read for copy-back, then program to the destination
// in the same plane): the read command, tR per source page into the page register, and
// the program command once the controller sees the read's end (ready line or status
// polls), then tPROG within the program power budget; the data never crosses the
// channel. With read_oob the pages' spare bytes (their OOB) come out first, as a random
// data output from the page register. Owns nothing across ops: the times it books are
// the die's, returned to the sequencer.
#pragma once
#include <systemc>
#include <cstdint>

namespace ufs {

class FlashTimeline;
class FlashTopology;
class ProgramPowerBudget;
class StatusPoller;
struct OpSlot;

class CopyBackSequence {
 public:
  struct Parts {
    FlashTopology& topology;
    ProgramPowerBudget& budget;
    StatusPoller& poller;
    FlashTimeline& timeline;
  };
  explicit CopyBackSequence(const Parts& parts) : parts_(parts) {}

  // The copy-back's phases on the die: its tR (all source pages) runs from read_start,
  // its tPROG from program_start.
  struct Phases {
    sc_core::sc_time read_start, program_start, t_r, t_p;
  };
  // Books the copy-back in `slot` on `die` from `start`: commands (and spare bytes) on
  // the channel, the program's slot in the power budget.
  Phases book(uint32_t die, const OpSlot& slot, const sc_core::sc_time& start);

 private:
  Parts parts_;
};

}  // namespace ufs
