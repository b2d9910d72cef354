#include "cpu/firmware_cpu.h"
#include "common/sim_time.h"
#include "common/trace_recorder.h"

namespace ufs {

using sc_core::sc_time;

FirmwareCpu::FirmwareCpu(sc_core::sc_module_name name, const CpuParams& params)
    : sc_core::sc_module(name),
      bus("bus"),
      params_(params),
      cycle_ps_(sc_time(1e6 / params.clock_mhz, sc_core::SC_PS).value()),
      measured_(params.model == "iss" && params.iss_cost == "measured"),
      queue_("events", Deliver{this}),
      rng_state_(params.rng_seed) {
  SC_METHOD(power_on);  // runs once at the start of simulation
}

void FirmwareCpu::attach(FirmwareEvents* firmware, HostInterface* hostif, FlashController* fcc,
                         HpbCryptoEngine* crypto) {
  firmware_ = firmware;
  hostif_ = hostif;
  fcc_ = fcc;
  crypto_ = crypto;
}

void FirmwareCpu::power_on() {
  Event e;
  e.kind = EventKind::PowerUp;
  queue_.push(sim_now(), e);
}

void FirmwareCpu::deliver(const Event& e) {
  switch (e.kind) {
    case EventKind::Command:
      dispatch(e, &commands_[e.slot]);
      commands_.release(e.slot);
      break;
    case EventKind::Flash:
      dispatch(e, nullptr, &flashes_[e.slot]);
      flashes_.release(e.slot);
      break;
    default: dispatch(e); break;
  }
}

// Run one event's handler on the core: it starts when the core is free.
void FirmwareCpu::dispatch(const Event& e, const HostCommand* command, const FlashCompletion* flash) {
  const sc_time now = sim_now();
  const sc_time start = busy_until_ > now ? busy_until_ : now;
  clock_ = start;
  in_handler_ = true;
  if (!measured_) charge_cycles(params_.interrupt_cycles);
  ++events_;
  if (trace_) {
    // The command the step works for: the event's own, or for a flash completion the
    // command its op worked for (the work it goes on with is that command's too).
    trace_tag_ = e.kind == EventKind::Command ? command->tag
                 : e.kind == EventKind::DataOut || e.kind == EventKind::DataIn ? e.tag : -1;
    trace_cmd_ = trace_->command_on_tag(trace_tag_);
    if (e.kind == EventKind::Flash) trace_flash_cause(flash->cookie);
  }
  switch (e.kind) {
    case EventKind::Command: firmware_->on_command(*command); break;
    case EventKind::Flash: firmware_->on_flash_complete(*flash); break;
    case EventKind::DataOut: firmware_->on_data_out_done(e.tag, e.token); break;
    case EventKind::DataIn: firmware_->on_data_in_done(e.tag, e.token); break;
    case EventKind::Timer: firmware_->on_timer(e.token); break;
    case EventKind::Crypto: drain_crypto_fifo(); break;
    case EventKind::PowerUp: firmware_->on_power_up(); break;
  }
  busy_ += clock_ - start;
  busy_until_ = clock_;
  last_start_ = start;
  in_handler_ = false;
  if (trace_) trace_step(e, command, flash, start);
}

// A busy core cannot take an event before it is free: queueing it for then lets one
// kernel wake-up serve every event that piled up meanwhile (in arrival order).
void FirmwareCpu::enqueue(const sc_time& at, const Event& e) {
  queue_.push(at > busy_until_ ? at : busy_until_, e);
}

// An interrupt raised now: an idle core with nothing older waiting takes it at once
// (the same time it would get from the queue, without a kernel wake-up); otherwise it queues.
void FirmwareCpu::post_now(const Event& e) {
  const sc_time now = sim_now();
  if (!in_handler_ && busy_until_ <= now && !queue_.due_now()) dispatch(e);
  else enqueue(now, e);
}

// The same for a flash completion: taken at once it is handed over where it lies; only a
// queued one is copied (into flashes_).
void FirmwareCpu::post_flash_now(const FlashCompletion& c) {
  Event e;
  e.kind = EventKind::Flash;
  const sc_time now = sim_now();
  if (!in_handler_ && busy_until_ <= now && !queue_.due_now()) {
    dispatch(e, nullptr, &c);
    return;
  }
  e.slot = flashes_.put(c);
  enqueue(now, e);
}

uint64_t FirmwareCpu::now_ps() const { return clock_.value(); }  // kernel resolution is 1 ps

// In integer picoseconds (issue 18): what sc_time(cycle) * double(cycles) gave (exact below 2^52 ps)
// without a double multiply and rounding per charge, several per simulated I/O.
void FirmwareCpu::charge_cycles(uint64_t cycles) {
  cycles_ += cycles;
  clock_ = time_of_value(clock_.value() + cycle_ps_ * cycles);
}

void FirmwareCpu::submit_flash(const FlashOp& op) {
  if (!trace_) {
    fcc_->submit(op, delay());
    return;
  }
  // The firmware names the command when it works for another than the step's (a read
  // staged in another command's step); otherwise the op works for the step's command.
  TraceCause cause{trace_tag_, trace_cmd_};
  if (op.cause_tag >= 0) cause = TraceCause{op.cause_tag, trace_->command_on_tag(op.cause_tag)};
  if (cause.tag >= 0 || cause.cmd) trace_cookie_causes_[op.cookie] = cause;
  fcc_->submit(op, delay(), cause.tag, cause.cmd);
}

void FirmwareCpu::request_data_out(uint8_t tag, uint32_t offset, uint64_t addr, uint32_t bytes, uint64_t token) {
  hostif_->request_data_out(tag, offset, addr, bytes, token, delay());
}

void FirmwareCpu::send_data_in(uint8_t tag, uint32_t offset, uint64_t addr, uint32_t bytes, uint64_t token) {
  hostif_->send_data_in(tag, offset, addr, bytes, token, delay());
}

void FirmwareCpu::send_response(const CommandResponse& response) { hostif_->send_response(response, delay()); }

void FirmwareCpu::bus_access(tlm::tlm_command cmd, uint64_t address, void* data, uint32_t bytes) {
  gp_.set_command(cmd);
  gp_.set_address(address);
  gp_.set_data_ptr(static_cast<unsigned char*>(data));
  gp_.set_data_length(bytes);
  gp_.set_streaming_width(bytes);
  gp_.set_byte_enable_ptr(nullptr);
  gp_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_time d = delay();
  bus->b_transport(gp_, d);
  if (gp_.is_response_error())
    SC_REPORT_ERROR(name(), ("bus error at address " + std::to_string(address)).c_str());
  clock_ = sim_now() + d;  // the core waits for its load/store
}

void FirmwareCpu::copy_buffer(uint64_t dst, uint64_t src, uint32_t bytes) {
  const uint32_t n = uint32_t((bytes + kSectorBytes - 1) / kSectorBytes);
  if (scratch_.size() < n) scratch_.resize(n);
  bus_access(tlm::TLM_READ_COMMAND, src, scratch_.data(), bytes);
  bus_access(tlm::TLM_WRITE_COMMAND, dst, scratch_.data(), bytes);
}

void FirmwareCpu::read_buffer_bytes(uint64_t address, void* dst, uint32_t bytes) {
  bus_access(tlm::TLM_READ_COMMAND, address, dst, bytes);
}

void FirmwareCpu::write_buffer_bytes(uint64_t address, const void* src, uint32_t bytes) {
  bus_access(tlm::TLM_WRITE_COMMAND, address, const_cast<void*>(src), bytes);
}

void FirmwareCpu::zero_buffer(uint64_t address, uint32_t bytes) {
  bus_access(tlm::TLM_WRITE_COMMAND, address, nullptr, bytes);
}

void FirmwareCpu::l2p_sram_access(uint32_t bytes, bool write) {
  if (trace_) trace_->change(write ? trace_l2p_writes_ : trace_l2p_reads_, TraceRecorder::ps(clock_), bytes / 4);
  bus_access(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, kL2pSramBase, nullptr, bytes);
}

void FirmwareCpu::set_timer(uint64_t delay_ps, uint64_t cookie) {
  Event e;
  e.kind = EventKind::Timer;
  e.token = cookie;
  queue_.push(clock_ + sc_time(double(delay_ps), sc_core::SC_PS), e);
}

void FirmwareCpu::submit_crypto(const HpbCryptoJob& job) { crypto_->submit(job, delay()); }

void FirmwareCpu::submit_sign_batch(const HpbSignBatch& batch) { crypto_->submit_batch(batch, delay()); }

void FirmwareCpu::write_crypto_register(uint32_t offset, uint32_t value) {
  bus_access(tlm::TLM_WRITE_COMMAND, kCryptoBase + offset, &value, sizeof value);
}

// The NAND die's words, in zero time (hal/hal.h: the timing model's approximation).
bool FirmwareCpu::peek_map_words(const FlashAddress& address, uint32_t* out, uint32_t count) {
  return address.die < fcc_->topology().dies() && fcc_->nand_die(address.die).peek_words(address, out, count);
}

// splitmix64: the stand-in for the controller's true random number generator.
uint64_t FirmwareCpu::random64() {
  uint64_t z = (rng_state_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Results queue in the engine's completion FIFO; only the first raises an interrupt.
void FirmwareCpu::crypto_done(const HpbCryptoResult& result) {
  crypto_fifo_.push_back(result);
  if (crypto_irq_pending_) return;
  crypto_irq_pending_ = true;
  Event e;
  e.kind = EventKind::Crypto;
  post_now(e);
}

// One interrupt takes every result in the FIFO; results the engine posts while this
// handler runs raise the next interrupt.
void FirmwareCpu::drain_crypto_fifo() {
  crypto_irq_pending_ = false;
  ++crypto_interrupts_;
  std::deque<HpbCryptoResult> batch;
  batch.swap(crypto_fifo_);
  for (const HpbCryptoResult& r : batch) {
    if (!measured_) charge_cycles(params_.crypto_result_cycles);
    firmware_->on_crypto_done(r);
  }
}

void FirmwareCpu::command_arrived(const HostCommand& cmd, const sc_time& at) {
  Event e;
  e.kind = EventKind::Command;
  e.slot = commands_.put(cmd);
  enqueue(at, e);
}

void FirmwareCpu::data_out_done(uint8_t tag, uint64_t token, const sc_time& at) {
  Event e;
  e.kind = EventKind::DataOut;
  e.tag = tag;
  e.token = token;
  enqueue(at, e);
}

void FirmwareCpu::data_in_done(uint8_t tag, uint64_t token, const sc_time& at) {
  Event e;
  e.kind = EventKind::DataIn;
  e.tag = tag;
  e.token = token;
  enqueue(at, e);
}

void FirmwareCpu::flash_complete(const FlashCompletion& c) { post_flash_now(c); }

// ---- observability

void FirmwareCpu::set_trace(TraceRecorder* trace, std::function<void(uint64_t)> sampler) {
  trace_ = trace;
  trace_sampler_ = std::move(sampler);
  trace_cookie_causes_.clear();
  if (!trace_) return;
  trace_track_ = trace_->track("device", "firmware");
  trace_busy_ = trace_->wire(name(), "busy");
  // Which handler runs: a wire per event kind (the step slices on the timeline name it too).
  static const char* const kinds[] = {"command", "flash_done", "data_out_done", "data_in_done",
                                      "timer", "crypto_done", "power_up"};
  for (size_t k = 0; k < trace_handler_.size(); ++k)
    trace_handler_[k] = trace_->wire(std::string(name()) + ".handler", kinds[k]);
  trace_l2p_reads_ = trace_->integer(name(), "l2p_lookups", "device");
  trace_l2p_writes_ = trace_->integer(name(), "l2p_updates", "device");
}

// A flash op carries the command it works for; its completion's step inherits it.
void FirmwareCpu::trace_flash_cause(uint64_t cookie) {
  const auto it = trace_cookie_causes_.find(cookie);
  if (it == trace_cookie_causes_.end()) return;
  trace_tag_ = it->second.tag;
  trace_cmd_ = it->second.cmd;
  trace_cookie_causes_.erase(it);
}

void FirmwareCpu::trace_step(const Event& e, const HostCommand* command, const FlashCompletion* flash,
                             const sc_time& start) {
  static const char* const names[] = {"command", "flash done", "data out done", "data in done",
                                      "timer", "crypto done", "power up"};
  TraceArgs a;
  a.tag(trace_tag_);
  if (trace_cmd_) a.add("cmd", trace_cmd_);
  if (e.kind == EventKind::Command) a.add("opcode", command->cdb[0]);
  if (e.kind == EventKind::Flash) a.add("flash_opcode", uint64_t(flash->opcode)).add("cookie", flash->cookie);
  const size_t kind = size_t(e.kind);
  trace_->slice(trace_track_, kind < sizeof names / sizeof names[0] ? names[kind] : "event", start, clock_, a);
  trace_->busy(trace_busy_, start, clock_);
  if (kind < trace_handler_.size()) trace_->busy(trace_handler_[kind], start, clock_);
  if (trace_sampler_) trace_sampler_(TraceRecorder::ps(clock_));
  trace_tag_ = -1;
  trace_cmd_ = 0;
}

}  // namespace ufs
