#include "platform/energy_collector.h"
#include "platform/ufs_platform.h"

namespace ufs {

EnergyCounters EnergyCollector::sample(const UfsPlatform& p, uint64_t at_ps) {
  const sc_core::sc_time t(double(at_ps), sc_core::SC_PS);
  EnergyCounters c;
  c.at_ps = at_ps;
  for (int k = 0; k < ArrayLedger::kArrayKinds; ++k) {
    c.array_s[k] = p.fcc.arrays().time(k).to_seconds();
    c.array_plane_s[k] = p.fcc.arrays().plane_time(k).to_seconds();
    c.array_ops[k] = p.fcc.arrays().ops(k);
  }
  const FlashGeometry g = p.fcc.geometry();
  for (uint32_t ch = 0; ch < g.channels; ++ch) {
    c.channel_bytes += p.fcc.channel_bytes(ch);
    c.channel_bytes_to_dies += p.fcc.topology().channel(ch).bytes_to_dies();
  }
  c.cpu_busy_s = p.cpu.busy_until(t).to_seconds();
  c.buffer_bytes = p.data_buffer.bytes_read() + p.data_buffer.bytes_written();
  c.l2p_accesses = p.l2p_sram.reads() + p.l2p_sram.writes();
  c.crypto_cycles = p.crypto.busy_cycles();
  c.crypto_jobs = p.crypto.jobs_signed() + p.crypto.jobs_verified();
  c.link_burst_s[0] = p.link.busy_until(UniproLink::kHostToDevice, t).to_seconds();
  c.link_burst_s[1] = p.link.busy_until(UniproLink::kDeviceToHost, t).to_seconds();
  const UniproLink::HibernateStats h = p.link.hibernate_stats_until(t);
  c.link_hibern8_s = h.hibernated.to_seconds();
  c.link_hibern8_entries = h.entries;
  return c;
}

EnergyActivity EnergyCollector::activity(const UfsPlatform& p, const EnergyCounters& from, const EnergyCounters& to,
                                         uint64_t ios, uint64_t bytes) {
  const PlatformConfig& cfg = p.config();
  EnergyActivity a;
  a.window_s = to.at_ps > from.at_ps ? double(to.at_ps - from.at_ps) * 1e-12 : 0.0;
  a.dies = p.fcc.geometry().dies();
  auto d = [](double x, double y) { return y > x ? y - x : 0.0; };
  auto du = [](uint64_t x, uint64_t y) { return y > x ? y - x : 0; };
  a.nand_read_s = d(from.array_s[ArrayLedger::kArrayRead], to.array_s[ArrayLedger::kArrayRead]);
  a.nand_read_slc_s = d(from.array_s[ArrayLedger::kArrayReadSlc], to.array_s[ArrayLedger::kArrayReadSlc]);
  a.nand_program_s = d(from.array_s[ArrayLedger::kArrayProgram], to.array_s[ArrayLedger::kArrayProgram]);
  a.nand_program_slc_s =
      d(from.array_s[ArrayLedger::kArrayProgramSlc], to.array_s[ArrayLedger::kArrayProgramSlc]);
  a.nand_erase_s = d(from.array_s[ArrayLedger::kArrayErase], to.array_s[ArrayLedger::kArrayErase]);
  auto planes = [&](int k) { return d(from.array_plane_s[k], to.array_plane_s[k]); };
  a.nand_read_plane_s = planes(ArrayLedger::kArrayRead);
  a.nand_read_slc_plane_s = planes(ArrayLedger::kArrayReadSlc);
  a.nand_program_plane_s = planes(ArrayLedger::kArrayProgram);
  a.nand_program_slc_plane_s = planes(ArrayLedger::kArrayProgramSlc);
  a.nand_erase_plane_s = planes(ArrayLedger::kArrayErase);
  a.channel_bytes = du(from.channel_bytes, to.channel_bytes);
  a.channel_bytes_to_dies = du(from.channel_bytes_to_dies, to.channel_bytes_to_dies);
  a.cpu_busy_s = d(from.cpu_busy_s, to.cpu_busy_s);
  a.cpu_clock_mhz = cfg.cpu.clock_mhz;
  a.buffer_bytes = du(from.buffer_bytes, to.buffer_bytes);
  a.l2p_accesses = du(from.l2p_accesses, to.l2p_accesses);
  a.sram_kib = uint64_t(cfg.memory.data_buffer_kib) + cfg.memory.l2p_sram_kib;
  a.crypto_cycles = du(from.crypto_cycles, to.crypto_cycles);
  a.crypto_clock_mhz = cfg.crypto.clock_mhz;
  a.crypto_rounds_per_cycle = cfg.crypto.rounds_per_cycle;
  for (int dir = 0; dir < 2; ++dir) {
    a.link_burst_s[dir] = d(from.link_burst_s[dir], to.link_burst_s[dir]);
    a.link_lanes[dir] = dir == 0 ? cfg.link.h2d_lanes : cfg.link.d2h_lanes;
    a.link_lane_rate_mbps[dir] = p.link.lane_rate_mbps(dir == 0 ? UniproLink::kHostToDevice : UniproLink::kDeviceToHost);
  }
  a.link_pwm = cfg.link.pwm();
  a.link_hibern8_s = d(from.link_hibern8_s, to.link_hibern8_s);
  a.link_hibern8_entries = du(from.link_hibern8_entries, to.link_hibern8_entries);
  a.ios = ios;
  a.bytes = bytes;
  return a;
}

nlohmann::json EnergyCollector::to_json(const UfsPlatform& p, const EnergyCounters& from, const EnergyCounters& to,
                                        uint64_t ios, uint64_t bytes) {
  using nlohmann::json;
  const EnergyModel model(p.config().energy);
  const EnergyActivity a = activity(p, from, to, ios, bytes);
  const EnergyBreakdown b = model.breakdown(a);
  const EnergySummary s = model.summary(a, b);
  json j;
  j["unit"] = "uJ";
  json components = json::object(), blocks = json::object();
  for (int c = 0; c < EnergyBreakdown::kComponents; ++c) {
    components[EnergyBreakdown::name(c)] = b.uj(c);
    const char* block = EnergyBreakdown::block(c);
    blocks[block] = blocks.value(block, 0.0) + b.uj(c);
  }
  j["components"] = components;
  j["blocks"] = blocks;
  j["total_uj"] = s.total_uj;
  j["per_io_uj"] = s.per_io_uj;
  j["per_byte_nj"] = s.per_byte_nj;
  j["mean_power_mw"] = s.mean_power_mw;
  // Each rail's voltage and mean current; mean_current_ma adds them up (ICC + ICCQ).
  const PowerParams& pw = p.config().energy.power;
  json rails;
  for (int r = 0; r < EnergyBreakdown::kRails; ++r)
    rails[EnergyBreakdown::rail_name(r)] = {{"v", r == EnergyBreakdown::kVcc ? pw.vcc_v : pw.vccq_v},
                                            {"mean_current_ma", s.rail_ma[r]}};
  j["rails"] = rails;
  j["mean_current_ma"] = s.mean_current_ma;
  j["mb_per_s_per_ma"] = s.mb_per_s_per_ma;
  // The power-state times and op counts behind the components (each component is its
  // power times these, or its energy per count times these).
  json states;
  states["nand_read_s"] = a.nand_read_s;
  states["nand_read_slc_s"] = a.nand_read_slc_s;
  states["nand_program_s"] = a.nand_program_s;
  states["nand_program_slc_s"] = a.nand_program_slc_s;
  states["nand_erase_s"] = a.nand_erase_s;
  states["nand_read_plane_s"] = a.nand_read_plane_s;
  states["nand_read_slc_plane_s"] = a.nand_read_slc_plane_s;
  states["nand_program_plane_s"] = a.nand_program_plane_s;
  states["nand_program_slc_plane_s"] = a.nand_program_slc_plane_s;
  states["nand_erase_plane_s"] = a.nand_erase_plane_s;
  states["nand_standby_die_s"] = b.nand_standby_s;
  states["link_burst_h2d_s"] = a.link_burst_s[0];
  states["link_burst_d2h_s"] = a.link_burst_s[1];
  states["link_stall_h2d_s"] = b.link_stall_s[0];
  states["link_stall_d2h_s"] = b.link_stall_s[1];
  states["link_sleep_h2d_s"] = b.link_sleep_s[0];
  states["link_sleep_d2h_s"] = b.link_sleep_s[1];
  states["link_hibern8_s"] = a.link_hibern8_s;
  states["link_hibern8_entries"] = a.link_hibern8_entries;
  states["cpu_busy_s"] = a.cpu_busy_s;
  states["cpu_idle_s"] = b.cpu_idle_s;
  states["crypto_busy_s"] = b.crypto_busy_s;
  states["crypto_idle_s"] = b.crypto_idle_s;
  states["channel_bytes"] = a.channel_bytes;
  states["channel_bytes_to_dies"] = a.channel_bytes_to_dies;
  states["buffer_bytes"] = a.buffer_bytes;
  states["l2p_accesses"] = a.l2p_accesses;
  states["crypto_cycles"] = a.crypto_cycles;
  j["activity"] = states;
  // Per NAND operation: array operations booked in the window and their mean energy (a
  // multi-plane group is one operation, its planes' energy included).
  static_assert(EnergyBreakdown::kNandRead + ArrayLedger::kArrayErase == EnergyBreakdown::kNandErase,
                "array kinds and NAND components in the same order");
  json ops;
  for (int k = 0; k < ArrayLedger::kArrayKinds; ++k) {
    const uint64_t n = to.array_ops[k] > from.array_ops[k] ? to.array_ops[k] - from.array_ops[k] : 0;
    ops[ArrayLedger::kind_name(k)] = {{"count", n},
                                             {"uj_per_op", n ? b.uj(EnergyBreakdown::kNandRead + k) / double(n) : 0.0}};
  }
  j["nand_ops"] = ops;
  const uint64_t jobs = to.crypto_jobs > from.crypto_jobs ? to.crypto_jobs - from.crypto_jobs : 0;
  j["crypto_uj_per_job"] = jobs ? b.uj(EnergyBreakdown::kCryptoActive) / double(jobs) : 0.0;
  return j;
}

}  // namespace ufs
