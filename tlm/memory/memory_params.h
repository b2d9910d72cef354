#pragma once
#include <cstdint>
#include <string>
#include "memory/sram_params.h"

namespace ufs {

// Sizes of the controller's SRAMs; they share one SRAM timing.
struct MemoryParams {
  uint32_t data_buffer_kib = 4096;  // data buffer (read staging + write cache)
  uint32_t l2p_sram_kib = 1024;     // SRAM for L2P map entries
  // SRAM for the firmware's own tables (block table, validity bitmaps, map directory, write
  // cache and HPB records): the run stops at start when they do not fit (issue 20).
  uint32_t firmware_sram_kib = 32768;
  SramParams sram;

  template <class B>
  void bind(B& b) {
    b("data_buffer_kib", data_buffer_kib, "KiB", "data buffer SRAM: read staging and write cache");
    b("l2p_sram_kib", l2p_sram_kib, "KiB", "SRAM holding L2P map entries");
    b("firmware_sram_kib", firmware_sram_kib, "KiB",
      "SRAM for the firmware's tables (block table, validity bitmaps, map directory, write cache and HPB "
      "records); the run fails at start when they do not fit");
    b("sram_latency_cycles", sram.latency_cycles, "cycles", "SRAM access latency per transaction");
    b("sram_clock_mhz", sram.clock_mhz, "MHz", "SRAM clock");
  }
  std::string validate() const {
    if (data_buffer_kib < 64) return "data_buffer_kib: must be at least 64";
    if (l2p_sram_kib == 0) return "l2p_sram_kib: must be at least 1";
    if (firmware_sram_kib == 0) return "firmware_sram_kib: must be at least 1";
    // The SRAM's own keys are bound here as sram_*: name them so.
    if (const std::string problem = sram.validate(); !problem.empty()) return "sram_" + problem;
    return "";
  }
};

}  // namespace ufs
