// The CPU cycles each firmware step costs: charged through the HAL by the part that runs
// the step. A part of FirmwareParams (FirmwareParams::cycles), bound with the rest of the
// "firmware" section under the same keys (firmware.cycles_command_decode, ...).
#pragma once
#include <cstdint>

namespace ufs {

struct FirmwareCycles {
  // See the preset for where the numbers come from.
  uint32_t command_decode = 1200;   // UPIU fetch + CDB decode + dispatch
  uint32_t map_lookup = 250;        // per logical block looked up
  uint32_t map_update = 400;        // per logical block remapped
  uint32_t flash_submit = 600;      // build and queue one flash operation
  uint32_t flash_complete = 700;    // handle one flash completion
  uint32_t transfer_setup = 500;    // program one host DMA (RTT or DATA IN)
  uint32_t transfer_done = 400;     // handle a host DMA completion
  uint32_t response = 600;          // build and send the RESPONSE UPIU
  uint32_t cache_insert = 300;      // per logical block placed in the write cache
  uint32_t write_command = 0;       // per write command: cache admission, overlap and ordering checks
  uint32_t gc_per_sector = 150;     // GC bookkeeping per valid sector moved
  uint32_t map_miss = 800;          // map cache miss: choose a victim, issue the load, install

  template <class B>
  void bind(B& b) {
    b("cycles_command_decode", command_decode, "cycles", "UPIU fetch, CDB decode and dispatch");
    b("cycles_map_lookup", map_lookup, "cycles", "L2P lookup per logical block");
    b("cycles_map_update", map_update, "cycles", "L2P update per logical block");
    b("cycles_flash_submit", flash_submit, "cycles", "build and queue one flash operation");
    b("cycles_flash_complete", flash_complete, "cycles", "handle one flash completion");
    b("cycles_transfer_setup", transfer_setup, "cycles", "program one host DMA (READY TO TRANSFER or DATA IN)");
    b("cycles_transfer_done", transfer_done, "cycles", "handle one host DMA completion");
    b("cycles_response", response, "cycles", "build and send a RESPONSE UPIU");
    b("cycles_cache_insert", cache_insert, "cycles", "place one logical block in the write cache");
    b("cycles_write_command", write_command, "cycles", "per write command: cache admission, overlap and ordering checks");
    b("cycles_gc_per_sector", gc_per_sector, "cycles", "GC bookkeeping per valid sector moved");
    b("cycles_map_miss", map_miss, "cycles", "map cache miss: victim choice, load issue and install");
  }
};

}  // namespace ufs
