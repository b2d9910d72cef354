// Studies against device datasheets / press figures.
#include "experiments/experiment.h"

namespace ufs {

namespace {

std::vector<ExperimentRow> ufs31_datasheet(ExperimentContext& ctx) {
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
  // Five independent runs: one step; each callback adds its row, in this order.
  ctx.submit("seq_read", with("rw=read,bs=512k,iodepth=32,size=8g,count=4000"),
             [&rows](const nlohmann::json& s) {
    rows.push_back({"sequential read", "512KiB QD32", 2100, op_value(s, "read", "mb_per_s"), "MB/s", 0.15});
  });
  ctx.submit("seq_write", with("rw=write,bs=512k,iodepth=32,size=8g,count=4000"),
             [&rows](const nlohmann::json& s) {
    rows.push_back({"sequential write", "512KiB QD32", 1200, op_value(s, "write", "mb_per_s"), "MB/s", 0.15});
  });
  // The same writes TLC-direct: Samsung's 512GB eUFS 3.0 (Feb 2019) is the same eight 5th-generation
  // 512 Gb dies without WriteBooster, 410 MB/s. ufs31's TLC program time is calibrated on this row
  // (sim/presets/ufs31.json), so this row checks that calibration (the 1200 MB/s row checks the core's).
  std::vector<std::string> tlc_direct = with("rw=write,bs=512k,iodepth=32,size=8g,count=4000");
  tlc_direct.insert(tlc_direct.end(), {"--set", "writebooster.enabled=false"});
  ctx.submit("seq_write_wb_off", tlc_direct, [&rows](const nlohmann::json& s) {
    rows.push_back({"seq. write, WriteBooster off (calibrated)", "512KiB QD32", 410, op_value(s, "write", "mb_per_s"),
                    "MB/s", 0.15});
  });
  ctx.submit("rand_read", with("rw=randread,bs=4k,iodepth=32,size=1g,count=100000"),
             [&rows](const nlohmann::json& s) {
    rows.push_back({"random read", "4KiB QD32", 100000, op_value(s, "read", "iops"), "IOPS", 0.15});
  });
  ctx.submit("rand_write", with("rw=randwrite,bs=4k,iodepth=32,size=1g,count=100000"),
             [&rows](const nlohmann::json& s) {
    rows.push_back({"random write", "4KiB QD32", 70000, op_value(s, "write", "iops"), "IOPS", 0.15});
  });
  ctx.wait();
  return rows;
}

}  // namespace

std::vector<Experiment> make_datasheet_experiments() {
  return {Experiment{"ufs31-datasheet",
                     "Samsung 512GB eUFS 3.1 mass-production announcement (March 2020): 2100/1200 MB/s, 100K/70K IOPS; "
                     "Samsung 512GB eUFS 3.0 (Feb 2019, same eight 512 Gb dies, no WriteBooster): 410 MB/s write",
                     "the default preset's sequential and 4 KiB random throughput against the published device (WriteBooster on, "
                     "as shipped), and its sequential writes TLC-direct (WriteBooster off)",
                     ufs31_datasheet,
                     "request size, queue depth"}};
}

}  // namespace ufs
