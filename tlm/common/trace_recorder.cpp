#include "common/trace_recorder.h"
#include "common/sim_time.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include "common/vcd_writer.h"

extern char** environ;

namespace ufs {

namespace {
constexpr size_t kFlushAt = size_t(1) << 20;  // buffered changes before a sorted write-out

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
}  // namespace

uint64_t TraceRecorder::ps(const sc_core::sc_time& t) {
  static const uint64_t ticks_per_ps = sc_core::sc_time(1, sc_core::SC_PS).value();
  return ticks_per_ps ? t.value() / ticks_per_ps : uint64_t(t.to_seconds() * 1e12 + 0.5);
}

bool TraceRecorder::program_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t pos = 0;
  while (pos <= dirs.size()) {
    size_t colon = dirs.find(':', pos);
    if (colon == std::string::npos) colon = dirs.size();
    const std::string dir = colon > pos ? dirs.substr(pos, colon - pos) : ".";
    if (access((dir + "/" + name).c_str(), X_OK) == 0) return true;
    pos = colon + 1;
  }
  return false;
}

TraceRecorder::TraceRecorder(const TraceRecorderOptions& options) : options_(options) {
  if (options_.window_to_ps < options_.window_from_ps)
    throw std::runtime_error("waves window: the end is before the start");
  if (!options_.waves_path.empty()) {
    const std::string& w = options_.waves_path;
    if (ends_with(w, ".fst")) {
      if (!program_on_path("vcd2fst"))
        throw std::runtime_error("waves " + w + ": FST output needs GTKWave's vcd2fst on PATH (optional: ./make.sh extras installs it; or ask for .vcd)");
      want_fst_ = true;
      vcd_path_ = w + ".tmp.vcd";
    } else if (ends_with(w, ".vcd")) {
      vcd_path_ = w;
    } else {
      throw std::runtime_error("waves " + w + ": the file name must end in .vcd or .fst");
    }
    vcd_ = std::make_unique<VcdWriter>(vcd_path_);
  }
  if (!options_.timeline_path.empty()) {
    json_ = std::fopen(options_.timeline_path.c_str(), "w");
    if (!json_)
      throw std::runtime_error("cannot write timeline file " + options_.timeline_path + ": " + std::strerror(errno));
    std::setvbuf(json_, nullptr, _IOFBF, 1 << 20);
    std::fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"ufs-sim\"},\"traceEvents\":[\n", json_);
  }
}

TraceRecorder::~TraceRecorder() { finish(); }

// ---------------------------------------------------------------- timeline

void TraceRecorder::write_time(uint64_t t) {
  // Microseconds with picosecond digits, exactly.
  std::fprintf(json_, "%llu.%06llu", static_cast<unsigned long long>(t / 1000000),
               static_cast<unsigned long long>(t % 1000000));
}

void TraceRecorder::write_string(const char* s) {
  std::fputc('"', json_);
  for (; *s; ++s) {
    const unsigned char c = static_cast<unsigned char>(*s);
    if (c == '"' || c == '\\') {
      std::fputc('\\', json_);
      std::fputc(c, json_);
    } else if (c < 0x20) {
      std::fprintf(json_, "\\u%04x", c);
    } else {
      std::fputc(c, json_);
    }
  }
  std::fputc('"', json_);
}

void TraceRecorder::write_event_head(const char* ph, int pid, int tid, const char* name, uint64_t ts_ps) {
  if (!first_event_) std::fputs(",\n", json_);
  first_event_ = false;
  ++events_;
  std::fprintf(json_, "{\"ph\":\"%s\",\"pid\":%d,\"tid\":%d,\"name\":", ph, pid, tid);
  write_string(name);
  std::fputs(",\"ts\":", json_);
  write_time(ts_ps);
}

void TraceRecorder::write_args(const TraceArgs& a) {
  if (a.tag_value < 0 && a.count == 0 && !a.text) return;
  std::fputs(",\"args\":{", json_);
  bool first = true;
  if (a.tag_value >= 0) {
    std::fprintf(json_, "\"tag\":%d", a.tag_value);
    first = false;
  }
  for (int i = 0; i < a.count; ++i) {
    if (!first) std::fputc(',', json_);
    first = false;
    write_string(a.keys[i]);
    std::fprintf(json_, ":%llu", static_cast<unsigned long long>(a.values[i]));
  }
  if (a.text && a.text_key) {
    if (!first) std::fputc(',', json_);
    write_string(a.text_key);
    std::fputc(':', json_);
    write_string(a.text);
  }
  std::fputc('}', json_);
}

int TraceRecorder::process_id(const std::string& process) {
  auto it = pids_.find(process);
  if (it != pids_.end()) return it->second;
  const int pid = int(pids_.size()) + 1;
  pids_.emplace(process, pid);
  if (json_) {
    write_event_head("M", pid, 0, "process_name", 0);
    std::fputs(",\"args\":{\"name\":", json_);
    write_string(process.c_str());
    std::fputs("}}", json_);
    write_event_head("M", pid, 0, "process_sort_index", 0);
    std::fprintf(json_, ",\"args\":{\"sort_index\":%d}}", pid);
  }
  return pid;
}

