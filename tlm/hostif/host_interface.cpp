#include "hostif/host_interface.h"
#include "common/sim_time.h"

#include <algorithm>
#include <string>
#include "common/trace_recorder.h"

namespace ufs {

using sc_core::sc_time;

HostInterface::HostInterface(sc_core::sc_module_name name, const HostInterfaceParams& params)
    : sc_core::sc_module(name),
      from_link("from_link", this),
      to_link("to_link"),
      dma("dma"),
      params_(params),
      tags_(new TagState[256]),
      engine_wake_("engine_wake", [this] { run_data_in_engine(); }) {
  const std::string err = params_.validate();
  if (!err.empty()) SC_REPORT_FATAL(this->name(), ("bad host interface parameter " + err).c_str());
  decode_ = sc_time(static_cast<double>(params_.command_decode_ns), sc_core::SC_NS);
  build_ = sc_time(static_cast<double>(params_.upiu_build_ns), sc_core::SC_NS);
}

HostInterfaceListener& HostInterface::listener() {
  if (!listener_) SC_REPORT_FATAL(name(), "no listener (firmware CPU) set");
  return *listener_;
}

// ---- host -> device ---------------------------------------------------------------

void HostInterface::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  const Upiu* u = reinterpret_cast<const Upiu*>(trans.get_data_ptr());
  if (!u) return;
  const sc_time at = sim_now() + delay;
  switch (u->type) {
    case UpiuType::Command: on_command(*u, at); break;
    case UpiuType::DataOut: on_data_out(*u, at); break;
    case UpiuType::NopOut: {
      // Link check (ufshcd's NOP OUT at init): answer with NOP IN, no firmware involved.
      nop_in_ = Upiu();
      nop_in_.type = UpiuType::NopIn;
      nop_in_.task_tag = u->task_tag;
      nop_payload_.set_command(tlm::TLM_WRITE_COMMAND);
      nop_payload_.set_data_ptr(reinterpret_cast<unsigned char*>(&nop_in_));
      nop_payload_.set_data_length(nop_in_.wire_bytes());
      nop_payload_.set_streaming_width(nop_in_.wire_bytes());
      nop_payload_.set_byte_enable_ptr(nullptr);
      nop_payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      sc_time d = at + build_ - sim_now();
      to_link->b_transport(nop_payload_, d);
      break;
    }
    default:
      SC_REPORT_WARNING(name(), ("unsupported UPIU type " + std::to_string(int(u->type)) + " ignored").c_str());
      break;
  }
}

void HostInterface::set_trace(TraceRecorder* trace) {
  trace_ = trace;
  if (!trace_) return;
  trace_active_ = trace_->integer(name(), "queue_depth", "device");
  trace_waiting_ = trace_->integer(name(), "waiting_commands", "device");
}

void HostInterface::on_command(const Upiu& u, const sc_time& at) {
  ++counters_.commands;
  TagState& t = tags_[u.task_tag];
  if (t.active)
    SC_REPORT_ERROR(name(), ("COMMAND UPIU for task tag " + std::to_string(u.task_tag) + " still in progress").c_str());
  t.active = true;
  t.command = u.command;
  t.command.tag = u.task_tag;  // the UPIU header is authoritative
  t.command.lun = u.lun;
  t.transfer_mask = 0;  // no transfer in use (a slot is cleared when request_data_out takes it)
  const sc_time ready = at + decode_;
  if (active_ < params_.queue_depth) {
    admit(t.command, ready);
  } else {
    waiting_.push({t.command, ready});
    if (trace_) trace_->change(trace_waiting_, TraceRecorder::ps(ready), +1);
    counters_.max_waiting = std::max<uint64_t>(counters_.max_waiting, waiting_.size());
  }
}

void HostInterface::admit(const HostCommand& cmd, const sc_time& at) {
  ++active_;
  counters_.max_active = std::max(counters_.max_active, active_);
  if (trace_) trace_->change(trace_active_, TraceRecorder::ps(at), +1);
  listener().command_arrived(cmd, at);
}

