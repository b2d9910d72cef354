#include "workload/app_switch_scenario.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
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

  std::ofstream out(out_path);
  if (!out) throw WorkloadError(out_path + ": cannot write the app-switch scenario");
  out << "proces,device,rw_flag,sector,size,timestamp\n";
  AppSwitchSummary sum;
  double t = 0.001;  // scenario time, s
  char line[256];
  auto emit = [&](const std::string& name, const SessionRequest& q, double at) {
    std::snprintf(line, sizeof line, "%s,0,%c,%llu,%llu,%.6f\n", name.c_str(), q.write ? 'W' : 'R',
                  (unsigned long long)q.sector, (unsigned long long)q.sectors, at);
    out << line;
  };
  int previous = -1;
  for (uint32_t app : sc.order) {
    const auto& s = sessions[app];
    const size_t n = std::min<size_t>(sc.launch_requests, s.size());
    const uint64_t span_us = s[n - 1].at_us - s[0].at_us;
    // The launch (foreground) and the previous app's session going on (background), merged in time.
    std::vector<std::pair<double, std::pair<int, SessionRequest>>> merged;
    for (size_t i = 0; i < n; ++i) {
      merged.push_back({t + double(s[i].at_us - s[0].at_us) * 1e-6, {0, s[i]}});
      s[i].write ? ++sum.launch_writes : ++sum.launch_reads;
    }
    if (previous >= 0 && previous != int(app)) {
      const auto& b = sessions[size_t(previous)];
      size_t& c = cursor[size_t(previous)];
      if (c >= b.size()) c = std::min<size_t>(sc.launch_requests, b.size() - 1);  // session over: it loops
      const uint64_t origin = b[c].at_us;
      while (c < b.size() && b[c].at_us - origin <= span_us) {
        merged.push_back({t + double(b[c].at_us - origin) * 1e-6, {1, b[c]}});
        b[c].write ? ++sum.background_writes : ++sum.background_reads;
        ++c;
      }
    }
    std::stable_sort(merged.begin(), merged.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    const std::string bg = previous >= 0 ? sc.apps[size_t(previous)].name + sc.background_suffix : std::string();
    for (const auto& [at, who] : merged) emit(who.first == 0 ? sc.apps[app].name : bg, who.second, at);
    t += double(span_us) * 1e-6 + sc.idle_between_s;
    previous = int(app);
  }
  sum.duration_s = t;
  if (!out) throw WorkloadError(out_path + ": write failed");
  return sum;
}

}  // namespace ufs