int TraceRecorder::track(const std::string& process, const std::string& thread) {
  const int pid = process_id(process);
  auto key = std::make_pair(pid, thread);
  auto it = tracks_.find(key);
  if (it != tracks_.end()) return it->second;
  const int id = int(track_ids_.size());
  const int tid = id + 1;
  track_ids_.emplace_back(pid, tid);
  tracks_.emplace(std::move(key), id);
  if (json_) {
    write_event_head("M", pid, tid, "thread_name", 0);
    std::fputs(",\"args\":{\"name\":", json_);
    write_string(thread.c_str());
    std::fputs("}}", json_);
    write_event_head("M", pid, tid, "thread_sort_index", 0);
    std::fprintf(json_, ",\"args\":{\"sort_index\":%d}}", tid);
  }
  return id;
}

void TraceRecorder::slice(int track, const char* name, uint64_t start, uint64_t end, const TraceArgs& args) {
  if (!json_ || finished_ || track < 0 || size_t(track) >= track_ids_.size()) return;
  if (end < start) end = start;
  if (end < options_.window_from_ps || start > options_.window_to_ps) return;
  const auto& ids = track_ids_[size_t(track)];
  write_event_head("X", ids.first, ids.second, name, start);
  std::fputs(",\"dur\":", json_);
  write_time(end - start);
  write_args(args);
  std::fputc('}', json_);
}

void TraceRecorder::instant(int track, const char* name, uint64_t at, const TraceArgs& args) {
  if (!json_ || finished_ || track < 0 || size_t(track) >= track_ids_.size()) return;
  if (at < options_.window_from_ps || at > options_.window_to_ps) return;
  const auto& ids = track_ids_[size_t(track)];
  write_event_head("i", ids.first, ids.second, name, at);
  std::fputs(",\"s\":\"t\"", json_);
  write_args(args);
  std::fputc('}', json_);
}

// ---------------------------------------------------------------- commands and flows

uint64_t TraceRecorder::command_issued(int tag, int track, uint64_t at_ps) {
  commands_.push_back(CommandAnchor{track, at_ps});
  const uint64_t id = commands_.size();
  if (tag >= 0) {
    if (tag_commands_.size() <= size_t(tag)) tag_commands_.resize(size_t(tag) + 1, 0);
    tag_commands_[size_t(tag)] = id;
  }
  return id;
}

void TraceRecorder::command_ended(int tag) {
  if (tag >= 0 && size_t(tag) < tag_commands_.size()) tag_commands_[size_t(tag)] = 0;
}

// Trace-event flow events (v1): "s" on the command's track and "f" with binding point
// "e" on the target's, each a nanosecond into its slice so that the viewer binds it to
// the slice enclosing it (Perfetto keeps nanoseconds; an arrow at a slice's very start
// could bind before the slice is seen). Same name, category and id pair them.
void TraceRecorder::flow_from_command(uint64_t id, int track, uint64_t at_ps) {
  if (!json_ || finished_ || id == 0 || id > commands_.size() || track < 0 || size_t(track) >= track_ids_.size())
    return;
  const CommandAnchor& from = commands_[id - 1];
  if (from.track < 0 || size_t(from.track) >= track_ids_.size()) return;
  const uint64_t from_at = from.at + 1000, to_at = at_ps + 1000;
  const uint64_t lo = options_.window_from_ps, hi = options_.window_to_ps;
  if (from_at < lo || from_at > hi || to_at < lo || to_at > hi) return;
  const uint64_t flow = ++flows_;
  const auto& a = track_ids_[size_t(from.track)];
  write_event_head("s", a.first, a.second, "command", from_at);
  std::fprintf(json_, ",\"cat\":\"command\",\"id\":%llu,\"args\":{\"cmd\":%llu}}",
               static_cast<unsigned long long>(flow), static_cast<unsigned long long>(id));
  const auto& b = track_ids_[size_t(track)];
  write_event_head("f", b.first, b.second, "command", to_at);
  std::fprintf(json_, ",\"cat\":\"command\",\"bp\":\"e\",\"id\":%llu,\"args\":{\"cmd\":%llu}}",
               static_cast<unsigned long long>(flow), static_cast<unsigned long long>(id));
}

void TraceRecorder::write_counter(const Signal& s, uint64_t at, uint64_t value) {
  if (!json_ || !s.counter_pid) return;
  write_event_head("C", s.counter_pid, 0, s.name.c_str(), at);
  std::fprintf(json_, ",\"args\":{\"value\":%llu}}", static_cast<unsigned long long>(value));
}

// ---------------------------------------------------------------- signals

int TraceRecorder::wire(const std::string& scope, const std::string& name) {
  if (!vcd_ || output_started_) return -1;  // wires only show in the waves
  Signal s;
  s.wire = true;
  s.name = name;
  s.vcd_var = vcd_->add_var(scope, name, 1);
  signals_.push_back(std::move(s));
  return int(signals_.size() - 1);
}

