// Catch2's implementation, compiled once for both mains (catch_main.cpp, sc_catch_main.cpp):
// it is the costliest file of the test build (~30 s of CPU at -O2).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include "catch_session.h"

int run_catch_session(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }
