// Firmware parameters: buffer sizes, FTL policy and the CPU cycles each firmware
// step costs. Bound to the "firmware" section of the config tree.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include "hal/flash_types.h"
#include "ftl/allocation_policy.h"
#include "ftl/map_cache.h"
#include "ftl/write_booster.h"
#include "firmware_cycles.h"
#include "gc/gc_params.h"
#include "gc/victim_policy.h"
#include "hpb/hpb_params.h"

namespace ufs {

struct FirmwareParams {
  // Capacity and buffers
  double over_provisioning = 0.07;      // fraction of raw capacity hidden from the host
  uint32_t data_buffer_kib = 4096;      // data buffer SRAM size: hardware, set by the platform (memory.data_buffer_kib)
  uint32_t write_cache_kib = 2048;      // part of the data buffer used as write cache
  // No RAM write buffer (SSDsim's page FTL, DiskSim's SSD): every write answers once its data
  // is programmed, as a FUA write does; the cache only stages data on its way to NAND.
  bool write_through = false;
  uint32_t read_segment_blocks = 32;    // largest piece of a read staged in the buffer at once
  uint32_t max_transfer_blocks = 256;   // longest READ/WRITE accepted (bMaxTransferLength-like)
  uint32_t program_pages = 3;           // pages programmed together on one die (TLC one-shot = 3)
  uint32_t l2p_sram_kib = 1024;         // L2P SRAM size: hardware, set by the platform (memory.l2p_sram_kib)

  // Mapping unit and placement (Agrawal et al., ATC'08, section 3.2)
  uint32_t logical_page_kib = 4;        // mapping unit: a smaller write reads the rest and rewrites it whole
  std::string stripe_order = "die-first";  // ftl/allocation_policy.h: channel-first | die-first | plane-first
  std::string lba_mapping = "dynamic";  // dynamic: next pool with room | static: logical page number picks the pool

  // L2P map: demand-loaded map pages (one NAND page of 4-byte entries each)
  bool map_cache = true;                // false: the whole map is resident in SRAM (no map misses)
  std::string map_cache_policy = "lru";  // map page replacement (ftl/map_cache.h: lru | fifo | clock)
  bool map_verify = false;              // a whole-map shadow checks lookups and map pages loaded (debug)
  uint32_t map_read_priority = 1;       // die-queue priority of map page loads (data reads: 0)

  GcParams gc;                             // garbage collection and wear levelling (gc/gc_params.h)
  FirmwareCycles cycles;                   // CPU cycles per firmware step (firmware_cycles.h)
  HpbDeviceParams hpb;                     // bound on its own as the "hpb" section
  WriteBoosterParams writebooster;         // bound on its own as the "writebooster" section

  template <class B>
  void bind(B& b) {
    b("over_provisioning", over_provisioning, "fraction", "raw capacity hidden from the host (spare area)");
    b("write_cache_kib", write_cache_kib, "KiB", "part of the data buffer used as write cache");
    b("write_through", write_through, "",
      "no RAM write buffer: every write completes once its data is programmed (as FUA); the cache only stages it");
    b("read_segment_blocks", read_segment_blocks, "blocks", "largest piece of one read staged in the buffer");
    b("max_transfer_blocks", max_transfer_blocks, "blocks", "longest READ/WRITE accepted; longer ones get ILLEGAL REQUEST");
    b("program_pages", program_pages, "pages", "pages programmed together on one die (TLC one-shot = 3)");
    b("logical_page_kib", logical_page_kib, "KiB",
      "mapping unit (4 KiB up to a block): kept whole on one die; a smaller write is read-modify-write");
    b("stripe_order", stripe_order, "", "order of pools write units go to: " + stripe_order_names());
    b("lba_mapping", lba_mapping, "", "dynamic: next pool with room | static: logical page number modulo pools");
    b("map_cache", map_cache, "", "demand-load L2P map pages into the L2P SRAM; false = whole map in SRAM");
    b("map_cache_policy", map_cache_policy, "", "map page replacement in the L2P SRAM: " + map_cache_policy_names());
    b("map_verify", map_verify, "",
      "debug: keep a whole-map shadow and check every map lookup and the L2P entries of every map page loaded "
      "from NAND against it");
    b("map_read_priority", map_read_priority, "", "die-queue priority of map page loads (host data reads have 0)");
    // The parts' records: the same keys of this section, in the same order.
    gc.bind(b);
    cycles.bind(b);
  }

