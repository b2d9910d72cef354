// Studies of Host Performance Booster (seeds 001 and 003): HPB off vs on.
#include <algorithm>
#include <cstdio>
#include <string>
#include "experiments/experiment.h"

namespace ufs {

namespace {

double read_mb_per_s(const nlohmann::json& stats) {
  return stats.at("ops").at("read").at("mb_per_s").get<double>();
}

// The Linux HPB driver's cover letter (seed 001): iozone -r 4k -i2 -t 16 (16 threads of
// 4 KiB random reads, one outstanding each) over 1..32 GB files on a UFS 2.1 64 GB device,
// HPB off and on. The file is written first (precondition fill); then one unmeasured pass
// of the same reads warms what a long iozone run warms: the device's L2P SRAM, and with HPB
// on the host's entry cache (device control mode: the device recommends the sub-regions it
// misses, the host fetches them with READ BUFFER). The measured pass follows.
std::vector<ExperimentRow> linux_iozone(const ExperimentContext& ctx) {
  struct Row { const char* range; double hpb_on, hpb_off; };
  const Row table[] = {{"1g", 294.8, 300.87}, {"4g", 293.51, 179.35}, {"8g", 294.85, 162.52},
                       {"16g", 293.45, 156.26}, {"32g", 277.4, 153.25}};
  std::vector<ExperimentRow> rows;
  double off_1g = 0, off_32g = 0, on_min = 1e9, on_max = 0;
  for (const Row& r : table) {
    const std::string range = r.range;
    const std::string reads = "rw=randread,bs=4k,iodepth=1,numjobs=16,size=" + range;
    const std::string label = std::string(r.range).substr(0, range.size() - 1) + " GB";
    for (const bool hpb : {false, true}) {
      const auto s = ctx.run(range + (hpb ? "_hpb_on" : "_hpb_off"),
                             {"--preset", "ufs21-64g", "--precondition-fill", range, "--precondition",
                              reads + ",count=150000,seed=7", "--workload", reads + ",count=60000,seed=8",
                              "--set", std::string("hpb.enabled=") + (hpb ? "true" : "false")});
      const double mb = read_mb_per_s(s);
      rows.push_back({hpb ? "HPB on" : "HPB off", label, hpb ? r.hpb_on : r.hpb_off, mb, "MB/s", 0.15});
      if (hpb) { on_min = std::min(on_min, mb); on_max = std::max(on_max, mb); }
      else if (range == "1g") off_1g = mb;
      else if (range == "32g") off_32g = mb;
    }
  }
  // The shape: HPB off falls to about half once the range outgrows the map cache; HPB on stays flat.
  rows.push_back({"HPB off 32 GB / 1 GB", "ratio", 153.25 / 300.87, off_1g > 0 ? off_32g / off_1g : 0, "", 0.15});
  rows.push_back({"HPB on min / max", "flatness", 277.4 / 294.85, on_max > 0 ? on_min / on_max : 0, "", 0.15});
  return rows;
}

}  // namespace

std::vector<Experiment> make_hpb_experiments() {
  return {Experiment{"linux-iozone",
                     "Linux HPB driver cover letter (seed 001, ufshpb v5..v6.5 series): UFS 2.1 64 GB, "
                     "iozone -r 4k -i2 -t 16, random read MB/s with HPB on and off",
                     "4 KiB random reads, 16 threads, range 1/4/8/16/32 GB on ufs21-64g (1 MiB L2P SRAM covers 1 GiB): "
                     "HPB off falls once the range outgrows the map cache, HPB on stays flat",
                     linux_iozone}};
}

}  // namespace ufs
