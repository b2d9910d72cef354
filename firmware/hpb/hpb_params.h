// Device-side HPB (Host Performance Booster, JESD220-3 HPB 1.0 / JESD220 HPB 2.0)
// parameters: what the device reports in its descriptors and attributes, and the
// firmware costs of its HPB work. Bound to the "hpb" section of the config tree.
#pragma once
#include <cstdint>
#include <string>

namespace ufs {

struct HpbDeviceParams {
  bool enabled = false;                 // bUFSFeaturesSupport bit 7 and fHPBEn at power-up
  uint32_t version = 0x200;             // wHPBVersion: 0x100 (HPB 1.0) or 0x200 (HPB 2.0)
  std::string control_mode = "device";  // bHPBControl: device (0x01) or host (0x00)
  uint32_t region_size_exp = 15;        // bHPBRegionSize: region = 512 B x 2^n of LBA space (15 = 16 MiB)
  uint32_t subregion_size_exp = 15;     // bHPBSubRegionSize: sub-region = 512 B x 2^n (<= region)
  uint32_t max_active_regions = 8192;   // wDeviceMaxActiveHPBRegions / wLUMaxActiveHPBRegions
  uint32_t pinned_start_region = 0;     // wHPBPinnedRegionStartIdx
  uint32_t pinned_regions = 0;          // wNumHPBPinnedRegions (always active)
  uint32_t max_single_cmd_blocks = 128; // bMAX_DATA_SIZE_FOR_HPB_SINGLE_CMD (4 KiB blocks; HPB 1.0 uses 1)
  uint32_t dcm_activate_misses = 4;     // device control mode: map misses in a sub-region before recommending it
  // Derived from the firmware on the core like firmware_cycles.h's (firmware-cost study;
  // instructions per call x cpu.cpi 0.9 + 12 cycles per HAL call; in brackets the values
  // they replace). Signing goes to the crypto engine in batches (Hal::submit_sign_batch).
  uint32_t cycles_hpb_read = 490;       // 521: HpbEntryServer::start / HpbReadVerify::start (entry decode, verify job) (480)
  uint32_t cycles_sign_entry = 90;      // 102: HpbEntryServer::sign_chunk, per entry: the map walk's share, contiguity, its item (380)
  uint32_t cycles_sign_batch = 860;     // 942: per batch: sign_chunk's set-up and hand-over (79 + a HAL call; first use of a
                                        //      tag's buffers ~12,000), HpbFreshness::flush (~1,000) (new)
  uint32_t cycles_update_entry = 580;   // 639: HpbFreshness::track_change, update_signed, drop_changes, per entry (380 to sign)
  uint32_t cycles_dirty_mark = 710;     // 787: HpbRegions::mark_dirty with what follows it to the next charge (30, an estimate)
  uint32_t response_entries = 0;        // HotStorage'17 prototype: updated entries per RESPONSE (0 = JEDEC HPB: none)
  uint32_t response_delta_entries = 4096;  // with response_entries: changed entries the device tracks in SRAM (HpbChangeTable)

