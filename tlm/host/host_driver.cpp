#include "host/host_driver.h"
#include "common/sim_time.h"

#include "host/app_launch_tracker.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include "common/log.h"
#include "common/trace_recorder.h"
#include "host/app_launch_tracker.h"
#include "host/scsi_cdb.h"

namespace ufs {

using sc_core::sc_time;

namespace {
uint64_t ticks_per_ps() {
  static const uint64_t t = sc_time(1, sc_core::SC_PS).value();
  return t;
}
uint64_t to_ps(const sc_time& t) {
  const uint64_t tpp = ticks_per_ps();
  return tpp ? t.value() / tpp : static_cast<uint64_t>(t.to_seconds() * 1e12 + 0.5);
}
sc_time ps_to_time(uint64_t ps) {
  const uint64_t tpp = ticks_per_ps();
  return tpp ? sc_time::from_value(ps * tpp) : sc_time(static_cast<double>(ps), sc_core::SC_PS);
}
}  // namespace

HostDriver::HostDriver(sc_core::sc_module_name name, const HostParams& params)
    : sc_core::sc_module(name),
      to_link("to_link"),
      from_link("from_link", this),
      params_(params),
      kick_("kick", [this] { issue_method(); }),
      events_("events", Deliver{this}) {
  const std::string err = params_.validate();
  if (!err.empty()) SC_REPORT_FATAL(this->name(), ("bad host parameter " + err).c_str());

  slots_.reset(new TagSlot[params_.queue_depth]);
  for (uint32_t t = params_.queue_depth; t-- > 0;) {
    free_tags_.push_back(static_cast<uint8_t>(t));  // tag 0 is handed out first
    slots_[t].bytes.resize(host_scsi::kUnmapParamBytes);
  }
  submit_overhead_ = sc_time(static_cast<double>(params_.submit_overhead_ns), sc_core::SC_NS);
  completion_overhead_ = sc_time(static_cast<double>(params_.completion_overhead_ns), sc_core::SC_NS);
  rtt_turnaround_ = sc_time(static_cast<double>(params_.rtt_turnaround_ns), sc_core::SC_NS);

  // Runs once when sc_start begins (no dont_initialize); kick_ runs it on open-loop arrivals
  // and raw submissions.
  SC_METHOD(issue_method);
}

void HostDriver::attach(EventWheel* wheel) {
  wheel_ = wheel;
  kick_.attach(wheel);
  events_.attach(wheel);
}

void HostDriver::set_trace(TraceRecorder* trace, std::vector<std::string> stream_names) {
  trace_ = trace;
  trace_stream_names_ = std::move(stream_names);
  trace_tracks_.clear();
  if (!trace_) return;
  trace_outstanding_ = trace_->integer(name(), "outstanding", "host");
  trace_queued_ = trace_->integer(name(), "software_queue", "host");
}

int HostDriver::trace_track(int stream, uint8_t tag) {
  const size_t index = size_t(stream + 1);
  if (trace_tracks_.size() <= index) trace_tracks_.resize(index + 1);
  std::vector<int>& tags = trace_tracks_[index];
  if (tags.empty()) tags.assign(params_.queue_depth, -1);
  if (tags[tag] < 0) {
    std::string process;
    if (stream < 0) {
      process = "host raw commands";
    } else {
      process = "host stream " + std::to_string(stream);
      if (size_t(stream) < trace_stream_names_.size() && !trace_stream_names_[size_t(stream)].empty())
        process += " (" + trace_stream_names_[size_t(stream)] + ")";
    }
    tags[tag] = trace_->track(process, "tag " + std::to_string(tag));
  }
  return tags[tag];
}

// The command's slice on its tag's track, issue to `end_ps`; args.cmd names it for the
// work it causes (flow arrows from here to its NAND ops).
void HostDriver::trace_command_slice(uint8_t tag, uint64_t end_ps, bool in_flight) {
  const TagSlot& slot = slots_[tag];
  static const char* const op_names[] = {"read", "write", "flush", "unmap"};
  TraceArgs a;
  a.tag(tag).add("cmd", slot.trace_cmd);
  if (in_flight) a.add("in_flight", 1);
  else a.add("status", slot.response.status);
  const char* what = "raw command";
  if (slot.submitter >= 0) {
    const BlockRequest& q = slot.record.request;
    what = op_names[size_t(q.op) & 3];
    a.add("lba", q.lba).add("blocks", q.blocks).add("io_id", slot.record.io_id);
  } else {
    a.add("opcode", slot.command.cdb[0]);
  }
  const int stream = slot.submitter >= 0 ? int(slot.record.request.stream) : -1;
  trace_->slice(trace_track(stream, tag), what, slot.record.issue_ps, end_ps, a);
}

void HostDriver::trace_in_flight() {
  if (!trace_) return;
  const uint64_t now = now_ps();
  for (size_t tag = 0; tag < params_.queue_depth; ++tag)
    if (slots_[tag].busy) trace_command_slice(uint8_t(tag), std::max(now, slots_[tag].record.issue_ps), true);
}

uint64_t HostDriver::now_ps() const { return to_ps(sim_now()); }

void HostDriver::add_submitter(RequestSubmitter* submitter) {
  auto s = std::make_unique<SubmitterState>();
  s->source = submitter;
  s->timed = submitter->timed();
  submitters_.push_back(std::move(s));
  done_notified_ = false;
  if (sc_core::sc_is_running()) kick_.notify(sc_core::SC_ZERO_TIME);
}

void HostDriver::submit_raw(const RawCommand& command, RawCallback done) {
  raw_queue_.emplace_back(command, std::move(done));
  done_notified_ = false;
  if (sc_core::sc_is_running()) kick_.notify(sc_core::SC_ZERO_TIME);
}

bool HostDriver::done() const {
  if (in_flight_ != 0 || !raw_queue_.empty()) return false;
  for (const auto& s : submitters_)
    if (!s->exhausted || s->has_lookahead || !s->arrived.empty()) return false;
  return true;
}

void HostDriver::issue_method() {
  if (hpb_) pump_hpb();
  admit_arrivals();
  try_issue();
  check_done();
}

void HostDriver::admit_arrivals() {
  const uint64_t now = now_ps();
  uint64_t next_arrival = std::numeric_limits<uint64_t>::max();
  for (auto& sp : submitters_) {
    SubmitterState& s = *sp;
    if (!s.timed) continue;
    for (;;) {
      if (!s.has_lookahead) {
        if (s.exhausted || !s.source->next(s.lookahead)) {
          s.exhausted = true;
          break;
        }
        s.has_lookahead = true;
      }
      if (s.lookahead.arrival_ps > now) {
        next_arrival = std::min(next_arrival, s.lookahead.arrival_ps);
        break;
      }
      // Arrived: io ids follow arrival order within a submitter.
      s.arrived.push({s.lookahead, next_io_id_++});
      s.has_lookahead = false;
      ++software_queued_;
      if (trace_) trace_->change(trace_queued_, now, +1);
    }
  }
  if (next_arrival != std::numeric_limits<uint64_t>::max())
    kick_.notify(ps_to_time(next_arrival) - sim_now());
}

bool HostDriver::pull(int index, BlockRequest& request, uint64_t& io_id, uint64_t& arrival_ps) {
  SubmitterState& s = *submitters_[static_cast<size_t>(index)];
  if (s.timed) {
    if (s.arrived.empty()) return false;
    request = s.arrived.front().first;
    io_id = s.arrived.front().second;
    arrival_ps = request.arrival_ps;
    s.arrived.pop();
    --software_queued_;
    if (trace_) trace_->change(trace_queued_, now_ps(), -1);
    return true;
  }
  if (s.exhausted) return false;
  if (!s.source->next(request)) {
    s.exhausted = true;
    return false;
  }
  io_id = next_io_id_++;
  arrival_ps = now_ps();  // closed loop: the request exists when the driver may take it
  return true;
}

void HostDriver::try_issue() {
  struct TrackQueue {  // what is still queued once the free tags are used is what waits
    HostDriver& d;
    ~TrackQueue() { d.counters_.max_software_queue = std::max(d.counters_.max_software_queue, d.software_queued_); }
  } track{*this};
  while (!free_tags_.empty()) {
    if (!raw_queue_.empty()) {
      issue_raw();
      continue;
    }
    bool issued = false;
    const size_t n = submitters_.size();
    for (size_t k = 0; k < n && !issued; ++k) {
      const size_t idx = (round_robin_ + k) % n;
      SubmitterState& s = *submitters_[idx];
      if (s.outstanding >= s.source->max_outstanding()) continue;
      BlockRequest request;
      uint64_t io_id = 0, arrival = 0;
      if (pull(static_cast<int>(idx), request, io_id, arrival)) {
        issue_block(static_cast<int>(idx), request, io_id, arrival);
        round_robin_ = idx + 1;  // the next free tag goes to the next submitter
        issued = true;
      }
    }
    if (!issued) break;
  }
}

void HostDriver::issue_block(int index, const BlockRequest& request, uint64_t io_id, uint64_t arrival_ps) {
  const uint8_t tag = free_tags_.back();
  free_tags_.pop_back();
  TagSlot& slot = slots_[tag];
  slot.busy = true;
  slot.submitter = index;
  slot.raw_stamps_out = false;
  slot.responded = false;
  slot.data_in_bytes = slot.data_out_bytes = 0;
  ++submitters_[static_cast<size_t>(index)]->outstanding;
  ++in_flight_;

  slot.command.tag = tag;
  slot.command.lun = static_cast<uint8_t>(params_.lun);
  host_scsi::encode_block_request(request, slot.command, slot.bytes.data());
  uint64_t hpb_ns = 0;  // host CPU time of building an HPB READ
  slot.hpb_read = false;
  uint32_t app = request.stream;
  bool foreground = true;
  if (apps_) {
    const AppLaunchTracker::Role role = apps_->on_issue(request, now_ps());
    app = role.known ? role.app : ~0u;
    foreground = role.known && role.foreground;
  }
  if (hpb_) {
    if (request.op == BlockOp::Read)
      slot.hpb_read = hpb_->prepare_read(request.lba, request.blocks, slot.command, now_ps(), hpb_ns, app, foreground);
    else if (request.op == BlockOp::Write || request.op == BlockOp::Unmap) hpb_->on_write(request.lba, request.blocks);
  }

  const bool has_data = request.op == BlockOp::Read || request.op == BlockOp::Write;
  if (has_data) {
    if (slot.stamps.size() < request.blocks) slot.stamps.resize(request.blocks);
    SectorStamp* s = slot.stamps.data();
    if (request.op == BlockOp::Write) {
      for (uint32_t i = 0; i < request.blocks; ++i) s[i] = SectorStamp{request.lba + i, next_version_++};
    } else {
      std::fill(s, s + request.blocks, SectorStamp());  // unfilled blocks read back as empty
    }
  }

  IoRecord& rec = slot.record;
  rec = IoRecord();
  rec.io_id = io_id;
  rec.tag = tag;
  rec.request = request;
  rec.arrival_ps = arrival_ps;
  rec.issue_ps = now_ps() + to_ps(submit_overhead_) + hpb_ns * 1000;
  rec.data = has_data ? slot.stamps.data() : nullptr;

  ++counters_.issued;
  counters_.max_outstanding = std::max(counters_.max_outstanding, in_flight_);
  if (trace_) {
    trace_->change(trace_outstanding_, now_ps(), +1);
    slot.trace_cmd = trace_->command_issued(tag, trace_track(int(request.stream), tag), rec.issue_ps);
  }
  if (observer_) observer_->on_issue(rec);
  send_command(tag, hpb_ns);
}

void HostDriver::issue_raw() {
  auto entry = std::move(raw_queue_.front());
  raw_queue_.pop_front();
  const uint8_t tag = free_tags_.back();
  free_tags_.pop_back();
  TagSlot& slot = slots_[tag];
  slot.busy = true;
  slot.submitter = -1;
  slot.responded = false;
  slot.data_in_bytes = slot.data_out_bytes = 0;
  slot.command = entry.first.command;
  slot.command.tag = tag;
  slot.raw_done = std::move(entry.second);
  ++in_flight_;

  const uint32_t len = slot.command.expected_length;
  const size_t sectors = (len + kSectorBytes - 1) / kSectorBytes;
  slot.raw_stamps_out = !entry.first.data_out_stamps.empty();
  slot.stamps.assign(std::max(sectors, entry.first.data_out_stamps.size()), SectorStamp());
  std::copy(entry.first.data_out_stamps.begin(), entry.first.data_out_stamps.end(), slot.stamps.begin());
  slot.bytes.assign(std::max<size_t>({len, entry.first.data_out.size(), host_scsi::kUnmapParamBytes}), 0);
  std::copy(entry.first.data_out.begin(), entry.first.data_out.end(), slot.bytes.begin());

  slot.record = IoRecord();
  slot.record.issue_ps = now_ps() + to_ps(submit_overhead_);
  ++counters_.issued;
  counters_.max_outstanding = std::max(counters_.max_outstanding, in_flight_);
  if (trace_) {
    trace_->change(trace_outstanding_, now_ps(), +1);
    slot.trace_cmd = trace_->command_issued(tag, trace_track(-1, tag), slot.record.issue_ps);
  }
  send_command(tag);
}

void HostDriver::send_command(uint8_t tag, uint64_t extra_ns) {
  TagSlot& slot = slots_[tag];
  Upiu& u = slot.upiu;
  u = Upiu();
  u.type = UpiuType::Command;
  u.task_tag = tag;
  u.lun = slot.command.lun;
  u.command = slot.command;
  tlm::tlm_generic_payload& p = slot.payload;
  p.set_command(tlm::TLM_WRITE_COMMAND);
  p.set_address(0);
  p.set_data_ptr(reinterpret_cast<unsigned char*>(&u));
  p.set_data_length(u.wire_bytes());
  p.set_streaming_width(u.wire_bytes());
  p.set_byte_enable_ptr(nullptr);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_time delay = submit_overhead_;
  if (extra_ns) delay += sc_time(double(extra_ns), sc_core::SC_NS);
  to_link->b_transport(p, delay);
}

void HostDriver::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  const Upiu* u = reinterpret_cast<const Upiu*>(trans.get_data_ptr());
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  if (!u) return;
  if (u->type == UpiuType::NopIn) return;
  if (u->task_tag >= params_.queue_depth || !slots_[u->task_tag].busy) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    protocol_violation("UPIU for a tag with no command: " + std::to_string(u->task_tag));
    return;
  }
  TagSlot& slot = slots_[u->task_tag];
  // Exactly one RESPONSE per COMMAND, nothing after it; data only in the command's direction.
  if (slot.responded) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    protocol_violation("UPIU for tag " + std::to_string(u->task_tag) + " after its RESPONSE");
    return;
  }
  if ((u->type == UpiuType::DataIn && slot.command.direction == DataDirection::Write) ||
      (u->type == UpiuType::ReadyToTransfer && slot.command.direction == DataDirection::Read)) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    protocol_violation(std::string(u->type == UpiuType::DataIn ? "DATA IN for tag " : "READY TO TRANSFER for tag ") +
                       std::to_string(u->task_tag) + ", whose command moves data the other way");
    return;
  }
  const sc_time arrival = sim_now() + delay;
  switch (u->type) {
    case UpiuType::DataIn: {
      // Copied as the UPIU passes: the host buffer is DRAM the controller writes by DMA.
      const uint64_t end = uint64_t(u->data_offset) + u->data_bytes;
      if (end > slot.command.expected_length) {
        SC_REPORT_ERROR(name(), "DATA IN beyond the expected data transfer length");
        return;
      }
      if (u->stamps) {
        const size_t first = u->data_offset / kSectorBytes;
        const size_t count = (u->data_bytes + kSectorBytes - 1) / kSectorBytes;
        std::copy(u->stamps, u->stamps + count, slot.stamps.begin() + static_cast<std::ptrdiff_t>(first));
      } else if (u->bytes) {
        if (slot.bytes.size() < end) slot.bytes.resize(end);
        std::memcpy(slot.bytes.data() + u->data_offset, u->bytes, u->data_bytes);
      }
      slot.data_in_bytes += u->data_bytes;
      counters_.bytes_read += u->data_bytes;
      break;
    }
    case UpiuType::ReadyToTransfer: {
      HostEvent ev;
      ev.kind = EventKind::ReadyToTransfer;
      ev.tag = u->task_tag;
      ev.data_offset = u->data_offset;
      ev.data_bytes = u->data_bytes;
      ev.segment_bytes = u->segment_bytes;
      events_.push(arrival + rtt_turnaround_, ev);
      break;
    }
    case UpiuType::Response: {
      slot.responded = true;
      slot.response = u->response;
      HostEvent ev;
      ev.kind = EventKind::Response;
      ev.tag = u->task_tag;
      events_.push(arrival + completion_overhead_, ev);
      break;
    }
    default:
      SC_REPORT_WARNING(name(), "ignoring an unexpected UPIU type from the device");
      break;
  }
}

