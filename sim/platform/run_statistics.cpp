#include "platform/run_statistics.h"
#include "platform/ufs_platform.h"
#include <algorithm>
#include <cmath>

namespace ufs {

namespace {
const char* const kOpNames[4] = {"read", "write", "flush", "unmap"};
double seconds(const sc_core::sc_time& t) { return t.to_seconds(); }
}  // namespace

RunStatistics::RunStatistics(bool check_data, uint64_t interval_ps)
    : scoreboard_(check_data ? std::make_unique<Scoreboard>() : nullptr), series_(interval_ps) {}

void RunStatistics::on_issue(const IoRecord& r) {
  if (scoreboard_) scoreboard_->on_issue(r);
  idle_arrivals_.on_issue(r.arrival_ps ? r.arrival_ps : r.issue_ps);
}

void RunStatistics::on_complete(const IoRecord& r) {
  if (scoreboard_) scoreboard_->on_complete(r);
  idle_arrivals_.on_complete(r.complete_ps);
  ++completed_;
  const size_t op = size_t(r.request.op);
  if (r.status != 0) { ++errors_; return; }
  // Latency as the application sees it: from arrival (open loop) or submission to completion.
  const uint64_t from = r.arrival_ps ? r.arrival_ps : r.issue_ps;
  const uint64_t latency = r.complete_ps > from ? r.complete_ps - from : 0;
  by_op_[op].record(latency);
  by_stream_[r.request.stream].record(latency);
  ++count_[op];
  const uint64_t bytes = uint64_t(r.request.blocks) * kSectorBytes;
  bytes_[op] += bytes;
  if (r.request.op == BlockOp::Read || r.request.op == BlockOp::Write)
    series_.record(r.request.op == BlockOp::Read ? TimeSeries::OpClass::Read : TimeSeries::OpClass::Write,
                   r.complete_ps - start_ps_, bytes, latency);
}

void RunStatistics::start_measurement(uint64_t now_ps) {
  for (auto& h : by_op_) h.reset();
  by_stream_.clear();
  series_ = TimeSeries(series_.interval_ps());
  for (int i = 0; i < 4; ++i) bytes_[i] = count_[i] = 0;
  errors_ = 0;
  completed_ = 0;
  idle_arrivals_.reset_counts();
  start_ps_ = now_ps;
}

nlohmann::json RunStatistics::to_json(UfsPlatform& p, uint64_t end_ps, double wall_seconds) const {
  using nlohmann::json;
  json j;
  const double elapsed = double(end_ps - start_ps_) * 1e-12;
  const double ps_to_us = 1e-6;
  uint64_t total = 0;
  for (int i = 0; i < 4; ++i) total += count_[i];
  j["simulated_seconds"] = elapsed;
  j["wall_seconds"] = wall_seconds;
  j["requests"] = total;
  j["errors"] = errors_;
  j["iops"] = elapsed > 0 ? double(total) / elapsed : 0.0;
  j["simulated_ios_per_wall_second"] = wall_seconds > 0 ? double(total) / wall_seconds : 0.0;
  json ops = json::object();
  for (int i = 0; i < 4; ++i) {
    if (count_[i] == 0) continue;
    json o = by_op_[i].summary_json(ps_to_us);
    o["unit"] = "us";
    o["count"] = count_[i];
    o["iops"] = elapsed > 0 ? double(count_[i]) / elapsed : 0.0;
    o["mb_per_s"] = elapsed > 0 ? double(bytes_[i]) / elapsed / 1e6 : 0.0;
    o["bytes"] = bytes_[i];
    if (i < 2) {
      // Mean time per part (firmware/ftl/latency_split.h); host = the host's mean latency minus
      // the device's: queueing in the host and the command/response UPIUs on the link.
      const LatencySplit::Sums& ls = i == 0 ? p.firmware().latency_split().reads() : p.firmware().latency_split().writes();
      const double n = ls.commands ? double(ls.commands) : 1.0;
      const double device = double(ls.device_ps) * ps_to_us / n;
      json split;
      split["commands"] = ls.commands;
      split["map_load"] = double(ls.map_load_ps) * ps_to_us / n;
      split["nand"] = double(ls.nand_ps) * ps_to_us / n;
      split["transfer"] = double(ls.transfer_ps) * ps_to_us / n;
      split["hpb_verify"] = double(ls.hpb_verify_ps) * ps_to_us / n;
      split["device_waiting"] = double(ls.waiting_ps) * ps_to_us / n;
      split["device"] = device;
      split["host_and_link"] = std::max(0.0, o.value("mean", 0.0) - device);
      o["latency_split"] = split;
    }
    ops[kOpNames[i]] = o;
  }
  j["ops"] = ops;
  // Requests that found nothing outstanding when they arrived (seed 002's NoWait ratio).
  j["idle_arrival_fraction"] = idle_arrivals_.fraction();
  json streams = json::object();
  for (const auto& [id, h] : by_stream_) {
    const std::string name = id < stream_names_.size() ? stream_names_[id] : "stream" + std::to_string(id);
    json s = h.summary_json(ps_to_us);
    s["unit"] = "us";
    streams[name] = s;
  }
  j["streams"] = streams;

  // Utilisation: busy fractions over the whole simulated time (busy + idle = 1).
  const double whole = sc_core::sc_time_stamp().to_seconds();
  const FlashGeometry g = p.geometry();
  json die_busy = json::array(), die_idle = json::array(), channel_busy = json::array(), channel_idle = json::array();
  for (uint32_t d = 0; d < g.dies(); ++d) {
    const double busy = whole > 0 ? seconds(p.fcc.die_busy_time(d)) / whole : 0.0;
    die_busy.push_back(busy);
    die_idle.push_back(1.0 - busy);
  }
  for (uint32_t c = 0; c < g.channels; ++c) {
    const double busy = whole > 0 ? seconds(p.fcc.channel_busy_time(c)) / whole : 0.0;
    channel_busy.push_back(busy);
    channel_idle.push_back(1.0 - busy);
  }
  json util;
  util["die_busy"] = die_busy;
  util["die_idle"] = die_idle;
  util["channel_busy"] = channel_busy;
  util["channel_idle"] = channel_idle;
  util["dies_per_channel"] = g.dies() / g.channels;
  util["cpu_busy"] = whole > 0 ? seconds(p.cpu.busy_time()) / whole : 0.0;
  util["link_host_to_device"] = whole > 0 ? seconds(p.link.stats(UniproLink::kHostToDevice).busy) / whole : 0.0;
  util["link_device_to_host"] = whole > 0 ? seconds(p.link.stats(UniproLink::kDeviceToHost).busy) / whole : 0.0;
  j["utilisation"] = util;
  {
    // Auto-hibernate (link.hibernate_idle_us): precondition included, like the utilisation.
    const UniproLink::HibernateStats& h = p.link.hibernate_stats();
    j["link"] = {{"hibernate_entries", h.entries},
                 {"hibernated_ms", h.hibernated.to_seconds() * 1e3},
                 {"wake_up_delay_ms", h.exit_delay.to_seconds() * 1e3}};
  }
  j["utilisation_window_seconds"] = whole;

  const FirmwareStats& f = p.firmware().stats();
  json ftl;
  ftl["logical_blocks"] = p.firmware().logical_blocks();
  ftl["host_write_blocks"] = f.host_write_blocks;
  ftl["host_read_blocks"] = f.host_read_blocks;
  ftl["read_cache_hits"] = f.read_cache_hits;
  ftl["read_unmapped"] = f.read_unmapped;
  ftl["flash_reads"] = f.flash_reads;
  ftl["host_program_sectors"] = f.host_program_sectors;
  ftl["padding_sectors"] = f.padding_sectors;
  ftl["host_page_sectors"] = f.host_page_sectors;
  ftl["gc_cross_pool_victims"] = f.gc_cross_pool_victims;
  // The counters above are since power-up; these count the measured phase alone (space utilisation).
  // (After a power loss the recovered firmware's counters start again from 0: they are taken as they are.)
  auto since = [](uint64_t now, uint64_t start) { return now >= start ? now - start : now; };
  ftl["measured"] = {{"host_write_blocks", since(f.host_write_blocks, ftl_at_start_.host_write_blocks)},
                     {"host_program_sectors", since(f.host_program_sectors, ftl_at_start_.host_program_sectors)},
                     {"padding_sectors", since(f.padding_sectors, ftl_at_start_.padding_sectors)},
                     {"host_page_sectors", since(f.host_page_sectors, ftl_at_start_.host_page_sectors)},
                     {"gc_victims", since(f.gc_victims, ftl_at_start_.gc_victims)}};
  ftl["gc_victims"] = f.gc_victims;
  ftl["bg_gc_victims"] = f.bg_gc_victims;
  ftl["gc_moved_sectors"] = f.gc_moved_sectors;
  ftl["gc_buffered_reads"] = f.gc_reads;
  ftl["gc_copy_backs"] = f.gc_copy_backs;
  ftl["gc_cleaned"] = f.gc_cleaned;
  ftl["gc_clean_us_mean"] = f.gc_cleaned ? double(f.gc_clean_ps) / double(f.gc_cleaned) / 1e6 : 0.0;
  ftl["erases"] = f.erases;
  ftl["program_failures"] = f.program_failures;
  ftl["erase_failures"] = f.erase_failures;
  ftl["bad_blocks"] = p.firmware().blocks().bad_blocks();
  {
    // Wear: erase counts over the blocks still in use (Agrawal et al.'s table 7 columns).
    const BlockManager& bm = p.firmware().blocks();
    double sum = 0, sum2 = 0;
    uint32_t n = 0, lo = ~0u, hi = 0;
    for (uint32_t b = 0; b < bm.block_count(); ++b) {
      if (bm.info(b).state == BlockState::Bad) continue;
      const uint32_t e = bm.info(b).erase_count;
      sum += e; sum2 += double(e) * e; ++n;
      lo = std::min(lo, e); hi = std::max(hi, e);
    }
    json wear;
    const double mean = n ? sum / n : 0.0;
    wear["erase_count_mean"] = mean;
    wear["erase_count_stddev"] = n ? std::sqrt(std::max(0.0, sum2 / n - mean * mean)) : 0.0;
    wear["erase_count_min"] = n ? lo : 0;
    wear["erase_count_max"] = hi;
    wear["expired_blocks"] = f.expired_blocks;
    wear["rate_limited_candidates"] = f.wl_rate_limited;
    wear["migrations"] = f.wl_migrations;
    ftl["wear"] = wear;
  }
  ftl["write_amplification"] = p.firmware().write_amplification();
  ftl["check_conditions"] = f.check_conditions;
  ftl["write_protected"] = f.write_protected != 0;          // spare blocks ran out: read-only
  ftl["write_protect_rejects"] = f.write_protect_rejects;
  ftl["map_chunks_allocated"] = p.firmware().map().chunks_allocated();
  ftl["rmw_writes"] = f.rmw_writes;
  ftl["rmw_flash_sectors"] = f.rmw_flash_sectors;
  ftl["rmw_cache_sectors"] = f.rmw_cache_sectors;
  json map;
  map["read_hits"] = f.map_read_hits;
  map["read_misses"] = f.map_read_misses;
  map["read_hit_ratio"] = f.map_read_hits + f.map_read_misses
                              ? double(f.map_read_hits) / double(f.map_read_hits + f.map_read_misses) : 1.0;
  map["update_misses"] = f.map_update_misses;
  map["page_loads"] = f.map_loads;
  map["merge_reads"] = f.map_merge_reads;
  map["page_writes"] = f.map_page_writes;
  map["relocations"] = f.map_relocations;
  map["idle_writebacks"] = f.idle_map_writebacks;
  ftl["map_cache"] = map;
  j["ftl"] = ftl;

  json flash;
  flash["reads"] = p.fcc.ops_completed(FlashOpcode::Read);
  flash["programs"] = p.fcc.ops_completed(FlashOpcode::Program);
  flash["erases"] = p.fcc.ops_completed(FlashOpcode::Erase);
  flash["copy_backs"] = p.fcc.ops_completed(FlashOpcode::CopyBack);
  flash["suspensions"] = p.fcc.suspensions();
  flash["status_polls"] = p.fcc.status_polls();
  flash["power_budget_delays"] = p.fcc.power_budget_delays();
  flash["power_budget_wait_us"] = p.fcc.power_budget_wait().to_seconds() * 1e6;
  flash["rule_violations"] = p.fcc.rule_violations();
  j["flash"] = flash;

  json crypto;
  crypto["model"] = p.crypto.params().model;
  crypto["session_keys_loaded"] = f.session_keys_loaded;
  crypto["jobs_signed"] = p.crypto.jobs_signed();
  crypto["jobs_verified"] = p.crypto.jobs_verified();
  crypto["verify_failures"] = p.crypto.verify_failures();
  crypto["completion_interrupts"] = p.cpu.crypto_interrupts();  // one drains the result FIFO
  j["crypto"] = crypto;

  if (const HpbDevice* d = p.firmware().hpb()) {
    const HpbStats& h = d->stats();
    json hpb, dev, host;
    hpb["version"] = d->params().version;
    hpb["control_mode"] = d->params().control_mode;
    dev["hpb_reads"] = h.hpb_reads;
    dev["hpb_read_blocks"] = h.hpb_read_blocks;
    dev["verified"] = h.verified;
    dev["rejected_forged"] = h.rejected_forged;
    dev["rejected_dirty"] = h.rejected_dirty;
    dev["rejected_no_ppn"] = h.rejected_no_ppn;
    dev["rejected_not_contiguous"] = h.rejected_not_contiguous;
    dev["rejected_stale_in_flight"] = h.rejected_stale_in_flight;
    dev["fallbacks"] = h.fallbacks;
    dev["check_conditions"] = h.check_conditions;
    dev["read_buffers"] = h.read_buffers;
    dev["entries_signed"] = h.entries_signed;
    dev["read_buffer_map_loads"] = h.read_buffer_map_loads;
    dev["write_buffer_inactivate"] = h.write_buffer_inactivate;
    dev["write_buffer_prefetch"] = h.write_buffer_prefetch;
    dev["write_buffer_inactivate_all"] = h.write_buffer_inactivate_all;
    dev["dirty_marks"] = h.dirty_marks;
    dev["activate_recommendations"] = h.activate_recommendations;
    dev["inactivate_recommendations"] = h.inactivate_recommendations;
    dev["responses_with_hpb_sense"] = h.responses_with_hpb_sense;
    dev["active_regions"] = d->active_regions();
    if (d->params().response_entries) {
      dev["delta_changes"] = h.delta_changes;
      dev["delta_overflows"] = h.delta_overflows;
      dev["delta_peak"] = h.delta_peak;
      dev["response_entries_sent"] = h.response_entries_sent;
      dev["rejected_updated"] = h.rejected_updated;
    }
    hpb["device"] = dev;
    if (HpbHostCache* c = p.hpb_host()) {
      const HpbHostStats& s = c->stats();
      host["policy"] = c->policy().name();
      host["reads_seen"] = s.reads_seen;
      host["hpb_reads"] = s.hpb_reads;
      host["hpb_read_fraction"] = s.reads_seen ? double(s.hpb_reads) / double(s.reads_seen) : 0.0;
      host["read_buffers"] = s.read_buffers;
      host["read_buffer_bytes"] = s.read_buffer_bytes;
      host["read_buffer_failures"] = s.read_buffer_failures;
      host["write_buffers"] = s.write_buffers;
      host["activations"] = s.activations;
      host["evictions"] = s.evictions;
      host["device_inactivations"] = s.device_inactivations;
      host["timeouts"] = s.timeouts;
      host["recommendations"] = s.recommendations;
      host["dirty_marks"] = s.dirty_marks;
      host["memory_bytes"] = s.memory_bytes;
      host["peak_memory_bytes"] = s.peak_memory_bytes;
      host["capacity_subregions"] = c->capacity_subregions();
      host["lookup_ns"] = s.lookup_ns;
      host["map_copy_ns"] = s.map_copy_ns;
      host["regulator_drops"] = s.regulator_drops;
      host["response_entries"] = s.response_entries;
      host["response_entries_used"] = s.response_entries_used;
      hpb["host"] = host;
    }
    j["hpb"] = hpb;
  }

  if (const WriteBooster* wb = p.firmware().writebooster()) {
    const WriteBoosterStats& w = wb->stats();
    json o;
    o["buffer_type"] = wb->params().buffer_type;
    o["buffer_bytes"] = wb->capacity_sectors() * kSectorBytes;
    o["slc_blocks"] = wb->slc_blocks_total();
    o["slc_write_bytes"] = w.slc_write_sectors * kSectorBytes;
    o["tlc_write_bytes"] = w.tlc_write_sectors * kSectorBytes;
    o["flushed_bytes"] = w.flushed_sectors * kSectorBytes;
    o["flushed_blocks"] = w.flushed_blocks;
    o["idle_flushes"] = w.flushes_started;
    o["buffer_fill"] = wb->capacity_sectors() ? double(wb->used_sectors()) / double(wb->capacity_sectors()) : 0.0;
    o["peak_buffer_fill"] = wb->capacity_sectors() ? double(w.peak_used_sectors) / double(wb->capacity_sectors()) : 0.0;
    j["writebooster"] = o;
  }

  if (scoreboard_) {
    json sb;
    sb["checked_blocks"] = scoreboard_->checked_blocks();
    sb["mismatches"] = scoreboard_->mismatches();
    if (scoreboard_->mismatches()) sb["first_mismatch"] = scoreboard_->first_mismatch();
    j["scoreboard"] = sb;
  }
  return j;
}

}  // namespace ufs
