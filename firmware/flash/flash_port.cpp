#include "flash/flash_port.h"

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
  op.oob.clear();
  submit();
}

}  // namespace ufs
