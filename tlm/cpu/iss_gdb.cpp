#include "cpu/iss_gdb.h"
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <unicorn/unicorn.h>
#include "cpu/iss_firmware.h"
#include "target/mailbox.h"

namespace ufs {

namespace {
// GdbTarget's numbering: r0-r12, sp, lr, pc, cpsr, d0-d15, fpscr.
constexpr int kUcRegisters[GdbTarget::kRegisters] = {
    UC_ARM_REG_R0,  UC_ARM_REG_R1,  UC_ARM_REG_R2,  UC_ARM_REG_R3,  UC_ARM_REG_R4,   UC_ARM_REG_R5,  UC_ARM_REG_R6,
    UC_ARM_REG_R7,  UC_ARM_REG_R8,  UC_ARM_REG_R9,  UC_ARM_REG_R10, UC_ARM_REG_R11,  UC_ARM_REG_R12, UC_ARM_REG_SP,
    UC_ARM_REG_LR,  UC_ARM_REG_PC,  UC_ARM_REG_CPSR, UC_ARM_REG_D0, UC_ARM_REG_D1,   UC_ARM_REG_D2,  UC_ARM_REG_D3,
    UC_ARM_REG_D4,  UC_ARM_REG_D5,  UC_ARM_REG_D6,  UC_ARM_REG_D7,  UC_ARM_REG_D8,   UC_ARM_REG_D9,  UC_ARM_REG_D10,
    UC_ARM_REG_D11, UC_ARM_REG_D12, UC_ARM_REG_D13, UC_ARM_REG_D14, UC_ARM_REG_D15,  UC_ARM_REG_FPSCR};
constexpr uint32_t kThumb = 1u << 5;  // cpsr.T
constexpr int kTrap = 5, kInterrupt = 2, kAbort = 6;
}  // namespace

IssGdb::IssGdb(IssFirmware& iss, uint16_t port, const std::string& elf) : iss_(iss), remote_(port, elf) {
  uc_hook h;
  if (uc_hook_add(iss_.uc_, &h, UC_HOOK_CODE, reinterpret_cast<void*>(&IssGdb::on_code), this, 1, 0) != UC_ERR_OK)
    throw std::runtime_error("cpu.gdb_port: Unicorn cannot hook the core's instructions");
  code_hook_ = h;
  if (uc_hook_add(iss_.uc_, &h, UC_HOOK_BLOCK, reinterpret_cast<void*>(&IssGdb::on_block), this, 1, 0) != UC_ERR_OK)
    throw std::runtime_error("cpu.gdb_port: Unicorn cannot hook the core's blocks");
  block_hook_ = h;
}

IssGdb::~IssGdb() { remote_.finish(failed_ ? kAbort : 0); }

uint32_t IssGdb::resume_address() {
  return uint32_t(read_register(15)) | ((read_register(kCpsr) & kThumb) ? 1u : 0u);
}

int IssGdb::run(uint32_t begin) {
  if (detached_) return uc_emu_start(iss_.uc_, begin, 0, 0, 0);
  int signal = 0;
  if (first_) signal = kTrap;
  else if (step_pending_) signal = kTrap;
  else if (remote_.interrupt_requested()) signal = kInterrupt;
  first_ = step_pending_ = false;
  uint32_t at = begin;
  if (signal) uc_reg_write(iss_.uc_, UC_ARM_REG_PC, &at);  // the debugger sees the entry's first instruction
  for (;;) {
    if (signal) {
      const GdbRemote::Resume r = remote_.stopped(*this, signal);
      if (r == GdbRemote::Resume::Kill) throw std::runtime_error("cpu.gdb_port: the debugger killed the run");
      if (r == GdbRemote::Resume::Detach) detach();
      stepping_ = r == GdbRemote::Resume::Step;
      at = resume_address();
      skip_first_ = true;
    }
    stop_hit_ = false;
    const uc_err err = uc_emu_start(iss_.uc_, at, 0, 0, 0);
    if (stop_hit_ && err == UC_ERR_OK) {
      take_back_unexecuted();
      signal = stop_signal_;
      continue;
    }
    skip_first_ = false;
    if (err != UC_ERR_OK || !iss_.panic_.empty() || !iss_.error_.empty()) {
      // The run fails with this: the debugger sees where first.
      failed_ = true;
      if (!detached_ && remote_.attached()) {
        const GdbRemote::Resume r = remote_.stopped(*this, kAbort);
        if (r == GdbRemote::Resume::Kill) throw std::runtime_error("cpu.gdb_port: the debugger killed the run");
      }
    } else if (stepping_ && iss_.halted_) {
      step_pending_ = true;
    }
    return err;
  }
}

void IssGdb::stop(int signal) {
  stop_hit_ = true;
  stop_signal_ = signal;
  uc_emu_stop(iss_.uc_);
}

void IssGdb::on_code(uc_struct*, uint64_t address, uint32_t, void* self) {
  auto* me = static_cast<IssGdb*>(self);
  if (me->detached_) return;
  if (me->skip_first_) {
    me->skip_first_ = false;
    return;
  }
  if (me->stepping_ || me->remote_.breakpoint_at(uint32_t(address))) me->stop(kTrap);
  else if ((++me->polls_ & 0xffff) == 0 && me->remote_.interrupt_requested()) me->stop(kInterrupt);
}

void IssGdb::on_block(uc_struct*, uint64_t address, uint32_t size, void* self) {
  auto* me = static_cast<IssGdb*>(self);
  me->block_at_ = uint32_t(address);
  me->block_size_ = size;
}

// IssFirmware::on_block counted the whole block when the core entered it; the core stopped
// before the instruction at the PC (a Thumb-2 IT block runs to its end first: Unicorn
// stops only between whole IT blocks), so the rest of the block is taken back, to be
// counted again by the block the core resumes in there.
void IssGdb::take_back_unexecuted() {
  if (iss_.options_.native_cost) return;  // (nothing counted: the firmware's charge_cycles are the cost)
  const uint32_t pc = uint32_t(read_register(15));
  const uint64_t end = uint64_t(block_at_) + block_size_;
  if (pc < block_at_ || pc >= end) return;  // stopped at a block's start: nothing of it counted yet
  if (end > mailbox::kCodeBytes || block_at_ - iss_.halt_ < iss_.halt_bytes_) return;  // on_block counted none
  iss_.instructions_ -= IssFirmware::thumb_instructions(iss_.ram(pc, end - pc, false), uint32_t(end - pc));
}

void IssGdb::detach() {
  detached_ = true;
  stepping_ = false;
  uc_hook_del(iss_.uc_, code_hook_);
  uc_hook_del(iss_.uc_, block_hook_);
  // The translated blocks carry the hook's call: without them the core runs as it would
  // have without a debugger.
  uc_ctl(iss_.uc_, UC_CTL_WRITE(UC_CTL_TB_FLUSH, 0));
}

uint64_t IssGdb::read_register(int n) {
  if (n < 0 || n >= GdbTarget::kRegisters) return 0;
  if (register_bytes(n) == 8) {
    uint64_t v = 0;
    uc_reg_read(iss_.uc_, kUcRegisters[n], &v);
    return v;
  }
  uint32_t v = 0;
  uc_reg_read(iss_.uc_, kUcRegisters[n], &v);
  return v;
}

void IssGdb::write_register(int n, uint64_t value) {
  if (n < 0 || n >= GdbTarget::kRegisters) return;
  if (register_bytes(n) == 8) {
    uc_reg_write(iss_.uc_, kUcRegisters[n], &value);
    return;
  }
  uint32_t v = uint32_t(value);
  // Unicorn takes bit 0 of a PC write as the instruction set: keep the core's.
  if (n == 15) v = (v & ~1u) | ((read_register(kCpsr) & kThumb) ? 1u : 0u);
  uc_reg_write(iss_.uc_, kUcRegisters[n], &v);
}

bool IssGdb::read_memory(uint32_t address, uint8_t* out, uint32_t bytes) {
  const uint8_t* p = iss_.ram(address, bytes, false);
  if (!p) return false;
  std::memcpy(out, p, bytes);
  return true;
}

bool IssGdb::write_memory(uint32_t address, const uint8_t* in, uint32_t bytes) {
  if (uint8_t* p = iss_.ram(address, bytes, true)) {
    std::memcpy(p, in, bytes);
    return true;
  }
  // The code: through Unicorn, and its translations and instruction counts of it dropped.
  if (address < mailbox::kCodeBase || uint64_t(address) - mailbox::kCodeBase + bytes > mailbox::kCodeBytes) return false;
  if (uc_mem_write(iss_.uc_, address, in, bytes) != UC_ERR_OK) return false;
  uc_ctl_remove_cache(iss_.uc_, address, uint64_t(address) + bytes);
  std::fill(iss_.block_instructions_.begin(), iss_.block_instructions_.end(), 0);
  return true;
}

}  // namespace ufs