void HostDriver::handle_event(HostEvent& ev) {
  if (ev.kind == EventKind::ReadyToTransfer)
    send_data_out(ev);
  else
    complete(ev.tag);
}

void HostDriver::send_data_out(const HostEvent& ev) {
  TagSlot& slot = slots_[ev.tag];
  if (!slot.busy) return;  // the command already ended
  if (uint64_t(ev.data_offset) + ev.data_bytes > slot.command.expected_length) {
    SC_REPORT_ERROR(name(), "READY TO TRANSFER beyond the expected data transfer length");
    return;
  }
  Upiu& u = slot.upiu;
  u = Upiu();
  u.type = UpiuType::DataOut;
  u.task_tag = ev.tag;
  u.lun = slot.command.lun;
  u.data_offset = ev.data_offset;
  u.data_bytes = ev.data_bytes;
  u.segment_bytes = ev.segment_bytes;  // answer every RTT the device's Upiu stands for
  const bool stamps = slot.raw_stamps_out ||
                      (slot.submitter >= 0 && slot.record.request.op == BlockOp::Write);
  if (stamps)
    u.stamps = slot.stamps.data() + ev.data_offset / kSectorBytes;
  else
    u.bytes = slot.bytes.data() + ev.data_offset;
  tlm::tlm_generic_payload& p = slot.payload;
  p.set_command(tlm::TLM_WRITE_COMMAND);
  p.set_address(0);
  p.set_data_ptr(reinterpret_cast<unsigned char*>(&u));
  p.set_data_length(u.wire_bytes());
  p.set_streaming_width(u.wire_bytes());
  p.set_byte_enable_ptr(nullptr);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  slot.data_out_bytes += ev.data_bytes;
  counters_.bytes_written += ev.data_bytes;
  sc_time delay = sc_core::SC_ZERO_TIME;
  to_link->b_transport(p, delay);
}

