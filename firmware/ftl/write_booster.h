// WriteBooster (UFS 3.1, JESD220E §6.x "WriteBooster"): an SLC write buffer. Host writes
// go to blocks programmed as SLC (FlashOp::slc: faster tPROG, a third of the pages on a
// TLC die) while the buffer has room, else straight to TLC; in idle time (fWBBufferFlushEn)
// or once the link would be in Hibern8 (fWBBufferFlushDuringHibernate) the firmware
// flushes: it moves the valid data of SLC blocks into TLC blocks (through its GC
// machinery) and erases them. The buffer is a fixed set of blocks per die that the
// firmware always operates as SLC, so a power-loss scan knows each block's mode.
//   dedicated: the buffer's blocks are taken off the exported capacity (Samsung/Kioxia
//              "dedicated" buffers: user capacity preserved at the cost of raw space);
//   shared:    the exported capacity stays; the buffer eats into the spare area (more GC).
// This class holds the parameters, the QUERY flags/attributes, the buffer's wear (its life
// time estimate; past its end host writes bypass the buffer) and the statistics;
// DeviceFirmware routes units, gc/write_booster_flush flushes sealed blocks.
#pragma once
#include <cstdint>
#include <string>
#include "hal/flash_types.h"
#include "protocol/ufs_protocol.h"
#include "query/query_server.h"
#include "stats_visitor.h"

namespace ufs {

struct WriteBoosterParams {
  bool enabled = false;                 // device supports WriteBooster; fWriteBoosterEn set at power-up
  std::string buffer_type = "dedicated";  // dedicated | shared
  uint32_t buffer_mib = 4096;           // SLC buffer capacity (user data), spread over all dies
  bool flush_during_idle = true;        // fWBBufferFlushEn at power-up: flush after idle_flush_us of no commands
  bool flush_during_hibernate = true;   // fWBBufferFlushDuringHibernate at power-up (Linux sets it)
  uint32_t idle_flush_us = 5000;        // idle time before an idle flush starts
  // When the link enters Hibern8 after the last command: not a WriteBooster key, the platform
  // sets it from link.hibernate_idle_us (the host's auto-hibernate; 0 = the link never hibernates).
  uint32_t hibernate_idle_us = 0;
  // Erase cycles an SLC-mode block lasts (bWBBufferLifeTimeEst). 30000: the order industrial
  // pSLC (3D TLC operated as SLC) parts are rated at; not published for this device.
  uint32_t slc_endurance = 30000;

  template <class B>
  void bind(B& b) {
    b("enabled", enabled, "", "WriteBooster (UFS 3.1): SLC write buffer, fWriteBoosterEn set at power-up");
    b("buffer_type", buffer_type, "", "dedicated (off the exported capacity) | shared (out of the spare area)");
    b("buffer_mib", buffer_mib, "MiB", "SLC buffer capacity for user data, spread evenly over the dies");
    b("flush_during_idle", flush_during_idle, "", "fWBBufferFlushEn at power-up: flush once idle for idle_flush_us");
    b("flush_during_hibernate", flush_during_hibernate, "",
      "fWBBufferFlushDuringHibernate at power-up: flush while the link is in Hibern8 (after link.hibernate_idle_us)");
    b("idle_flush_us", idle_flush_us, "us", "idle time before a flush with fWBBufferFlushEn");
    b("slc_endurance", slc_endurance, "cycles",
      "erase cycles of an SLC-mode block: bWBBufferLifeTimeEst; once the most worn buffer block reaches it, writes bypass the buffer");
  }
  std::string validate() const {
    if (buffer_type != "dedicated" && buffer_type != "shared")
      return "buffer_type: must be dedicated or shared, not '" + buffer_type + "'";
    if (enabled && buffer_mib == 0) return "buffer_mib: must be above 0 when enabled";
    if (slc_endurance == 0) return "slc_endurance: must be above 0";
    return "";
  }
  // SLC blocks per die for the buffer (0 when off); shape from the geometry.
  uint32_t slc_blocks_per_die(const FlashGeometry& g) const;
  // Sectors of native (TLC) capacity the buffer's blocks take off the exported capacity.
  uint64_t reserved_sectors(const FlashGeometry& g) const {
    return buffer_type == "dedicated" ? uint64_t(slc_blocks_per_die(g)) * g.dies() * g.sectors_per_block() : 0;
  }
  std::string validate_for(const FlashGeometry& g, uint32_t unit_pages) const;
};

struct WriteBoosterStats {
  uint64_t slc_write_sectors = 0;   // host sectors programmed into the SLC buffer
  uint64_t tlc_write_sectors = 0;   // host sectors programmed straight to TLC while WB was on
  uint64_t flushed_sectors = 0;     // valid sectors moved from SLC to TLC by flushes
  uint64_t flushed_blocks = 0;      // SLC blocks flushed and erased
  uint64_t flushes_started = 0;     // idle periods in which a flush ran
  uint64_t peak_used_sectors = 0;   // fullest the buffer got
  uint64_t slc_erases = 0;          // erases of buffer blocks (each spends one of slc_endurance cycles)
};

class WriteBooster : public QueryHandler {
 public:
  WriteBooster(const WriteBoosterParams& params, const FlashGeometry& geometry);

