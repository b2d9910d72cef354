#pragma once
#include <cstdint>
#include <string>

namespace ufs {

// The controller core that runs the firmware.
struct CpuParams {
  double clock_mhz = 800.0;          // Cortex-R8-class real-time core (ARM lists up to 1.5 GHz; UFS controllers run slower)
  // Exception entry/exit and dispatch per event. Charged by the core model in the native mode
  // (and the ISS with native cost); with measured cost the ISS executes the dispatch instead.
  uint32_t interrupt_cycles = 150;
  // The crypto engine posts results to a completion FIFO and raises one interrupt while
  // the FIFO is non-empty (the usual completion-queue design, cf. UFSHCI's UTRLCNR/CQ):
  // one handler drains every result there, paying this per result popped.
  uint32_t crypto_result_cycles = 20;
  uint64_t rng_seed = 0x5eed;        // the controller's random number generator (session keys)
  // How the firmware runs (issue 20): native = compiled for the host, its time the
  // charge_cycles figures; iss = firmware.elf (firmware/target) executed instruction by
  // instruction on an emulated ARMv7-R core (tlm/cpu/iss_firmware.h).
  std::string model = "native";
  std::string elf;                   // the ISS's ELF; empty: the one this build made
  std::string iss_cost = "measured"; // measured (instructions x cpi + wait states) | native (charge_cycles)
  // Cycles per instruction of a Cortex-R core: 0.9, a Cortex-R5F's Dhrystone 2.1 measured
  // on hardware (1 GHz BeagleBone AI-64 R5F, gcc -O3, caches on: 286.1 cycles per loop;
  // TI's AM64x R5F figure agrees) over the instructions the same build executes per loop on
  // this core model (316.0: README "Firmware on the core"). The R8 issues wider (lower), the
  // firmware branches more than Dhrystone (higher); the native cost table derives from it.
  double cpi = 0.9;
  uint32_t mailbox_wait_cycles = 12;  // a HAL call's doorbell store: an AXI write to a peripheral
  uint32_t sram_wait_cycles = 0;      // per heap access: 0 = the heap sits in TCM-speed SRAM
  uint32_t iss_heap_mib = 256;        // RAM the firmware's heap may use
  bool iss_fast_loops = true;         // the C library's byte loops at host speed, counted as executed
  uint32_t gdb_port = 0;              // iss: a GDB remote port on 127.0.0.1 (0: none; tlm/cpu/iss_gdb.h)

  template <class B>
  void bind_iss(B& b) {
    b("model", model, "", "native (firmware compiled for the host) | iss (firmware.elf on the emulated Arm core)");
    b("elf", elf, "", "iss: the firmware ELF to run (empty: the one this build made)");
    b("iss_cost", iss_cost, "", "iss: measured (executed instructions x cpi + wait states) | native (charge_cycles figures)");
    b("cpi", cpi, "cycles", "iss: core cycles per executed instruction");
    b("mailbox_wait_cycles", mailbox_wait_cycles, "cycles", "iss: wait states of one HAL call's doorbell access");
    b("sram_wait_cycles", sram_wait_cycles, "cycles", "iss: wait states per firmware heap (SRAM) access");
    b("iss_heap_mib", iss_heap_mib, "MiB", "iss: RAM for the firmware's heap; the run fails when it is exhausted");
    b("iss_fast_loops", iss_fast_loops, "",
      "iss: the C library's byte loops (memcpy, memmove, memset) done by the host, their instructions counted as "
      "executed (same run, faster); false runs every iteration on the core");
    b("gdb_port", gdb_port, "",
      "iss: a GDB remote port on 127.0.0.1 (0: none): the run waits at the firmware's first entry for "
      "`gdb-multiarch firmware.elf` with `target remote :N`; while the debugger holds the core, simulated time stands "
      "still");
  }

  template <class B>
  void bind(B& b) {
    b("clock_mhz", clock_mhz, "MHz", "firmware core clock");
    b("interrupt_cycles", interrupt_cycles, "cycles",
      "interrupt entry, dispatch and exit per event (not with cpu.model=iss measured cost: the dispatch is executed)");
    b("crypto_result_cycles", crypto_result_cycles, "cycles",
      "pop and dispatch one crypto result from the completion FIFO (one interrupt drains the FIFO; not with "
      "cpu.model=iss measured cost)");
    b("rng_seed", rng_seed, "", "seed of the controller's hardware random number generator (HPB session keys)");
    bind_iss(b);
  }
  std::string validate() const {
    if (!(clock_mhz > 0)) return "clock_mhz: must be positive";
    if (model != "native" && model != "iss") return "model: must be native or iss, not '" + model + "'";
    if (iss_cost != "measured" && iss_cost != "native") return "iss_cost: must be measured or native, not '" + iss_cost + "'";
    if (!(cpi > 0) || cpi > 100) return "cpi: must be within 0..100 (excluded 0)";
    if (iss_heap_mib == 0 || iss_heap_mib > 1536) return "iss_heap_mib: must be within 1..1536";
    if (gdb_port > 65535) return "gdb_port: must be a TCP port within 1..65535 (0: none)";
    if (gdb_port && model != "iss")
      return "gdb_port: needs cpu.model=iss (the native firmware runs in the simulator's own process: debug it with "
             "the host's gdb)";
    return "";
  }
};

}  // namespace ufs
