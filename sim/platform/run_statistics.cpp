#include "platform/run_statistics.h"
#include "platform/ufs_platform.h"
#include "common/sim_time.h"
#include "common/trace_recorder.h"
#include <algorithm>
#include <cmath>

namespace ufs {

namespace {
const char* const kOpNames[4] = {"read", "write", "flush", "unmap"};

// Walks the firmware's statistics into stats.json: a key's dots are nested objects.
class JsonStats : public StatsVisitor {
 public:
  explicit JsonStats(nlohmann::json& root) : root_(root) {}
  void count(const char* key, uint64_t value, const char*, const char*) override { at(key) = value; }
  void figure(const char* key, double value, const char*, const char*) override { at(key) = value; }
  void flag(const char* key, bool value, const char*) override { at(key) = value; }
  void text(const char* key, const std::string& value, const char*) override { at(key) = value; }

 private:
  nlohmann::json& at(const char* key) {
    nlohmann::json* node = &root_;
    const char* part = key;
    for (const char* c = key;; ++c) {
      if (*c != '.' && *c != 0) continue;
      node = &(*node)[std::string(part, c)];
      if (*c == 0) return *node;
      part = c + 1;
    }
  }
  nlohmann::json& root_;
};

// Remembers the firmware's counters (ftl.measured subtracts them).
class CountSnapshot : public StatsVisitor {
 public:
  explicit CountSnapshot(std::map<std::string, uint64_t>& out) : out_(out) {}
  void count(const char* key, uint64_t value, const char*, const char*) override { out_[key] = value; }
  void figure(const char*, double, const char*, const char*) override {}
  void flag(const char*, bool, const char*) override {}
  void text(const char*, const std::string&, const char*) override {}

