// Studies against device datasheets / press figures.
#include "experiments/experiment.h"

namespace ufs {

namespace {

double op_value(const nlohmann::json& stats, const char* op, const char* key) {
  return stats.at("ops").at(op).at(key).get<double>();
}

std::vector<ExperimentRow> ufs31_datasheet(const ExperimentContext& ctx) {
  // fio-style jobs as device reviews run them: 512 KiB sequential and 4 KiB random at QD32. Random
  // runs use a 1 GiB file, which the device's 1 MiB L2P SRAM covers (16 MiB of LBAs per 16 KiB map
  // page); over wider ranges map misses cut the IOPS (see the map-cache studies).
  const std::vector<std::string> common = {"--preset", "ufs31", "--precondition-fill", "8g"};
  auto with = [&](const std::string& workload) {
    std::vector<std::string> a = common;
    a.push_back("--workload");
    a.push_back(workload);
    return a;
  };
  std::vector<ExperimentRow> rows;
  const auto sr = ctx.run("seq_read", with("rw=read,bs=512k,iodepth=32,size=8g,count=4000"));
  rows.push_back({"sequential read", "512KiB QD32", 2100, op_value(sr, "read", "mb_per_s"), "MB/s", 0.15});
  const auto sw = ctx.run("seq_write", with("rw=write,bs=512k,iodepth=32,size=8g,count=4000"));
  rows.push_back({"sequential write", "512KiB QD32", 1200, op_value(sw, "write", "mb_per_s"), "MB/s", 0.15});
  const auto rr = ctx.run("rand_read", with("rw=randread,bs=4k,iodepth=32,size=1g,count=100000"));
  rows.push_back({"random read", "4KiB QD32", 100000, op_value(rr, "read", "iops"), "IOPS", 0.15});
  const auto rw = ctx.run("rand_write", with("rw=randwrite,bs=4k,iodepth=32,size=1g,count=100000"));
  rows.push_back({"random write", "4KiB QD32", 70000, op_value(rw, "write", "iops"), "IOPS", 0.15});
  return rows;
}

}  // namespace

std::vector<Experiment> make_datasheet_experiments() {
  return {Experiment{"ufs31-datasheet",
                     "Samsung 512GB eUFS 3.1 mass-production announcement (March 2020): 2100/1200 MB/s, 100K/70K IOPS",
                     "the default preset's sequential and 4 KiB random throughput against the published device",
                     ufs31_datasheet}};
}

}  // namespace ufs
