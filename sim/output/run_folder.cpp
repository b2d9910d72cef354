#include "output/run_folder.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <numeric>
#include <sstream>

namespace ufs {

namespace fs = std::filesystem;
using nlohmann::json;

RunFolder::RunFolder(const std::string& dir) : path_(dir) {
  if (dir.empty()) throw RunFolderError("cannot create run folder: empty path");
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw RunFolderError("cannot create run folder '" + dir + "': " + ec.message());
  if (!fs::is_directory(dir, ec)) throw RunFolderError("cannot create run folder '" + dir + "': not a directory");
}

std::string RunFolder::file(const std::string& name) const { return (fs::path(path_) / name).string(); }

void RunFolder::write_text(const std::string& name, const std::string& text) const {
  const std::string target = file(name);
  const std::string temporary = target + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw RunFolderError("cannot write '" + target + "': " + std::strerror(errno));
    out << text;
    out.flush();
    if (!out) throw RunFolderError("cannot write '" + target + "': write failed");
  }
  std::error_code ec;
  fs::rename(temporary, target, ec);
  if (ec) {
    fs::remove(temporary, ec);
    throw RunFolderError("cannot write '" + target + "': " + ec.message());
  }
}

void RunFolder::write_json(const std::string& name, const json& doc) const { write_text(name, doc.dump(2) + "\n"); }

void RunFolder::write_latency_cdf(const std::string& op, const LatencyHistogram& histogram, double scale_to_us) const {
  std::ostringstream out;
  out << kCdfHeader << '\n' << std::setprecision(9);
  for (const auto& [value, fraction] : histogram.cdf(scale_to_us)) out << value << ',' << fraction << '\n';
  write_text(cdf_file_name(op), out.str());
}

void RunFolder::write_time_series(const TimeSeries& series, uint64_t end_ps) const {
  std::ostringstream out;
  series.write_csv(out, end_ps);
  write_text(kTimeSeriesFile, out.str());
}

namespace {

std::string number(const json& v, int precision = 4) {
  if (v.is_number_integer() || v.is_number_unsigned()) return v.dump();
  if (v.is_number_float()) {
    std::ostringstream out;
    out << std::setprecision(precision) << v.get<double>();
    return out.str();
  }
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}

const json* find(const json& doc, const char* key) {
  if (!doc.is_object()) return nullptr;
  const auto it = doc.find(key);
  return it == doc.end() ? nullptr : &*it;
}

std::string percent(double fraction) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(1) << fraction * 100.0 << '%';
  return out.str();
}

// "mean 45.0%, max 80.0% (#3) over 8" for a list of busy fractions.
std::string busy_list(const json& list) {
  std::vector<double> v;
  for (const auto& x : list)
    if (x.is_number()) v.push_back(x.get<double>());
  if (v.empty()) return "none";
  const double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  const auto max_it = std::max_element(v.begin(), v.end());
  return "mean " + percent(mean) + ", min " + percent(*std::min_element(v.begin(), v.end())) + ", max " +
         percent(*max_it) + " (#" + std::to_string(max_it - v.begin()) + ") over " + std::to_string(v.size());
}

void flatten_scalars(const json& node, const std::string& prefix, std::ostringstream& out) {
  if (node.is_object()) {
    for (const auto& item : node.items())
      flatten_scalars(item.value(), prefix.empty() ? item.key() : prefix + "." + item.key(), out);
  } else if (node.is_array()) {
    if (node.size() <= 8 && std::all_of(node.begin(), node.end(), [](const json& x) { return x.is_primitive(); })) {
      out << "  " << prefix << ": [";
      for (size_t i = 0; i < node.size(); ++i) out << (i ? ", " : "") << number(node[i]);
      out << "]\n";
    } else {
      out << "  " << prefix << ": [" << node.size() << " values]\n";
    }
  } else {
    out << "  " << prefix << ": " << number(node, 6) << '\n';
  }
}

}  // namespace

std::string RunFolder::format_summary(const json& stats) {
  std::ostringstream out;
  // First line: what ran and how fast the simulator was.
  static const char* const heading[] = {"preset", "workload", "requests", "errors", "iops", "simulated_seconds",
                                        "wall_seconds", "simulated_ios_per_wall_second", "peak_rss_mib"};
  bool any = false;
  for (const char* k : heading) {
    if (const json* v = find(stats, k)) {
      out << (any ? " " : "run: ") << k << '=' << number(*v, 6);
      any = true;
    }
  }
  if (any) out << '\n';
  if (const json* lat = find(stats, "ops"); lat != nullptr && lat->is_object() && !lat->empty()) {
    static const char* const columns[] = {"count", "iops", "mb_per_s", "mean", "min", "p50", "p90", "p99", "p99_9", "p99_99", "max"};
    out << "latency (us):\n  " << std::left << std::setw(8) << "op";
    for (const char* c : columns) out << std::right << std::setw(11) << c;
    out << '\n';
    for (const auto& op : lat->items()) {
      out << "  " << std::left << std::setw(8) << op.key();
      for (const char* c : columns) {
        const json* v = find(op.value(), c);
        out << std::right << std::setw(11) << (v ? number(*v, 5) : "-");
      }
      out << '\n';
    }
  }
  if (const json* util = find(stats, "utilisation"); util != nullptr && util->is_object()) {
    out << "utilisation:\n";
    for (const auto& item : util->items()) {
      if (item.key() == "die_idle" || item.key() == "channel_idle") continue;  // 1 - busy
      if (item.value().is_array())
        out << "  " << item.key() << ": " << busy_list(item.value()) << '\n';
      else if (item.value().is_number_float())
        out << "  " << item.key() << ": " << percent(item.value().get<double>()) << '\n';
      else
        out << "  " << item.key() << ": " << number(item.value()) << '\n';
    }
  }
  std::ostringstream rest;
  for (const auto& item : stats.items()) {
    const std::string& k = item.key();
    // Per-stream summaries can number hundreds (trace process names): stats.json has them.
    if (k == "ops" || k == "utilisation" || k == "streams" ||
        std::find(std::begin(heading), std::end(heading), k) != std::end(heading))
      continue;
    flatten_scalars(item.value(), k, rest);
  }
  if (!rest.str().empty()) out << "other:\n" << rest.str();
  return out.str();
}

}  // namespace ufs
