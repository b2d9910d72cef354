// SystemC benches: the Catch session runs inside sc_main, so a test case may
// elaborate a platform and call sc_start. ctest runs each test case in its own
// process (catch_discover_tests), because the kernel elaborates once per process.
#include <systemc>
#include <cstdlib>
#include "catch_session.h"

// No kernel banner in test output (it is printed at the first elaboration).
static const int quiet_systemc_banner = setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);

int sc_main(int argc, char* argv[]) {
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  return run_catch_session(argc, argv);
}
