// HostDriver: SCSI CDB encoding byte by byte, write stamps and the UNMAP parameter list on
// DATA OUT, the tag limit, open-loop arrivals, raw commands with sense data. The driver is
// bound straight to a scripted fake device (no link) that answers every UPIU at once with
// an annotated delay.
#include <catch2/catch.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <algorithm>
#include <array>
#include <map>
#include <vector>
#include "host/host_driver.h"
#include "host/scsi_cdb.h"

using namespace ufs;
using sc_core::sc_time;
using sc_core::SC_NS;
using sc_core::SC_US;
using Cdb = std::array<uint8_t, 16>;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace host_driver_bench {

namespace {

Cdb encode(BlockOp op, uint64_t lba, uint32_t blocks, bool fua = false, uint8_t* params = nullptr) {
  BlockRequest r;
  r.op = op;
  r.lba = lba;
  r.blocks = blocks;
  r.fua = fua;
  HostCommand cmd;
  uint8_t scratch[host_scsi::kUnmapParamBytes];
  host_scsi::encode_block_request(r, cmd, params ? params : scratch);
  return cmd.cdb;
}

// A closed- or open-loop list of requests.
struct ListSubmitter : RequestSubmitter {
  std::vector<BlockRequest> requests;
  size_t next_index = 0;
  uint32_t limit = 32;
  bool is_timed = false;
  bool next(BlockRequest& out) override {
    if (next_index >= requests.size()) return false;
    out = requests[next_index++];
    return true;
  }
  uint32_t max_outstanding() const override { return limit; }
  bool timed() const override { return is_timed; }
};

struct Recorder : HostObserver {
  std::vector<IoRecord> issued, completed;  // `data` is only valid inside the callback: copied below
  std::vector<std::vector<SectorStamp>> issued_data, completed_data;
  uint32_t outstanding = 0, max_outstanding = 0;
  std::map<uint32_t, uint32_t> per_stream, per_stream_max;
  void on_issue(const IoRecord& r) override {
    issued.push_back(r);
    issued_data.emplace_back();
    if (r.data) issued_data.back().assign(r.data, r.data + r.request.blocks);
    max_outstanding = std::max(max_outstanding, ++outstanding);
    per_stream_max[r.request.stream] = std::max(per_stream_max[r.request.stream], ++per_stream[r.request.stream]);
  }
  void on_complete(const IoRecord& r) override {
    completed.push_back(r);
    completed_data.emplace_back();
    if (r.data) completed_data.back().assign(r.data, r.data + r.request.blocks);
    --outstanding;
    --per_stream[r.request.stream];
  }
};

// Answers COMMAND UPIUs after `service`: reads get stamps {lba, 1000 + lba}, writes and
// UNMAP get one RTT for the whole transfer; INQUIRY returns 36 bytes; other opcodes CHECK CONDITION.
struct FakeDevice : sc_core::sc_module {
  tlm_utils::simple_target_socket<FakeDevice> from_host;
  tlm_utils::simple_initiator_socket<FakeDevice> to_host;
  sc_time service = sc_time(5, SC_US);
  std::vector<HostCommand> commands;                     // in arrival order
  std::map<uint8_t, HostCommand> active;                 // by tag
  std::vector<std::vector<SectorStamp>> written_stamps;  // DATA OUT contents, in order
  std::vector<std::vector<uint8_t>> written_bytes;
  std::map<uint8_t, sc_time> tag_free_at;            // when each tag's last response left
  uint32_t tag_conflicts = 0;                         // a tag reused before its response
  std::vector<std::pair<sc_time, int>> occupancy;     // (+1 at command, -1 at response)
  uint32_t max_in_device() const {
    auto ev = occupancy;
    std::sort(ev.begin(), ev.end());  // a response and a command at the same time: -1 first
    int cur = 0, best = 0;
    for (auto& e : ev) best = std::max(best, cur += e.second);
    return static_cast<uint32_t>(best);
  }

  explicit FakeDevice(sc_core::sc_module_name n) : sc_core::sc_module(n), from_host("from_host"), to_host("to_host") {
    from_host.register_b_transport(this, &FakeDevice::b_transport);
  }
  void send(Upiu& u, const sc_time& at) {
    tlm::tlm_generic_payload p;
    p.set_command(tlm::TLM_WRITE_COMMAND);
    p.set_data_ptr(reinterpret_cast<unsigned char*>(&u));
    p.set_data_length(u.wire_bytes());
    sc_time d = at - sc_core::sc_time_stamp();
    to_host->b_transport(p, d);
  }
  void respond(uint8_t tag, const sc_time& at, uint8_t status = 0, uint8_t key = 0, uint8_t asc_code = 0) {
    Upiu r;
    r.type = UpiuType::Response;
    r.task_tag = tag;
    r.response.tag = tag;
    r.response.status = status;
    r.response.sense_key = key;
    r.response.asc = asc_code;
    active.erase(tag);
    tag_free_at[tag] = at;
    occupancy.push_back({at, -1});
    send(r, at);
  }
  void b_transport(tlm::tlm_generic_payload& p, sc_time& delay) {
    const Upiu& u = *reinterpret_cast<Upiu*>(p.get_data_ptr());
    const sc_time at = sc_core::sc_time_stamp() + delay;
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    if (u.type == UpiuType::Command) {
      commands.push_back(u.command);
      active[u.task_tag] = u.command;
      if (tag_free_at.count(u.task_tag) && at < tag_free_at[u.task_tag]) ++tag_conflicts;
      occupancy.push_back({at, +1});
      const uint8_t op = u.command.cdb[0];
      if (op == scsi_op::kRead10 || op == scsi_op::kRead16) {
        const bool ten = op == scsi_op::kRead10;
        uint64_t lba = 0;
        for (int i = 0; i < (ten ? 4 : 8); ++i) lba = lba << 8 | u.command.cdb[2 + i];
        std::vector<SectorStamp> data(u.command.expected_length / kSectorBytes);
        for (size_t i = 0; i < data.size(); ++i) data[i] = SectorStamp{lba + i, 1000 + lba + i};
        Upiu d;
        d.type = UpiuType::DataIn;
        d.task_tag = u.task_tag;
        d.data_bytes = u.command.expected_length;
        d.stamps = data.data();
        send(d, at + service / 2);
        respond(u.task_tag, at + service);
      } else if (u.command.direction == DataDirection::Write) {
        Upiu rtt;
        rtt.type = UpiuType::ReadyToTransfer;
        rtt.task_tag = u.task_tag;
        rtt.data_bytes = u.command.expected_length;
        send(rtt, at + sc_time(100, SC_NS));
      } else if (op == scsi_op::kInquiry) {
        std::vector<uint8_t> inquiry(36, 0);
        inquiry[0] = 0x00;  // direct-access block device
        inquiry[8] = 'U';
        inquiry[9] = 'F';
        inquiry[10] = 'S';
        Upiu d;
        d.type = UpiuType::DataIn;
        d.task_tag = u.task_tag;
        d.data_bytes = 36;
        d.bytes = inquiry.data();
        send(d, at + service / 2);
        respond(u.task_tag, at + service);
      } else if (op == scsi_op::kSynchronizeCache10 || op == scsi_op::kTestUnitReady) {
        respond(u.task_tag, at + service);
      } else {
        respond(u.task_tag, at + service, scsi_status::kCheckCondition, sense_key::kIllegalRequest, asc::kInvalidOpcode);
      }
    } else if (u.type == UpiuType::DataOut) {
      if (u.stamps) written_stamps.emplace_back(u.stamps, u.stamps + u.data_bytes / kSectorBytes);
      if (u.bytes) written_bytes.emplace_back(u.bytes, u.bytes + u.data_bytes);
      respond(u.task_tag, at + service);
    }
  }
};

struct Bench {
  HostDriver host;
  FakeDevice device;
  Recorder recorder;
  explicit Bench(const HostParams& p = HostParams()) : host("host", p), device("device") {
    host.to_link.bind(device.from_host);
    device.to_host.bind(host.from_link);
    host.set_observer(&recorder);
  }
};

BlockRequest req(BlockOp op, uint64_t lba, uint32_t blocks, bool fua = false, uint32_t stream = 0) {
  BlockRequest r;
  r.op = op;
  r.lba = lba;
  r.blocks = blocks;
  r.fua = fua;
  r.stream = stream;
  return r;
}

// Collects parameter keys the way the config tree walks them.
struct KeyBinder {
  std::vector<std::string> keys;
  template <class T>
  void operator()(const char* key, T&, const char* unit, const char* meaning) {
    keys.push_back(key);
    CHECK(std::string(meaning).size() > 5);
  }
};

}  // namespace

TEST_CASE("host: CDB encoding byte by byte", "[host][cdb]") {
  CHECK(encode(BlockOp::Read, 0x12345678, 8) == Cdb{0x28, 0, 0x12, 0x34, 0x56, 0x78, 0, 0x00, 0x08, 0});
  // The largest request READ(10) still carries.
  CHECK(encode(BlockOp::Read, 0xFFFFFFFF, 0xFFFF) == Cdb{0x28, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0xFF, 0xFF, 0});
  // LBA beyond 32 bits -> READ(16).
  CHECK(encode(BlockOp::Read, 0x100000000ull, 1) ==
        Cdb{0x88, 0, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x01, 0, 0});
  // Length beyond 16 bits -> READ(16).
  CHECK(encode(BlockOp::Read, 5, 0x10000) ==
        Cdb{0x88, 0, 0, 0, 0, 0, 0, 0, 0, 0x05, 0, 0x01, 0x00, 0x00, 0, 0});
  CHECK(encode(BlockOp::Write, 0x00ABCDEF, 2) == Cdb{0x2A, 0, 0x00, 0xAB, 0xCD, 0xEF, 0, 0x00, 0x02, 0});
  CHECK(encode(BlockOp::Write, 0x00ABCDEF, 2, true) == Cdb{0x2A, 0x08, 0x00, 0xAB, 0xCD, 0xEF, 0, 0x00, 0x02, 0});
  CHECK(encode(BlockOp::Write, 0x0123456789ull, 3, true) ==
        Cdb{0x8A, 0x08, 0, 0, 0, 0x01, 0x23, 0x45, 0x67, 0x89, 0, 0, 0, 0x03, 0, 0});
  CHECK(encode(BlockOp::Flush, 0, 0) == Cdb{0x35, 0, 0, 0, 0, 0, 0, 0, 0, 0});

  uint8_t list[host_scsi::kUnmapParamBytes];
  CHECK(encode(BlockOp::Unmap, 0x1122334455ull, 0x800, false, list) == Cdb{0x42, 0, 0, 0, 0, 0, 0, 0x00, 24, 0});
  const std::vector<uint8_t> expected_list = {
      0x00, 22, 0x00, 16, 0, 0, 0, 0,                // header: UNMAP DATA LENGTH 22, DESCRIPTOR DATA LENGTH 16
      0, 0, 0, 0x11, 0x22, 0x33, 0x44, 0x55,         // descriptor: LBA
      0x00, 0x00, 0x08, 0x00, 0, 0, 0, 0};           // NUMBER OF LOGICAL BLOCKS, reserved
  CHECK(std::vector<uint8_t>(list, list + sizeof list) == expected_list);

  BlockRequest r = req(BlockOp::Read, 1, 4);
  HostCommand cmd;
  host_scsi::encode_block_request(r, cmd, list);
  CHECK(cmd.direction == DataDirection::Read);
  CHECK(cmd.expected_length == 4 * 4096);
  r.op = BlockOp::Unmap;
  host_scsi::encode_block_request(r, cmd, list);
  CHECK(cmd.direction == DataDirection::Write);
  CHECK(cmd.expected_length == 24);
  r.op = BlockOp::Flush;
  host_scsi::encode_block_request(r, cmd, list);
  CHECK(cmd.direction == DataDirection::None);
  CHECK(cmd.expected_length == 0);
}

TEST_CASE("host: commands, write stamps and the UNMAP list reach the device", "[host]") {
  Bench b;
  ListSubmitter s;
  s.limit = 1;  // one at a time: the device sees them in order
  s.requests = {req(BlockOp::Read, 0x10, 2), req(BlockOp::Read, 0x100000000ull, 1),
                req(BlockOp::Write, 7, 3, true), req(BlockOp::Flush, 0, 0),
                req(BlockOp::Unmap, 0x1122334455ull, 0x800), req(BlockOp::Write, 9, 1)};
  b.host.add_submitter(&s);
  sc_core::sc_start();

  REQUIRE(b.host.done());
  REQUIRE(b.device.commands.size() == 6);
  const auto& c = b.device.commands;
  CHECK(c[0].cdb == Cdb{0x28, 0, 0, 0, 0, 0x10, 0, 0, 2, 0});
  CHECK(c[0].expected_length == 8192);
  CHECK(c[1].cdb[0] == 0x88);
  CHECK(c[2].cdb == Cdb{0x2A, 0x08, 0, 0, 0, 7, 0, 0, 3, 0});
  CHECK(c[2].direction == DataDirection::Write);
  CHECK(c[3].cdb == Cdb{0x35, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  CHECK(c[3].direction == DataDirection::None);
  CHECK(c[4].cdb == Cdb{0x42, 0, 0, 0, 0, 0, 0, 0, 24, 0});

  // DATA OUT: stamps {lba, version}, versions +1 per written block across requests.
  REQUIRE(b.device.written_stamps.size() == 2);
  CHECK(b.device.written_stamps[0] == std::vector<SectorStamp>{{7, 1}, {8, 2}, {9, 3}});
  CHECK(b.device.written_stamps[1] == std::vector<SectorStamp>{{9, 4}});
  REQUIRE(b.device.written_bytes.size() == 1);
  CHECK(b.device.written_bytes[0] == std::vector<uint8_t>{0, 22, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0x11, 0x22, 0x33, 0x44,
                                                         0x55, 0, 0, 0x08, 0, 0, 0, 0, 0});

  // Observer: issue and completion of each, read data landed in the request buffer.
  REQUIRE(b.recorder.completed.size() == 6);
  CHECK(b.recorder.issued_data[2] == std::vector<SectorStamp>{{7, 1}, {8, 2}, {9, 3}});
  CHECK(b.recorder.completed_data[0] == std::vector<SectorStamp>{{0x10, 1000 + 0x10}, {0x11, 1000 + 0x11}});
  CHECK(b.recorder.completed_data[1] == std::vector<SectorStamp>{{0x100000000ull, 1000 + 0x100000000ull}});
  for (size_t i = 0; i < 6; ++i) {
    const IoRecord& r = b.recorder.completed[i];
    CHECK(r.io_id == i);
    CHECK(r.status == scsi_status::kGood);
    CHECK(r.issue_ps == r.arrival_ps + 1500 * 1000);  // submit overhead, default 1500 ns
    CHECK(r.complete_ps > r.issue_ps);
  }
  // A read: issue -> device 5 us -> response + 2.5 us completion overhead.
  CHECK(b.recorder.completed[0].complete_ps - b.recorder.completed[0].issue_ps == 5000000 + 2500000);
  CHECK(b.host.counters().bytes_written == 4 * 4096 + 24);
  CHECK(b.host.counters().bytes_read == 3 * 4096);
  CHECK(b.host.counters().writes == 2);
  CHECK(b.host.counters().unmaps == 1);
  CHECK(b.host.counters().flushes == 1);
}

TEST_CASE("host: never more than queue_depth commands outstanding", "[host]") {
  HostParams p;
  p.queue_depth = 8;
  Bench b(p);
  ListSubmitter s0, s1, s2;
  s0.limit = 16;
  s1.limit = 16;
  s2.limit = 2;  // per-submitter limit below the tag count
  for (uint32_t i = 0; i < 100; ++i) {
    s0.requests.push_back(req(BlockOp::Read, i, 1, false, 0));
    s1.requests.push_back(req(BlockOp::Write, 1000 + i, 2, false, 1));
    s2.requests.push_back(req(BlockOp::Read, 5000 + i, 4, false, 2));
  }
  b.host.add_submitter(&s0);
  b.host.add_submitter(&s1);
  b.host.add_submitter(&s2);
  bool done_seen = false;
  struct Waiter : sc_core::sc_module {
    SC_HAS_PROCESS(Waiter);
    HostDriver& h;
    bool& seen;
    Waiter(sc_core::sc_module_name n, HostDriver& hd, bool& s) : sc_core::sc_module(n), h(hd), seen(s) { SC_THREAD(run); }
    void run() {
      wait(h.done_event());
      seen = true;
    }
  } waiter("waiter", b.host, done_seen);
  sc_core::sc_start();

  CHECK(done_seen);
  CHECK(b.host.done());
  CHECK(b.recorder.completed.size() == 300);
  CHECK(b.recorder.max_outstanding == 8);
  CHECK(b.device.max_in_device() == 8);
  CHECK(b.device.tag_conflicts == 0);
  CHECK(b.host.counters().max_outstanding == 8);
  CHECK(b.recorder.per_stream_max[2] == 2);
  CHECK(b.device.active.empty());
  CHECK(b.host.outstanding() == 0);
}

TEST_CASE("host: open-loop arrivals wait in the software queue when tags run out", "[host]") {
  HostParams p;
  p.queue_depth = 32;
  Bench b(p);
  b.device.service = sc_time(10, SC_US);
  ListSubmitter s;
  s.is_timed = true;
  s.limit = 1000;
  for (uint32_t i = 0; i < 40; ++i) {
    BlockRequest r = req(BlockOp::Read, i, 1);
    r.arrival_ps = 1000000;  // all at 1 us
    s.requests.push_back(r);
  }
  BlockRequest late = req(BlockOp::Read, 99, 1);
  late.arrival_ps = 200000000;  // 200 us: the device is idle again
  s.requests.push_back(late);
  b.host.add_submitter(&s);
  sc_core::sc_start();

  REQUIRE(b.recorder.completed.size() == 41);
  CHECK(b.host.counters().max_software_queue == 8);
  uint32_t at_arrival = 0, delayed = 0;
  for (const IoRecord& r : b.recorder.issued) {
    CHECK(r.issue_ps >= r.arrival_ps);
    if (r.request.lba == 99) {
      CHECK(r.arrival_ps == 200000000);
      CHECK(r.issue_ps == 200000000 + 1500000);
      continue;
    }
    CHECK(r.arrival_ps == 1000000);
    if (r.issue_ps == 1000000 + 1500000)
      ++at_arrival;
    else
      ++delayed;
  }
  CHECK(at_arrival == 32);
  CHECK(delayed == 8);
}

TEST_CASE("host: raw commands return status, sense and data", "[host]") {
  Bench b;
  RawResult inquiry, bad, tur;
  int callbacks = 0;
  RawCommand c;
  c.command.cdb[0] = scsi_op::kInquiry;
  c.command.cdb[4] = 36;
  c.command.direction = DataDirection::Read;
  c.command.expected_length = 36;
  b.host.submit_raw(c, [&](const RawResult& r) {
    inquiry = r;
    ++callbacks;
    // A callback may submit more.
    RawCommand t;
    t.command.cdb[0] = scsi_op::kTestUnitReady;
    b.host.submit_raw(t, [&](const RawResult& r2) {
      tur = r2;
      ++callbacks;
    });
  });
  RawCommand x;
  x.command.cdb[0] = 0xFF;  // no such opcode
  b.host.submit_raw(x, [&](const RawResult& r) {
    bad = r;
    ++callbacks;
  });
  sc_core::sc_start();
  CHECK(callbacks == 3);
  CHECK(inquiry.response.status == scsi_status::kGood);
  CHECK(inquiry.data_in_bytes == 36);
  REQUIRE(inquiry.data_in.size() == 36);
  CHECK(inquiry.data_in[8] == 'U');
  CHECK(inquiry.data_in[10] == 'S');
  CHECK(bad.response.status == scsi_status::kCheckCondition);
  CHECK(bad.response.sense_key == sense_key::kIllegalRequest);
  CHECK(bad.response.asc == asc::kInvalidOpcode);
  CHECK(tur.response.status == scsi_status::kGood);
  CHECK(tur.complete_ps > inquiry.complete_ps);
  CHECK(b.host.counters().raw == 3);
  CHECK(b.host.counters().check_conditions == 1);
  CHECK(b.host.done());
}

TEST_CASE("host: parameter validation names the key", "[host]") {
  HostParams p;
  CHECK(p.validate().empty());
  p.queue_depth = 0;
  CHECK(p.validate().rfind("queue_depth:", 0) == 0);
  p = HostParams();
  p.lun = 200;
  CHECK(p.validate().rfind("lun:", 0) == 0);
  KeyBinder binder;
  p.bind(binder);
  CHECK(binder.keys == std::vector<std::string>{"queue_depth", "lun", "submit_overhead_ns", "completion_overhead_ns",
                                                "rtt_turnaround_ns"});
}

}  // namespace host_driver_bench
