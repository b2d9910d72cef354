// Observability of one run: a transaction timeline (Chrome / Perfetto trace-event JSON)
// and waves (VCD, or FST through GTKWave's vcd2fst). One recorder per run, owned by the
// platform; models hold a pointer that is nullptr when observability is off, so a hook
// costs one pointer test on the hot path:
//     if (trace_) trace_->slice(die_track_[d], "tR", start, end, TraceArgs().tag(t));
//
// Timeline. Tracks are registered by (process, thread) name, e.g. ("NAND dies", "die 3");
// each becomes a Perfetto thread track inside a process group. Slices on one track must
// not overlap (Perfetto, like the JSON spec, only nests slices); the models' tracks are
// resources (a die's array, a channel's bus, a link direction, the firmware core, a
// host tag) that are busy with one thing at a time; the one exception, the ops still waiting
// for a die when the run ends (FlashTimeline::waiting), nest on its queue track. Events are streamed to the file as
// they are recorded, in any time order (the viewer sorts them).
//
// Waves. Signals are declared before the run (wires: busy flags; integers: depths,
// counters) and change by deltas at explicit times: busy(s, start, end) is +1 at start
// and -1 at end, so intervals booked ahead of simulated time, overlapping or abutting
// bookings and later corrections (a suspended program) all add up. A wire shows
// (sum > 0), an integer the sum. Changes must lie at or after the current simulated time
// when recorded (every model books at or after now); they are buffered and written in
// time order once simulated time has passed them. Integer signals declared with a
// counter process also appear on the timeline as counter tracks.
//
// Window: only [from, to] is written to either file (the state at `from` is complete).
#pragma once
#include <systemc>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ufs {

class VcdWriter;

struct TraceRecorderOptions {
  std::string timeline_path;  // Chrome trace-event JSON; empty = no timeline
  std::string waves_path;     // .vcd, or .fst (converted with vcd2fst); empty = no waves
  uint64_t window_from_ps = 0;
  uint64_t window_to_ps = std::numeric_limits<uint64_t>::max();
};

// Arguments of a timeline event: the command tag (when known) and up to six numbers.
struct TraceArgs {
  static constexpr int kMax = 6;
  int tag_value = -1;
  int count = 0;
  const char* keys[kMax] = {};
  uint64_t values[kMax] = {};
  const char* text_key = nullptr;
  const char* text = nullptr;

  TraceArgs& tag(int t) {
    tag_value = t;
    return *this;
  }
  TraceArgs& add(const char* key, uint64_t value) {
    if (count < kMax) {
      keys[count] = key;
      values[count++] = value;
    }
    return *this;
  }
  TraceArgs& label(const char* key, const char* value) {
    text_key = key;
    text = value;
    return *this;
  }
};

class TraceRecorder {
 public:
  // Opens the files (throws std::runtime_error naming a file that cannot be written, or
  // an .fst request when vcd2fst is not installed).
  explicit TraceRecorder(const TraceRecorderOptions& options);
  ~TraceRecorder();
  TraceRecorder(const TraceRecorder&) = delete;
  TraceRecorder& operator=(const TraceRecorder&) = delete;

  bool timeline_on() const { return json_ != nullptr; }
  bool waves_on() const { return vcd_ != nullptr; }
  const TraceRecorderOptions& options() const { return options_; }

  // ---- timeline
  // A track (thread) in a process group; the same names give the same id.
  int track(const std::string& process, const std::string& thread);
  // A complete event [start, end) on a track; `name` must be a string literal or outlive the call.
  void slice(int track, const char* name, uint64_t start_ps, uint64_t end_ps, const TraceArgs& args = {});
  void slice(int track, const char* name, const sc_core::sc_time& start, const sc_core::sc_time& end,
             const TraceArgs& args = {}) {
    slice(track, name, ps(start), ps(end), args);
  }
  void instant(int track, const char* name, uint64_t at_ps, const TraceArgs& args = {});