 private:
  std::map<std::string, uint64_t>& out_;
};
}  // namespace

void RunStatistics::mark_firmware_start(const UfsPlatform& p) {
  ftl_at_start_.clear();
  CountSnapshot snapshot(ftl_at_start_);
  p.visit_firmware_stats(snapshot);
}

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
  if (energy_platform_ && (r.complete_ps - start_ps_) / series_.interval_ps() > energy_last_interval_)
    sample_energy(r.complete_ps);
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

RunStatistics::BusySnapshot RunStatistics::busy_at(const UfsPlatform& p, uint64_t at_ps) {
  const sc_core::sc_time t(double(at_ps), sc_core::SC_PS);
  const FlashGeometry g = p.fcc.geometry();
  BusySnapshot s;
  for (uint32_t d = 0; d < g.dies(); ++d) s.die_s.push_back(p.fcc.arrays().busy_until(d, t).to_seconds());
  for (uint32_t c = 0; c < g.channels; ++c) s.channel_s.push_back(p.fcc.topology().channel(c).busy_until(t).to_seconds());
  s.cpu_s = p.cpu.busy_until(t).to_seconds();
  s.h2d_s = p.link.busy_until(UniproLink::kHostToDevice, t).to_seconds();
  s.d2h_s = p.link.busy_until(UniproLink::kDeviceToHost, t).to_seconds();
  return s;
}

void RunStatistics::mark_busy_start(const UfsPlatform& platform) {
  busy_at_start_ = busy_at(platform, uint64_t(sc_core::sc_time_stamp().value()));
  energy_at_start_ = EnergyCollector::sample(platform, uint64_t(sc_core::sc_time_stamp().value()));
  energy_platform_ = &platform;
  energy_last_ = energy_at_start_;
  energy_last_interval_ = 0;
  if (power_trace_) power_trace_->hold_from(energy_last_.at_ps);
}

void RunStatistics::trace_power(TraceRecorder* trace, const std::string& scope) {
  power_signal_ = trace ? trace->integer(scope, "power_uw", "device") : -1;
  power_trace_ = power_signal_ >= 0 ? trace : nullptr;
}

void RunStatistics::set_power(uint64_t at_ps, int64_t uw) {
  if (!power_trace_ || uw == power_uw_) return;
  power_trace_->change(power_signal_, at_ps, uw - power_uw_);
  power_uw_ = uw;
}

void RunStatistics::sample_energy(uint64_t at_ps) {
  // Counters are read up to a moment not before now (work booked ahead is not counted yet).
  at_ps = std::max<uint64_t>(at_ps, uint64_t(sim_now().value()));
  if (at_ps <= energy_last_.at_ps) return;
  const EnergyCounters now = EnergyCollector::sample(*energy_platform_, at_ps);
  const EnergyModel model(energy_platform_->config().energy);
  const double uj = model.breakdown(EnergyCollector::activity(*energy_platform_, energy_last_, now, 0, 0)).total_uj();
  series_.record_energy(energy_last_.at_ps - start_ps_, at_ps - start_ps_, uj);
  // uJ / s = uW; the span is known only now, so its change goes back to the last sample.
  set_power(energy_last_.at_ps, std::llround(uj / (double(at_ps - energy_last_.at_ps) * 1e-12)));
  if (power_trace_) power_trace_->hold_from(at_ps);
  energy_last_ = now;
  energy_last_interval_ = (at_ps - start_ps_) / series_.interval_ps();
}

void RunStatistics::finish_energy_series(const UfsPlatform& platform, uint64_t end_ps) {
  if (energy_platform_ != &platform) return;
  sample_energy(end_ps);
  set_power(energy_last_.at_ps, 0);  // the measured phase is over
}

nlohmann::json RunStatistics::utilisation_json(const UfsPlatform& p, const BusySnapshot& from, const BusySnapshot& to,
                                               double window_s) {
  using nlohmann::json;
  // Not clamped: a fraction above 1 would be an accounting bug to see, not to hide.
  auto fraction = [window_s](double busy_from, double busy_to) {
    return window_s > 0 ? (busy_to - busy_from) / window_s : 0.0;
  };
  auto at = [](const std::vector<double>& v, size_t i) { return i < v.size() ? v[i] : 0.0; };
  json die_busy = json::array(), die_idle = json::array(), channel_busy = json::array(), channel_idle = json::array();
  for (size_t d = 0; d < to.die_s.size(); ++d) {
    const double busy = fraction(at(from.die_s, d), to.die_s[d]);
    die_busy.push_back(busy);
    die_idle.push_back(1.0 - busy);
  }
  for (size_t c = 0; c < to.channel_s.size(); ++c) {
    const double busy = fraction(at(from.channel_s, c), to.channel_s[c]);
    channel_busy.push_back(busy);
    channel_idle.push_back(1.0 - busy);
  }
  const FlashGeometry g = p.fcc.geometry();
  json util;
  util["die_busy"] = die_busy;
  util["die_idle"] = die_idle;
  util["channel_busy"] = channel_busy;
  util["channel_idle"] = channel_idle;
  util["dies_per_channel"] = g.dies() / g.channels;
  util["cpu_busy"] = fraction(from.cpu_s, to.cpu_s);
  util["link_host_to_device"] = fraction(from.h2d_s, to.h2d_s);
  util["link_device_to_host"] = fraction(from.d2h_s, to.d2h_s);
  return util;
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
    if (i < 2 && !p.on_iss()) {  // (the split lives in the firmware; not carried out of the ISS yet)
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

  // Utilisation: busy fractions (busy + idle = 1) over the measured phase, and over the
  // whole simulated time (precondition workload included) separately. Work booked ahead of
  // the end (a program still in its array time, a core handler charged whole) is not counted.
  const double whole = double(end_ps) * 1e-12;
  const BusySnapshot at_end = busy_at(p, end_ps);
  j["utilisation"] = utilisation_json(p, busy_at_start_, at_end, elapsed);
  j["utilisation_window_seconds"] = elapsed;
  j["utilisation_whole_run"] = utilisation_json(p, BusySnapshot{}, at_end, whole);
  j["utilisation_whole_run"]["window_seconds"] = whole;
  {
    // Auto-hibernate (link.hibernate_idle_us): precondition included, like utilisation_whole_run.
    const UniproLink::HibernateStats& h = p.link.hibernate_stats();
    j["link"] = {{"hibernate_entries", h.entries},
                 {"hibernated_ms", h.hibernated.to_seconds() * 1e3},
                 {"wake_up_delay_ms", h.exit_delay.to_seconds() * 1e3}};
  }

  // Energy of the measured phase (issue 22): the energy model over the blocks' counters.
  j["energy"] = EnergyCollector::to_json(p, energy_at_start_, EnergyCollector::sample(p, end_ps), total,
                                         bytes_[0] + bytes_[1]);
  {
    // Peak power: the highest interval of the time series (power_mw per 10 ms, from the
    // counters sampled as the run went).
    double peak = 0;
    if (series_.has_energy())
      for (const TimeSeries::Row& r : series_.rows(end_ps - start_ps_)) peak = std::max(peak, r.power_mw);
    j["energy"]["peak_power_mw"] = peak;
    j["energy"]["peak_interval_ms"] = double(series_.interval_ps()) * 1e-9;
  }

  // The firmware's figures: every part walks its own (DeviceFirmware::visit_stats).
  JsonStats firmware_stats(j);
  p.visit_firmware_stats(firmware_stats);
  {
    // The counters are since power-up; these count the measured phase alone (space utilisation).
    // (After a power loss the recovered firmware's counters start again from 0: they are taken as they are.)
    json& ftl = j["ftl"];
    json measured = json::object();
    for (const char* key : {"host_write_blocks", "host_program_sectors", "padding_sectors", "host_page_sectors",
                            "gc_victims", "bg_gc_victims", "gc_moved_sectors"}) {
      const uint64_t now = ftl.at(key).get<uint64_t>();
      const auto start = ftl_at_start_.find(std::string("ftl.") + key);
      const uint64_t at_start = start == ftl_at_start_.end() ? 0 : start->second;
      measured[key] = now >= at_start ? now - at_start : now;
    }
    ftl["measured"] = measured;
    // Write amplification of the measured phase (sectors programmed for host data, padding and
    // GC moves per host sector written), and of the whole run since power-up under its own
    // name; a phase without host writes has none (null), not 0.
    const uint64_t written = measured["host_write_blocks"].get<uint64_t>();
    const uint64_t programmed = measured["host_program_sectors"].get<uint64_t>() +
                                measured["padding_sectors"].get<uint64_t>() + measured["gc_moved_sectors"].get<uint64_t>();
    ftl["write_amplification_whole_run"] =
        ftl.at("host_write_blocks").get<uint64_t>() ? ftl.at("write_amplification") : json(nullptr);
    ftl["write_amplification"] = written ? json(double(programmed) / double(written)) : json(nullptr);
  }

  // The firmware's RAM against the controller's SRAM (issue 20, core/firmware_ram.h): the
  // bounded tables in memory.firmware_sram_kib (the run stopped at start if they did not
  // fit), the map cache's frames in memory.l2p_sram_kib; apart, a whole map in the host's
  // heap (only without a map cache, or firmware.map_verify's shadow) and the recovery scan's
  // tables (only after a power loss).
  {
    const FirmwareRam ram = p.firmware().ram();
    auto kib = [](uint64_t bytes) { return double(bytes) / 1024.0; };
    json& r = j["firmware_ram"];
    r["sram_kib"] = p.config().memory.firmware_sram_kib;
    r["tables_kib"] = kib(ram.tables_bytes());
    r["sram_used"] = kib(ram.tables_bytes()) / double(p.config().memory.firmware_sram_kib);
    for (const FirmwareRam::Table& t : ram.tables) r["tables"][t.name] = kib(t.bytes);
    r["l2p_sram_kib"] = p.config().memory.l2p_sram_kib;
    r["map_cache_kib"] = kib(ram.map_cache_bytes);
    r["map_shadow_kib"] = kib(ram.map_shadow_bytes);
    r["recovery_scan_kib"] = kib(ram.recovery_bytes);
  }

  json flash;
  flash["reads"] = p.fcc.ops_completed(FlashOpcode::Read);
  flash["programs"] = p.fcc.ops_completed(FlashOpcode::Program);
  flash["erases"] = p.fcc.ops_completed(FlashOpcode::Erase);
  flash["copy_backs"] = p.fcc.ops_completed(FlashOpcode::CopyBack);
  flash["suspensions"] = p.fcc.suspensions();
  flash["status_polls"] = p.fcc.status_polls();
  flash["power_budget_delays"] = p.fcc.power_budget().delays();
  flash["power_budget_wait_us"] = p.fcc.power_budget().wait().to_seconds() * 1e6;
  flash["rule_violations"] = p.fcc.rule_violations();
  j["flash"] = flash;

  json& crypto = j["crypto"];
  crypto["model"] = p.crypto.params().model;
  crypto["jobs_signed"] = p.crypto.jobs_signed();
  crypto["jobs_verified"] = p.crypto.jobs_verified();
  crypto["verify_failures"] = p.crypto.verify_failures();
  crypto["completion_interrupts"] = p.cpu.crypto_interrupts();  // one drains the result FIFO

  // cpu.model=iss: what the core executed per event kind, and the firmware's RAM
  // (compiled only where the opt-in ISS toolchain was found).
#ifdef UFS_HAVE_ISS
  if (const IssFirmware* iss = p.iss()) {
    json& c = j["cpu"]["iss"];
    c["cost"] = p.config().cpu.iss_cost;
    c["cpi"] = p.config().cpu.cpi;
    c["mailbox_wait_cycles"] = p.config().cpu.mailbox_wait_cycles;
    c["sram_wait_cycles"] = p.config().cpu.sram_wait_cycles;
    c["heap_used_mib"] = double(iss->heap_used_bytes()) / 1048576.0;
    // The heap's high-water mark on the core (sbrk's top); the host-side instance whose tables
    // were checked never ran, so its whole map (if any) is not this run's (the heap holds that).
    j["firmware_ram"]["iss_heap_kib"] = double(iss->heap_used_bytes()) / 1024.0;
    j["firmware_ram"].erase("map_shadow_kib");
    c["heap_mib"] = p.config().cpu.iss_heap_mib;
    c["fast_forwarded_instructions"] = iss->fast_forwarded_instructions();  // of the byte loops (cpu.iss_fast_loops)
    // Every cycle the core was charged: with measured cost the events' cycles alone, with
    // native cost also the core model's interrupt_cycles and crypto_result_cycles.
    c["core_cycles"] = p.cpu.cycles_charged();
    for (size_t k = 0; k < IssFirmware::kKinds; ++k) {
      const IssFirmware::KindCounters& n = iss->counters()[k];
      if (!n.entries) continue;
      const double e = double(n.entries);
      c["events"][IssFirmware::kind_name(k)] = {{"entries", n.entries},
                                                {"instructions_mean", double(n.instructions) / e},
                                                {"instructions_max", n.max_instructions},
                                                {"cycles_mean", double(n.cycles) / e},
                                                {"cycles_max", n.max_cycles},
                                                {"native_cycles_mean", double(n.native_cycles) / e},
                                                {"hal_calls_mean", double(n.crossings) / e},
                                                // of instructions_mean: the C library's byte loops (cpu.iss_fast_loops), memmove's alone
                                                {"byte_loop_instructions_mean", double(n.loop_instructions) / e},
                                                {"memmove_instructions_mean", double(n.memmove_instructions) / e}};
    }
    // Measured cost by charge site: each charge_cycles call of the firmware and the
    // instructions up to the next (the firmware-cost study derives the native table from it).
    for (const IssFirmware::ChargeSite& s : iss->charge_sites()) {
      const double n = double(s.calls);
      char caller[16];
      std::snprintf(caller, sizeof caller, "0x%x", s.caller);
      c["charge_sites"].push_back({{"event", IssFirmware::kind_name(s.kind)},
                                   {"caller", caller},
                                   {"function", s.caller ? iss->function_at(s.caller) : "(charges nothing)"},
                                   {"charged", s.charged},
                                   {"calls", s.calls},
                                   {"instructions_mean", double(s.instructions) / n},
                                   {"byte_loop_instructions_mean", double(s.loop_instructions) / n},
                                   {"memmove_instructions_mean", double(s.memmove_instructions) / n},
                                   {"hal_calls_mean", double(s.crossings) / n},
                                   {"sram_accesses_mean", double(s.sram_accesses) / n}});
    }
  }
#endif

  if (p.firmware().hpb()) {
    json host;
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
      j["hpb"]["host"] = host;
    }
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
