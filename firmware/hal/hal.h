// The hardware abstraction layer: everything the firmware may ask of the hardware.
// The SystemC platform implements it in tlm/cpu (FirmwareCpu); firmware unit tests
// implement it with a plain fake. Nothing here blocks: every request that takes
// time completes later through a FirmwareEvents callback.
#pragma once
#include <cstdint>
#include "hal/flash_types.h"
#include "hal/host_types.h"
#include "hal/crypto_types.h"

namespace ufs {

class Hal {
 public:
  virtual ~Hal() = default;

  // Current time in picoseconds, including the cycles this handler has charged so far.
  virtual uint64_t now_ps() const = 0;
  // Account for firmware work: the CPU is busy for this many cycles.
  virtual void charge_cycles(uint64_t cycles) = 0;

  // Flash demux: queue one operation; FirmwareEvents::on_flash_complete follows.
  virtual void submit_flash(const FlashOp& op) = 0;

  // Host interface DMA. data_offset is the byte offset within the command's transfer.
  // READY TO TRANSFER + DATA OUT into the data buffer -> on_data_out_done(tag, token).
  virtual void request_data_out(uint8_t tag, uint32_t data_offset, uint64_t buffer_address,
                                uint32_t bytes, uint64_t token) = 0;
  // DATA IN from the data buffer -> on_data_in_done(tag, token) when it has left the buffer.
  virtual void send_data_in(uint8_t tag, uint32_t data_offset, uint64_t buffer_address,
                            uint32_t bytes, uint64_t token) = 0;
  // RESPONSE UPIU; ends the command.
  virtual void send_response(const CommandResponse& response) = 0;

  // Copy inside the data buffer (e.g. a read served from the write cache), charged on the bus.
  virtual void copy_buffer(uint64_t dst, uint64_t src, uint32_t bytes) = 0;

  // Small raw-byte accesses to the byte region of the data buffer (kByteRegionBase and
  // up): parameter lists that arrived by DATA OUT, data to send by DATA IN. Charged on the bus.
  virtual void read_buffer_bytes(uint64_t address, void* dst, uint32_t bytes) = 0;
  virtual void write_buffer_bytes(uint64_t address, const void* src, uint32_t bytes) = 0;

  // Fill sectors of the data buffer with erased/unmapped data (reads of unwritten LBAs).
  virtual void zero_buffer(uint64_t address, uint32_t bytes) = 0;

  // Firmware accesses to the L2P SRAM (map lookups and updates): charged on the bus.
  virtual void l2p_sram_access(uint32_t bytes, bool write) = 0;

  // HPB crypto engine: queue a sign/verify job -> on_crypto_done(result).
  virtual void submit_crypto(const HpbCryptoJob& job) = 0;
  // Sign a batch of entries (HpbSignBatch: one descriptor, one result) -> on_crypto_done.
  virtual void submit_sign_batch(const HpbSignBatch& batch) = 0;
  // Write one of the engine's registers (hpb_crypto_reg), e.g. the session key at boot.
  virtual void write_crypto_register(uint32_t offset, uint32_t value) = 0;
  // The controller's hardware random number generator.
  virtual uint64_t random64() = 0;

  // One-shot timer -> on_timer(cookie).
  virtual void set_timer(uint64_t delay_ps, uint64_t cookie) = 0;

  // Zero-time read of the words a map page holds on NAND (FlashOp::words: its L2P entries),
  // no flash operation and no time: the timing model's existing approximation where the
  // firmware needs entries of a map page whose load it does not charge (an update miss makes
  // its page resident without a load; HPB READ BUFFER reads entries of pages not in SRAM).
  // Issue 20: the map pages on NAND are the entries' authority. False (out untouched) when
  // the page holds no words.
  virtual bool peek_map_words(const FlashAddress& address, uint32_t* out, uint32_t count) = 0;
};

// Zero-time functional access to the flash array, used only to precondition a
// device quickly (as if it had been written long before the measured run).
class FlashBackdoor {
 public:
  virtual ~FlashBackdoor() = default;
  // `count` consecutive pages from address.page (a whole program unit), sectors_per_page stamps each;
  // `words` (map pages, FlashOp::words): count x words_per_page words the pages hold (null: none).
  virtual void preload_pages(const FlashAddress& address, uint32_t count, const SectorStamp* stamps,
                             const PageOob* oobs, const uint32_t* words = nullptr, uint32_t words_per_page = 0) = 0;
};

// What the hardware tells the firmware. The platform calls exactly one of these per
// event, run to completion, with the CPU charged for what the handler reports.
class FirmwareEvents {
 public:
  virtual ~FirmwareEvents() = default;
  virtual void on_command(const HostCommand& command) = 0;
  virtual void on_flash_complete(const FlashCompletion& completion) = 0;
  virtual void on_data_out_done(uint8_t tag, uint64_t token) = 0;
  virtual void on_data_in_done(uint8_t tag, uint64_t token) = 0;
  virtual void on_timer(uint64_t cookie) = 0;
  virtual void on_crypto_done(const HpbCryptoResult& result) = 0;
  // Power is on: the first event after reset (load keys, start timers).
  virtual void on_power_up() = 0;
};

}  // namespace ufs
