// Per-request statistics of a run, fed by the host driver's completion callback
// (HostObserver): one latency histogram per op, the time series, byte and error
// counts. It produces the "throughput" and "latency_us" sections of stats.json
// and the latency CDF / time-series CSVs, so every run reports them the same way.
//   latency     = complete_ps - issue_ps    (command sent .. response processed)
//   e2e latency = complete_ps - arrival_ps  (adds host queueing; differs in open-loop runs)
// Requests completed with a non-GOOD status count as errors, not in latencies.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "host/host_observer.h"
#include "output/latency_histogram.h"
#include "output/run_folder.h"
#include "output/time_series.h"

namespace ufs {

class IoStatistics : public HostObserver {
 public:
  static constexpr uint64_t kLogicalBlockBytes = 4096;  // BlockRequest::blocks unit

  explicit IoStatistics(uint64_t interval_ps = 10'000'000'000ull);

  void on_complete(const IoRecord& record) override;

  // Lower-case op names used in stats.json and file names: read, write, flush, unmap.
  static const char* op_name(BlockOp op);

  uint64_t completed() const { return completed_; }
  uint64_t errors() const { return errors_; }
  uint64_t bytes(BlockOp op) const { return bytes_[index(op)]; }
  const LatencyHistogram& latency(BlockOp op) const { return latency_[index(op)]; }
  const LatencyHistogram& e2e_latency(BlockOp op) const { return e2e_latency_[index(op)]; }
  const TimeSeries& time_series() const { return series_; }
  uint64_t last_completion_ps() const { return last_complete_ps_; }

  // {"read_iops","write_iops","read_mbps","write_mbps","total_iops","total_mbps"} over
  // simulated time [0, end_ps] (MB = 1e6 bytes).
  nlohmann::json throughput_json(uint64_t end_ps) const;
  // {"read": {count, min, mean, max, p50, ...}, "write": ...} in microseconds, non-empty ops only.
  nlohmann::json latency_json() const;
  nlohmann::json e2e_latency_json() const;
  // latency_cdf_<op>.csv for each non-empty op, and timeseries.csv.
  void write_csvs(const RunFolder& folder, uint64_t end_ps) const;

 private:
  static constexpr size_t kOps = 4;
  static size_t index(BlockOp op) { return static_cast<size_t>(op) < kOps ? static_cast<size_t>(op) : 0; }

  std::array<LatencyHistogram, kOps> latency_;
  std::array<LatencyHistogram, kOps> e2e_latency_;
  std::array<uint64_t, kOps> count_{};
  std::array<uint64_t, kOps> bytes_{};
  TimeSeries series_;
  uint64_t completed_ = 0;
  uint64_t errors_ = 0;
  uint64_t last_complete_ps_ = 0;
};

}  // namespace ufs
