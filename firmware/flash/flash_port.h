// The firmware's one door to the flash demux: every FlashOp is built and submitted here,
// and every completion goes back to the part that issued the operation. A part attaches
// as a FlashClient and gets a client id; an operation carries (client id, the part's own
// index) as its cookie, so no central switch knows the parts' operation kinds.
// The port also charges the submit cost, sets each op's SLC mode from its block
// (WriteBooster's SLC blocks), counts operations in flight, and numbers programs (the
// global sequence every program's OOB carries, which power-loss recovery orders by).
#pragma once
#include <cstdint>
#include <utility>
#include <vector>
#include "ftl/block_manager.h"
#include "hal/hal.h"
#include "stats_visitor.h"

namespace ufs {

class FlashClient {
 public:
  virtual ~FlashClient() = default;
  // An operation this client submitted completed; `index` is what the client gave it.
  virtual void on_flash_done(uint64_t index, const FlashCompletion& c) = 0;
};

class FlashPort {
 public:
  // per_block_slc: set FlashOp::slc from the block's mode (WriteBooster on).
  FlashPort(Hal& hal, const BlockManager& blocks, uint32_t cycles_submit, bool per_block_slc)
      : hal_(hal), blocks_(blocks), cycles_submit_(cycles_submit), per_block_slc_(per_block_slc) {}

  uint32_t attach(FlashClient& client) {
    clients_.push_back(&client);
    return uint32_t(clients_.size() - 1);
  }

  // Read `count` sectors (0: the whole page) from `sector` of a page into the buffer at
  // `buffer` (kL2pSramBase and up: the L2P SRAM).
  // `words` (map pages, FlashOp::words): where the page's words go, words_per_page of them.
  void read(uint32_t client, uint64_t index, const FlashAddress& a, uint32_t sector, uint32_t count,
            uint64_t buffer, uint8_t priority = 0, uint32_t* words = nullptr, uint32_t words_per_page = 0);
  // Program: fill program_oob(pages) first (one PageOob per page), then program().
  std::vector<PageOob>& program_oob(uint32_t pages);
  // `words`: pages x words_per_page words the pages hold (map pages, FlashOp::words).
  void program(uint32_t client, uint64_t index, const FlashAddress& a, uint32_t pages, uint64_t buffer,
               uint32_t* words = nullptr, uint32_t words_per_page = 0);
  void erase(uint32_t client, uint64_t index, const FlashAddress& a);
  // Intra-plane copy of a page, its spare area read out into the completion.
  void copy_back(uint32_t client, uint64_t index, const FlashAddress& from, const FlashAddress& to);

  // Observability: while a WorkFor is alive, the ops submitted work for the command on
  // `tag` (FlashOp::cause_tag) rather than the one whose event is being handled.
  class WorkFor {
   public:
    WorkFor(FlashPort& port, uint8_t tag) : port_(port), before_(port.cause_tag_) { port.cause_tag_ = tag; }
    ~WorkFor() { port_.cause_tag_ = before_; }
    WorkFor(const WorkFor&) = delete;
    WorkFor& operator=(const WorkFor&) = delete;

   private:
    FlashPort& port_;
    int16_t before_;
  };

  // The completion goes to its client.
  void complete(const FlashCompletion& c) {
    if (in_flight_) --in_flight_;
    if (c.opcode == FlashOpcode::Program || c.opcode == FlashOpcode::CopyBack) program_done(c.cookie);
    clients_[c.cookie >> kClientShift]->on_flash_done(c.cookie & kIndexMask, c);
  }
  uint32_t in_flight() const { return in_flight_; }
  // The sequence of the oldest program (or copy-back) not yet complete (~0: none). A map
  // page's entries taken now hold every program older than it (power-loss recovery replays
  // from there: recovery/power_up_recovery.h).
  uint64_t oldest_program_in_flight() const;

  // Grown bad blocks: failed programs and erases, counted by the part that handles each.
  void count_program_failure() { ++program_failures_; }
  void count_erase_failure() { ++erase_failures_; }
  uint64_t stats_program_failures() const { return program_failures_; }
  void visit_stats(StatsVisitor& v) const {
    v.count("ftl.program_failures", program_failures_, "", "programs that failed (grown bad blocks)");
    v.count("ftl.erase_failures", erase_failures_, "", "erases that failed");
  }

  // The global program sequence: each program (and each host write's data) takes the next.
  uint64_t next_sequence() { return ++sequence_; }
  void restart_sequence(uint64_t last) { sequence_ = last; }  // after recovery: the newest found

 private:
  static constexpr uint32_t kClientShift = 56;
  static constexpr uint64_t kIndexMask = (1ull << kClientShift) - 1;
  FlashOp& start(FlashOpcode opcode, uint32_t client, uint64_t index, const FlashAddress& a);
  void submit();
  void program_done(uint64_t cookie);
  Hal& hal_;
  const BlockManager& blocks_;
  uint32_t cycles_submit_;
  bool per_block_slc_;
  std::vector<FlashClient*> clients_;
  FlashOp op_;  // reused: the demux copies what it needs at submission
  int16_t cause_tag_ = -1;
  uint32_t in_flight_ = 0;
  uint64_t sequence_ = 0;
  std::vector<std::pair<uint64_t, uint64_t>> programs_;  // in flight: (cookie, sequence)
  uint64_t program_failures_ = 0, erase_failures_ = 0;
};

}  // namespace ufs
