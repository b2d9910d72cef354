// After a sudden power-off: the device powers up again with nothing but its NAND.
// A fresh DeviceFirmware runs its recovery (OOB scan) on the NAND dies the run left
// behind, through this small HAL of its own: flash operations take the dies' array
// times (tR, tPROG, tBERS) plus the channel transfer, one at a time per die; the
// core's cycles take the core clock. The SystemC kernel cannot restart in a process,
// so the powered-up device runs here, event-driven, after the simulation stopped.
// Then every LBA the run touched is read back through the firmware and checked
// against what the scoreboard says was durable.
#pragma once
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>
#include "device_firmware.h"
#include "hal/hal.h"
#include "platform/platform_config.h"

namespace ufs {

class FlashController;
class Scoreboard;

struct PowerLossReport {
  uint64_t spo_ps = 0;             // when power was cut (simulated time)
  uint64_t torn_pages = 0;         // pages whose program was cut
  uint64_t recovery_ps = 0;        // power-up to ready
  uint64_t recovery_page_reads = 0;
  // Of which (firmware/ftl/recovery.h): the OOB scan, the replay, map page copies, compare reads.
  uint64_t scan_reads = 0, replay_reads = 0, map_loads = 0, check_reads = 0;
  uint64_t replayed_map_pages = 0;  // map pages with data newer than their copy
  uint64_t gone_entries = 0;        // copies' entries into blocks erased since (trimmed data)
  uint64_t no_entries = 0;          // map page copies without entries
  uint64_t recovered_lbas = 0;
  uint64_t checked_blocks = 0;     // blocks read back and checked
  // firmware.map_verify: the recovered firmware's map lookups (recovery and read-back) checked
  // against its whole-map shadow (ftl/l2p_map.h), and those that differed.
  bool map_verified = false;
  uint64_t map_lookups = 0;
  uint64_t map_lookup_mismatches = 0;
  std::string map_first_mismatch;
  uint64_t durable_blocks = 0;     // of which the scoreboard held a durable version
  uint64_t lost = 0;               // durable blocks that read back erased
  uint64_t wrong = 0;              // blocks that read back an older or foreign version
  std::string first_problem;
};

class PowerLossRecovery : public Hal {
 public:
  PowerLossRecovery(FlashController& fcc, const PlatformConfig& config);
  // Power-up, recovery, then the read-back check (scoreboard may be null: no check).
  PowerLossReport run(const Scoreboard* scoreboard);
  const DeviceFirmware& firmware() const { return *firmware_; }

  // Hal
  uint64_t now_ps() const override { return now_ + charged_ * cycle_ps_; }
  void charge_cycles(uint64_t cycles) override { charged_ += cycles; }
  void submit_flash(const FlashOp& op) override;
  void request_data_out(uint8_t tag, uint32_t offset, uint64_t addr, uint32_t bytes, uint64_t token) override;
  void send_data_in(uint8_t tag, uint32_t offset, uint64_t addr, uint32_t bytes, uint64_t token) override;
  void send_response(const CommandResponse& response) override;
  void copy_buffer(uint64_t dst, uint64_t src, uint32_t bytes) override;
  void read_buffer_bytes(uint64_t address, void* dst, uint32_t bytes) override;
  void write_buffer_bytes(uint64_t address, const void* src, uint32_t bytes) override;
  void zero_buffer(uint64_t address, uint32_t bytes) override;
  void l2p_sram_access(uint32_t, bool) override {}
  void submit_crypto(const HpbCryptoJob&) override {}
  void submit_sign_batch(const HpbSignBatch&) override {}
  void write_crypto_register(uint32_t, uint32_t) override {}
  uint64_t random64() override { return rng_ = rng_ * 6364136223846793005ull + 1442695040888963407ull; }
  void set_timer(uint64_t delay_ps, uint64_t cookie) override;
  bool peek_map_words(const FlashAddress& address, uint32_t* out, uint32_t count) override {
    return address.die < fcc_.topology().dies() && fcc_.nand_die(address.die).peek_words(address, out, count);
  }

 private:
  struct Event {
    uint64_t at, seq;
    std::function<void()> fn;
    bool operator>(const Event& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  void post(uint64_t at, std::function<void()> fn) { events_.push(Event{at, seq_++, std::move(fn)}); }
  // Runs events until none is left or `stop` says so.
  void run_events(const std::function<bool()>& stop);
  SectorStamp* sector(uint64_t address) { return &buffer_[address / kSectorBytes]; }

  FlashController& fcc_;
  PlatformConfig config_;
  uint64_t cycle_ps_;
  uint64_t sector_transfer_ps_;
  std::vector<SectorStamp> buffer_;
  std::vector<uint8_t> bytes_;
  std::vector<uint64_t> die_free_at_;
  std::vector<SectorStamp> read_data_;   // the read being checked
  bool response_arrived_ = false;
  CommandResponse response_;
  std::unique_ptr<DeviceFirmware> firmware_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
  uint64_t now_ = 0, charged_ = 0, seq_ = 0, rng_ = 1;
};

}  // namespace ufs