void HostInterface::on_data_out(const Upiu& u, const sc_time& at) {
  TagState& t = tags_[u.task_tag];
  Transfer* tr = nullptr;
  // The last matching transfer in slot order, as a scan of all slots would find.
  for (uint32_t m = t.transfer_mask; m; ) {
    const int i = 31 - __builtin_clz(m);
    m &= ~(1u << i);
    const Transfer& c = t.transfers[i];
    if (u.data_offset >= c.data_offset && u.data_offset < c.data_offset + c.bytes) {
      tr = &t.transfers[i];
      break;
    }
  }
  if (!tr || uint64_t(u.data_offset) + u.data_bytes > uint64_t(tr->data_offset) + tr->bytes) {
    SC_REPORT_ERROR(name(), ("DATA OUT for tag " + std::to_string(u.task_tag) + " outside any requested range").c_str());
    return;
  }
  ++counters_.data_out_upius;
  counters_.data_out_bytes += u.data_bytes;

  const uint64_t address = tr->buffer_address + (u.data_offset - tr->data_offset);
  const bool byte_region = address >= kByteRegionBase;
  void* data = byte_region ? static_cast<void*>(u.bytes) : static_cast<void*>(u.stamps);
  if (!data) {
    SC_REPORT_ERROR(name(), byte_region ? "DATA OUT to the byte region carries no raw bytes"
                                        : "DATA OUT to the sector region carries no stamps");
    return;
  }
  const sc_time dma_end = dma_access(t, tlm::TLM_WRITE_COMMAND, address, data, u.data_bytes, at);
  tr->done_at = std::max(tr->done_at, dma_end);
  tr->received += u.data_bytes;
  const uint32_t answered = u.segments();
  tr->rtt_in_flight = tr->rtt_in_flight > answered ? tr->rtt_in_flight - answered : 0;
  if (tr->asked < tr->bytes) send_rtts(u.task_tag, *tr, at + build_);
  if (tr->received >= tr->bytes) {
    t.transfer_mask &= ~(1u << (tr - t.transfers));
    listener().data_out_done(u.task_tag, tr->token, tr->done_at);
  }
}

// ---- device -> host ---------------------------------------------------------------

sc_time HostInterface::send_upiu(TagState& t, const sc_time& ready) {
  const sc_time now = sim_now();
  const sc_time start = std::max(std::max(ready, t.last_tx_end), now);
  Upiu& u = t.upiu;
  tlm::tlm_generic_payload& p = t.link_payload;
  p.set_command(tlm::TLM_WRITE_COMMAND);
  p.set_address(0);
  p.set_data_ptr(reinterpret_cast<unsigned char*>(&u));
  p.set_data_length(u.wire_bytes());
  p.set_streaming_width(u.wire_bytes());
  p.set_byte_enable_ptr(nullptr);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_time delay = start - now;
  to_link->b_transport(p, delay);  // returns with the end of serialisation
  const sc_time end = now + delay;
  t.last_tx_end = std::max(t.last_tx_end, end);
  return end;
}

sc_time HostInterface::dma_access(TagState& t, tlm::tlm_command cmd, uint64_t address, void* data,
                                  uint32_t bytes, const sc_time& start) {
  const sc_time now = sim_now();
  tlm::tlm_generic_payload& p = t.dma_payload;
  p.set_command(cmd);
  p.set_address(address);
  p.set_data_ptr(static_cast<unsigned char*>(data));
  p.set_data_length(bytes);
  p.set_streaming_width(bytes);
  p.set_byte_enable_ptr(nullptr);
  p.set_dmi_allowed(false);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_time delay = start > now ? start - now : sc_core::SC_ZERO_TIME;
  dma->b_transport(p, delay);
  if (p.is_response_error())
    SC_REPORT_ERROR(name(), ("DMA to the data buffer failed: " + p.get_response_string()).c_str());
  return now + delay;
}

