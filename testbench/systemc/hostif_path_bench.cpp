// The whole UFS protocol path: HostDriver -> UniproLink -> HostInterface -> fake firmware
// and data buffer -> back. Reads and writes with stamps checked end to end, UNMAP and
// INQUIRY through the byte region, CHECK CONDITION sense in the IoRecord, the host tag
// limit and the device queue depth, RTT flow control, and the sequential-read bandwidth
// of HS-G4B x2 for 512 KiB requests.
#include <catch2/catch.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <vector>
#include "common/timed_queue.h"
#include "host/host_driver.h"
#include "host/scsi_cdb.h"
#include "hostif/host_interface.h"
#include "link/unipro_link.h"

using namespace ufs;
using sc_core::sc_time;
using sc_core::SC_NS;
using sc_core::SC_US;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace hostif_path_bench {

namespace {

constexpr uint64_t kSlotBytes = 1ull << 20;  // data buffer area per tag (1 MiB)
constexpr uint64_t kByteSlot = 256;          // byte-region area per tag

// The data buffer: stamps below kByteRegionBase, raw bytes above; one port at 8 GB/s.
struct FakeBuffer : sc_core::sc_module {
  tlm_utils::simple_target_socket<FakeBuffer> socket;
  std::vector<SectorStamp> stamps = std::vector<SectorStamp>(256 * kSlotBytes / kSectorBytes);
  std::vector<uint8_t> bytes = std::vector<uint8_t>(256 * kByteSlot);
  sc_time next_free;
  double ps_per_byte = 125.0;  // 8 GB/s
  explicit FakeBuffer(sc_core::sc_module_name n) : sc_core::sc_module(n), socket("socket") {
    socket.register_b_transport(this, &FakeBuffer::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& p, sc_time& delay) {
    const uint64_t a = p.get_address();
    const uint32_t n = p.get_data_length();
    if (a >= kByteRegionBase) {
      uint8_t* mem = bytes.data() + (a - kByteRegionBase);
      if (p.is_write()) std::memcpy(mem, p.get_data_ptr(), n);
      else std::memcpy(p.get_data_ptr(), mem, n);
    } else {
      SectorStamp* mem = stamps.data() + a / kSectorBytes;
      SectorStamp* data = reinterpret_cast<SectorStamp*>(p.get_data_ptr());
      const size_t count = (n + kSectorBytes - 1) / kSectorBytes;
      if (p.is_write()) std::copy(data, data + count, mem);
      else std::copy(mem, mem + count, data);
    }
    const sc_time now = sc_core::sc_time_stamp();
    const sc_time start = std::max(now + delay, next_free);
    next_free = start + sc_time(20, SC_NS) + sc_time(n * ps_per_byte, sc_core::SC_PS);
    delay = next_free - now;
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

// A firmware stand-in: answers at once (after `cpu` per step) from a map of LBA -> stamp.
struct FakeFirmware : sc_core::sc_module, HostInterfaceListener {
  enum class Kind { Command, DataOut, DataIn };
  struct Ev {
    Kind kind = Kind::Command;
    HostCommand cmd;
    uint8_t tag = 0;
    uint64_t token = 0;
  };
  HostInterface& hif;
  FakeBuffer& buf;
  std::map<uint64_t, SectorStamp> media;
  uint64_t capacity_blocks = 1ull << 24;
  sc_time cpu = sc_time(1, SC_US);
  std::map<uint8_t, HostCommand> cmds;
  std::vector<std::vector<uint8_t>> unmap_lists;
  TimedQueue<Ev> queue;

  FakeFirmware(sc_core::sc_module_name n, HostInterface& h, FakeBuffer& b)
      : sc_core::sc_module(n), hif(h), buf(b), queue("queue", [this](Ev& e) { handle(e); }) {
    hif.set_listener(this);
  }
  void command_arrived(const HostCommand& cmd, const sc_time& at) override {
    Ev e;
    e.cmd = cmd;
    queue.push(at, e);
  }
  void data_out_done(uint8_t tag, uint64_t token, const sc_time& at) override {
    Ev e;
    e.kind = Kind::DataOut;
    e.tag = tag;
    e.token = token;
    queue.push(at, e);
  }
  void data_in_done(uint8_t tag, uint64_t token, const sc_time& at) override {
    Ev e;
    e.kind = Kind::DataIn;
    e.tag = tag;
    e.token = token;
    queue.push(at, e);
  }
  static uint64_t be(const uint8_t* p, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v = v << 8 | p[i];
    return v;
  }
  void respond(uint8_t tag, uint8_t status = 0, uint8_t key = 0, uint8_t code = 0) {
    CommandResponse r;
    r.tag = tag;
    r.status = status;
    r.sense_key = key;
    r.asc = code;
    cmds.erase(tag);
    hif.send_response(r, cpu);
  }
  void handle(Ev& e) {
    if (e.kind == Kind::DataIn) return respond(e.tag);
    if (e.kind == Kind::DataOut) {
      const HostCommand& c = cmds[e.tag];
      if (c.cdb[0] == scsi_op::kUnmap) {
        const uint8_t* p = buf.bytes.data() + e.tag * kByteSlot;
        unmap_lists.emplace_back(p, p + 24);
        const uint64_t lba = be(p + 8, 8), blocks = be(p + 16, 4);
        for (uint64_t i = 0; i < blocks; ++i) media.erase(lba + i);
      } else {
        const uint64_t lba = c.cdb[0] == scsi_op::kWrite10 ? be(&c.cdb[2], 4) : be(&c.cdb[2], 8);
        const SectorStamp* s = buf.stamps.data() + e.tag * kSlotBytes / kSectorBytes;
        for (uint32_t i = 0; i < c.expected_length / kSectorBytes; ++i) media[lba + i] = s[i];
      }
      return respond(e.tag);
    }
    const HostCommand& c = e.cmd;
    cmds[c.tag] = c;
    const uint8_t op = c.cdb[0];
    const uint64_t sector_addr = c.tag * kSlotBytes;
    const uint64_t byte_addr = kByteRegionBase + c.tag * kByteSlot;
    switch (op) {
      case scsi_op::kRead10:
      case scsi_op::kRead16: {
        const bool ten = op == scsi_op::kRead10;
        const uint64_t lba = ten ? be(&c.cdb[2], 4) : be(&c.cdb[2], 8);
        const uint64_t blocks = ten ? be(&c.cdb[7], 2) : be(&c.cdb[10], 4);
        if (lba + blocks > capacity_blocks)
          return respond(c.tag, scsi_status::kCheckCondition, sense_key::kIllegalRequest, asc::kLbaOutOfRange);
        for (uint64_t i = 0; i < blocks; ++i) {  // "flash read": straight into the buffer
          auto it = media.find(lba + i);
          buf.stamps[sector_addr / kSectorBytes + i] = it == media.end() ? SectorStamp() : it->second;
        }
        return hif.send_data_in(c.tag, 0, sector_addr, c.expected_length, lba, cpu);
      }
      case scsi_op::kWrite10:
      case scsi_op::kWrite16:
        return hif.request_data_out(c.tag, 0, sector_addr, c.expected_length, 7, cpu);
      case scsi_op::kUnmap:
        return hif.request_data_out(c.tag, 0, byte_addr, c.expected_length, 8, cpu);
      case scsi_op::kSynchronizeCache10:
        return respond(c.tag);
      case scsi_op::kInquiry: {
        uint8_t* p = buf.bytes.data() + c.tag * kByteSlot;
        std::memset(p, 0, 36);
        std::memcpy(p + 8, "FAKEUFS ", 8);
        return hif.send_data_in(c.tag, 0, byte_addr, std::min<uint32_t>(36, c.cdb[4]), 9, cpu);
      }
      default:
        return respond(c.tag, scsi_status::kCheckCondition, sense_key::kIllegalRequest, asc::kInvalidOpcode);
    }
  }
};

struct ListSubmitter : RequestSubmitter {
  std::vector<BlockRequest> requests;
  size_t next_index = 0;
  uint32_t limit = 32;
  bool next(BlockRequest& out) override {
    if (next_index >= requests.size()) return false;
    out = requests[next_index++];
    return true;
  }
  uint32_t max_outstanding() const override { return limit; }
};

// Random 4 KiB reads over a range, generated on the fly (no list in memory).
struct RandomReads : RequestSubmitter {
  uint64_t count = 0, issued = 0, range = 1 << 18, state = 88172645463325252ull;
  uint32_t depth = 32;
  bool next(BlockRequest& out) override {
    if (issued == count) return false;
    ++issued;
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    out = BlockRequest();
    out.lba = state % range;
    return true;
  }
  uint32_t max_outstanding() const override { return depth; }
};

struct Recorder : HostObserver {
  std::vector<IoRecord> completed;
  std::vector<std::vector<SectorStamp>> data;  // copied: `data` is valid only in the callback
  uint32_t outstanding = 0, max_outstanding = 0;
  bool keep = true;
  void on_issue(const IoRecord&) override { max_outstanding = std::max(max_outstanding, ++outstanding); }
  void on_complete(const IoRecord& r) override {
    --outstanding;
    if (!keep) return;
    completed.push_back(r);
    data.emplace_back();
    if (r.data) data.back().assign(r.data, r.data + r.request.blocks);
  }
};

struct Platform {
  HostDriver host;
  UniproLink link;
  HostInterface hif;
  FakeBuffer buffer;
  FakeFirmware fw;
  Recorder rec;
  Platform(const HostParams& hp = HostParams(), const LinkParams& lp = LinkParams(),
           const HostInterfaceParams& ip = HostInterfaceParams())
      : host("host", hp), link("link", lp), hif("hif", ip), buffer("buffer"), fw("fw", hif, buffer) {
    host.to_link.bind(link.host_in);
    link.device_out.bind(hif.from_link);
    hif.to_link.bind(link.device_in);
    link.host_out.bind(host.from_link);
    hif.dma.bind(buffer.socket);
    host.set_observer(&rec);
  }
};

BlockRequest req(BlockOp op, uint64_t lba, uint32_t blocks, uint32_t stream = 0) {
  BlockRequest r;
  r.op = op;
  r.lba = lba;
  r.blocks = blocks;
  r.stream = stream;
  return r;
}

}  // namespace

TEST_CASE("path: a read returns the stamps the device holds", "[path]") {
  Platform p;
  for (uint64_t lba = 100; lba < 108; ++lba) p.fw.media[lba] = SectorStamp{lba, 500 + lba};
  ListSubmitter s;
  s.requests = {req(BlockOp::Read, 100, 8), req(BlockOp::Read, 106, 4)};
  p.host.add_submitter(&s);
  sc_core::sc_start();
  REQUIRE(p.rec.completed.size() == 2);
  for (size_t k = 0; k < 2; ++k) {
    const IoRecord& r = p.rec.completed[k];
    CHECK(r.status == scsi_status::kGood);
    for (uint32_t i = 0; i < r.request.blocks; ++i) {
      const uint64_t lba = r.request.lba + i;
      CHECK(p.rec.data[k][i] == (lba < 108 ? SectorStamp{lba, 500 + lba} : SectorStamp()));
    }
  }
  // The 32 KiB read alone: submit 1.5 + COMMAND 0.017 + 0.1 latency + decode 0.1 + cpu 1 + build 0.05
  // + DMA (0.02 + 32768 B at 8 GB/s = 4.116) + DATA IN 14.479 + 0.1 -> data_in_done; + cpu 1 + build
  // 0.05 + RESPONSE 0.017 + 0.1 + completion 2.5 = 25.13 us, but the 16 KiB read's DATA IN
  // (7.25 us) was queued on the link before that response.
  const double latency_us = (p.rec.completed[0].complete_ps - p.rec.completed[0].arrival_ps) / 1e6;
  WARN("32 KiB read latency through the path at QD2: " << latency_us << " us");
  CHECK(latency_us > 25.0);
  CHECK(latency_us < 33.0);
  CHECK(p.hif.counters().data_in_upius == 2);  // 32 KiB and 16 KiB: one UPIU each
}

TEST_CASE("path: a write lands in the device and reads back", "[path]") {
  Platform p;
  ListSubmitter s;
  s.limit = 1;  // in order: write, then read it back
  s.requests = {req(BlockOp::Write, 50, 4), req(BlockOp::Read, 48, 8)};
  p.host.add_submitter(&s);
  sc_core::sc_start();
  REQUIRE(p.rec.completed.size() == 2);
  for (uint64_t i = 0; i < 4; ++i) {
    REQUIRE(p.fw.media.count(50 + i));
    CHECK(p.fw.media[50 + i] == (SectorStamp{50 + i, 1 + i}));
  }
  const auto& back = p.rec.data[1];
  CHECK(back[0] == SectorStamp());
  CHECK(back[2] == (SectorStamp{50, 1}));
  CHECK(back[5] == (SectorStamp{53, 4}));
  CHECK(back[6] == SectorStamp());
  CHECK(p.hif.counters().rtts == 1);
  CHECK(p.hif.counters().data_out_bytes == 4 * 4096);
  CHECK(p.host.next_write_version() == 5);
}

TEST_CASE("path: 512 KiB write with READY TO TRANSFER flow control", "[path]") {
  HostInterfaceParams ip;
  ip.max_outstanding_rtt = 2;
  Platform p(HostParams(), LinkParams(), ip);
  ListSubmitter s;
  s.limit = 1;
  s.requests = {req(BlockOp::Write, 1000, 128), req(BlockOp::Read, 1000, 128)};
  p.host.add_submitter(&s);
  sc_core::sc_start();
  REQUIRE(p.rec.completed.size() == 2);
  CHECK(p.hif.counters().rtts == 16);  // 32 KiB each
  CHECK(p.hif.counters().data_out_upius == 16);
  CHECK(p.hif.counters().data_in_upius == 16);
  for (uint32_t i = 0; i < 128; ++i) CHECK(p.rec.data[1][i] == (SectorStamp{1000 + i, 1 + i}));
  const IoRecord& w = p.rec.completed[0];
  WARN("512 KiB write latency (idle, HS-G4B x2): " << (w.complete_ps - w.arrival_ps) / 1e6 << " us");
}

TEST_CASE("path: UNMAP and INQUIRY go through the byte region", "[path]") {
  Platform p;
  for (uint64_t lba = 0; lba < 20; ++lba) p.fw.media[lba] = SectorStamp{lba, 1};
  ListSubmitter s;
  s.limit = 1;
  s.requests = {req(BlockOp::Unmap, 10, 5), req(BlockOp::Read, 8, 8), req(BlockOp::Flush, 0, 0)};
  p.host.add_submitter(&s);
  RawResult inquiry;
  RawCommand c;
  c.command.cdb[0] = scsi_op::kInquiry;
  c.command.cdb[4] = 36;
  c.command.direction = DataDirection::Read;
  c.command.expected_length = 36;
  p.host.submit_raw(c, [&](const RawResult& r) { inquiry = r; });
  sc_core::sc_start();

  REQUIRE(p.fw.unmap_lists.size() == 1);
  CHECK(p.fw.unmap_lists[0] == std::vector<uint8_t>{0, 22, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10,
                                                     0, 0, 0, 5, 0, 0, 0, 0});
  REQUIRE(p.rec.completed.size() == 3);
  const auto& back = p.rec.data[1];
  CHECK(back[1] == (SectorStamp{9, 1}));
  CHECK(back[2] == SectorStamp());  // lba 10..14 unmapped
  CHECK(back[6] == SectorStamp());
  CHECK(back[7] == (SectorStamp{15, 1}));
  CHECK(inquiry.response.status == scsi_status::kGood);
  REQUIRE(inquiry.data_in_bytes == 36);
  CHECK(std::string(inquiry.data_in.begin() + 8, inquiry.data_in.begin() + 16) == "FAKEUFS ");
}

TEST_CASE("path: CHECK CONDITION sense reaches the host IoRecord", "[path]") {
  Platform p;
  p.fw.capacity_blocks = 1000;
  ListSubmitter s;
  s.requests = {req(BlockOp::Read, 998, 4), req(BlockOp::Read, 10, 1)};
  p.host.add_submitter(&s);
  RawResult bad;
  RawCommand c;
  c.command.cdb[0] = 0xC7;  // vendor opcode the device does not know
  p.host.submit_raw(c, [&](const RawResult& r) { bad = r; });
  sc_core::sc_start();
  REQUIRE(p.rec.completed.size() == 2);
  const IoRecord& r = p.rec.completed[0].request.lba == 998 ? p.rec.completed[0] : p.rec.completed[1];
  CHECK(r.status == scsi_status::kCheckCondition);
  CHECK(r.sense_key == sense_key::kIllegalRequest);
  CHECK(r.asc == asc::kLbaOutOfRange);
  const IoRecord& ok = p.rec.completed[0].request.lba == 998 ? p.rec.completed[1] : p.rec.completed[0];
  CHECK(ok.status == scsi_status::kGood);
  CHECK(bad.response.status == scsi_status::kCheckCondition);
  CHECK(bad.response.asc == asc::kInvalidOpcode);
  CHECK(p.host.counters().check_conditions == 2);
  CHECK(p.hif.counters().check_conditions == 2);
  // The response with sense data is 20 bytes longer on the wire.
  CHECK(p.link.stats(UniproLink::kDeviceToHost).upiu_bytes == 32 + 4096 + 3 * 32 + 2 * kSenseSegmentBytes);
}

TEST_CASE("path: host tag limit and device queue depth", "[path]") {
  HostParams hp;
  hp.queue_depth = 16;
  HostInterfaceParams ip;
  ip.queue_depth = 4;  // fewer than the host's tags: the rest wait in the interface
  Platform p(hp, LinkParams(), ip);
  for (uint64_t lba = 0; lba < 512; ++lba) p.fw.media[lba] = SectorStamp{lba, 3};
  ListSubmitter reads, writes;
  for (uint32_t i = 0; i < 150; ++i) {
    reads.requests.push_back(req(BlockOp::Read, (i * 37) % 500, 1 + i % 8, 0));
    writes.requests.push_back(req(BlockOp::Write, 10000 + i * 8, 1 + i % 8, 1));
  }
  p.host.add_submitter(&reads);
  p.host.add_submitter(&writes);
  sc_core::sc_start();
  REQUIRE(p.host.done());
  REQUIRE(p.rec.completed.size() == 300);
  CHECK(p.rec.max_outstanding == 16);
  CHECK(p.hif.counters().max_active == 4);
  CHECK(p.hif.counters().max_waiting > 0);
  CHECK(p.hif.active_commands() == 0);
  for (size_t k = 0; k < p.rec.completed.size(); ++k) {
    const IoRecord& r = p.rec.completed[k];
    CHECK(r.status == scsi_status::kGood);
    if (r.request.op != BlockOp::Read) continue;
    for (uint32_t i = 0; i < r.request.blocks; ++i)
      if (p.rec.data[k][i] != (SectorStamp{r.request.lba + i, 3})) FAIL("read " << r.io_id << " block " << i);
  }
  uint64_t written = 0;
  for (auto& kv : p.fw.media) written += kv.first >= 10000;
  CHECK(written == p.host.counters().bytes_written / 4096);
}

TEST_CASE("path: sequential 512 KiB reads at HS-G4B x2 run at link speed", "[path][bandwidth]") {
  HostInterfaceParams ip;
  Platform p(HostParams(), LinkParams(), ip);
  ListSubmitter s;
  s.limit = 8;
  const uint32_t n = 64;
  for (uint32_t i = 0; i < n; ++i) s.requests.push_back(req(BlockOp::Read, i * 128ull, 128));
  p.rec.keep = true;
  p.host.add_submitter(&s);
  sc_core::sc_start();
  REQUIRE(p.rec.completed.size() == n);
  // Steady state: from the 8th completion to the last.
  const double t0 = p.rec.completed[7].complete_ps * 1e-12, t1 = p.rec.completed[n - 1].complete_ps * 1e-12;
  const double mbps = (n - 8) * 524288.0 / (t1 - t0) / 1e6;
  // Link limit: 16 DATA IN UPIUs of 32 KiB (33768 framed bytes each) + RESPONSE (40) per request.
  const double link_mbps =
      524288.0 / p.link.serialisation_time(UniproLink::kDeviceToHost, 16 * 33768 + 40).to_seconds() / 1e6;
  WARN("HS-G4B x2 sequential 512 KiB reads, QD8: " << mbps << " MB/s simulated, link limit " << link_mbps
                                                   << " MB/s, d2h utilisation "
                                                   << p.link.utilisation(UniproLink::kDeviceToHost));
  CHECK(mbps == Approx(link_mbps).epsilon(0.005));
  CHECK(link_mbps == Approx(2262.9).epsilon(0.001));
}

TEST_CASE("path: coalesced segments keep the wire bytes", "[path][bandwidth]") {
  HostInterfaceParams ip;
  ip.coalesce_segments = true;
  Platform p(HostParams(), LinkParams(), ip);
  ListSubmitter s;
  s.limit = 8;
  const uint32_t n = 64;
  for (uint32_t i = 0; i < n; ++i) s.requests.push_back(req(BlockOp::Read, i * 128ull, 128));
  s.requests.push_back(req(BlockOp::Write, 0, 128));
  p.host.add_submitter(&s);
  sc_core::sc_start();
  REQUIRE(p.rec.completed.size() == n + 1);
  // Same framing as 16 separate DATA IN UPIUs per read (+ RESPONSE), 16 RTTs (+ RESPONSE) for the write.
  CHECK(p.link.stats(UniproLink::kDeviceToHost).wire_bytes == n * (16 * 33768 + 40) + 16 * 40 + 40);
  CHECK(p.hif.counters().data_in_upius == n * 16);  // one object per request stands for 16 UPIUs
  CHECK(p.link.stats(UniproLink::kDeviceToHost).upius == n * 17 + 16 + 1);  // + 16 RTTs + write response
  CHECK(p.link.stats(UniproLink::kHostToDevice).upius == n + 1 + 16);       // commands + 16 DATA OUT
  for (uint32_t i = 0; i < 128; ++i) CHECK(p.fw.media[i] == (SectorStamp{i, 1 + i}));
}

TEST_CASE("path: simulation speed of 4 KiB random reads at QD32", "[path][speed]") {
  Platform p;
  p.fw.cpu = sc_time(2, SC_US);
  p.rec.keep = false;
  RandomReads s;
  s.count = 200000;
  p.host.add_submitter(&s);
  const auto w0 = std::chrono::steady_clock::now();
  sc_core::sc_start();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  CHECK(p.host.counters().completed == s.count);
  WARN("host+link+hostif+fake firmware: " << s.count / wall << " reads per wall-second, "
                                          << s.count / sc_core::sc_time_stamp().to_seconds() << " simulated IOPS");
}

TEST_CASE("path: host interface parameters", "[path]") {
  HostInterfaceParams ip;
  CHECK(ip.validate().empty());
  ip.max_data_segment_bytes = 65536;
  CHECK(ip.validate().rfind("max_data_segment_bytes:", 0) == 0);
  ip = HostInterfaceParams();
  ip.queue_depth = 0;
  CHECK(ip.validate().rfind("queue_depth:", 0) == 0);
}

}  // namespace hostif_path_bench
