// When the controller sees the end of a die's array operation: at once with the
// ready/busy line; with status polling (fcc.status_poll_ns) at the first status read
// that finds the die ready, every status_poll_ns from the operation's start, each read
// taking the die's channel for one command time. Owns the interval and the poll count.
#pragma once
#include <systemc>
#include <cstdint>
#include "fcc/flash_controller_params.h"
#include "fcc/op_pool.h"

namespace ufs {

class FlashTimeline;
class FlashTopology;

class StatusPoller {
 public:
  StatusPoller(const FlashControllerParams& params, FlashTopology& topology, FlashTimeline& timeline);

  // The operation of `lead`'s group runs [start, end) on a die of `channel`; the polls
  // are booked on the channel (and shown on the timeline as lead's).
  sc_core::sc_time ready_seen(uint32_t channel, const sc_core::sc_time& start, const sc_core::sc_time& end,
                              const OpSlot& lead) {
    return polling_ ? polled(channel, start, end, lead) : end;
  }
  uint64_t polls() const { return polls_; }

 private:
  sc_core::sc_time polled(uint32_t channel, const sc_core::sc_time& start, const sc_core::sc_time& end,
                          const OpSlot& lead);

  FlashTopology& topology_;
  FlashTimeline& timeline_;
  sc_core::sc_time interval_;
  bool polling_;
  uint64_t polls_ = 0;
};

}  // namespace ufs
