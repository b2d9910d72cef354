// Smartphone workloads from Zhou et al., "I/O Characteristics of Smartphone
// Applications and Their Implications for eMMC Design" (IISWC'15, seed 002).
//
// iiswc15-workloads, per app (booting, movie, music, twitter, facebook, cameravideo,
// installing):
//  1. the generated stream (`smartphone:APP`, Table III's number of requests) beside
//     the Table III / IV statistics it is built from: write-request share, mean read
//     and write size, arrival rate, spatial and temporal locality. Tolerances are the
//     sampling noise of one trace of that length (the unit tests check 100000-request
//     samples much tighter);
//  2. the stream replayed open loop on the `ufs31` preset (its address span written
//     beforehand): mean response time and the share of requests that met an idle
//     device, beside the Nexus 5 eMMC's Table IV values. Those rows are "shape": the
//     paper measured a 2013 eMMC 4.51, the model is a UFS 3.1 device; the finding to
//     see is the seed's Characteristic 3 (most requests meet an idle device).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>
#include "experiments/experiment.h"
#include "workload/smartphone_profiles.h"
#include "workload/trace_stats.h"

namespace ufs {

namespace {

const char* const kApps[] = {"booting", "movie", "music", "twitter", "facebook", "cameravideo", "installing"};

double pct(uint64_t a, uint64_t b) { return b ? 100.0 * double(a) / double(b) : 0.0; }

// Mean response time over every completed request of a run, in us.
double mean_response_us(const nlohmann::json& stats) {
  double sum_us = 0, count = 0;
  for (const auto& [op, o] : stats.at("ops").items()) {
    const double n = o.value("count", 0.0);
    sum_us += n * o.value("mean", 0.0);
    count += n;
  }
  return count > 0 ? sum_us / count : 0.0;
}

std::vector<ExperimentRow> iiswc15_workloads(const ExperimentContext& ctx) {
  std::vector<ExperimentRow> rows;
  for (const char* app : kApps) {
    const SmartphoneAppProfile& p = *find_smartphone_profile(app);
    const std::string spec = std::string("smartphone:") + app;
    const TraceStats s = compute_trace_stats(spec);
    const uint64_t data = s.reads + s.writes;
    // Relative sampling noise of a share f over n requests, 3 standard errors, at least 5%.
    auto band = [](double f, double n) { return std::max(0.05, 3.0 * std::sqrt((1 - f) / (f * n))); };
    rows.push_back({"write requests", app, p.write_req_pct, pct(s.writes, data), "%",
                    band(p.write_req_pct / 100, double(data))});
    rows.push_back({"mean read size", app, p.ave_read_kb, s.reads ? double(s.read_bytes) / 1024 / double(s.reads) : 0,
                    "KB", s.reads < 1000 ? 0.25 : 0.10});
    rows.push_back({"mean write size", app, p.ave_write_kb,
                    s.writes ? double(s.write_bytes) / 1024 / double(s.writes) : 0, "KB", s.writes < 1000 ? 0.25 : 0.10});
    rows.push_back({"arrival rate", app, p.arrival_rate,
                    s.duration_ps ? double(s.requests - 1) / (double(s.duration_ps) * 1e-12) : 0, "req/s", 0.05});
    rows.push_back({"spatial locality", app, p.spatial_pct, 100 * s.sequential_global, "%",
                    band(p.spatial_pct / 100, double(data))});
    rows.push_back({"temporal locality", app, p.temporal_pct, 100 * s.start_reaccess, "%",
                    band(p.temporal_pct / 100, double(data))});

    const nlohmann::json run = ctx.run(app, {"--preset", "ufs31", "--precondition-fill", "4g", "--no-check",
                                             "--workload", spec});
    rows.push_back({"mean response time", app, 1000 * p.mean_response_ms, mean_response_us(run), "us", 0});
    rows.push_back({"met an idle device", app, p.nowait_pct, 100 * run.value("idle_arrival_fraction", 0.0), "%", 0});
  }
  return rows;
}

// Seed 002 section VI (Table V, Figures 8 and 9): page size on the paper's eMMC, 4 KiB pages
// (4PS) vs 8 KiB pages (8PS), each app's generated trace on a fresh device. The paper's
// hybrid (HPS: 512 4 KiB-page + 256 8 KiB-page blocks per plane) is NOT modelled here
// (mixed page sizes in one plane are missing); the paper finds 8PS "very similar to HPS" in
// mean response time and HPS "always" at 4PS's space utilisation, so this study compares
// the model's 8PS-vs-4PS response time with the published HPS-vs-4PS figures and the
// model's 4PS-vs-8PS utilisation with the published HPS-vs-8PS ones. Space utilisation =
// host data written / page space programmed for it (a 4 KiB write fills half an 8 KiB page).
std::vector<ExperimentRow> iiswc15_page_size(const ExperimentContext& ctx) {
  struct Published { double mrt_cut, util_gain; };
  // Published per app where the text gives it: booting -86% (largest), movie -24% (smallest);
  // music +24.2% utilisation (largest). Others: model only; the means are the paper's.
  auto published = [](const std::string& app) {
    if (app == "booting") return Published{86, kModelOnly};
    if (app == "movie") return Published{24, kModelOnly};
    if (app == "music") return Published{kModelOnly, 24.2};
    return Published{kModelOnly, kModelOnly};
  };
  std::vector<ExperimentRow> rows;
  double cut_sum = 0, util_sum = 0;
  int n = 0;
  for (const char* app : kApps) {
    double mrt[2] = {0, 0}, util[2] = {0, 0};
    for (const int eight : {0, 1}) {
      const auto s = ctx.run(std::string(app) + (eight ? "_8ps" : "_4ps"),
                             {"--preset", eight ? "iiswc15-emmc-8ps" : "iiswc15-emmc-4ps", "--workload",
                              std::string("smartphone:") + app});
      mrt[eight] = mean_response_us(s);
      const auto& f = s.at("ftl");
      const double programmed = f.at("host_program_sectors").get<double>() + f.at("padding_sectors").get<double>();
      util[eight] = programmed > 0 ? f.at("host_write_blocks").get<double>() / programmed : 1.0;
    }
    const double cut = mrt[0] > 0 ? 100.0 * (1.0 - mrt[1] / mrt[0]) : 0;
    const double gain = util[1] > 0 ? 100.0 * (util[0] / util[1] - 1.0) : 0;
    cut_sum += cut;
    util_sum += gain;
    ++n;
    const Published p = published(app);
    rows.push_back({"MRT 4PS", app, kModelOnly, mrt[0], "us", 0});
    rows.push_back({"MRT 8PS", app, kModelOnly, mrt[1], "us", 0});
    rows.push_back({"MRT cut vs 4PS (model 8PS, paper HPS)", app, p.mrt_cut, cut, "%", 0});
    rows.push_back({"utilisation 4PS / 8PS", app, kModelOnly, 100.0 * util[0], "%", 0});
    rows.push_back({"utilisation 8PS", app, kModelOnly, 100.0 * util[1], "%", 0});
    rows.push_back({"utilisation gain vs 8PS (model 4PS, paper HPS)", app, p.util_gain, gain, "%", 0});
  }
  rows.push_back({"mean MRT cut vs 4PS", "7 apps (paper: 18)", 61.9, n ? cut_sum / n : 0, "%", 0.5});
  rows.push_back({"mean utilisation gain vs 8PS", "7 apps (paper: 18)", 13.1, n ? util_sum / n : 0, "%", 0.5});
  return rows;
}

}  // namespace

std::vector<Experiment> make_iiswc15_experiments() {
  return {Experiment{"iiswc15-workloads",
                     "Zhou, Pan, Wang, Xie, \"I/O Characteristics of Smartphone Applications and Their Implications "
                     "for eMMC Design\", IISWC 2015 (seed 002), Tables III and IV",
                     "generated smartphone traces beside the paper's per-app statistics, replayed on ufs31: "
                     "mean response time and requests that meet an idle device",
                     iiswc15_workloads},
          Experiment{"iiswc15-page-size",
                     "Zhou et al., IISWC 2015 (seed 002), section VI, Table V, Figures 8 and 9",
                     "4 KiB vs 8 KiB pages on the paper's eMMC with each app's generated trace: mean response time and "
                     "space utilisation beside the paper's hybrid-page-size (HPS) figures (HPS itself not modelled)",
                     iiswc15_page_size}};
}

}  // namespace ufs
