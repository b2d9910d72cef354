// The firmware's RAM as the controller holds it (issue 20): a DRAM-less controller has a
// few MiB of SRAM, so the firmware's tables are sized for the whole device at start (as a
// firmware in SRAM allocates them statically) and must fit it. Each part says what its
// tables take; the platform checks the sum against the preset's SRAM
// (memory.firmware_sram_kib) and reports it in stats.json.
//
// The map's write-back buffers are tables too: a page evicted with a write-back pending keeps
// its frame until the program lands (ftl/map_frames.h: the frames beyond the cache's, at most at
// once), loads read into buffers of their own, and each map writer unit holds its pages' entries
// from program to completion (map/map_writer.h).
// Kept apart: the map cache's frames (the L2P SRAM, memory.l2p_sram_kib: its pages fit by
// construction), a whole map in the host's heap (ftl/l2p_runs.h: the resident map with
// firmware.map_cache false, or firmware.map_verify's shadow; none otherwise: the map pages on NAND
// hold the entries, issue 20) and power-loss recovery's tables (only after a power loss, freed
// when it ends: per block and per map page, the replay table of at most the L2P SRAM's size;
// ftl/recovery.h).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ufs {

struct FirmwareRam {
  struct Table {
    const char* name;  // "block table", "validity bitmaps", ...
    uint64_t bytes;
  };
  std::vector<Table> tables;      // the bounded tables: what memory.firmware_sram_kib must hold
  uint64_t map_cache_bytes = 0;   // the SRAM map cache's frames (0: firmware.map_cache false)
  uint64_t map_shadow_bytes = 0;  // a whole map in the host's heap (no map cache, or map_verify's shadow)
  uint64_t recovery_bytes = 0;    // power-loss recovery's tables (transient, after a power loss)

  uint64_t tables_bytes() const;
  // "block table 1,368 KiB, validity bitmaps 16,416 KiB, ..." (each table, biggest first).
  std::string describe() const;
};

// Bytes a vector's elements take (its capacity: what the allocator gave it).
template <class V>
uint64_t vector_bytes(const V& v) {
  return uint64_t(v.capacity()) * sizeof(typename V::value_type);
}

}  // namespace ufs
