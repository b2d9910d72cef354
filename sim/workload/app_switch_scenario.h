// App-switching scenarios built from real phone traces (HPBvalve study, issue #8): each
// app is one recorded session (a mobile CSV of its block I/O); the user launches the
// apps in a given order. A launch replays the first `launch_requests` requests of the
// app's session (every relaunch re-reads the same code and data, as a cold or warm start
// does), all under the app's name (the foreground stream). Meanwhile the app that was in
// the foreground before keeps working in the background: its session goes on from where
// it stopped, under the name APP + "-bg", over the same span of time. After each launch
// the phone idles for `idle_between_s`. Gaps inside a session longer than `max_gap_us`
// are cut to it (a launch is a burst; the recorded sessions have long idle periods).
// Output: a mobile CSV (proces,device,rw_flag,sector,size,timestamp) for --workload
// trace:mobile:PATH with the host memory model's apps named like the sessions. The
// launches and background counts are of emitted requests.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "workload/fs_aging.h"

namespace ufs {

struct AppSession {
  std::string name;   // the app's name in the scenario (stream name)
  std::string trace;  // its recorded session: mobile CSV (optionally .gz)
};

struct AppSwitchScenario {
  std::vector<AppSession> apps;
  std::vector<uint32_t> order;        // launches, as indexes into apps
  uint32_t launch_requests = 3000;    // requests of a session that make up its launch
  uint32_t max_gap_us = 2000;         // longer gaps inside a session are cut to this
  double idle_between_s = 1.0;        // phone idle after each launch
  std::string background_suffix = "-bg";
  // File-system aging (fs_aging.h): each app's data where an aged file system would have put
  // it; requests are cut at fragment boundaries (one request per run of consecutive blocks,
  // whole 4 KiB blocks). Apps are placed in the order of `apps`.
  bool aged = false;
  FsAgingParams aging;
  // Aged: blocks a request of at least this many bytes touches keep their recorded place (0:
  // none do). Ji et al. found files either severely or barely fragmented, databases the
  // most; a large request is a sequential stream through a large file (media, packed assets,
  // written once in large extents: the barely fragmented kind). 128 KiB: Linux's default
  // read_ahead_kb, the size a sequential read's readahead grows to.
  uint64_t aging_keep_request_bytes = 128 << 10;
};

struct AppSwitchSummary {
  uint64_t launch_reads = 0, launch_writes = 0;  // summed over every launch
  uint64_t background_reads = 0, background_writes = 0;
  uint64_t max_launch_reads = 0;  // most read requests in one launch (after aging's cuts)
  uint64_t recorded_requests = 0, emitted_requests = 0;  // before and after aging's cuts
  double duration_s = 0;
};

// Writes the scenario to out_path; throws WorkloadError naming the trace file:line on
// a malformed session, or when a session has no requests.
AppSwitchSummary write_app_switch_scenario(const AppSwitchScenario& scenario, const std::string& out_path);

}  // namespace ufs
