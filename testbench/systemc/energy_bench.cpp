// The energy section of stats.json on whole runs of test-small (issue 22): conservation
// (the components add up to the total), NAND, link and core components equal to their
// power states' times in the run, the link's Hibern8 under auto-hibernate, errors named.
#include <catch2/catch.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include "config/config_tree.h"
#include "platform/platform_config.h"
#include "platform/simulation.h"

using namespace ufs;

namespace {
nlohmann::json run_energy(const std::string& workload, std::vector<std::string> sets = {},
                          const std::string& out_dir = "") {
  RunOptions o;
  o.quiet = true;
  o.progress = false;
  o.preset = "test-small";
  o.workload = workload;
  o.sets = std::move(sets);
  o.precondition_fill_bytes = 64ull << 20;
  o.out_dir = out_dir;
  const RunResult r = run_simulation(o);
  REQUIRE(r.mismatches == 0);
  return r.stats;
}

std::string bind_error(const std::vector<std::string>& sets) {
  ConfigTree tree;
  tree.load("test-small");
  for (const auto& s : sets) tree.set_assignment(s);
  PlatformConfig c;
  try {
    c.bind(tree);
    tree.check_unknown_keys();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("Energy of a mixed run: components add up and follow the run's power-state times", "[energy][system]") {
  const nlohmann::json s = run_energy("rw=randrw,rwmixread=60,bs=16k,iodepth=16,size=64m,count=4000,seed=5");
  const nlohmann::json& e = s.at("energy");
  INFO(e.dump(2));
  double sum = 0;
  for (const auto& [name, uj] : e.at("components").items()) {
    CHECK(uj.get<double>() >= 0);
    sum += uj.get<double>();
  }
  const double total = e.at("total_uj").get<double>();
  CHECK(total == Approx(sum).epsilon(1e-9));
  double blocks = 0;
  for (const auto& [name, uj] : e.at("blocks").items()) blocks += uj.get<double>();
  CHECK(total == Approx(blocks).epsilon(1e-9));

  const nlohmann::json& a = e.at("activity");
  const nlohmann::json& c = e.at("components");
  // The run read and programmed the NAND: each at its current, for its array time.
  CHECK(a.at("nand_read_s").get<double>() > 0);
  CHECK(a.at("nand_program_s").get<double>() + a.at("nand_program_slc_s").get<double>() > 0);
  // Each plane of a multi-plane group draws the current (multi_plane_share 1): plane-seconds.
  CHECK(c.at("nand_read").get<double>() == Approx(20.0 * 2.5 * a.at("nand_read_plane_s").get<double>() * 1e3));
  CHECK(c.at("nand_program").get<double>() == Approx(25.0 * 2.5 * a.at("nand_program_plane_s").get<double>() * 1e3));
  // test-small has two planes per die: plane time is between the die time and twice it, and
  // the run paired some operations (multi-plane groups).
  for (const char* k : {"read", "program", "program_slc", "erase"}) {
    INFO(k);
    const double die_s = a.at(std::string("nand_") + k + "_s").get<double>();
    const double plane_s = a.at(std::string("nand_") + k + "_plane_s").get<double>();
    CHECK(plane_s >= die_s * (1 - 1e-12));
    CHECK(plane_s <= 2 * die_s * (1 + 1e-12));
  }
  CHECK(a.at("nand_read_plane_s").get<double>() + a.at("nand_program_plane_s").get<double>() +
            a.at("nand_program_slc_plane_s").get<double>() >
        a.at("nand_read_s").get<double>() + a.at("nand_program_s").get<double>() +
            a.at("nand_program_slc_s").get<double>());
  // A NAND operation's mean energy is its component over its count.
  CHECK(e.at("nand_ops").at("read").at("uj_per_op").get<double>() ==
        Approx(c.at("nand_read").get<double>() / e.at("nand_ops").at("read").at("count").get<double>()));
  CHECK(e.at("nand_ops").at("read").at("count").get<uint64_t>() > 0);
  // Dies: array time + standby = dies x window.
  const double window = s.at("simulated_seconds").get<double>();
  const double dies = double(s.at("utilisation").at("die_busy").size());
  const double array = a.at("nand_read_s").get<double>() + a.at("nand_read_slc_s").get<double>() +
                       a.at("nand_program_s").get<double>() + a.at("nand_program_slc_s").get<double>() +
                       a.at("nand_erase_s").get<double>();
  CHECK(array + a.at("nand_standby_die_s").get<double>() == Approx(dies * window));
  // Link: burst + STALL (+ Hibern8, none here) = the window, per direction; burst time is
  // the utilisation's busy fraction of the window.
  CHECK(a.at("link_hibern8_s").get<double>() == 0);
  CHECK(a.at("link_burst_d2h_s").get<double>() + a.at("link_stall_d2h_s").get<double>() == Approx(window));
  CHECK(a.at("link_burst_d2h_s").get<double>() ==
        Approx(s.at("utilisation").at("link_device_to_host").get<double>() * window));
  // Core: busy + idle = the window; busy is the utilisation's.
  CHECK(a.at("cpu_busy_s").get<double>() + a.at("cpu_idle_s").get<double>() == Approx(window));
  CHECK(a.at("cpu_busy_s").get<double>() == Approx(s.at("utilisation").at("cpu_busy").get<double>() * window));
  // Channel bytes: at least the host's bytes crossed the channels.
  const uint64_t host_bytes = s.at("ops").at("read").at("bytes").get<uint64_t>() + s.at("ops").at("write").at("bytes").get<uint64_t>();
  CHECK(a.at("channel_bytes").get<uint64_t>() >= s.at("ops").at("read").at("bytes").get<uint64_t>());
  CHECK(c.at("channel_io").get<double>() == Approx(36.0 * a.at("channel_bytes").get<double>() * 1e-6));
  // Fabric: every buffer byte read or written crossed it once.
  CHECK(c.at("fabric").get<double>() == Approx(2.8 * a.at("buffer_bytes").get<double>() * 1e-6));
  // ECC: the program data-in encoded, the rest (reads' data-out) decoded. Writes were 40%
  // of the requests: some bytes went each way.
  const double to_dies = a.at("channel_bytes_to_dies").get<double>();
  CHECK(to_dies > 0);
  CHECK(to_dies < a.at("channel_bytes").get<double>());
  CHECK(to_dies >= double(s.at("ops").at("write").at("bytes").get<uint64_t>()));
  CHECK(c.at("ecc_decode").get<double>() == Approx(27.4 * (a.at("channel_bytes").get<double>() - to_dies) * 1e-6));
  CHECK(c.at("ecc_encode").get<double>() == Approx(5.5 * to_dies * 1e-6));
  // Derived figures.
  CHECK(e.at("mean_power_mw").get<double>() == Approx(total * 1e-3 / window));
  CHECK(e.at("per_io_uj").get<double>() == Approx(total / double(s.at("requests").get<uint64_t>())));
  CHECK(e.at("per_byte_nj").get<double>() == Approx(total * 1e3 / double(host_bytes)));
  // The rails: ICC x VCC + ICCQ x VCCQ is the mean power; mean_current_ma adds the currents.
  const nlohmann::json& rails = e.at("rails");
  const double icc = rails.at("vcc").at("mean_current_ma").get<double>();
  const double iccq = rails.at("vccq").at("mean_current_ma").get<double>();
  CHECK(rails.at("vcc").at("v").get<double>() == 2.5);
  CHECK(rails.at("vccq").at("v").get<double>() == 1.2);
  CHECK(icc * 2.5 + iccq * 1.2 == Approx(e.at("mean_power_mw").get<double>()));
  CHECK(e.at("mean_current_ma").get<double>() == Approx(icc + iccq));
}

TEST_CASE("Energy with auto-hibernate: sparse requests leave the link in Hibern8", "[energy][system]") {
  // 200 reads at 100 per second: 10 ms between them, Hibern8 after 1 ms idle.
  const nlohmann::json s = run_energy("rw=randread,bs=4k,iodepth=1,size=64m,count=200,rate_iops=100,seed=2",
                                      {"link.hibernate_idle_us=1000"});
  const nlohmann::json& e = s.at("energy");
  INFO(e.dump(2));
  const nlohmann::json& a = e.at("activity");
  const double window = s.at("simulated_seconds").get<double>();
  const uint64_t entries = a.at("link_hibern8_entries").get<uint64_t>();
  CHECK(entries >= 150);
  CHECK(a.at("link_hibern8_s").get<double>() > 0.5 * window);
  CHECK(a.at("link_burst_h2d_s").get<double>() + a.at("link_stall_h2d_s").get<double>() +
            a.at("link_hibern8_s").get<double>() == Approx(window));
  CHECK(e.at("components").at("link_transitions").get<double>() == Approx(4.8 * double(entries)));
  CHECK(e.at("components").at("link_hibern8").get<double>() ==
        Approx(0.010 * 4 * a.at("link_hibern8_s").get<double>() * 1e3));
  // Hibern8 costs less than the STALL it replaces (one run per process: compared by power).
  CHECK(e.at("components").at("link_hibern8").get<double>() <
        2.0 * 4 * a.at("link_hibern8_s").get<double>() * 1e3);
}

TEST_CASE("Energy in the slow power mode: PWM bursts, SLEEP between them, no STALL", "[energy][system]") {
  // PWM-G4 x2 each way: 72 Mb/s per lane, 8b/10b: a 4 KiB DATA IN UPIU takes ~0.3 ms.
  const nlohmann::json s = run_energy("rw=randread,bs=4k,iodepth=1,size=64m,count=200,rate_iops=500,seed=3",
                                      {"link.power_mode=slow"});
  const nlohmann::json& e = s.at("energy");
  INFO(e.dump(2));
  const nlohmann::json& a = e.at("activity");
  const nlohmann::json& c = e.at("components");
  const double window = s.at("simulated_seconds").get<double>();
  CHECK(a.at("link_stall_h2d_s").get<double>() == 0);
  CHECK(a.at("link_stall_d2h_s").get<double>() == 0);
  CHECK(c.at("link_stall").get<double>() == 0);
  // Burst + SLEEP = the window per direction; each at its power (defaults: 1 mW, 50 uW per lane).
  const double burst = a.at("link_burst_d2h_s").get<double>() + a.at("link_burst_h2d_s").get<double>();
  const double sleep = a.at("link_sleep_d2h_s").get<double>() + a.at("link_sleep_h2d_s").get<double>();
  CHECK(a.at("link_burst_d2h_s").get<double>() + a.at("link_sleep_d2h_s").get<double>() == Approx(window));
  CHECK(c.at("link_burst").get<double>() == Approx(1.0 * 2 * burst * 1e3));
  CHECK(c.at("link_sleep").get<double>() == Approx(0.050 * 2 * sleep * 1e3));
  // 200 x 4 KiB at 72 Mb/s x 2 lanes: DATA IN (4256 framed bytes) + RESPONSE (40) x 10 bits / 144 Mb/s.
  CHECK(a.at("link_burst_d2h_s").get<double>() == Approx(200 * 4296 * 10 / 144e6).epsilon(0.01));
}

TEST_CASE("Energy parameters: bad values and unknown keys are named", "[energy]") {
  CHECK(bind_error({"nand.energy.icc_read_ma=-1"}).find("nand.energy.icc_read_ma") != std::string::npos);
  CHECK(bind_error({"link.energy.stall_mw_per_lane=abc"}).find("link.energy.stall_mw_per_lane") != std::string::npos);
  CHECK(bind_error({"power.vcc_v=0"}).find("power.vcc_v") != std::string::npos);
  CHECK(bind_error({"power.core_v=1.3"}).find("power.core_v") != std::string::npos);
  CHECK(bind_error({"fcc.energy.ecc_decode_pj_per_byte=-2"}).find("fcc.energy.ecc_decode_pj_per_byte") !=
        std::string::npos);
  CHECK(bind_error({"fcc.energy.ecc_encode_pj_per_byte=x"}).find("fcc.energy.ecc_encode_pj_per_byte") !=
        std::string::npos);
  CHECK(bind_error({"fcc.energy.ecc_pj_per_byte=27"}).find("fcc.energy.ecc_pj_per_byte") != std::string::npos);  // gone
  CHECK(bind_error({"nand.energy.multi_plane_share=2"}).find("nand.energy.multi_plane_share") != std::string::npos);
  CHECK(bind_error({"crypto.energy.round_pj=-5"}).find("crypto.energy.round_pj") != std::string::npos);
  CHECK(bind_error({"crypto.energy.active_pj_per_cycle=50"}).find("crypto.energy.active_pj_per_cycle") !=
        std::string::npos);  // gone: unknown key
  CHECK(bind_error({"memory.energy.fabric_pj_per_byte=-1"}).find("memory.energy.fabric_pj_per_byte") !=
        std::string::npos);
  CHECK(bind_error({"power.supply_v=2.5"}).find("power.supply_v") != std::string::npos);  // gone: unknown key
  CHECK(bind_error({"link.power_mode=slow", "link.h2d_gear=8"}).find("link.h2d_gear") != std::string::npos);
  CHECK(bind_error({"link.energy.sleep_uw_per_lane=-1"}).find("link.energy.sleep_uw_per_lane") != std::string::npos);
  CHECK(bind_error({"cpu.energy.idle_mww=1"}).find("cpu.energy.idle_mww") != std::string::npos);
  CHECK(bind_error({"memory.energy.leakage_uw_per_kib=2"}).empty());
}

TEST_CASE("Power over time: the time series power adds up to the energy of the phase, the peak is its highest interval",
          "[energy][system]") {
  const std::string dir = (std::filesystem::temp_directory_path() / "ufs_energy_series_test").string();
  std::filesystem::remove_all(dir);
  // A write burst, then reads at a slow rate: the power changes across the 10 ms intervals.
  const nlohmann::json s = run_energy("rw=randrw,rwmixread=70,bs=8k,iodepth=4,size=64m,count=3000,rate_iops=20000,seed=9",
                                      {}, dir);
  const nlohmann::json& e = s.at("energy");
  std::ifstream in(dir + "/timeseries.csv");
  std::string header, line;
  REQUIRE(std::getline(in, header));
  CHECK(header.substr(header.rfind(',') + 1) == "power_mw");
  // Rows are the end of their interval; an interval's energy = power x its length. Gaps
  // (two rows standing for a run of empty intervals) do not occur at this rate.
  double energy_uj = 0, previous_end = 0, peak = 0;
  size_t rows = 0;
  while (std::getline(in, line)) {
    std::stringstream fields(line);
    std::string time, cell, power;
    std::getline(fields, time, ',');
    while (std::getline(fields, cell, ',')) power = cell;
    REQUIRE_FALSE(power.empty());
    const double end = std::stod(time), mw = std::stod(power);
    energy_uj += mw * (end - previous_end) * 1e3;
    previous_end = end;
    peak = std::max(peak, mw);
    ++rows;
  }
  INFO(e.dump(2));
  CHECK(rows >= 10);
  CHECK(previous_end == Approx(s.at("simulated_seconds").get<double>()));
  CHECK(energy_uj == Approx(e.at("total_uj").get<double>()).epsilon(0.01));
  CHECK(e.at("peak_power_mw").get<double>() == Approx(peak).epsilon(1e-6));
  CHECK(e.at("peak_power_mw").get<double>() >= e.at("mean_power_mw").get<double>());
  std::filesystem::remove_all(dir);
}

TEST_CASE("Energy of the crypto unit: a job costs its rounds, whatever the rounds per cycle", "[energy][system]") {
  // HPB on: the device signs the entries it returns and verifies those it is sent (crypto
  // jobs of two AES-128 blocks, 20 rounds). Fully unrolled (10 rounds per cycle): 2 cycles
  // per job, still 20 rounds' energy.
  const nlohmann::json s = run_energy("rw=randread,bs=4k,iodepth=8,size=64m,count=3000,seed=4",
                                      {"hpb.enabled=true", "crypto.model=cpp", "crypto.rounds_per_cycle=10"});
  const nlohmann::json& e = s.at("energy");
  INFO(e.dump(2));
  const nlohmann::json& a = e.at("activity");
  const double cycles = a.at("crypto_cycles").get<double>();
  REQUIRE(cycles > 0);
  CHECK(e.at("components").at("crypto_active").get<double>() == Approx(50.0 * 10 * cycles * 1e-6));
  CHECK(e.at("crypto_uj_per_job").get<double>() == Approx(50.0 * 20 * 1e-6));
}
