#include "flash/flash_port.h"
#include <algorithm>

namespace ufs {

FlashOp& FlashPort::start(FlashOpcode opcode, uint32_t client, uint64_t index, const FlashAddress& a) {
  op_.opcode = opcode;
  op_.address = a;
  op_.dest = FlashAddress{};
  op_.page_count = 1;
  op_.sector_offset = 0;
  op_.sector_count = 0;
  op_.buffer_address = 0;
  op_.priority = 0;
  op_.read_oob = false;
  op_.words = nullptr;
  op_.words_per_page = 0;
  op_.cookie = uint64_t(client) << kClientShift | index;
  op_.cause_tag = cause_tag_;
  return op_;
}

void FlashPort::submit() {
  hal_.charge_cycles(cycles_submit_);
  ++in_flight_;
  op_.slc = per_block_slc_ && blocks_.info(blocks_.layout().block_id(op_.address)).slc;
  hal_.submit_flash(op_);
}

void FlashPort::read(uint32_t client, uint64_t index, const FlashAddress& a, uint32_t sector, uint32_t count,
                     uint64_t buffer, uint8_t priority, uint32_t* words, uint32_t words_per_page) {
  FlashOp& op = start(FlashOpcode::Read, client, index, a);
  op.words = words;
  op.words_per_page = words_per_page;
  op.sector_offset = sector;
  op.sector_count = count;
  op.buffer_address = buffer;
  op.priority = priority;
  op.oob.clear();
  submit();
}

std::vector<PageOob>& FlashPort::program_oob(uint32_t pages) {
  op_.oob.assign(pages, PageOob{});
  return op_.oob;
}

void FlashPort::program(uint32_t client, uint64_t index, const FlashAddress& a, uint32_t pages, uint64_t buffer,
                        uint32_t* words, uint32_t words_per_page) {
  FlashOp& op = start(FlashOpcode::Program, client, index, a);
  op.words = words;
  op.words_per_page = words_per_page;
  op.page_count = pages;
  op.buffer_address = buffer;
  programs_.emplace_back(op.cookie, op.oob.empty() ? 0 : op.oob[0].sequence);
  submit();
}

void FlashPort::erase(uint32_t client, uint64_t index, const FlashAddress& a) {
  start(FlashOpcode::Erase, client, index, a);
  op_.oob.clear();
  submit();
}

void FlashPort::copy_back(uint32_t client, uint64_t index, const FlashAddress& from, const FlashAddress& to) {
  FlashOp& op = start(FlashOpcode::CopyBack, client, index, from);
  op.dest = to;
  op.read_oob = true;
  // The copy is a new program: it takes the next sequence (written into its spare area, the
  // data keeping its age), so recovery finds it newer than the map pages taken before it.
  op.oob.assign(1, PageOob{});
  op.oob[0].sequence = next_sequence();
  programs_.emplace_back(op.cookie, op.oob[0].sequence);
  submit();
}

// Of a client index's programs in flight (a big logical page is several) the newest goes:
// the oldest sequence in flight is never later than the true one.
void FlashPort::program_done(uint64_t cookie) {
  size_t at = programs_.size();
  for (size_t i = 0; i < programs_.size(); ++i)
    if (programs_[i].first == cookie && (at == programs_.size() || programs_[i].second > programs_[at].second)) at = i;
  if (at == programs_.size()) return;
  programs_[at] = programs_.back();
  programs_.pop_back();
}

uint64_t FlashPort::oldest_program_in_flight() const {
  uint64_t oldest = ~0ull;
  for (const auto& p : programs_) oldest = std::min(oldest, p.second);
  return oldest;
}

}  // namespace ufs
