// The folder one run writes its results to (ARCHITECTURE.md: "Outputs of a run go
// to one folder"). File names and columns are a contract with sim/plot.py and
// experiment scripts; see sim/output/README.md before changing any of them.
//   stats.json              the lead's statistics document (write_stats)
//   config.json             effective configuration (write_config; loadable as a preset)
//   summary.txt             human summary rendered from stats.json (write_summary)
//   latency_cdf_<op>.csv    latency_us,fraction (write_latency_cdf; op = read, write, ...)
//   timeseries.csv          TimeSeries::kCsvHeader columns (write_time_series)
// Files are written to a temporary name and renamed, so a file is either complete or absent.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "output/latency_histogram.h"
#include "output/time_series.h"

namespace ufs {

class RunFolderError : public std::runtime_error {
 public:
  explicit RunFolderError(const std::string& what) : std::runtime_error(what) {}
};

class RunFolder {
 public:
  static constexpr const char* kStatsFile = "stats.json";
  static constexpr const char* kConfigFile = "config.json";
  static constexpr const char* kSummaryFile = "summary.txt";
  static constexpr const char* kTimeSeriesFile = "timeseries.csv";
  static constexpr const char* kCdfHeader = "latency_us,fraction";

  // Creates `dir` (and its parents) if needed. Throws RunFolderError naming the
  // directory and the reason when it cannot be created or is not a directory.
  explicit RunFolder(const std::string& dir);

  const std::string& path() const { return path_; }
  // Full path of a file in the folder.
  std::string file(const std::string& name) const;

  void write_text(const std::string& name, const std::string& text) const;
  void write_json(const std::string& name, const nlohmann::json& doc) const;  // indented, trailing newline

  void write_stats(const nlohmann::json& stats) const { write_json(kStatsFile, stats); }
  void write_config(const nlohmann::json& config) const { write_json(kConfigFile, config); }
  // latency_cdf_<op>.csv; scale_to_us converts the histogram's unit (1e-6 for ps).
  void write_latency_cdf(const std::string& op, const LatencyHistogram& histogram, double scale_to_us) const;
  static std::string cdf_file_name(const std::string& op) { return "latency_cdf_" + op + ".csv"; }
  // timeseries.csv; end_ps = simulated end of the run (last interval's true length).
  void write_time_series(const TimeSeries& series, uint64_t end_ps) const;
  // summary.txt from a stats document following the contract.
  void write_summary(const nlohmann::json& stats) const { write_text(kSummaryFile, format_summary(stats)); }

  // The human summary: run line, throughput, a latency table per op, utilisation,
  // then every other scalar of stats.json as "section.key: value".
  static std::string format_summary(const nlohmann::json& stats);

 private:
  std::string path_;
};

}  // namespace ufs
