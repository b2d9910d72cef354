// A plain Value Change Dump (IEEE 1364 §18) writer: variables in nested scopes, then
// value changes in increasing time. Our own code rather than sc_trace: the models are
// event-driven and loosely timed, so they know intervals ahead of simulated time and
// no signal exists to sample; TraceRecorder orders the changes and feeds this writer.
// Times are in picoseconds ($timescale 1ps).
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace ufs {

class VcdWriter {
 public:
  // Opens (truncates) the file; throws std::runtime_error naming it when it cannot.
  explicit VcdWriter(const std::string& path);
  ~VcdWriter();
  VcdWriter(const VcdWriter&) = delete;
  VcdWriter& operator=(const VcdWriter&) = delete;

  // Declares a variable before write_header(): scope is dotted ("ufs.fcc"), width 1 is a
  // wire, wider ones are integers. Returns its index for value().
  uint32_t add_var(const std::string& scope, const std::string& name, uint32_t width);
  uint32_t vars() const { return uint32_t(vars_.size()); }

  // Header and the initial values of every variable at `time_ps`.
  void write_header(uint64_t time_ps, const std::vector<uint64_t>& initial);
  bool header_written() const { return header_written_; }
  // Starts a new time step (must not go back in time; equal times are merged).
  void time(uint64_t time_ps);
  void value(uint32_t var, uint64_t v);
  // Flushes and closes; returns false (with errno set) if the data did not reach the file.
  bool close();
  const std::string& path() const { return path_; }

 private:
  struct Var {
    std::string scope, name, id;
    uint32_t width = 1;
  };
  void write_value(const Var& v, uint64_t value);

  std::string path_;
  std::FILE* file_ = nullptr;
  std::vector<Var> vars_;
  bool header_written_ = false;
  bool any_time_ = false;
  uint64_t last_time_ = 0;
};

}  // namespace ufs
