// The firmware core under a debugger (issue 20, "Debugging"; cpu.gdb_port, cpu.model=iss):
// `gdb-multiarch firmware.elf`, `target remote :N`, breakpoints and single steps in the
// firmware while simulated time stands still. Unicorn has no gdbstub: GdbRemote
// (tlm/cpu/gdb_remote.h) speaks the protocol, this runs the core for it.
//
// Each firmware entry (IssFirmware::run) runs through run() here. A code hook over all the
// code (added before anything is translated, first in Unicorn's hook list) checks each
// instruction before it executes: at a breakpoint, or after one instruction when stepping,
// it stops the core (uc_emu_stop), and the entry, still inside IssFirmware::run and so
// inside the SystemC process that delivered the event, serves the debugger until it
// resumes the core from where it stands. Nothing is written into guest memory.
//
// The core waits for the debugger at its first entry (reset, fw_start). A step that
// finishes the handler (fw_halt) stops at the start of the next entry, whenever the
// simulation delivers it; an interrupt (Ctrl-C) is seen at the next entry or within 65,536
// instructions. A detach takes the hooks away (the core then runs as without a debugger);
// kill fails the run. A firmware panic or a core fault stops for the debugger (SIGABRT)
// before the run fails with it.
//
// The run is the same with the debugger as without: a block's instructions are counted when
// it is entered (IssFirmware::on_block), so at a stop inside a block the instructions not
// yet executed are taken back, and counted again when the core resumes there.
#pragma once
#include <cstdint>
#include <string>
#include "cpu/gdb_remote.h"

struct uc_struct;

namespace ufs {

class IssFirmware;

class IssGdb : public GdbTarget {
 public:
  // Listens on 127.0.0.1:port (std::runtime_error when it cannot); `elf`: the firmware's ELF
  // (named in the waiting message).
  IssGdb(IssFirmware& iss, uint16_t port, const std::string& elf);
  ~IssGdb() override;  // a debugger still attached hears that the program exited
  IssGdb(const IssGdb&) = delete;
  IssGdb& operator=(const IssGdb&) = delete;

  // One entry from `begin` (Thumb bit set), as uc_emu_start(begin) would run it; returns its uc_err.
  int run(uint32_t begin);

  uint64_t read_register(int n) override;
  void write_register(int n, uint64_t value) override;
  bool read_memory(uint32_t address, uint8_t* out, uint32_t bytes) override;
  bool write_memory(uint32_t address, const uint8_t* in, uint32_t bytes) override;

 private:
  static void on_code(uc_struct* uc, uint64_t address, uint32_t size, void* self);
  static void on_block(uc_struct* uc, uint64_t address, uint32_t size, void* self);
  void stop(int signal);
  void take_back_unexecuted();  // after a stop: the block's instructions from the PC on
  void detach();
  uint32_t resume_address();    // the PC with the Thumb bit of cpsr

  IssFirmware& iss_;
  GdbRemote remote_;
  size_t code_hook_ = 0, block_hook_ = 0;
  bool detached_ = false;
  bool first_ = true;          // the first entry waits for the debugger
  bool step_pending_ = false;  // a step ended the handler: stop at the next entry's start
  bool stepping_ = false;
  bool skip_first_ = false;    // resuming: the instruction the core stands on runs
  bool stop_hit_ = false;
  int stop_signal_ = 0;
  bool failed_ = false;
  uint32_t block_at_ = 0, block_size_ = 0;  // the block being executed
  uint64_t polls_ = 0;
};

}  // namespace ufs