void HostDriver::complete(uint8_t tag) {
  TagSlot& slot = slots_[tag];
  if (!slot.busy) return;
  const CommandResponse& r = slot.response;
  ++counters_.completed;
  if (r.status != scsi_status::kGood) {
    ++counters_.check_conditions;
    UFS_LOG(Info, Host, name(), "tag " << int(tag) << ": CHECK CONDITION, sense key 0x" << std::hex
                                       << int(r.sense_key) << " asc 0x" << int(r.asc) << std::dec);
  }
  if (trace_) {
    const uint64_t now = now_ps();
    trace_->change(trace_outstanding_, now, -1);
    trace_command_slice(tag, now, false);
    trace_->command_ended(tag);
  }

  RawCallback raw_done;
  RawResult raw;
  if (slot.submitter >= 0) {
    IoRecord& rec = slot.record;
    const uint64_t bytes = uint64_t(rec.request.blocks) * kSectorBytes;
    if (r.status == scsi_status::kGood &&
        ((rec.request.op == BlockOp::Read && slot.data_in_bytes != bytes) ||
         (rec.request.op == BlockOp::Write && slot.data_out_bytes != bytes)))
      protocol_violation("GOOD RESPONSE for tag " + std::to_string(tag) + " after " +
                         std::to_string(rec.request.op == BlockOp::Read ? slot.data_in_bytes : slot.data_out_bytes) +
                         " of its " + std::to_string(bytes) + " data bytes");
    rec.complete_ps = now_ps();
    rec.status = r.status;
    rec.sense_key = r.sense_key;
    rec.asc = r.asc;
    switch (rec.request.op) {
      case BlockOp::Read: ++counters_.reads; break;
      case BlockOp::Write: ++counters_.writes; break;
      case BlockOp::Flush: ++counters_.flushes; break;
      case BlockOp::Unmap: ++counters_.unmaps; break;
    }
    if (observer_) observer_->on_complete(rec);
    if (hpb_) {
      hpb_->on_response(r, now_ps());
      if (rec.request.op == BlockOp::Write || rec.request.op == BlockOp::Unmap)
        hpb_->on_write_done(rec.request.lba, rec.request.blocks);
    }
    if (apps_) apps_->on_complete(rec, slot.hpb_read, now_ps());
    --submitters_[static_cast<size_t>(slot.submitter)]->outstanding;
  } else {
    ++counters_.raw;
    raw.response = r;
    raw.issue_ps = slot.record.issue_ps;
    raw.complete_ps = now_ps();
    raw.data_in_bytes = slot.data_in_bytes;
    raw.data_out_bytes = slot.data_out_bytes;
    const uint32_t len = slot.command.expected_length;
    if (slot.command.direction == DataDirection::Read) {
      raw.data_in.assign(slot.bytes.begin(), slot.bytes.begin() + len);
      raw.data_in_stamps.assign(slot.stamps.begin(),
                                slot.stamps.begin() + static_cast<std::ptrdiff_t>(len / kSectorBytes));
    }
    raw_done = std::move(slot.raw_done);
    slot.raw_done = nullptr;
  }
  slot.busy = false;
  slot.response = CommandResponse();
  free_tags_.push_back(tag);
  --in_flight_;
  if (raw_done) raw_done(raw);  // after the tag is free, so the callback may submit more
  if (hpb_) pump_hpb();

  admit_arrivals();
  try_issue();
  check_done();
}

void HostDriver::protocol_violation(const std::string& what) {
  ++counters_.protocol_violations;
  SC_REPORT_ERROR(name(), what.c_str());
}

// HPB management commands (READ BUFFER, WRITE BUFFER) go out as raw commands, which take
// the next free tag before block requests; the cache throttles them.
void HostDriver::pump_hpb() {
  HostCommand cmd;
  while (hpb_->next_command(in_flight_ + uint32_t(raw_queue_.size()), cmd)) {
    RawCommand raw;
    raw.command = cmd;
    submit_raw(raw, [this, cmd](const RawResult& r) {
      hpb_->on_command_done(cmd, r.response, r.data_in.data(), r.data_in_bytes, now_ps());
    });
  }
}

void HostDriver::check_done() {
  if (done_notified_ || !done()) return;
  done_notified_ = true;
  // The run controller waits for it: at the models' time, also when the wheel is ahead.
  if (wheel_) wheel_->notify_kernel(done_event_);
  else done_event_.notify(sc_core::SC_ZERO_TIME);
}

}  // namespace ufs