  template <class B>
  void bind(B& b) {
    b("enabled", enabled, "", "device supports HPB and has it enabled (bUFSFeaturesSupport bit 7, fHPBEn)");
    b("version", version, "", "wHPBVersion: 256 (0x100, HPB 1.0: one block per HPB READ) or 512 (0x200, HPB 2.0)");
    b("control_mode", control_mode, "", "bHPBControl: device (device recommends regions) or host (host control mode)");
    b("region_size_exp", region_size_exp, "", "bHPBRegionSize n: an HPB region covers 512 B x 2^n of LBA space");
    b("subregion_size_exp", subregion_size_exp, "", "bHPBSubRegionSize n: a sub-region covers 512 B x 2^n (n <= region n)");
    b("max_active_regions", max_active_regions, "regions", "wLUMaxActiveHPBRegions: regions the host may hold active");
    b("pinned_start_region", pinned_start_region, "region", "wHPBPinnedRegionStartIdx: first pinned region");
    b("pinned_regions", pinned_regions, "regions", "wNumHPBPinnedRegions: regions always active");
    b("max_single_cmd_blocks", max_single_cmd_blocks, "blocks",
      "bMAX_DATA_SIZE_FOR_HPB_SINGLE_CMD: longest HPB READ in 4 KiB blocks (HPB 2.0; HPB 1.0 takes 1)");
    b("dcm_activate_misses", dcm_activate_misses, "misses",
      "device control mode: L2P SRAM misses in a sub-region before the device recommends activating it");
    b("cycles_hpb_read", cycles_hpb_read, "cycles", "firmware work per HPB READ besides the normal read path");
    b("cycles_sign_entry", cycles_sign_entry, "cycles",
      "READ BUFFER: firmware work per entry signed (its map read, its sign-batch item) besides its batch's");
    b("cycles_sign_batch", cycles_sign_batch, "cycles",
      "firmware work per sign batch handed to the crypto engine (a READ BUFFER chunk of up to 512 entries, a "
      "handler's updated entries)");
    b("cycles_dirty_mark", cycles_dirty_mark, "cycles", "mark a sub-region dirty on a map change");
    b("cycles_update_entry", cycles_update_entry, "cycles",
      "response_entries: firmware work per map change tracked (its item to sign when programmed), per signed entry "
      "checked and queued for a response, per tracked change dropped; besides its batch's");
    b("response_entries", response_entries, "entries",
      "HotStorage'17 prototype (not JEDEC): signed updated entries of host-written blocks sent in RESPONSE UPIUs, "
      "up to this many per response; the sub-region stays clean (0 = off)");
    b("response_delta_entries", response_delta_entries, "entries",
      "with response_entries: changed entries the device tracks (a fixed SRAM table: 12 B an entry, 8-16 B of index "
      "an entry, 4 B a sub-region); when full, a change not tracked yet marks its sub-region dirty");
  }

  bool host_control() const { return control_mode == "host"; }
  uint32_t hpb_1_0() const { return version == 0x100; }
  uint64_t region_blocks() const { return (512ull << region_size_exp) / 4096; }
  uint64_t subregion_blocks() const { return (512ull << subregion_size_exp) / 4096; }
  uint32_t max_read_blocks() const { return hpb_1_0() ? 1 : max_single_cmd_blocks; }

  std::string validate() const {
    if (version != 0x100 && version != 0x200) return "version: must be 256 (HPB 1.0) or 512 (HPB 2.0)";
    if (control_mode != "device" && control_mode != "host") return "control_mode: must be device or host";
    if (subregion_size_exp < 13 || subregion_size_exp > 25)
      return "subregion_size_exp: must be within 13..25 (4 KiB..16 GiB; a sub-region holds whole 4 KiB blocks)";
    if (region_size_exp < subregion_size_exp || region_size_exp > 31)
      return "region_size_exp: must be within subregion_size_exp..31";
    if (max_active_regions == 0 || max_active_regions > 65535) return "max_active_regions: must be within 1..65535";
    if (max_single_cmd_blocks == 0 || max_single_cmd_blocks > 255) return "max_single_cmd_blocks: must be within 1..255";
    if (dcm_activate_misses == 0 || dcm_activate_misses > 1000000000u)
      return "dcm_activate_misses: must be within 1..1000000000";
    if (pinned_start_region > 65535) return "pinned_start_region: must be within 0..65535 (a 16-bit index)";
    if (pinned_regions > 65535) return "pinned_regions: must be within 0..65535 (16-bit count)";
    if (response_entries > 4) return "response_entries: must be within 0..4 (entries per RESPONSE UPIU)";
    if (response_entries && response_delta_entries == 0) return "response_delta_entries: must be at least 1";
    // 20-28 bytes of device SRAM each (hpb/hpb_change_table.h): 1M entries are 28 MiB, beyond any controller.
    if (response_delta_entries > (1u << 20)) return "response_delta_entries: must be at most 1048576";
    return "";
  }
};

}  // namespace ufs