void HostInterface::send_rtts(uint8_t tag, Transfer& tr, const sc_time& ready) {
  TagState& t = tags_[tag];
  const uint32_t seg = params_.max_data_segment_bytes;
  while (tr.asked < tr.bytes && (params_.coalesce_segments || tr.rtt_in_flight < params_.max_outstanding_rtt)) {
    Upiu& u = t.upiu;
    u = Upiu();
    u.type = UpiuType::ReadyToTransfer;
    u.task_tag = tag;
    u.lun = t.command.lun;
    u.data_offset = tr.data_offset + tr.asked;
    if (params_.coalesce_segments) {
      u.data_bytes = tr.bytes - tr.asked;  // one object for every RTT of the transfer
      u.segment_bytes = seg;
    } else {
      u.data_bytes = std::min(seg, tr.bytes - tr.asked);
    }
    tr.asked += u.data_bytes;
    tr.rtt_in_flight += u.segments();
    counters_.rtts += u.segments();
    send_upiu(t, ready);
  }
}

void HostInterface::request_data_out(uint8_t tag, uint32_t data_offset, uint64_t buffer_address,
                                     uint32_t bytes, uint64_t token, const sc_time& delay) {
  TagState& t = tags_[tag];
  Transfer* tr = t.transfer_mask == ~0u ? nullptr : &t.transfers[__builtin_ctz(~t.transfer_mask)];
  if (!tr) {
    SC_REPORT_ERROR(name(), ("more than 32 DATA OUT requests at once for tag " + std::to_string(tag)).c_str());
    return;
  }
  *tr = Transfer();
  t.transfer_mask |= 1u << (tr - t.transfers);
  tr->data_offset = data_offset;
  tr->bytes = bytes;
  tr->buffer_address = buffer_address;
  tr->token = token;
  const sc_time ready = sim_now() + delay + build_;
  if (bytes == 0) {
    t.transfer_mask &= ~(1u << (tr - t.transfers));
    listener().data_out_done(tag, token, ready);
    return;
  }
  send_rtts(tag, *tr, ready);
}

void HostInterface::send_data_in(uint8_t tag, uint32_t data_offset, uint64_t buffer_address,
                                 uint32_t bytes, uint64_t token, const sc_time& delay) {
  TagState& t = tags_[tag];
  Stream* s = t.stream_mask == ~0u ? nullptr : &t.streams[__builtin_ctz(~t.stream_mask)];
  if (!s) {
    SC_REPORT_ERROR(name(), ("more than 32 DATA IN transfers at once for tag " + std::to_string(tag)).c_str());
    return;
  }
  *s = Stream();
  t.stream_mask |= 1u << (s - t.streams);
  s->data_offset = data_offset;
  s->bytes = bytes;
  s->buffer_address = buffer_address;
  s->token = token;
  s->ready = sim_now() + delay + build_;
  s->last_end = s->ready;
  if (bytes == 0) return finish_stream(tag, *s);
  data_in_queue_.push(StreamRef{tag, static_cast<uint8_t>(s - t.streams)});
  run_data_in_engine();
}

void HostInterface::run_data_in_engine() {
  const sc_time now = sim_now();
  const uint32_t ahead = params_.data_in_segments_ahead;
  while (!data_in_queue_.empty()) {
    if (engine_segments_ >= ahead) {
      // `ahead` segments still queued on the link: continue when the oldest of them ends.
      const sc_time& oldest = engine_ends_[(engine_segments_ - ahead) % kMaxAhead];
      if (oldest > now) {
        engine_wake_.notify(oldest - now);
        return;
      }
    }
    const StreamRef ref = data_in_queue_.front();
    Stream& s = tags_[ref.tag].streams[ref.stream];
    send_segment(ref.tag, s);
    engine_ends_[engine_segments_ % kMaxAhead] = s.last_end;
    ++engine_segments_;
    if (s.sent >= s.bytes) {
      data_in_queue_.pop();
      finish_stream(ref.tag, s);
    }
  }
}

