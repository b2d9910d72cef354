// Collects what a run reports: latency histograms per op and per stream, a time
// series, byte counts; and (optionally) feeds the data-integrity scoreboard.
// Then turns them, with the platform's own counters, into stats.json.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>
#include "device_firmware.h"
#include "host/host_observer.h"
#include "output/idle_arrival_counter.h"
#include "output/latency_histogram.h"
#include "output/time_series.h"
#include "platform/energy_collector.h"
#include "scoreboard.h"

namespace ufs {

class TraceRecorder;
class UfsPlatform;

class RunStatistics : public HostObserver {
 public:
  explicit RunStatistics(bool check_data, uint64_t interval_ps = 10'000'000'000ull);

  void on_issue(const IoRecord& r) override;
  void on_complete(const IoRecord& r) override;

  // Start of the measured phase: forget what the precondition phase did (the scoreboard keeps it).
  void start_measurement(uint64_t now_ps);
  // ... and the firmware's counters then, for stats.json's ftl.measured (the measured phase alone).
  void mark_firmware_start(const UfsPlatform& p);
  // ... and every resource's busy time then, for the measured phase's busy fractions.
  void mark_busy_start(const UfsPlatform& platform);
  // The time series' power: the energy from the last counter sample to the end.
  void finish_energy_series(const UfsPlatform& platform, uint64_t end_ps);
  // The same power as a wave signal, `scope`.power_uw (uW, an integer; also a counter track
  // on the timeline): between two counter samples it holds the span's mean power, so its
  // integral over the measured phase is the time series' energy. 0 outside the measured phase.
  void trace_power(TraceRecorder* trace, const std::string& scope);
  void set_stream_names(std::vector<std::string> names) { stream_names_ = std::move(names); }

  Scoreboard* scoreboard() { return scoreboard_.get(); }
  uint64_t completed() const { return completed_; }
  const LatencyHistogram& latency(BlockOp op) const { return by_op_[size_t(op)]; }
  const TimeSeries& time_series() const { return series_; }

  // stats.json: throughput, latency per op and stream, utilisation, FTL and link counters.
  nlohmann::json to_json(UfsPlatform& platform, uint64_t end_ps, double wall_seconds) const;

 private:
  std::map<std::string, uint64_t> ftl_at_start_;
  // Busy time booked before a moment, per resource (dies, channels, core, link directions).
  struct BusySnapshot {
    std::vector<double> die_s, channel_s;
    double cpu_s = 0, h2d_s = 0, d2h_s = 0;
  };
  static BusySnapshot busy_at(const UfsPlatform& platform, uint64_t at_ps);
  static nlohmann::json utilisation_json(const UfsPlatform& platform, const BusySnapshot& from, const BusySnapshot& to,
                                         double window_s);

  BusySnapshot busy_at_start_;
  EnergyCounters energy_at_start_;
  // Power over time: the counters are sampled at the first completion of each new interval
  // of the time series; the energy between two samples is spread over their span.
  const UfsPlatform* energy_platform_ = nullptr;
  EnergyCounters energy_last_;
  uint64_t energy_last_interval_ = 0;
  TraceRecorder* power_trace_ = nullptr;
  int power_signal_ = -1;
  int64_t power_uw_ = 0;  // the signal's value
  void set_power(uint64_t at_ps, int64_t uw);
  void sample_energy(uint64_t at_ps);
  std::unique_ptr<Scoreboard> scoreboard_;
  LatencyHistogram by_op_[4];
  std::map<uint32_t, LatencyHistogram> by_stream_;
  TimeSeries series_;
  std::vector<std::string> stream_names_;
  IdleArrivalCounter idle_arrivals_;
  uint64_t bytes_[4] = {0, 0, 0, 0};
  uint64_t count_[4] = {0, 0, 0, 0};
  uint64_t errors_ = 0;
  uint64_t completed_ = 0;
  uint64_t start_ps_ = 0;
};

}  // namespace ufs
