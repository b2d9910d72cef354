// The firmware's HAL on the controller's core (the target build): every call becomes a
// fixed-layout record in the mailbox window and a store to the doorbell (mailbox.h); the
// host serves it with the platform's TLM calls. charge_cycles only adds to the mailbox's
// pending cycles (the host takes them at the next crossing).
#pragma once
#include "hal/hal.h"
#include "target/mailbox.h"

namespace ufs {

class TargetHal : public Hal, public FlashBackdoor {
 public:
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
  void submit_crypto(const HpbCryptoJob& job) override;
  void submit_sign_batch(const HpbSignBatch& batch) override;
  void write_crypto_register(uint32_t offset, uint32_t value) override;
  uint64_t random64() override;
  bool peek_map_words(const FlashAddress& address, uint32_t* out, uint32_t count) override;
  void set_timer(uint64_t delay_ps, uint64_t cookie) override;
  void preload_pages(const FlashAddress& address, uint32_t count, const SectorStamp* stamps,
                     const PageOob* oobs, const uint32_t* words, uint32_t words_per_page) override;
};

// Ring the doorbell with `call`'s record already in Mailbox::call.
void ring(mailbox::Call call);
// The firmware cannot go on: the message goes to the host, which stops the run.
[[noreturn]] void panic(const char* message);

}  // namespace ufs