  const WriteBoosterParams& params() const { return params_; }
  uint32_t slc_blocks_per_die() const { return slc_blocks_per_die_; }
  uint32_t slc_blocks_total() const { return slc_blocks_per_die_ * dies_; }

  // Host writes go to the buffer (fWriteBoosterEn and room on the die are the caller's) until
  // its life is used up: JESD220E's bWBBufferLifeTimeEst 0Bh, "write commands are processed
  // as if WriteBooster feature was disabled".
  bool writes_to_buffer() const { return flag_wb_en_ && !life_exceeded(); }
  bool life_exceeded() const { return max_erase_count_ >= params_.slc_endurance; }
  // bWBBufferLifeTimeEst: 01h = 0-10% of the buffer's erase cycles used ... 0Ah = 90-100%,
  // 0Bh = exceeded; from the most worn buffer block (the one that fails first).
  uint32_t life_time_est() const;
  // Idle time after which a flush may run; 0 when no flush is enabled.
  uint64_t flush_idle_ps() const;
  void set_flushing(bool on) { flushing_ = on; }

  // Buffer fill: sectors of SLC pages written since their block's erase (placed units).
  void add_used(int64_t sectors) {
    used_sectors_ = uint64_t(int64_t(used_sectors_) + sectors);
    if (used_sectors_ > stats_.peak_used_sectors) stats_.peak_used_sectors = used_sectors_;
  }
  void reset_used() { used_sectors_ = 0; }
  uint64_t capacity_sectors() const { return capacity_sectors_; }
  uint64_t used_sectors() const { return used_sectors_; }
  // A buffer block was erased; erase_count is its count after this erase.
  void count_erase(uint32_t erase_count) {
    ++stats_.slc_erases;
    if (erase_count > max_erase_count_) max_erase_count_ = erase_count;
  }
  uint32_t max_erase_count() const { return max_erase_count_; }

  // QUERY: its flags (fWriteBoosterEn, fWBBufferFlushEn, fWBBufferFlushDuringHibernate) and
  // attributes (flush status, available size, life time estimate, current size).
  void register_queries(QueryServer& server);
  QueryResponse query(const QueryRequest& q) override;

  WriteBoosterStats& stats() { return stats_; }
  const WriteBoosterStats& stats() const { return stats_; }
  void visit_stats(StatsVisitor& v) const;

 private:
  WriteBoosterParams params_;
  uint32_t dies_;
  uint32_t slc_blocks_per_die_;
  uint64_t capacity_sectors_;
  uint64_t used_sectors_ = 0;
  uint32_t max_erase_count_ = 0;
  bool flag_wb_en_;
  bool flag_flush_en_;
  bool flag_flush_hibernate_;
  bool flushing_ = false;
  WriteBoosterStats stats_;
};

}  // namespace ufs