void HostInterface::send_segment(uint8_t tag, Stream& s) {
  TagState& t = tags_[tag];
  const bool byte_region = s.buffer_address >= kByteRegionBase;
  // Coalesced: the whole rest as one object standing for every segment.
  const uint32_t n = params_.coalesce_segments ? s.bytes - s.sent
                                               : std::min(params_.max_data_segment_bytes, s.bytes - s.sent);
  // Staging only lives for this call: the link forwards synchronously and the host copies.
  void* staging;
  if (byte_region) {
    if (t.bytes.size() < n) t.bytes.resize(n);
    staging = t.bytes.data();
  } else {
    const size_t sectors = (n + kSectorBytes - 1) / kSectorBytes;
    if (t.stamps.size() < sectors) t.stamps.resize(sectors);
    staging = t.stamps.data();
  }
  const sc_time dma_start = std::max(s.ready, engine_dma_free_);
  engine_dma_free_ = dma_access(t, tlm::TLM_READ_COMMAND, s.buffer_address + s.sent, staging, n, dma_start);
  Upiu& u = t.upiu;
  u = Upiu();
  u.type = UpiuType::DataIn;
  u.task_tag = tag;
  u.lun = t.command.lun;
  u.data_offset = s.data_offset + s.sent;
  u.data_bytes = n;
  if (params_.coalesce_segments) u.segment_bytes = params_.max_data_segment_bytes;
  if (byte_region)
    u.bytes = static_cast<uint8_t*>(staging);
  else
    u.stamps = static_cast<SectorStamp*>(staging);
  s.last_end = send_upiu(t, engine_dma_free_);
  s.sent += n;
  counters_.data_in_upius += u.segments();
  counters_.data_in_bytes += n;
}

void HostInterface::finish_stream(uint8_t tag, Stream& s) {
  TagState& t = tags_[tag];
  t.stream_mask &= ~(1u << (&s - t.streams));
  listener().data_in_done(tag, s.token, s.last_end);
  if (!t.response_pending || t.stream_mask) return;
  t.response_pending = false;
  transmit_response(t, t.pending_response, t.pending_ready);
}

void HostInterface::send_response(const CommandResponse& response, const sc_time& delay) {
  TagState& t = tags_[response.tag];
  const sc_time ready = sim_now() + delay + build_;
  if (t.stream_mask) {
    // DATA IN still streaming: the response follows its last segment.
    t.response_pending = true;
    t.pending_response = response;
    t.pending_ready = ready;
    return;
  }
  transmit_response(t, response, ready);
}

void HostInterface::transmit_response(TagState& t, const CommandResponse& response, const sc_time& ready) {
  const bool was_active = t.active;
  Upiu& u = t.upiu;
  u = Upiu();
  u.type = UpiuType::Response;
  u.task_tag = response.tag;
  u.lun = was_active ? t.command.lun : response.lun;
  u.response = response;
  send_upiu(t, ready);
  ++counters_.responses;
  if (response.status != scsi_status::kGood) ++counters_.check_conditions;
  t.active = false;
  t.last_tx_end = sc_core::SC_ZERO_TIME;
  if (!was_active) {
    SC_REPORT_WARNING(name(), ("RESPONSE for task tag " + std::to_string(response.tag) + " with no command").c_str());
    return;
  }
  // The queue slot frees as the response goes out: admit the oldest waiting command.
  --active_;
  if (trace_) trace_->change(trace_active_, TraceRecorder::ps(ready), -1);
  if (!waiting_.empty()) {
    auto next = waiting_.front();
    waiting_.pop();
    if (trace_) trace_->change(trace_waiting_, TraceRecorder::ps(std::max(next.second, ready)), -1);
    admit(next.first, std::max(next.second, ready));
  }
}

}  // namespace ufs