  std::string validate() const {
    if (over_provisioning < 0.01 || over_provisioning > 0.9) return "over_provisioning: must be within 0.01..0.9";
    if (write_cache_kib == 0 || write_cache_kib >= data_buffer_kib)
      return "write_cache_kib: must be above 0 and below memory.data_buffer_kib (" + std::to_string(data_buffer_kib) + ")";
    if (read_segment_blocks == 0 || read_segment_blocks > 256) return "read_segment_blocks: must be within 1..256";
    // A read stages segments of up to read_segment_blocks in the rest of the buffer: a smaller
    // read area could never take one and every long read would wait for ever.
    if ((data_buffer_kib - write_cache_kib) / 4 < read_segment_blocks)
      return "write_cache_kib: must leave read_segment_blocks (" + std::to_string(read_segment_blocks) +
             ") 4 KiB slots of data_buffer_kib for reads";
    // READ(16)/WRITE(16) carry a 32-bit length, but a device's bMaxTransferLength-like limit is
    // a few MiB; 65536 blocks (256 MiB) is far beyond any.
    if (max_transfer_blocks == 0 || max_transfer_blocks > 65536) return "max_transfer_blocks: must be within 1..65536";
    if (map_read_priority > 255) return "map_read_priority: must be within 0..255";
    if (program_pages == 0 || program_pages > 16) return "program_pages: must be within 1..16";
    if (gc.start_free_blocks < 2) return "gc_start_free_blocks: must be at least 2 (GC needs a block to write into)";
    // A die has at most 16 planes x 65536 blocks (nand's bounds); validate_for checks the real die.
    for (const auto& [name, n] : {std::pair<const char*, uint32_t>{"gc_start_free_blocks", gc.start_free_blocks},
                                  {"gc_stop_free_blocks", gc.stop_free_blocks}, {"bg_gc_free_blocks", gc.bg_free_blocks}})
      if (n > (16u << 16)) return std::string(name) + ": must be at most 1048576 (the blocks of the largest die)";
    if (gc.stop_free_blocks < gc.start_free_blocks) return "gc_stop_free_blocks: must be at least gc_start_free_blocks";
    if (!is_victim_policy(gc.victim)) return "gc_victim: must be one of " + victim_policy_names() + ", not '" + gc.victim + "'";
    if (gc.victim_choices > (16u << 16)) return "gc_victim_choices: must be at most 1048576 (the blocks of the largest die)";
    if (!is_map_cache_policy(map_cache_policy))
      return "map_cache_policy: must be one of " + map_cache_policy_names() + ", not '" + map_cache_policy + "'";
    if (gc.bg_idle_us && gc.bg_free_blocks <= gc.start_free_blocks)
      return "bg_gc_free_blocks: must be above gc_start_free_blocks";
    if (gc.bg_map_writeback && (!gc.bg_idle_us || !map_cache))
      return "bg_map_writeback: needs bg_gc_idle_us above 0 and map_cache on";
    if (gc.wear_levelling != "off" && gc.wear_levelling != "rate-limit" && gc.wear_levelling != "migration")
      return "wear_levelling: must be off, rate-limit or migration";
    if (gc.wear_levelling != "off" && gc.block_lifetime == 0) return "wear_levelling: needs block_lifetime above 0";
    if (gc.wl_retirement_age <= 0 || gc.wl_retirement_age > 1) return "wl_retirement_age: must be within 0..1";
    if (gc.wl_age_variance < 0 || gc.wl_age_variance >= 1) return "wl_age_variance: must be within 0..1 (excluded)";
    if (logical_page_kib < 4 || logical_page_kib % 4 != 0) return "logical_page_kib: must be a positive multiple of 4";
    if (!is_stripe_order(stripe_order))
      return "stripe_order: must be one of " + stripe_order_names() + ", not '" + stripe_order + "'";
    if (lba_mapping != "dynamic" && lba_mapping != "static")
      return "lba_mapping: must be dynamic or static, not '" + lba_mapping + "'";
    return "";
  }

