#include "workload/app_switch_scenario.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include "workload/trace_mobile_reader.h"
#include "workload/workload_error.h"

namespace ufs {

namespace {

struct SessionRequest {
  bool write;
  uint64_t sector, sectors;
  uint64_t at_us;  // session time with long gaps cut
};

// A session's reads and writes (flushes and discards carry no data to place: left out).
std::vector<SessionRequest> load_session(const AppSession& app, uint32_t max_gap_us) {
  TraceMobileReader reader(app.trace, false);
  std::vector<SessionRequest> out;
  TraceRecord r;
  int64_t last_ps = 0;
  uint64_t at_us = 0;
  bool first = true;
  while (reader.next(r)) {
    if (r.op != BlockOp::Read && r.op != BlockOp::Write) continue;
    if (r.length_bytes == 0) continue;
    const int64_t gap_ps = first ? 0 : std::max<int64_t>(0, r.time_ps - last_ps);
    last_ps = r.time_ps;
    first = false;
    at_us += std::min<uint64_t>(uint64_t(gap_ps) / 1'000'000, max_gap_us);
    out.push_back({r.op == BlockOp::Write, r.offset_bytes / 512, (r.length_bytes + 511) / 512, at_us});
  }
  if (out.empty()) throw WorkloadError(app.trace + ": the session of '" + app.name + "' has no reads or writes");
  return out;
}

}  // namespace

AppSwitchSummary write_app_switch_scenario(const AppSwitchScenario& sc, const std::string& out_path) {
  if (sc.apps.empty() || sc.order.empty()) throw WorkloadError("app-switch scenario: no apps or no launches");
  if (sc.launch_requests == 0) throw WorkloadError("app-switch scenario: launch_requests must be at least 1");
  std::vector<std::vector<SessionRequest>> sessions;
  for (const AppSession& a : sc.apps) sessions.push_back(load_session(a, sc.max_gap_us));
  for (uint32_t i : sc.order)
    if (i >= sc.apps.size()) throw WorkloadError("app-switch scenario: launch of app " + std::to_string(i) + " of " +
                                                 std::to_string(sc.apps.size()));
  // Where each app's session goes on when it works in the background.
  std::vector<size_t> cursor(sc.apps.size());
  for (size_t a = 0; a < sc.apps.size(); ++a) cursor[a] = std::min<size_t>(sc.launch_requests, sessions[a].size());

  // Every launch first: (time, owner app, foreground?, request), launch by launch.
  struct Item { double at; uint32_t app; bool foreground; SessionRequest q; };
  std::vector<std::vector<Item>> launches;
  double t = 0.001;  // scenario time, s
  int previous = -1;
  for (uint32_t app : sc.order) {
    const auto& s = sessions[app];
    const size_t n = std::min<size_t>(sc.launch_requests, s.size());
    const uint64_t span_us = s[n - 1].at_us - s[0].at_us;
    // The launch (foreground) and the previous app's session going on (background), merged in time.
    std::vector<Item> merged;
    for (size_t i = 0; i < n; ++i) merged.push_back({t + double(s[i].at_us - s[0].at_us) * 1e-6, app, true, s[i]});
    if (previous >= 0 && previous != int(app)) {
      const auto& b = sessions[size_t(previous)];
      size_t& c = cursor[size_t(previous)];
      if (c >= b.size()) c = std::min<size_t>(sc.launch_requests, b.size() - 1);  // session over: it loops
      const uint64_t origin = b[c].at_us;
      while (c < b.size() && b[c].at_us - origin <= span_us) {
        merged.push_back({t + double(b[c].at_us - origin) * 1e-6, uint32_t(previous), false, b[c]});
        ++c;
      }
    }
    std::stable_sort(merged.begin(), merged.end(), [](const Item& x, const Item& y) { return x.at < y.at; });
    launches.push_back(std::move(merged));
    t += double(span_us) * 1e-6 + sc.idle_between_s;
    previous = int(app);
  }

  // An aged layout: the blocks the scenario touches, placed app by app (in the order of apps).
  std::unique_ptr<AgedLayout> layout;
  if (sc.aged) {
    layout = std::make_unique<AgedLayout>(sc.aging);
    std::vector<std::vector<uint64_t>> blocks(sc.apps.size());
    std::vector<uint64_t> kept;
    const uint64_t keep_sectors = sc.aging_keep_request_bytes / 512;
    for (const auto& launch : launches)
      for (const Item& it : launch)
        for (uint64_t b = it.q.sector / 8; b < (it.q.sector + it.q.sectors + 7) / 8; ++b)
          (keep_sectors && it.q.sectors >= keep_sectors ? kept : blocks[it.app]).push_back(b);
    layout->keep(kept);  // large files first: scattered fragments go around them
    for (size_t a = 0; a < sc.apps.size(); ++a) layout->place_app(sc.apps[a].name, std::move(blocks[a]));
  }

  std::ofstream out(out_path);
  if (!out) throw WorkloadError(out_path + ": cannot write the app-switch scenario");
  out << "proces,device,rw_flag,sector,size,timestamp\n";
  AppSwitchSummary sum;
  char line[256];
  // One recorded request as one line, or (aged) one line per run of consecutive blocks; returns
  // the lines written.
  auto emit_one = [&](const std::string& name, bool write, uint64_t sector, uint64_t sectors, double at) {
    std::snprintf(line, sizeof line, "%s,0,%c,%llu,%llu,%.6f\n", name.c_str(), write ? 'W' : 'R',
                  (unsigned long long)sector, (unsigned long long)sectors, at);
    out << line;
  };
  auto emit = [&](const std::string& name, const SessionRequest& q, double at) -> uint64_t {
    ++sum.recorded_requests;
    if (!layout) {
      emit_one(name, q.write, q.sector, q.sectors, at);
      ++sum.emitted_requests;
      return 1;
    }
    const uint64_t first = q.sector / 8, end = (q.sector + q.sectors + 7) / 8;
    const auto runs = layout->map_range(first, end - first);
    for (const auto& [block, count] : runs) emit_one(name, q.write, block * 8, count * 8, at);
    sum.emitted_requests += runs.size();
    return runs.size();
  };
  for (const auto& launch : launches) {
    uint64_t launch_reads = 0;
    for (const Item& it : launch) {
      const std::string name = sc.apps[it.app].name + (it.foreground ? std::string() : sc.background_suffix);
      const uint64_t lines = emit(name, it.q, it.at);
      if (it.foreground) (it.q.write ? sum.launch_writes : launch_reads) += lines;
      else (it.q.write ? sum.background_writes : sum.background_reads) += lines;
    }
    sum.launch_reads += launch_reads;
    sum.max_launch_reads = std::max(sum.max_launch_reads, launch_reads);
  }
  sum.duration_s = t;
  if (!out) throw WorkloadError(out_path + ": write failed");
  return sum;
}

}  // namespace ufs
