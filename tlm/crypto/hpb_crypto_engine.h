// HpbCryptoEngine: the HPB entry sign/verify unit on the device interconnect.
//
// Wraps a clock-level core (the Verilated rtl/hpb_crypto_unit.v, or the
// bit/cycle-exact C++ model when crypto.model=cpp). Jobs queue FIFO in
// submission order; the core is evaluated in batches, only for the cycles jobs
// (and register writes) occupy, and each result is delivered to the listener
// at the simulated time of the clock edge the RTL produced it on.
//
// Register interface (`regs`, 32-bit accesses at the offsets of
// firmware/hal/crypto_types.h): ID, CONFIG, CTRL, STATUS, write-only KEY0..3,
// job and failure counters. Register writes reach the unit on its next clock
// edge after the access time, after every job submitted before them.
// Because batches run ahead of simulated time, a counter read returns the
// unit's counters with all jobs submitted so far counted.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include <array>
#include <deque>
#include <memory>
#include <string>
#include <vector>
#include "common/event_wheel.h"
#include "crypto/aes128.h"
#include "crypto/hpb_crypto_core.h"
#include "crypto/hpb_crypto_params.h"
#include "hal/crypto_types.h"

namespace ufs {

class HpbCryptoListener {
 public:
  virtual ~HpbCryptoListener() = default;
  // Called from the engine's process at the job's completion time.
  virtual void crypto_done(const HpbCryptoResult& result) = 0;
};

class HpbCryptoEngine : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<HpbCryptoEngine> regs;

  HpbCryptoEngine(sc_core::sc_module_name name, const HpbCryptoParams& params);
  ~HpbCryptoEngine() override;
  SC_HAS_PROCESS(HpbCryptoEngine);

  void set_listener(HpbCryptoListener* listener) { listener_ = listener; }
  // Wake through the platform's event wheel (before the simulation starts).
  void attach(EventWheel* wheel) {
    batch_event_.attach(wheel);
    deliver_event_.attach(wheel);
  }
  // The job arrives at now + delay; jobs are served FIFO in submission order.
  void submit(const HpbCryptoJob& job, const sc_core::sc_time& delay = sc_core::SC_ZERO_TIME);
  // A sign batch (HpbSignBatch, one descriptor): the unit's DMA takes the items now, each
  // becomes a sign job of its own, queued FIFO with the others and timed by the core as
  // any job; each signed entry is written to the batch's entries when its job completes,
  // and the listener gets one result for the whole batch, after its last job's.
  void submit_batch(const HpbSignBatch& batch, const sc_core::sc_time& delay = sc_core::SC_ZERO_TIME);

  // What firmware does at power-up: write the 128-bit session key (drawn from
  // the random source, new for every power cycle) into KEY0..3 and commit it.
  // Returns the bus time the five register writes take (to add to the caller's delay).
  sc_core::sc_time load_session_key(const AesKey& key,
                                    const sc_core::sc_time& delay = sc_core::SC_ZERO_TIME);
  sc_core::sc_time zeroize_session_key(const sc_core::sc_time& delay = sc_core::SC_ZERO_TIME);

  // Dump the unit's internal signals to a VCD for the clock edges in [from, to]
  // (platform simulated time). RTL model only; returns false otherwise.
  bool enable_waves(const std::string& path, const sc_core::sc_time& from,
                    const sc_core::sc_time& to);
  // Flush and close the VCD (also done when the engine is destroyed).
  void close_waves() { core_->close_waves(); }

  // Counters of results delivered so far (at their completion times).
  uint64_t jobs_signed() const { return signed_; }
  uint64_t jobs_verified() const { return verified_; }
  uint64_t verify_failures() const { return verify_failures_; }
  uint64_t job_errors() const { return errors_; }
  uint64_t busy_cycles() const { return busy_cycles_; }   // cycles the unit spent on jobs
  size_t jobs_in_flight() const { return pending_.size() + completions_.size(); }
  // Register read without bus timing (debug / statistics).
  uint32_t peek_register(uint32_t offset);

  const HpbCryptoParams& params() const { return params_; }
  const HpbCryptoCore& core() const { return *core_; }
  sc_core::sc_time clock_period() const;
  // Cycle-accurate job latency from acceptance to result.
  uint32_t latency_cycles() const { return core_->latency_cycles(); }

 private:
  struct Pending {
    HpbCryptoJob job;
    uint64_t arrival_ps;
    uint64_t batch = 0;   // the sign batch the job is an item of (Batch::id; 0: none)
    uint32_t index = 0;   // its item
  };
  struct Completion {
    uint64_t done_ps;
    HpbCryptoResult result;
    uint64_t batch = 0;
    uint32_t index = 0;
  };
  struct Batch {          // a sign batch with jobs outstanding
    uint64_t id;
    uint8_t* entries;
    uint32_t count, remaining;
    uint64_t cookie;
    uint64_t arrival_ps;
    HpbCryptoStatus status;  // the first failure's (Ok: none yet)
  };
  void batch_item_done(const Completion& c);

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans);
  sc_core::sc_time write_register(uint32_t offset, uint32_t value, const sc_core::sc_time& delay);
  void run_batch();  // SC_METHOD: push every pending job through the core
  void deliver();    // SC_METHOD: hand due results to the listener
  void schedule_delivery();
  uint64_t to_ps(const sc_core::sc_time& t) const;
  uint64_t edge_at_or_after(uint64_t ps) const { return (ps + period_ps_ - 1) / period_ps_; }

  HpbCryptoParams params_;
  uint64_t period_ps_;
  mutable uint64_t ps_mul_ = 0, ps_div_ = 0;  // to_ps: kernel time units -> ps
  std::unique_ptr<HpbCryptoCore> core_;
  HpbCryptoListener* listener_ = nullptr;
  std::vector<Pending> pending_;
  std::deque<Completion> completions_;
  std::deque<Batch> batches_;
  uint64_t next_batch_ = 1;
  TimedWake batch_event_;
  TimedWake deliver_event_;
  uint64_t signed_ = 0, verified_ = 0, verify_failures_ = 0, errors_ = 0, busy_cycles_ = 0;
};

// A session key from a 64-bit seed (SplitMix64), for reproducible simulations
// of "a random key per power cycle".
AesKey hpb_session_key_from_seed(uint64_t seed);

}  // namespace ufs
