#include "link/unipro_link.h"
#include "common/sim_time.h"

#include <cmath>
#include <string>
#include "common/trace_recorder.h"

namespace ufs {

using sc_core::sc_time;

namespace {
// Whole picoseconds to sc_time without going through double when the resolution allows.
sc_time whole_ps_to_time(uint64_t ps) {
  static const uint64_t ticks_per_ps = sc_time(1, sc_core::SC_PS).value();
  return ticks_per_ps ? sc_time::from_value(ps * ticks_per_ps)
                      : sc_time(static_cast<double>(ps), sc_core::SC_PS);
}
}  // namespace

UniproLink::UniproLink(sc_core::sc_module_name name, const LinkParams& params)
    : sc_core::sc_module(name),
      host_in("host_in", this),
      device_out("device_out"),
      device_in("device_in", this),
      host_out("host_out"),
      params_(params) {
  const std::string err = params_.validate();
  if (!err.empty()) SC_REPORT_FATAL(this->name(), ("bad link parameter " + err).c_str());
  dirs_[kHostToDevice].gear = params_.h2d_gear;
  dirs_[kHostToDevice].lanes = params_.h2d_lanes;
  dirs_[kDeviceToHost].gear = params_.d2h_gear;
  dirs_[kDeviceToHost].lanes = params_.d2h_lanes;
  for (DirectionState& d : dirs_) {
    // ps per byte = line bits per byte / (lanes * Mb/s) * 1e6 ps/us
    const double mbps = params_.lane_rate_mbps(d.gear) * d.lanes;
    d.ps_per_framed_byte = params_.line_bits_per_byte(d.gear) * 1e6 / mbps;
    for (auto& m : d.memo) m = DirectionState::Memo();
  }
  latency_ = sc_time(params_.upiu_latency_ns, sc_core::SC_NS);
}

void UniproLink::set_trace(TraceRecorder* trace) {
  trace_ = trace;
  if (!trace_) return;
  trace_track_[kHostToDevice] = trace_->track("UniPro link", "host -> device");
  trace_track_[kDeviceToHost] = trace_->track("UniPro link", "device -> host");
  trace_busy_[kHostToDevice] = trace_->wire(name(), "h2d_busy");
  trace_busy_[kDeviceToHost] = trace_->wire(name(), "d2h_busy");
}

namespace {
const char* upiu_name(UpiuType t) {
  switch (t) {
    case UpiuType::NopOut: return "NOP OUT";
    case UpiuType::Command: return "COMMAND";
    case UpiuType::DataOut: return "DATA OUT";
    case UpiuType::TaskMgmtRequest: return "TASK MGMT REQUEST";
    case UpiuType::QueryRequest: return "QUERY REQUEST";
    case UpiuType::NopIn: return "NOP IN";
    case UpiuType::Response: return "RESPONSE";
    case UpiuType::DataIn: return "DATA IN";
    case UpiuType::TaskMgmtResponse: return "TASK MGMT RESPONSE";
    case UpiuType::ReadyToTransfer: return "READY TO TRANSFER";
    case UpiuType::QueryResponse: return "QUERY RESPONSE";
    case UpiuType::Reject: return "REJECT";
  }
  return "UPIU";
}
}  // namespace

uint64_t UniproLink::message_framed_bytes(uint64_t message_bytes) const {
  const uint64_t frames = (message_bytes + params_.frame_payload_bytes - 1) / params_.frame_payload_bytes;
  return message_bytes + frames * params_.frame_overhead_bytes;
}

uint64_t UniproLink::framed_bytes(const Upiu& u) const {
  const uint32_t n = u.segments();
  if (n <= 1) return message_framed_bytes(u.wire_bytes());
  if (u.type == UpiuType::ReadyToTransfer) return n * message_framed_bytes(kUpiuHeaderBytes);
  // n - 1 full segments, then the rest; each is one UPIU (one L4 message) of its own.
  const uint64_t last = u.data_bytes - uint64_t(n - 1) * u.segment_bytes;
  return (n - 1) * message_framed_bytes(kUpiuHeaderBytes + u.segment_bytes) +
         message_framed_bytes(kUpiuHeaderBytes + last);
}

sc_time UniproLink::compute_serialisation(Direction dir, uint64_t framed) const {
  DirectionState::Memo& m = dirs_[dir].memo[memo_slot(framed)];
  const double ps = static_cast<double>(framed) * dirs_[dir].ps_per_framed_byte;
  m.time = whole_ps_to_time(static_cast<uint64_t>(std::llround(ps)));
  m.framed = framed;
  return m.time;
}

double UniproLink::lane_rate_mbps(Direction dir) const {
  return params_.lane_rate_mbps(dirs_[dir].gear);
}

double UniproLink::framed_bytes_per_second(Direction dir) const {
  return 1e12 / dirs_[dir].ps_per_framed_byte;
}

sc_time UniproLink::next_free(Direction dir) const { return dirs_[dir].calendar.next_free(); }

double UniproLink::utilisation(Direction dir) const {
  const double now = sim_now().to_seconds();
  return now > 0 ? dirs_[dir].stats.busy.to_seconds() / now : 0.0;
}

void UniproLink::host_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  transport(kHostToDevice, trans, delay);
}

