// Runs the Catch2 session (catch_impl.cpp): the test programs' mains call it, so Catch2's
// implementation is compiled once.
#pragma once

int run_catch_session(int argc, char* argv[]);
