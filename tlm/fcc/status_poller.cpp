#include "fcc/status_poller.h"
#include "fcc/flash_timeline.h"
#include "fcc/flash_topology.h"

namespace ufs {

StatusPoller::StatusPoller(const FlashControllerParams& params, FlashTopology& topology, FlashTimeline& timeline)
    : topology_(topology),
      timeline_(timeline),
      interval_(params.status_poll_ns, sc_core::SC_NS),
      polling_(interval_ != sc_core::SC_ZERO_TIME) {}

sc_core::sc_time StatusPoller::polled(uint32_t channel, const sc_core::sc_time& start, const sc_core::sc_time& end,
                                      const OpSlot& lead) {
  FlashChannel& ch = topology_.channel(channel);
  const sc_core::sc_time& t_cmd = topology_.t_cmd();
  sc_core::sc_time poll = start;
  for (;;) {
    poll = ch.reserve(poll + interval_, t_cmd);
    ++polls_;
    if (timeline_.on()) timeline_.bus(channel, "status poll", poll, t_cmd, lead, 0);
    if (poll >= end) return poll + t_cmd;
  }
}

}  // namespace ufs
