// RunFolder: creates the folder, writes every contract file, reports errors
// clearly; ProgressLine: silent when not a terminal, throttled when forced on.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "output/progress_line.h"
#include "output/run_folder.h"

namespace fs = std::filesystem;
using ufs::LatencyHistogram;
using ufs::RunFolder;
using ufs::RunFolderError;
using ufs::TimeSeries;

namespace {

class ScratchDir {
 public:
  ScratchDir() {
    static std::atomic<int> counter{0};
    path_ = fs::temp_directory_path() / ("ufs_run_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  fs::path operator/(const std::string& s) const { return path_ / s; }
  std::string str() const { return path_.string(); }

 private:
  fs::path path_;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

nlohmann::json sample_stats() {
  LatencyHistogram read;
  for (uint64_t v = 1; v <= 1000; ++v) read.record(v * 100'000);  // 0.1..100 us in ps
  return nlohmann::json{
      {"preset", "ufs31"}, {"workload", "randread"}, {"simulated_seconds", 0.5}, {"requests", 1000},
      {"ops", {{"read", read.summary_json(1e-6)}}},
      {"streams", {{"app-1", read.summary_json(1e-6)}}},
      {"utilisation", {{"die_busy", {0.5, 0.25, 0.75, 1.0}}, {"die_idle", {0.5, 0.75, 0.25, 0.0}},
                       {"channel_busy", {0.4, 0.6}}, {"dies_per_channel", 2}, {"cpu_busy", 0.3}}},
      {"ftl", {{"waf", 1.25}, {"gc_runs", 3}}},
  };
}

}  // namespace

TEST_CASE("run folder: creates nested folders and writes the contract files", "[runfolder]") {
  ScratchDir scratch;
  RunFolder run((scratch / "a/b/run1").string());
  CHECK(fs::is_directory(scratch / "a/b/run1"));

  const auto stats = sample_stats();
  run.write_stats(stats);
  run.write_config(nlohmann::json{{"fcc", {{"channels", 4}}}});
  run.write_summary(stats);
  LatencyHistogram h;
  h.record(1'000'000);
  h.record(3'000'000);
  run.write_latency_cdf("read", h, 1e-6);
  TimeSeries ts(1'000'000'000);
  ts.record(TimeSeries::OpClass::Read, 500'000'000, 4096, 1'000'000);
  run.write_time_series(ts, 800'000'000);

  CHECK(nlohmann::json::parse(slurp(scratch / "a/b/run1/stats.json")) == stats);
  CHECK(nlohmann::json::parse(slurp(scratch / "a/b/run1/config.json"))["fcc"]["channels"] == 4);
  // Each point is a bucket's upper end (within 1/128 of the sample) and the fraction at or below it.
  CHECK(slurp(scratch / "a/b/run1/latency_cdf_read.csv") == "latency_us,fraction\n1.003519,0.5\n3,1\n");
  const std::string series = slurp(scratch / "a/b/run1/timeseries.csv");
  CHECK(series.rfind(TimeSeries::kCsvHeader, 0) == 0);
  CHECK(series.find("0.0008,1250,") != std::string::npos);  // partial interval of 0.8 ms
  const std::string summary = slurp(scratch / "a/b/run1/summary.txt");
  CHECK(summary.find("preset=ufs31") != std::string::npos);
  CHECK(summary.find("latency (us)") != std::string::npos);
  CHECK(summary.find("p99_9") != std::string::npos);
  CHECK(summary.find("die_idle") == std::string::npos);  // implied by die_busy
  CHECK(summary.find("app-1") == std::string::npos);     // per-stream detail stays in stats.json
  CHECK(summary.find("die_busy: mean 62.5%") != std::string::npos);
  CHECK(summary.find("cpu_busy: 30.0%") != std::string::npos);
  CHECK(summary.find("ftl.waf: 1.25") != std::string::npos);
  for (const auto& e : fs::directory_iterator(scratch / "a/b/run1"))
    CHECK(e.path().extension() != ".tmp");  // no temporaries left behind

  RunFolder again((scratch / "a/b/run1").string());  // an existing folder is reused
  CHECK(again.file("stats.json") == (scratch / "a/b/run1/stats.json").string());
}

TEST_CASE("run folder: errors name the folder and the reason", "[runfolder]") {
  ScratchDir scratch;
  fs::create_directories(scratch / "");
  std::ofstream(scratch / "afile") << "x";
  try {
    RunFolder bad((scratch / "afile/sub").string());
    FAIL("expected RunFolderError");
  } catch (const RunFolderError& e) {
    const std::string what = e.what();
    CHECK(what.find("cannot create run folder '") == 0);
    CHECK(what.find("afile/sub") != std::string::npos);
  }
  CHECK_THROWS_AS(RunFolder((scratch / "afile").string()), RunFolderError);
  CHECK_THROWS_AS(RunFolder(""), RunFolderError);
}

TEST_CASE("progress line: silent unless a terminal, throttled when drawn", "[progress]") {
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  {
    ufs::ProgressLine auto_line(ufs::ProgressLine::Mode::Auto, file);  // a file is not a terminal
    CHECK_FALSE(auto_line.enabled());
    auto_line.update(0.001, 1, 10);
    auto_line.finish(0.002, 10, 10);
    CHECK(std::ftell(file) == 0);
  }
  {
    ufs::ProgressLine line(ufs::ProgressLine::Mode::Always, file, 3600.0);
    for (int i = 0; i < 1000; ++i) line.update(i * 1e-6, static_cast<uint64_t>(i), 1000);
    CHECK(line.lines_drawn() == 0);  // within the first interval: nothing yet
    line.finish(0.001, 1000, 1000);
    CHECK(line.lines_drawn() == 1);
  }
  {
    ufs::ProgressLine line(ufs::ProgressLine::Mode::Always, file, 0.0);
    line.update(0.5, 10, 0);
    CHECK(line.lines_drawn() == 1);
  }
  std::rewind(file);
  char buf[512] = {};
  const size_t n = std::fread(buf, 1, sizeof buf - 1, file);
  const std::string text(buf, n);
  CHECK(text.find("\rsim 1.000 ms | 1000/1000 req (100.0%)") == 0);
  CHECK(text.find("\n\rsim 500.000 ms | 10 req") != std::string::npos);
  std::fclose(file);
  ufs::ProgressLine never(ufs::ProgressLine::Mode::Never);
  CHECK_FALSE(never.enabled());
}