  // Sectors of one write unit: a logical page, or a program unit when that is larger.
  uint32_t write_unit_sectors(const FlashGeometry& g) const {
    const uint32_t program = program_pages * g.sectors_per_page(), logical = logical_page_kib / 4;
    return logical > program ? logical : program;
  }
  // The checks that need the flash organisation.
  std::string validate_for(const FlashGeometry& g) const {
    const uint32_t program = program_pages * g.sectors_per_page(), logical = logical_page_kib / 4;
    const uint32_t unit = write_unit_sectors(g);
    if (g.pages_per_block % program_pages != 0)
      return "program_pages: " + std::to_string(program_pages) + " pages do not divide the block of " +
             std::to_string(g.pages_per_block) + " pages (program units fill blocks exactly)";
    if (logical > g.sectors_per_block() || g.sectors_per_block() % unit != 0)
      return "logical_page_kib: must divide the block (" + std::to_string(g.sectors_per_block() * 4) + " KiB)";
    if (logical % program != 0 && program % logical != 0)
      return "logical_page_kib: must be a multiple or a divisor of the program unit (" + std::to_string(program * 4) +
             " KiB)";
    if (gc.copy_back && unit != g.sectors_per_page())
      return "gc_copy_back: needs write units of one page (program_pages = 1, logical_page_kib <= " +
             std::to_string(g.sectors_per_page() * 4) + ")";
    if (write_cache_kib / 4 / unit < 4)
      return "write_cache_kib: must hold at least 4 write units of " + std::to_string(unit * 4) + " KiB";
    if (gc.units_per_die > write_cache_kib / 4 / unit)
      return "gc_units_per_die: " + std::to_string(gc.units_per_die) + " is more than the write cache's " +
             std::to_string(write_cache_kib / 4 / unit) + " units";
    // GC cleans a die until it has this many free blocks: more than the die's spare blocks
    // (blocks beyond what the exported capacity needs) and it can never stop.
    const uint64_t die_blocks = uint64_t(g.planes_per_die) * g.blocks_per_plane;
    const uint64_t spare = uint64_t(double(die_blocks) * over_provisioning);
    for (const auto& [name, n] : {std::pair<const char*, uint32_t>{"gc_start_free_blocks", gc.start_free_blocks},
                                  {"gc_stop_free_blocks", gc.stop_free_blocks}})
      if (n > spare)
        return std::string(name) + ": " + std::to_string(n) + " is more than a die's " + std::to_string(spare) +
               " spare blocks (" + std::to_string(die_blocks) + " blocks x over_provisioning): GC could never reach it";
    // Idle-time GC stops when a command arrives or no victim frees space: a goal above the
    // spare is only optimistic, one above the die's blocks is nonsense.
    if (gc.bg_free_blocks > die_blocks)
      return "bg_gc_free_blocks: " + std::to_string(gc.bg_free_blocks) + " is more than a die's " +
             std::to_string(die_blocks) + " blocks";
    if (g.hybrid()) return validate_hybrid(g);
    return "";
  }
  // Hybrid page size (nand.hybrid_large_page_bytes): the FTL splits writes into large- and
  // small-page units of one page each; what it does not combine with that is refused here.
  std::string validate_hybrid(const FlashGeometry& g) const {
    const std::string why = " with hybrid page size (nand.hybrid_large_page_bytes)";
    if (logical_page_kib * 1024 != g.page_bytes)
      return "logical_page_kib: must equal the small page (" + std::to_string(g.page_bytes / 1024) + " KiB)" + why;
    if (program_pages != 1) return "program_pages: must be 1" + why;
    if (lba_mapping != "dynamic") return "lba_mapping: must be dynamic" + why;
    if (stripe_order == "plane-first") return "stripe_order: plane-first is not supported" + why;
    if (gc.copy_back) return "gc_copy_back: not supported" + why;
    if (gc.wear_levelling == "migration") return "wear_levelling: migration is not supported" + why;
    if (write_cache_kib / 4 < 4 * g.large_sectors_per_page())
      return "write_cache_kib: must hold at least 4 large pages" + why;
    return "";
  }
};

}  // namespace ufs
