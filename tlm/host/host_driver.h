// The UFS host: the host controller (UTP transfer request slots, UPIU engine) and the
// Linux block/SCSI/UFS driver stack above it, reduced to what shapes device timing.
//
// Requests come from RequestSubmitters (fio jobs, trace replays). Tags 0..queue_depth-1
// are shared: the driver pulls from a submitter while it has fewer than max_outstanding()
// requests in flight and a tag is free. Timed (open-loop) submitters' requests enter a
// software queue at their arrival_ps and are issued from it when a tag frees up.
//
// Cost per command: the COMMAND UPIU is sent by b_transport with the submit overhead
// annotated (no wake-up); DATA IN stamps are copied when the UPIU passes (no wake-up);
// READY TO TRANSFER (writes) and RESPONSE each take one wake-up of a shared timed queue;
// the next command is issued from the completion wake-up. Open-loop arrivals add one.
// Per-tag slots hold the Upius, payloads and buffers, so steady state does not allocate.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>
#include "common/direct_target_socket.h"
#include "common/timed_queue.h"
#include "common/upiu.h"
#include "host/block_request.h"
#include "host/host_observer.h"
#include "host/host_params.h"
#include "host/hpb_host_cache.h"
#include "host/ring_queue.h"

namespace ufs {

class TraceRecorder;
class AppLaunchTracker;

// An arbitrary command for tests and management features (INQUIRY, READ CAPACITY,
// TEST UNIT READY, malformed CDBs...). The driver assigns the tag; `command.lun`,
// `direction`, `expected_length` and the CDB are sent as given.
struct RawCommand {
  HostCommand command;
  std::vector<uint8_t> data_out;           // DATA OUT as raw bytes (Upiu::bytes), or
  std::vector<SectorStamp> data_out_stamps;  // DATA OUT as sector stamps (one per 4 KiB)
};

struct RawResult {
  CommandResponse response;                 // status and sense as they came back
  std::vector<uint8_t> data_in;             // DATA IN raw bytes (expected_length long; see data_in_bytes)
  std::vector<SectorStamp> data_in_stamps;  // DATA IN stamps (expected_length / 4096)
  uint32_t data_in_bytes = 0;               // DATA IN bytes received
  uint32_t data_out_bytes = 0;              // DATA OUT bytes the device asked for and got
  uint64_t issue_ps = 0;                    // COMMAND UPIU sent
  uint64_t complete_ps = 0;                 // response processed
};
using RawCallback = std::function<void(const RawResult&)>;

struct HostCounters {
  uint64_t issued = 0;             // commands sent (block + raw)
  uint64_t completed = 0;          // responses processed (block + raw)
  uint64_t reads = 0, writes = 0, flushes = 0, unmaps = 0, raw = 0;  // block requests completed by op
  uint64_t bytes_read = 0;         // DATA IN bytes received
  uint64_t bytes_written = 0;      // DATA OUT bytes sent
  uint64_t check_conditions = 0;   // responses with status != GOOD
  uint32_t max_outstanding = 0;    // most tags in use at once
  uint64_t max_software_queue = 0; // most open-loop requests waiting for a tag
  // Per-tag protocol check (each one is also an SC_REPORT_ERROR): a UPIU for a tag with no
  // command in flight or after its RESPONSE, DATA IN for a write, READY TO TRANSFER for a
  // read, a GOOD RESPONSE to a block read or write before all of its data moved.
  uint64_t protocol_violations = 0;
};

class HostDriver : public sc_core::sc_module {
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);

 public:
  tlm_utils::simple_initiator_socket<HostDriver> to_link;              // COMMAND, DATA OUT UPIUs
  DirectTargetSocket<HostDriver, &HostDriver::b_transport> from_link;  // RTT, DATA IN, RESPONSE UPIUs

  HostDriver(sc_core::sc_module_name name, const HostParams& params = HostParams());
  SC_HAS_PROCESS(HostDriver);

  const HostParams& params() const { return params_; }
  // Wake through the platform's event wheel (before the simulation starts).
  void attach(EventWheel* wheel);

  // Request sources; may be added before or during simulation.
  void add_submitter(RequestSubmitter* submitter);
  void set_observer(HostObserver* observer) { observer_ = observer; }
  // HPB (nullptr = off): reads become HPB READ when the cache has their entries; the cache's
  // READ BUFFER / WRITE BUFFER commands go out as raw commands when it allows.
  void set_hpb(HpbHostCache* hpb) { hpb_ = hpb; }
  // Apps on the phone (nullptr = off): foreground switches, launches, the memory model.
  void set_app_tracker(AppLaunchTracker* apps) { apps_ = apps; }
  // Observability (nullptr = off): a timeline slice per command from issue to completion
  // on a track per (stream, tag) in a group per stream; outstanding commands and the
  // software queue as waves and counters. stream_names[i] names stream i (may be short).
  void set_trace(TraceRecorder* trace, std::vector<std::string> stream_names = {});
  // Timeline at the end of the run: the commands still in flight, as slices up to now.
  void trace_in_flight();
  // Send an arbitrary command (issued before block requests when a tag is free);
  // `done` runs when its response has been processed.
  void submit_raw(const RawCommand& command, RawCallback done);

