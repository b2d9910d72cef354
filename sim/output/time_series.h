// Throughput and mean latency per fixed interval of simulated time, for the
// "throughput over time" plot (GC stalls, write-cache flushes and SLC-cache
// exhaustion show up here, not in the run's averages). Completions are binned by
// completion time. Only intervals with completions are stored (a trace with
// hours of idle time between bursts costs nothing for its gaps).
// CSV columns (the plot reads these names):
//   time_s, read_iops, write_iops, read_mbps, write_mbps, mean_read_lat_us, mean_write_lat_us, power_mw
// Interval i covers simulated time (i*interval, (i+1)*interval] (the first also holds t=0);
// time_s is the END of the interval; MB/s are decimal (1e6 bytes/s); a mean latency
// is empty when the interval had no completion of that kind. A run of empty
// intervals is written as two zero rows (its first and its last interval), so a
// plot draws the gap flat at zero without one row per empty interval.
// power_mw (issue 22): the device's mean power in the interval, from the energy of the
// spans recorded with record_energy (the energy model between two counter samples, spread
// evenly over its span); empty when no energy was recorded.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace ufs {

class TimeSeries {
 public:
  enum class OpClass { Read, Write };

  struct Row {
    double time_s = 0;      // end of the interval
    double read_iops = 0;
    double write_iops = 0;
    double read_mbps = 0;
    double write_mbps = 0;
    double mean_read_lat_us = 0;   // 0 when read_iops is 0
    double mean_write_lat_us = 0;  // 0 when write_iops is 0
    uint64_t reads = 0;            // completions in the interval
    uint64_t writes = 0;
    double power_mw = 0;           // mean device power (0 without energy spans)
  };

  static constexpr const char* kCsvHeader =
      "time_s,read_iops,write_iops,read_mbps,write_mbps,mean_read_lat_us,mean_write_lat_us,power_mw";

  // interval_ps: bin width in simulated picoseconds (10 ms = 10'000'000'000).
  explicit TimeSeries(uint64_t interval_ps = 10'000'000'000ull);

  // One completed request (times in picoseconds, as in IoRecord).
  void record(OpClass op, uint64_t complete_ps, uint64_t bytes, uint64_t latency_ps);

  // The device's energy over [from_ps, to_ps) (same time base as record), spans in time order.
  void record_energy(uint64_t from_ps, uint64_t to_ps, double uj);
  bool has_energy() const { return !spans_.empty(); }
  // Energy of [from_ps, to_ps) from the recorded spans (each spread evenly over its span).
  double energy_uj(uint64_t from_ps, uint64_t to_ps) const;

  uint64_t interval_ps() const { return interval_ps_; }
  // Intervals from time 0 up to the last completion (empty ones included).
  size_t interval_count() const { return bins_.empty() ? 0 : size_t(bins_.back().index + 1); }

  // One row per interval with completions, and the first and last interval of each
  // run of empty ones (from time 0 up to the last completion). When end_ps falls
  // inside the last interval, that interval's rates use its actual length.
  std::vector<Row> rows(uint64_t end_ps = 0) const;
  void write_csv(std::ostream& out, uint64_t end_ps = 0) const;

 private:
  struct Bin {
    uint64_t index = 0;  // interval number
    uint64_t count[2] = {0, 0};
    uint64_t bytes[2] = {0, 0};
    long double latency_ps[2] = {0, 0};
  };

  struct Span {
    uint64_t from_ps, to_ps;
    double uj;
  };

  uint64_t interval_ps_;
  std::vector<Bin> bins_;  // non-empty intervals, ascending index
  std::vector<Span> spans_;  // energy spans, ascending, not overlapping
};

}  // namespace ufs