int TraceRecorder::integer(const std::string& scope, const std::string& name, const std::string& counter_process) {
  if (output_started_) return -1;
  if (!vcd_ && (counter_process.empty() || !json_)) return -1;
  Signal s;
  s.wire = false;
  s.name = name;
  if (vcd_) s.vcd_var = vcd_->add_var(scope, name, 32);
  if (json_ && !counter_process.empty()) s.counter_pid = process_id(counter_process);
  signals_.push_back(std::move(s));
  return int(signals_.size() - 1);
}

void TraceRecorder::change(int signal, uint64_t at, int64_t delta) {
  if (signal < 0 || finished_ || at > options_.window_to_ps) return;
  last_time_ = std::max(last_time_, at);
  if (at < options_.window_from_ps && !output_started_) {
    signals_[size_t(signal)].value += delta;  // before the window: only the sum matters
    return;
  }
  if (at < flushed_until_) {
    ++late_changes_;
    at = flushed_until_;
  }
  pending_.push_back(Change{at, uint32_t(signal), int32_t(delta)});
  if (pending_.size() >= flush_at_) {
    flush(std::min(ps(sim_now()), hold_ps_));
    // Changes booked far ahead stay buffered: do not sort them again at every call.
    flush_at_ = std::max(kFlushAt, 2 * pending_.size());
  }
}

uint64_t TraceRecorder::output_value(const Signal& s) const {
  if (s.value <= 0) return 0;
  return s.wire ? 1 : uint64_t(s.value);
}

void TraceRecorder::start_output() {
  if (output_started_) return;
  output_started_ = true;
  const uint64_t t0 = options_.window_from_ps;
  std::vector<uint64_t> initial;
  if (vcd_) initial.assign(vcd_->vars(), 0);
  for (Signal& s : signals_) {
    s.written = output_value(s);
    if (vcd_) initial[s.vcd_var] = s.written;
    write_counter(s, t0, s.written);
  }
  if (vcd_) vcd_->write_header(t0, initial);
}

void TraceRecorder::flush(uint64_t before) {
  auto mid = std::partition(pending_.begin(), pending_.end(), [before](const Change& c) { return c.at < before; });
  std::sort(pending_.begin(), mid, [](const Change& a, const Change& b) { return a.at < b.at; });
  auto it = pending_.begin();
  while (it != mid) {
    const uint64_t t = it->at;
    // The state at the window's start includes the changes at that very time.
    const bool at_start = !output_started_ && t == options_.window_from_ps;
    if (!output_started_ && !at_start) start_output();
    touched_.clear();
    for (; it != mid && it->at == t; ++it) {
      Signal& s = signals_[it->signal];
      s.value += it->delta;
      if (!s.touched) {
        s.touched = true;
        touched_.push_back(it->signal);
      }
    }
    if (at_start) start_output();
    bool time_written = false;
    for (uint32_t i : touched_) {
      Signal& s = signals_[i];
      s.touched = false;
      const uint64_t out = output_value(s);
      if (out == s.written) continue;
      s.written = out;
      if (vcd_) {
        if (!time_written) vcd_->time(t);
        time_written = true;
        vcd_->value(s.vcd_var, out);
      }
      write_counter(s, t, out);
    }
  }
  pending_.erase(pending_.begin(), mid);
  flushed_until_ = std::max(flushed_until_, before);
}

// ---------------------------------------------------------------- end

std::vector<std::string> TraceRecorder::finish() {
  std::vector<std::string> problems;
  if (finished_) return problems;
  flush(std::numeric_limits<uint64_t>::max());
  start_output();  // a header even when nothing changed in the window
  finished_ = true;
  if (json_) {
    std::fputs("\n]}\n", json_);
    const bool ok = std::fflush(json_) == 0 && !std::ferror(json_);
    if (std::fclose(json_) != 0 || !ok) problems.push_back("timeline " + options_.timeline_path + ": write failed");
    json_ = nullptr;
  }
  if (vcd_) {
    const uint64_t now = ps(sim_now());
    const uint64_t end = std::min(options_.window_to_ps, std::max(now, last_time_));
    if (end > options_.window_from_ps) vcd_->time(end);  // so viewers show the whole run
    if (!vcd_->close()) problems.push_back("waves " + vcd_path_ + ": write failed");
    vcd_.reset();
    if (want_fst_) {
      // vcd2fst in.vcd out.fst, without a shell.
      std::string prog = "vcd2fst", in = vcd_path_, out = options_.waves_path;
      char* argv[] = {prog.data(), in.data(), out.data(), nullptr};
      pid_t pid = 0;
      int status = 0;
      if (posix_spawnp(&pid, "vcd2fst", nullptr, nullptr, argv, environ) != 0 || waitpid(pid, &status, 0) < 0 ||
          !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        problems.push_back("waves: vcd2fst could not convert " + vcd_path_ + " to " + out + " (the VCD is kept)");
      else
        std::remove(vcd_path_.c_str());
    }
  }
  return problems;
}

}  // namespace ufs