  // ---- commands and what they cause (flow arrows on the timeline)
  // The host registers each command as it issues it: its slice on `track` starts at
  // `at_ps`. Returns the command's id (1, 2, ...; 0 is "none"): slices of the command
  // and of the work done for it carry it as args.cmd.
  uint64_t command_issued(int tag, int track, uint64_t at_ps);
  // The command on `tag` has ended: the tag names no command until the next one.
  void command_ended(int tag);
  // The command the tag names now (0: none): a device model that knows it works for the
  // command holding a tag asks for its id while that command is in flight.
  uint64_t command_on_tag(int tag) const {
    return tag >= 0 && size_t(tag) < tag_commands_.size() ? tag_commands_[size_t(tag)] : 0;
  }
  // A flow arrow from command `id`'s slice to the slice on `track` that starts at `at_ps`
  // (both already or later written). Each call is one arrow with an id of its own.
  void flow_from_command(uint64_t id, int track, uint64_t at_ps);
  uint64_t flows_written() const { return flows_; }

  // ---- waves (and timeline counters)
  // Declare before the first change. `scope` is dotted ("ufs.fcc.die3").
  int wire(const std::string& scope, const std::string& name);
  // An integer; with a counter_process it is also a counter track on the timeline.
  int integer(const std::string& scope, const std::string& name, const std::string& counter_process = "");
  void change(int signal, uint64_t at_ps, int64_t delta);
  void busy(int signal, uint64_t start_ps, uint64_t end_ps) {
    if (end_ps <= start_ps) return;
    change(signal, start_ps, +1);
    change(signal, end_ps, -1);
  }
  void busy(int signal, const sc_core::sc_time& start, const sc_core::sc_time& end) {
    busy(signal, ps(start), ps(end));
  }
  // A sampler that learns a span's value only once the span has ended (the device power,
  // from the energy model between two counter samples) records changes back to its last
  // sample: write-outs before the run's end stop at `at_ps`, so those changes are not late.
  void hold_from(uint64_t at_ps) { hold_ps_ = at_ps; }

  // Writes what is left, closes both files and converts to FST if asked. Returns the
  // problems met (empty when all went well). Called by the destructor if not before.
  std::vector<std::string> finish();
  // Changes recorded before an already written time (moved to it; 0 for correct models).
  uint64_t late_changes() const { return late_changes_; }
  uint64_t events_written() const { return events_; }

  static uint64_t ps(const sc_core::sc_time& t);
  // True when an executable of that name is on PATH.
  static bool program_on_path(const std::string& name);

 private:
  struct Change {
    uint64_t at;
    uint32_t signal;
    int32_t delta;
  };
  struct Signal {
    bool wire = true;
    int64_t value = 0;        // sum of the deltas applied so far
    uint64_t written = 0;     // value last written (wire: 0/1)
    int counter_pid = 0;      // timeline counter process (0 = none)
    std::string name;
    uint32_t vcd_var = 0;
    bool touched = false;
  };

  int process_id(const std::string& process);
  void write_event_head(const char* ph, int pid, int tid, const char* name, uint64_t ts_ps);
  void write_args(const TraceArgs& args);
  void write_string(const char* s);
  void write_time(uint64_t ps);
  void write_counter(const Signal& s, uint64_t at_ps, uint64_t value);
  uint64_t output_value(const Signal& s) const;
  // Sorts and writes the buffered changes earlier than `before` (all of them: max).
  void flush(uint64_t before);
  void start_output();

  TraceRecorderOptions options_;
  std::string vcd_path_;  // the VCD written (a temporary one when FST is asked for)
  bool want_fst_ = false;
  std::FILE* json_ = nullptr;
  bool first_event_ = true;
  std::unique_ptr<VcdWriter> vcd_;
  std::map<std::string, int> pids_;
  std::map<std::pair<int, std::string>, int> tracks_;  // (pid, thread) -> track id
  std::vector<std::pair<int, int>> track_ids_;         // track id -> (pid, tid)
  std::vector<Signal> signals_;
  std::vector<Change> pending_;
  size_t flush_at_ = size_t(1) << 20;  // buffered changes that trigger a write-out
  uint64_t flushed_until_ = 0;  // changes before this time are written
  uint64_t hold_ps_ = std::numeric_limits<uint64_t>::max();  // hold_from
  bool output_started_ = false;
  bool finished_ = false;
  uint64_t late_changes_ = 0;
  uint64_t events_ = 0;
  uint64_t last_time_ = 0;  // latest time seen (for the closing time step)
  std::vector<uint32_t> touched_;
  struct CommandAnchor {
    int track;
    uint64_t at;
  };
  std::vector<CommandAnchor> commands_;  // by id - 1: where each command's slice starts
  std::vector<uint64_t> tag_commands_;   // by tag: the command holding it (0: none)
  uint64_t flows_ = 0;
};

}  // namespace ufs
