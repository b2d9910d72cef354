// App-switch scenarios from recorded sessions: launches replay each session's start under
// the app's name, the previous app goes on in the background, long gaps are cut.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include "temp_trace_file.h"
#include "workload/app_switch_scenario.h"
#include "workload/workload_error.h"

using namespace ufs;

namespace {
std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}
}  // namespace

TEST_CASE("app-switch scenario: launches, background sessions and cut gaps", "[workload][apps]") {
  // Session A: reads at 0, 0.001 s, 100 s (a long gap), then more; session B: two writes and a read.
  test::TempTraceFile a("proces,device,rw_flag,sector,size,timestamp\n"
                        "x-1,0,R,100,8,10.0\nx-2,0,R,200,8,10.001\nx-1,0,R,300,8,110.0\n"
                        "x-1,0,R,400,8,110.0005\nx-1,0,W,500,8,110.001\n",
                        true, ".csv.gz");
  test::TempTraceFile b("proces,device,rw_flag,sector,size,timestamp\n"
                        "y-1,0,W,1000,16,5.0\ny-1,0,R,1100,8,5.002\ny-1,0,R,1200,8,5.004\n",
                        false, ".csv");
  AppSwitchScenario sc;
  sc.apps = {{"alpha", a.path()}, {"beta", b.path()}};
  sc.order = {0, 1, 0};
  sc.launch_requests = 2;
  sc.max_gap_us = 2000;
  sc.idle_between_s = 1.0;
  test::TempTraceFile out("", false, ".csv");
  const AppSwitchSummary sum = write_app_switch_scenario(sc, out.path());
  const auto lines = lines_of(out.path());
  REQUIRE(lines.size() >= 1 + 2 + 2 + 2);
  CHECK(lines[0] == "proces,device,rw_flag,sector,size,timestamp");
  CHECK(lines[1].rfind("alpha,0,R,100,8,", 0) == 0);
  CHECK(lines[2].rfind("alpha,0,R,200,8,", 0) == 0);
  // beta's launch (2 ms long) with alpha going on in the background: alpha's third request
  // (after a 100 s gap cut to 2 ms) starts the background part.
  int beta = 0, alpha_bg = 0;
  for (const auto& l : lines) {
    beta += l.rfind("beta,", 0) == 0;
    alpha_bg += l.rfind("alpha-bg,", 0) == 0;
  }
  CHECK(beta == 2);
  CHECK(alpha_bg >= 1);
  CHECK(sum.launch_reads + sum.launch_writes == 6);
  CHECK(sum.launch_writes == 1);  // beta's first request
  // The last launch replays alpha's start again (same sectors), beta goes on in the background.
  std::vector<std::string> last;
  for (size_t i = lines.size() - 3; i < lines.size(); ++i)
    if (lines[i].rfind("alpha,", 0) == 0) last.push_back(lines[i]);
  REQUIRE(last.size() == 2);
  CHECK(last[0].rfind("alpha,0,R,100,8,", 0) == 0);
  CHECK(last[1].rfind("alpha,0,R,200,8,", 0) == 0);
  const bool beta_behind = lines.back().rfind("beta-bg,", 0) == 0 || lines[lines.size() - 2].rfind("beta-bg,", 0) == 0;
  CHECK(beta_behind);
  CHECK(sum.duration_s > 3.0);
}

TEST_CASE("app-switch scenario: a malformed session names its file and line", "[workload][apps]") {
  test::TempTraceFile bad("proces,device,rw_flag,sector,size,timestamp\nx-1,0,R,12,8,1.0\nx-1,0,R,oops,8,2.0\n",
                          false, ".csv");
  AppSwitchScenario sc;
  sc.apps = {{"alpha", bad.path()}};
  sc.order = {0};
  test::TempTraceFile out("", false, ".csv");
  try {
    write_app_switch_scenario(sc, out.path());
    FAIL("no error");
  } catch (const WorkloadError& e) {
    CHECK(std::string(e.what()).find(bad.path() + ":3") != std::string::npos);
  }
  sc.order = {3};
  CHECK_THROWS_AS(write_app_switch_scenario(sc, out.path()), WorkloadError);
}
