#include "ftl/write_booster.h"

namespace ufs {

uint32_t WriteBoosterParams::slc_blocks_per_die(const FlashGeometry& g) const {
  if (!enabled) return 0;
  const uint64_t slc_block_bytes = uint64_t(g.slc_pages_per_block()) * g.page_bytes;
  const uint64_t per_die = (uint64_t(buffer_mib) << 20) / g.dies();
  return uint32_t((per_die + slc_block_bytes - 1) / slc_block_bytes);
}

std::string WriteBoosterParams::validate_for(const FlashGeometry& g, uint32_t unit_pages) const {
  if (!enabled) return "";
  if (g.hybrid()) return "enabled: not supported with hybrid page size (nand.hybrid_large_page_bytes)";
  if (g.bits_per_cell < 2) return "enabled: WriteBooster needs an MLC/TLC die operated natively (nand.cell_type, nand.slc_mode)";
  if (g.slc_pages_per_block() % unit_pages != 0)
    return "enabled: the write unit (" + std::to_string(unit_pages) + " pages) must divide an SLC block (" +
           std::to_string(g.slc_pages_per_block()) + " pages)";
  const uint32_t per_die = slc_blocks_per_die(g);
  // Leave each die most of its blocks as TLC: GC needs its spare, the host its capacity.
  if (per_die * 4 > g.planes_per_die * g.blocks_per_plane)
    return "buffer_mib: " + std::to_string(buffer_mib) + " MiB needs " + std::to_string(per_die) +
           " SLC blocks per die, more than a quarter of the die's " +
           std::to_string(g.planes_per_die * g.blocks_per_plane) + " blocks";
  return "";
}

WriteBooster::WriteBooster(const WriteBoosterParams& params, const FlashGeometry& geometry)
    : params_(params),
      dies_(geometry.dies()),
      slc_blocks_per_die_(params.slc_blocks_per_die(geometry)),
      capacity_sectors_(uint64_t(slc_blocks_per_die_) * geometry.dies() * geometry.slc_pages_per_block() *
                        geometry.sectors_per_page()),
      flag_wb_en_(params.enabled),
      flag_flush_en_(params.flush_during_idle),
      flag_flush_hibernate_(params.flush_during_hibernate) {}

// The earliest idle time at which a flush may start: fWBBufferFlushEn's idle time, or the
// link's entry into Hibern8 with fWBBufferFlushDuringHibernate (never if the link stays up).
uint64_t WriteBooster::flush_idle_ps() const {
  const bool hibernate = flag_flush_hibernate_ && params_.hibernate_idle_us > 0;
  if (!flag_flush_en_ && !hibernate) return 0;
  uint64_t us = hibernate ? params_.hibernate_idle_us : params_.idle_flush_us;
  if (flag_flush_en_ && params_.idle_flush_us < us) us = params_.idle_flush_us;
  return (us ? us : 1) * 1000000ull;
}

uint32_t WriteBooster::life_time_est() const {
  const uint64_t used = uint64_t(max_erase_count_) * 10 / params_.slc_endurance;
  return uint32_t(used >= 10 ? 0x0B : used + 1);
}

void WriteBooster::visit_stats(StatsVisitor& v) const {
  const WriteBoosterStats& w = stats_;
  const double capacity = double(capacity_sectors_);
  v.text("writebooster.buffer_type", params_.buffer_type, "dedicated or shared buffer");
  v.count("writebooster.buffer_bytes", capacity_sectors_ * kSectorBytes, "B", "SLC buffer capacity for user data");
  v.count("writebooster.slc_blocks", slc_blocks_total(), "blocks", "blocks operated as SLC for the buffer");
  v.count("writebooster.slc_write_bytes", w.slc_write_sectors * kSectorBytes, "B", "host data programmed into the buffer");
  v.count("writebooster.tlc_write_bytes", w.tlc_write_sectors * kSectorBytes, "B", "host data programmed straight to TLC");
  v.count("writebooster.flushed_bytes", w.flushed_sectors * kSectorBytes, "B", "valid data flushes moved to TLC");
  v.count("writebooster.flushed_blocks", w.flushed_blocks, "blocks", "SLC blocks flushed and erased");
  v.count("writebooster.idle_flushes", w.flushes_started, "", "idle periods in which a flush ran");
  v.count("writebooster.slc_erases", w.slc_erases, "blocks", "erases of buffer blocks (flushed or retired)");
  // Endurance spent per GB written into the buffer, and what it means for the buffer's life:
  // the host data the buffer takes before its most worn block reaches slc_endurance, if
  // every block wears as the mean one does at this rate (the erases spread evenly: SLC free
  // blocks are taken oldest-erased first).
  const double slc_gb = double(w.slc_write_sectors) * kSectorBytes / 1e9;
  v.figure("writebooster.erases_per_gb", slc_gb > 0 ? double(w.slc_erases) / slc_gb : 0.0, "blocks/GB",
           "SLC erases per GB of host data written into the buffer");
  v.figure("writebooster.life_used", double(max_erase_count_) / params_.slc_endurance, "fraction",
           "most worn buffer block's erase count over slc_endurance");
  v.count("writebooster.life_time_est", life_time_est(), "", "bWBBufferLifeTimeEst: 1 = 0-10% used .. 10 = 90-100%, 11 = exceeded");
  v.figure("writebooster.life_tb_at_this_rate",
           w.slc_erases ? double(slc_blocks_total()) * params_.slc_endurance / double(w.slc_erases) * slc_gb / 1e3 : 0.0,
           "TB", "host data the buffer takes over its life at this run's erases per GB (0: no erase yet)");
  v.figure("writebooster.buffer_fill", capacity_sectors_ ? double(used_sectors_) / capacity : 0.0, "fraction",
           "buffer fill at the end");
  v.figure("writebooster.peak_buffer_fill", capacity_sectors_ ? double(w.peak_used_sectors) / capacity : 0.0,
           "fraction", "fullest the buffer got");
}

void WriteBooster::register_queries(QueryServer& server) {
  using namespace ufs_query;
  for (uint8_t idn : {kFlagWbEn, kFlagWbFlushEn, kFlagWbFlushDuringHibernate}) server.add_flag(idn, *this);
  for (uint8_t idn : {kAttrWbFlushStatus, kAttrWbAvailableSize, kAttrWbLifeTimeEst, kAttrWbCurrentSize})
    server.add_attribute(idn, *this);
}

QueryResponse WriteBooster::query(const QueryRequest& q) {
  using namespace ufs_query;
  QueryResponse r;
  if (q.opcode == kWriteAttribute) { r.status = kReadOnly; return r; }
  if (q.opcode == kReadAttribute) {
    switch (q.idn) {
      case kAttrWbFlushStatus: r.value = flushing_ ? kWbFlushInProgress : kWbFlushIdle; return r;
      case kAttrWbAvailableSize:  // 0x00..0x0A: available buffer in 10% steps
        r.value = capacity_sectors_ ? uint32_t((capacity_sectors_ - used_sectors_) * 10 / capacity_sectors_) : 0;
        return r;
      case kAttrWbLifeTimeEst: r.value = life_time_est(); return r;
      default:  // bWBBufferCurrentSize, in 4 KiB units (the allocation unit this model reports)
        r.value = uint32_t(capacity_sectors_);
        return r;
    }
  }
  bool& flag = q.idn == kFlagWbEn ? flag_wb_en_ : q.idn == kFlagWbFlushEn ? flag_flush_en_ : flag_flush_hibernate_;
  if (q.opcode == kSetFlag) flag = true;
  if (q.opcode == kClearFlag) flag = false;
  r.value = flag;
  return r;
}

}  // namespace ufs
