// The CPU cycles each firmware step costs: charged through the HAL by the part that runs
// the step. A part of FirmwareParams (FirmwareParams::cycles), bound with the rest of the
// "firmware" section under the same keys (firmware.cycles_command_decode, ...).
#pragma once
#include <cstdint>

namespace ufs {

struct FirmwareCycles {
  // Derived from the firmware executed on the controller's core (issue 20: `ufs-sim
  // experiment firmware-cost`, cpu.model=iss, with the batched HPB signing and its node
  // pool, on 52cc7ef): each constant is the instructions its charge_cycles call sites ran up
  // to the next charge, per call, x cpu.cpi 0.9 (a Cortex-R5 on Dhrystone,
  // tlm/cpu/cpu_params.h) + 12 wait cycles per HAL call, rounded to 10; memmove's byte loop
  // over the L2P map's compact runs (a host-side memory saving, not a controller's
  // structure) left out. Instructions per call (where they ran); in brackets the table
  // derived at 3a8e76d's firmware it replaces. ufs31 calibrates the per-command ones on top
  // (its _source: the gap to a shipping firmware).
  uint32_t command_decode = 870;    // 939: fw_entry, DeviceFirmware::on_command, SCSI dispatch (870)
  uint32_t map_lookup = 440;        // 477: ReadEngine::look_up, per block (with the read's set-up) (430)
  uint32_t map_update = 570;        // 633: WriteCache::host_data_arrived / programmed, per block (540)
  uint32_t flash_submit = 230;      // 227: FlashPort::submit (the op record, the HAL call) (220)
  uint32_t flash_complete = 150;    // 162: DeviceFirmware::on_flash_complete and its dispatch (170)
  uint32_t transfer_setup = 140;    // 133: ReadEngine::send_ready (DATA IN); WriteEngine's RTT with inserts (140)
  uint32_t transfer_done = 160;     // 162: DeviceFirmware::on_data_in_done / on_data_out_done (220)
  uint32_t response = 1060;         // 1,138: CommandTable::respond (latency bookkeeping, RESPONSE UPIU) (1,060)
  uint32_t cache_insert = 100;      // 109: per block, WriteEngine::request_data's staging beyond its set-up (70)
  uint32_t write_command = 550;     // 616: WriteEngine::start_write (admission, overlap and order checks; GC pacing) (170)
  uint32_t gc_per_sector = 570;     // 629: VictimMover::moved, per valid sector (test-small GC run) (370)
  uint32_t map_miss = 260;          // 273: MapStore::wait_for_lookups / on_flash_done (victim, load, install) (260)

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
