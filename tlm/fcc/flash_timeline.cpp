#include "fcc/flash_timeline.h"
#include "common/sim_time.h"
#include "common/trace_recorder.h"
#include "fcc/flash_topology.h"

namespace ufs {

using sc_core::sc_time;

void FlashTimeline::attach(TraceRecorder* trace, const std::string& scope, const FlashTopology& topology) {
  trace_ = trace;
  die_track_.clear();
  channel_track_.clear();
  die_busy_.clear();
  die_state_.clear();
  channel_busy_.clear();
  slice_start_.assign(topology.dies(), sc_core::SC_ZERO_TIME);
  resumed_.assign(topology.dies(), false);
  queue_track_.assign(topology.dies(), -1);
  topology_ = &topology;
  if (!trace_) return;
  auto padded = [](uint32_t i, uint32_t n) {
    std::string s = std::to_string(i);
    while (s.size() < std::to_string(n - 1).size()) s.insert(s.begin(), '0');
    return s;
  };
  const uint32_t channels = topology.channels(), dies = topology.dies();
  for (uint32_t c = 0; c < channels; ++c) {
    channel_track_.push_back(trace_->track("flash channels", "channel " + std::to_string(c)));
    channel_busy_.push_back(trace_->wire(scope + ".ch" + padded(c, channels), "busy"));
  }
  for (uint32_t d = 0; d < dies; ++d) {
    die_track_.push_back(trace_->track("NAND dies", "die " + std::to_string(d) + " (channel " +
                                                        std::to_string(topology.channel_of(d)) + ")"));
    const std::string die_scope = scope + ".die" + padded(d, dies);
    die_busy_.push_back(trace_->wire(die_scope, "busy"));
    // 0 idle, 1 read (tR), 2 program, 3 erase, 4 copy-back
    die_state_.push_back(trace_->integer(die_scope, "state"));
  }
}

void FlashTimeline::bus(uint32_t channel, const char* what, const sc_time& start, const sc_time& length,
                        const OpSlot& slot, uint64_t bytes) {
  const sc_time end = start + length;
  trace_->busy(channel_busy_[channel], start, end);
  TraceArgs a;
  a.tag(slot.trace_tag).add("die", slot.op.address.die);
  if (bytes) a.add("bytes", bytes);
  if (slot.cmd) a.add("cmd", slot.cmd);
  trace_->slice(channel_track_[channel], what, start, end, a);
}

void FlashTimeline::array(uint32_t die, const sc_time& start, const sc_time& end, FlashOpcode opcode,
                          bool resumed) {
  slice_start_[die] = start;
  resumed_[die] = resumed;
  const int64_t code = int64_t(opcode) + 1;
  trace_->busy(die_busy_[die], start, end);
  const uint64_t s = TraceRecorder::ps(start), e = TraceRecorder::ps(end);
  if (e > s) {
    trace_->change(die_state_[die], s, code);
    trace_->change(die_state_[die], e, -code);
  }
}

void FlashTimeline::array_end(uint32_t die, const OpPool& pool, const std::vector<uint32_t>& group) {
  slice(die, pool, group, resumed_[die] ? 2 : 0, sim_now(), false);
}

void FlashTimeline::array_suspended(uint32_t die, const OpPool& pool, const std::vector<uint32_t>& group,
                                    const sc_time& booked_end) {
  slice(die, pool, group, 1, sim_now(), false);
  // The die frees now instead of at booked_end: undo the rest of the booked interval.
  const int64_t code = int64_t(pool[group[0]].op.opcode) + 1;
  const uint64_t n = TraceRecorder::ps(sim_now()), e = TraceRecorder::ps(booked_end);
  trace_->change(die_busy_[die], e, +1);
  trace_->change(die_busy_[die], n, -1);
  trace_->change(die_state_[die], e, code);
  trace_->change(die_state_[die], n, -code);
}

void FlashTimeline::array_in_flight(uint32_t die, const OpPool& pool, const std::vector<uint32_t>& group,
                                    const sc_time& booked_end) {
  slice(die, pool, group, resumed_[die] ? 2 : 0, booked_end, true);
}

// Its own track: the ops waiting for a die nest (all end now), the die's array slices do not.
int FlashTimeline::queue_track(uint32_t die) {
  if (queue_track_[die] < 0)
    queue_track_[die] = trace_->track("NAND die queues", "die " + std::to_string(die) + " (channel " +
                                                             std::to_string(topology_->channel_of(die)) + ")");
  return queue_track_[die];
}

void FlashTimeline::waiting(uint32_t die, const OpPool& pool, uint32_t s, const char* where) {
  static const char* const names[4] = {"read (queued)", "program (queued)", "erase (queued)", "copy-back (queued)"};
  queue_track(die);
  const OpSlot& op = pool[s];
  const sc_time now = sim_now();
  // An op submitted with a delay may not have arrived yet: a slice of length 0 at now.
  const sc_time start = op.arrival < now ? op.arrival : now;
  TraceArgs a;
  a.tag(op.trace_tag)
      .add("queued", 1)
      .add("block", op.op.address.block)
      .add("page", op.op.address.page)
      .add("cookie", op.op.cookie)
      .label("waiting", where);
  if (op.cmd) a.add("cmd", op.cmd);
  trace_->slice(queue_track_[die], names[size_t(op.op.opcode) & 3], start, now, a);
  if (op.cmd) trace_->flow_from_command(op.cmd, queue_track_[die], TraceRecorder::ps(start));
}

void FlashTimeline::suspended(uint32_t die, const OpPool& pool, const std::vector<uint32_t>& group,
                              const sc_time& since, const sc_time& left) {
  static const char* const names[4] = {"read (suspended)", "program (suspended)", "erase (suspended)",
                                       "copy-back (suspended)"};
  const int track = queue_track(die);
  const OpSlot& lead = pool[group[0]];
  TraceArgs a;
  a.tag(lead.trace_tag)
      .add("queued", 1)
      .add("planes", group.size())
      .add("block", lead.op.address.block)
      .add("page", lead.op.address.page)
      .add("cookie", lead.op.cookie)
      .add("left_ns", uint64_t(left.to_seconds() * 1e9 + 0.5))
      .label("waiting", "suspended");
  if (lead.cmd) a.add("cmd", lead.cmd);
  const uint64_t start = TraceRecorder::ps(since);
  trace_->slice(track, names[size_t(lead.op.opcode) & 3], start, TraceRecorder::ps(sim_now()), a);
  for (uint32_t s : group)
    if (pool[s].cmd) trace_->flow_from_command(pool[s].cmd, track, start);
}

// variant: 0 whole, 1 cut short by a suspend, 2 the part after a resume.
void FlashTimeline::slice(uint32_t die, const OpPool& pool, const std::vector<uint32_t>& group, int variant,
                          const sc_time& end, bool in_flight) {
  static const char* const names[4][3] = {{"read", "read", "read"},
                                          {"program", "program (suspended)", "program (resumed)"},
                                          {"erase", "erase (suspended)", "erase (resumed)"},
                                          {"copy-back", "copy-back (suspended)", "copy-back (resumed)"}};
  const OpSlot& lead = pool[group[0]];
  TraceArgs a;
  a.tag(lead.trace_tag)
      .add("planes", group.size())
      .add("block", lead.op.address.block)
      .add("page", lead.op.address.page)
      .add("cookie", lead.op.cookie);
  if (lead.cmd) a.add("cmd", lead.cmd);
  if (in_flight) {
    a.add("in_flight", 1);
  } else if (lead.op.opcode == FlashOpcode::Read && lead.done.oob.kind == PageKind::UserData) {
    a.add("lba", lead.done.oob.lba[lead.first_sector]);  // what the page holds: checks the link
  }
  const uint64_t start = TraceRecorder::ps(slice_start_[die]);
  trace_->slice(die_track_[die], names[size_t(lead.op.opcode) & 3][variant], start, TraceRecorder::ps(end), a);
  if (variant == 2) return;  // its ops' arrows point at the part before the suspend
  for (uint32_t s : group)
    if (pool[s].cmd) trace_->flow_from_command(pool[s].cmd, die_track_[die], start);
}

}  // namespace ufs