  // Notified (delta) when every submitter is exhausted, no raw command waits and nothing is in flight.
  sc_core::sc_event& done_event() { return done_event_; }
  bool done() const;

  const HostCounters& counters() const { return counters_; }
  uint32_t outstanding() const { return in_flight_; }
  // Version stamped on the next written block (a global counter, +1 per block written).
  uint64_t next_write_version() const { return next_version_; }
  void set_next_write_version(uint64_t v) { next_version_ = v; }

 private:
  struct SubmitterState {
    RequestSubmitter* source = nullptr;
    uint32_t outstanding = 0;
    bool exhausted = false;              // next() returned false
    bool timed = false;
    bool has_lookahead = false;          // timed: next request fetched, not yet arrived
    BlockRequest lookahead;
    uint64_t lookahead_id = 0;
    RingQueue<std::pair<BlockRequest, uint64_t>> arrived;  // timed: arrived, waiting for a tag
  };
  struct TagSlot {
    bool busy = false;
    int submitter = -1;                  // -1: raw command
    IoRecord record;
    HostCommand command;
    std::vector<SectorStamp> stamps;     // write data / read destination
    std::vector<uint8_t> bytes;          // raw DATA OUT / IN, UNMAP parameter list
    uint32_t data_out_bytes = 0;         // DATA OUT sent
    uint32_t data_in_bytes = 0;          // DATA IN received
    CommandResponse response;
    RawCallback raw_done;
    bool raw_stamps_out = false;         // raw DATA OUT carries stamps
    bool hpb_read = false;               // sent as HPB READ
    bool responded = false;              // its RESPONSE arrived (completion pending)
    uint64_t trace_cmd = 0;              // timeline: the command's id (0: not traced)
    Upiu upiu;                           // COMMAND / DATA OUT (links forward synchronously)
    tlm::tlm_generic_payload payload;
  };
  enum class EventKind : uint8_t { ReadyToTransfer, Response };
  struct HostEvent {
    EventKind kind = EventKind::Response;
    uint8_t tag = 0;
    uint32_t data_offset = 0;
    uint32_t data_bytes = 0;
    uint32_t segment_bytes = 0;
  };
  struct Deliver {  // the queue's handler: a direct call
    HostDriver* host;
    void operator()(HostEvent& ev) const { host->handle_event(ev); }
  };

  void issue_method();          // start of simulation, open-loop arrivals, raw submissions
  void admit_arrivals();        // timed submitters: move arrived requests to their queues
  void try_issue();             // fill free tags
  bool pull(int submitter, BlockRequest& request, uint64_t& io_id, uint64_t& arrival_ps);
  void issue_block(int submitter, const BlockRequest& request, uint64_t io_id, uint64_t arrival_ps);
  void issue_raw();
  void send_command(uint8_t tag, uint64_t extra_ns = 0);
  void pump_hpb();
  void handle_event(HostEvent& ev);
  void send_data_out(const HostEvent& ev);
  void complete(uint8_t tag);
  void protocol_violation(const std::string& what);
  void check_done();
  uint64_t now_ps() const;

  HostParams params_;
  HostObserver* observer_ = nullptr;
  HpbHostCache* hpb_ = nullptr;
  AppLaunchTracker* apps_ = nullptr;
  std::vector<std::unique_ptr<SubmitterState>> submitters_;
  size_t round_robin_ = 0;
  std::unique_ptr<TagSlot[]> slots_;
  std::vector<uint8_t> free_tags_;
  uint32_t in_flight_ = 0;
  std::deque<std::pair<RawCommand, RawCallback>> raw_queue_;
  uint64_t next_io_id_ = 0;
  uint64_t next_version_ = 1;
  uint64_t software_queued_ = 0;
  bool done_notified_ = false;
  HostCounters counters_;
  sc_core::sc_time submit_overhead_, completion_overhead_, rtt_turnaround_;
  TimedWake kick_;
  EventWheel* wheel_ = nullptr;
  sc_core::sc_event done_event_;
  TimedQueue<HostEvent, Deliver> events_;
  // Observability
  int trace_track(int stream, uint8_t tag);
  void trace_command_slice(uint8_t tag, uint64_t end_ps, bool in_flight);
  TraceRecorder* trace_ = nullptr;
  std::vector<std::string> trace_stream_names_;
  std::vector<std::vector<int>> trace_tracks_;  // [stream + 1][tag] (stream -1: raw commands)
  int trace_outstanding_ = -1, trace_queued_ = -1;
};

}  // namespace ufs