void UniproLink::device_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  transport(kDeviceToHost, trans, delay);
}

void UniproLink::transport(Direction dir, tlm::tlm_generic_payload& trans, sc_time& delay) {
  DirectionState& d = dirs_[dir];
  const Upiu* upiu = reinterpret_cast<const Upiu*>(trans.get_data_ptr());
  const uint32_t upius = upiu ? upiu->segments() : 1;
  const uint64_t upiu_bytes = upiu ? upiu->wire_bytes() : trans.get_data_length();
  // One UPIU (most): one message; framed_bytes() walks the segments of the others.
  const uint64_t framed = upius <= 1 ? message_framed_bytes(upiu_bytes) : framed_bytes(*upiu);
  const sc_time duration = serialisation_time(dir, framed);

  const sc_time now = sim_now();
  sc_time ready = now + delay;
  if (params_.hibernate_idle_us && outstanding_ == 0) wake_if_hibernated(ready);
  const sc_time start = d.calendar.reserve(ready, duration);
  const sc_time end = start + duration;
  if (params_.hibernate_idle_us && upiu) count_requests(dir, upiu, end);

  d.stats.upius += upius;
  d.stats.upiu_bytes += upiu_bytes;
  d.stats.wire_bytes += framed;
  d.stats.busy += duration;
  if (trace_) {
    trace_->busy(trace_busy_[dir], start, end);
    TraceArgs a;
    if (upiu) a.tag(upiu->task_tag).add("offset", upiu->data_offset).add("upius", upiu->segments());
    a.add("bytes", upiu_bytes);
    trace_->slice(trace_track_[dir], upiu ? upiu_name(upiu->type) : "message", start, end, a);
  }

  sc_time arrival = end + latency_ - now;
  (dir == kHostToDevice ? device_out : host_out)->b_transport(trans, arrival);
  delay = end - now;  // the sender is done with it when its last bit has left
}

UniproLink::HibernateStats UniproLink::hibernate_stats_until(const sc_time& t) const {
  HibernateStats h = hibernate_;
  if (!params_.hibernate_idle_us || outstanding_ != 0) return h;
  const sc_time enter = idle_since_ + sc_time(double(params_.hibernate_idle_us), sc_core::SC_US);
  if (t > enter) {
    ++h.entries;
    h.hibernated += t - enter;
  }
  return h;
}

void UniproLink::wake_if_hibernated(sc_time& ready) {
  const sc_time idle(double(params_.hibernate_idle_us), sc_core::SC_US);
  if (ready < idle_since_ + idle) return;
  const sc_time exit(double(params_.hibernate_exit_us), sc_core::SC_US);
  ++hibernate_.entries;
  hibernate_.hibernated += ready - (idle_since_ + idle);
  hibernate_.exit_delay += exit;
  ready += exit;
  idle_since_ = ready;  // awake from here: nothing waits twice
}

void UniproLink::count_requests(Direction dir, const Upiu* upiu, const sc_time& end) {
  switch (upiu->type) {
    case UpiuType::Command: case UpiuType::QueryRequest: case UpiuType::TaskMgmtRequest: case UpiuType::NopOut:
      if (dir == kHostToDevice) ++outstanding_;
      break;
    case UpiuType::Response: case UpiuType::QueryResponse: case UpiuType::TaskMgmtResponse: case UpiuType::NopIn:
    case UpiuType::Reject:
      if (dir == kDeviceToHost && outstanding_ && --outstanding_ == 0) idle_since_ = end;
      break;
    default: break;
  }
  if (outstanding_ == 0 && end > idle_since_) idle_since_ = end;  // traffic with nothing outstanding
}

}  // namespace ufs
