// The controller core running the firmware. It implements the firmware's HAL
// with TLM: events from the host interface, flash demux and timers queue in
// arrival order; the core takes them one at a time (run to completion), its
// clock advancing by the cycles each handler charges. HAL requests leave with
// the handler's current time as annotated delay, so a busy core delays them.
#pragma once
#include <array>
#include <deque>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <functional>
#include <unordered_map>
#include <vector>
#include "common/slab.h"
#include "common/timed_queue.h"
#include "common/sim_time.h"
#include "cpu/cpu_params.h"
#include "crypto/hpb_crypto_engine.h"
#include "fcc/flash_controller.h"
#include "hal/hal.h"
#include "hostif/host_interface.h"

namespace ufs {

class TraceRecorder;

class FirmwareCpu : public sc_core::sc_module,
                    public Hal,
                    public HostInterfaceListener,
                    public FlashCompletionListener,
                    public HpbCryptoListener {
 public:
  tlm_utils::simple_initiator_socket<FirmwareCpu> bus;

  FirmwareCpu(sc_core::sc_module_name name, const CpuParams& params);
  void attach(FirmwareEvents* firmware, HostInterface* hostif, FlashController* fcc, HpbCryptoEngine* crypto);
  SC_HAS_PROCESS(FirmwareCpu);
  // Wake through the platform's event wheel (before the simulation starts).
  void attach(EventWheel* wheel) { queue_.attach(wheel); }
  // Observability (nullptr = off): a timeline slice per firmware step (event handler) with
  // its command tag, a busy wire and L2P SRAM lookup/update counters; `sampler` runs after
  // every step with the step's end time (the platform samples firmware statistics there).
  void set_trace(TraceRecorder* trace, std::function<void(uint64_t end_ps)> sampler = {});

  // Hal
  uint64_t now_ps() const override;
  void charge_cycles(uint64_t cycles) override;
  void submit_flash(const FlashOp& op) override;
  void request_data_out(uint8_t tag, uint32_t offset, uint64_t addr, uint32_t bytes, uint64_t token) override;
  void send_data_in(uint8_t tag, uint32_t offset, uint64_t addr, uint32_t bytes, uint64_t token) override;
  void send_response(const CommandResponse& response) override;
  void copy_buffer(uint64_t dst, uint64_t src, uint32_t bytes) override;
  void read_buffer_bytes(uint64_t address, void* dst, uint32_t bytes) override;
  void write_buffer_bytes(uint64_t address, const void* src, uint32_t bytes) override;
  void zero_buffer(uint64_t address, uint32_t bytes) override;
  void l2p_sram_access(uint32_t bytes, bool write) override;
  void set_timer(uint64_t delay_ps, uint64_t cookie) override;
  void submit_crypto(const HpbCryptoJob& job) override;
  void submit_sign_batch(const HpbSignBatch& batch) override;
  void write_crypto_register(uint32_t offset, uint32_t value) override;
  uint64_t random64() override;
  bool peek_map_words(const FlashAddress& address, uint32_t* out, uint32_t count) override;

  // HostInterfaceListener / FlashCompletionListener
  void command_arrived(const HostCommand& cmd, const sc_core::sc_time& at) override;
  void data_out_done(uint8_t tag, uint64_t token, const sc_core::sc_time& at) override;
  void data_in_done(uint8_t tag, uint64_t token, const sc_core::sc_time& at) override;
  void flash_complete(const FlashCompletion& c) override;
  void crypto_done(const HpbCryptoResult& result) override;

  sc_core::sc_time busy_time() const { return busy_; }
  // Core time before `t` (t >= now): the last handler is charged whole when it runs, so
  // its part after t is not counted.
  sc_core::sc_time busy_until(const sc_core::sc_time& t) const {
    const sc_core::sc_time from = last_start_ > t ? last_start_ : t;
    return busy_until_ > from ? busy_ - (busy_until_ - from) : busy_;
  }
  uint64_t events_handled() const { return events_; }
  uint64_t cycles_charged() const { return cycles_; }
  uint64_t crypto_interrupts() const { return crypto_interrupts_; }
  static constexpr uint64_t kCryptoBase = 1ull << 45;    // bus address of the crypto engine's registers

 private:
  enum class EventKind : uint8_t { Command, Flash, DataOut, DataIn, Timer, Crypto, PowerUp };
  // A queued event is small (issue 18: pushing one copied a ~260-byte struct with every
  // payload in it): a command's or a flash completion's payload waits in a slab of its
  // own, the event holds its slot. Crypto results wait in crypto_fifo_.
  struct Event {
    EventKind kind = EventKind::Command;
    uint8_t tag = 0;     // DataOut, DataIn
    uint32_t slot = 0;   // Command: in commands_; Flash: in flashes_
    uint64_t token = 0;  // DataOut, DataIn, Timer
  };
  struct Deliver {  // the queue's handler: a direct call
    FirmwareCpu* cpu;
    void operator()(Event& e) const { cpu->deliver(e); }
  };
  void power_on();  // reset released: the firmware's first event
  // A flash completion raised now (see post_now in the .cpp).
  void post_flash_now(const FlashCompletion& c);
  void post_now(const Event& e);
  void enqueue(const sc_core::sc_time& at, const Event& e);
  // From the queue: runs the event with its payload, then frees the payload's slot.
  void deliver(const Event& e);
  // Runs one event's handler; `command` / `flash`: its payload (Command / Flash).
  void dispatch(const Event& e, const HostCommand* command = nullptr, const FlashCompletion* flash = nullptr);
  void drain_crypto_fifo();
  sc_core::sc_time delay() const { return clock_ - sim_now(); }
  void bus_access(tlm::tlm_command cmd, uint64_t address, void* data, uint32_t bytes);

  CpuParams params_;
  uint64_t cycle_ps_;  // one core clock cycle in ps (sc_time's rounding of 1e6 / clock_mhz)
  // cpu.model=iss with measured cost: the core's time is what the firmware executed, its
  // dispatch (fw_entry) and each crypto result's pop included, so interrupt_cycles and
  // crypto_result_cycles (the native mode's figures for that work) are not charged on top.
  bool measured_;
  TimedQueue<Event, Deliver> queue_;
  Slab<HostCommand> commands_;     // payloads of queued Command events
  Slab<FlashCompletion> flashes_;  // payloads of queued Flash events
  FirmwareEvents* firmware_ = nullptr;
  HostInterface* hostif_ = nullptr;
  FlashController* fcc_ = nullptr;
  HpbCryptoEngine* crypto_ = nullptr;
  uint64_t rng_state_;
  std::deque<HpbCryptoResult> crypto_fifo_;  // results not yet taken by the firmware
  bool crypto_irq_pending_ = false;          // a Crypto event is queued to drain the FIFO
  uint64_t crypto_interrupts_ = 0;
  bool in_handler_ = false;
  sc_core::sc_time clock_;       // time inside the running handler
  sc_core::sc_time busy_until_;  // when the core finishes its current work
  sc_core::sc_time busy_;
  sc_core::sc_time last_start_;  // start of the last handler
  uint64_t events_ = 0, cycles_ = 0;
  tlm::tlm_generic_payload gp_;
  std::vector<SectorStamp> scratch_;
  // Observability
  void trace_step(const Event& e, const HostCommand* command, const FlashCompletion* flash,
                  const sc_core::sc_time& start);
  void trace_flash_cause(uint64_t cookie);
  TraceRecorder* trace_ = nullptr;
  std::function<void(uint64_t)> trace_sampler_;
  int trace_track_ = -1, trace_busy_ = -1, trace_l2p_reads_ = -1, trace_l2p_writes_ = -1;
  std::array<int, 7> trace_handler_{};  // per EventKind: its handler is running
  int trace_tag_ = -1;        // command tag of the running step
  uint64_t trace_cmd_ = 0;    // timeline id of the command it works for (0: none)
  struct TraceCause {
    int tag;
    uint64_t cmd;
  };
  std::unordered_map<uint64_t, TraceCause> trace_cookie_causes_;  // flash op cookie -> its command
};

}  // namespace ufs
