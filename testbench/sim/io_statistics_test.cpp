// IoStatistics: completions from the host observer become per-op latencies,
// throughput and the CSVs; errors are counted, not timed.
#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <unistd.h>

#include "output/io_statistics.h"

using ufs::BlockOp;
using ufs::IoRecord;
using ufs::IoStatistics;

namespace {
IoRecord completion(BlockOp op, uint32_t blocks, uint64_t arrival, uint64_t issue, uint64_t complete, uint8_t status = 0) {
  IoRecord r;
  r.request.op = op;
  r.request.blocks = blocks;
  r.arrival_ps = arrival;
  r.issue_ps = issue;
  r.complete_ps = complete;
  r.status = status;
  return r;
}
constexpr uint64_t kUs = 1'000'000;  // ps
}  // namespace

TEST_CASE("io statistics: latency, throughput and errors", "[iostats]") {
  IoStatistics stats(1000 * kUs);
  stats.on_complete(completion(BlockOp::Read, 1, 0, 10 * kUs, 110 * kUs));       // 100 us
  stats.on_complete(completion(BlockOp::Read, 1, 5 * kUs, 10 * kUs, 210 * kUs));  // 200 us, e2e 205
  stats.on_complete(completion(BlockOp::Write, 4, 0, 0, 500 * kUs));              // 500 us, 16 KiB
  stats.on_complete(completion(BlockOp::Unmap, 8, 0, 0, 50 * kUs));
  stats.on_complete(completion(BlockOp::Read, 1, 0, 0, 900 * kUs, 0x02));         // CHECK CONDITION
  CHECK(stats.completed() == 5);
  CHECK(stats.errors() == 1);
  CHECK(stats.latency(BlockOp::Read).count() == 2);
  CHECK(stats.latency(BlockOp::Read).max() == 200 * kUs);
  CHECK(stats.e2e_latency(BlockOp::Read).max() == 205 * kUs);
  CHECK(stats.bytes(BlockOp::Write) == 16384);
  CHECK(stats.bytes(BlockOp::Unmap) == 0);

  const auto tp = stats.throughput_json(1000 * kUs);  // 1 ms
  CHECK(tp["read_iops"].get<double>() == Approx(2000.0));
  CHECK(tp["write_mbps"].get<double>() == Approx(16.384));
  CHECK(tp["total_iops"].get<double>() == Approx(3000.0));
  const auto lat = stats.latency_json();
  CHECK(lat["read"]["count"] == 2);
  CHECK(lat["read"]["mean"].get<double>() == Approx(150.0));
  CHECK(lat.contains("unmap"));
  CHECK_FALSE(lat.contains("flush"));

  const auto rows = stats.time_series().rows(1000 * kUs);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].reads == 2);
  CHECK(rows[0].writes == 1);
}

TEST_CASE("io statistics: writes CDFs per op and the time series", "[iostats]") {
  static std::atomic<int> counter{0};
  const auto dir = std::filesystem::temp_directory_path() /
                   ("ufs_iostats_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
  {
    ufs::RunFolder folder(dir.string());
    IoStatistics stats;
    stats.on_complete(completion(BlockOp::Read, 1, 0, 0, 80 * kUs));
    stats.on_complete(completion(BlockOp::Flush, 0, 0, 0, 90 * kUs));
    stats.write_csvs(folder, 100 * kUs);
  }
  CHECK(std::filesystem::exists(dir / "latency_cdf_read.csv"));
  CHECK(std::filesystem::exists(dir / "latency_cdf_flush.csv"));
  CHECK_FALSE(std::filesystem::exists(dir / "latency_cdf_write.csv"));
  CHECK(std::filesystem::exists(dir / "timeseries.csv"));
  std::filesystem::remove_all(dir);
}
