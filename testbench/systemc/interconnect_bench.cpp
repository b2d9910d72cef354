// The on-chip interconnect with its targets (tlm/bus, tlm/memory): several initiators on
// its one target socket, routing by address (relative for register blocks), exact busy
// times per port (transfers to one target queue, to different targets overlap), an
// unmapped address answered with an address error; and the targets' sockets
// (common/direct_target_socket.h): nb_transport_fw completes at once with b_transport's
// timing, no DMI, no debug transport.
#include <catch2/catch.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <functional>
#include <vector>
#include "bus/interconnect.h"
#include "memory/data_buffer.h"
#include "memory/l2p_sram.h"

using namespace ufs;
using sc_core::sc_time;
using sc_core::SC_NS;
using sc_core::SC_PS;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace interconnect_bench {

namespace {

struct Initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket;
  std::function<void(Initiator&)> script;
  SC_HAS_PROCESS(Initiator);
  explicit Initiator(sc_core::sc_module_name n) : sc_core::sc_module(n), socket("socket") { SC_THREAD(run); }
  void run() {
    if (script) script(*this);
  }
  void prepare(tlm::tlm_generic_payload& p, tlm::tlm_command cmd, uint64_t address, void* data, uint32_t bytes) {
    p.set_command(cmd);
    p.set_address(address);
    p.set_data_ptr(static_cast<unsigned char*>(data));
    p.set_data_length(bytes);
    p.set_streaming_width(bytes);
    p.set_byte_enable_ptr(nullptr);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  }
  // Returns the annotated delay on return (the access's completion, from now).
  sc_time access(tlm::tlm_command cmd, uint64_t address, void* data, uint32_t bytes, tlm::tlm_response_status* status,
                 const sc_time& delay = sc_core::SC_ZERO_TIME) {
    tlm::tlm_generic_payload p;
    prepare(p, cmd, address, data, bytes);
    sc_time d = delay;
    socket->b_transport(p, d);
    if (status) *status = p.get_response_status();
    return d;
  }
};

constexpr uint64_t kSramBase = kL2pSramBase;

struct Bench {
  Interconnect bus;
  DataBuffer buffer;
  L2pSram sram;
  Initiator a, b;
  Bench()
      : bus("bus", InterconnectParams()),
        buffer("buffer", 64 * kSectorBytes, 4096, SramParams()),
        sram("sram", 1 << 20, SramParams()),
        a("a"),
        b("b") {
    a.socket.bind(bus.targ);
    b.socket.bind(bus.targ);
    bus.init.bind(buffer.socket);  // port 0
    bus.init.bind(sram.socket);    // port 1
    bus.map(0, buffer.sector_bytes(), 0);
    bus.map(kByteRegionBase, buffer.byte_region_bytes(), 0);
    bus.map(kSramBase, sram.size_bytes(), 1, true);
  }
};

// Defaults: 400 MHz (2.5 ns a cycle), 16-byte beats, 2 arbitration cycles; SRAMs 2 cycles at 400 MHz.
const sc_time kCycle(2500, SC_PS);
const sc_time kSramLatency(5, SC_NS);
sc_time bus_time(uint32_t bytes) { return kCycle * double(2 + (bytes + 15) / 16); }

}  // namespace

TEST_CASE("Interconnect: two initiators, routing, per-port queueing, exact times", "[bus][memory]") {
  Bench bench;
  std::vector<sc_time> a_done, b_done;
  SectorStamp written[2] = {SectorStamp{7, 1}, SectorStamp{8, 2}};
  SectorStamp read_back[2];
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE, unmapped = tlm::TLM_INCOMPLETE_RESPONSE;
  uint32_t word = 0;
  bench.a.script = [&](Initiator& i) {
    // Two sectors into the buffer at 0, then an SRAM word: a different port, so it overlaps.
    a_done.push_back(i.access(tlm::TLM_WRITE_COMMAND, 2 * kSectorBytes, written, 2 * kSectorBytes, &status));
    a_done.push_back(i.access(tlm::TLM_READ_COMMAND, kSramBase + 64, &word, 4, nullptr));
    i.access(tlm::TLM_READ_COMMAND, kSramBase + (1 << 20), &word, 4, &unmapped);  // past the SRAM
  };
  bench.b.script = [&](Initiator& i) {
    // The same buffer port at the same moment, after a (one delta later): queued behind a's transfer.
    sc_core::wait(sc_core::SC_ZERO_TIME);
    b_done.push_back(i.access(tlm::TLM_READ_COMMAND, 2 * kSectorBytes, read_back, 2 * kSectorBytes, nullptr));
  };
  sc_core::sc_start();
  CHECK(status == tlm::TLM_OK_RESPONSE);
  CHECK(unmapped == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  CHECK(read_back[0] == written[0]);
  CHECK(read_back[1] == written[1]);
  CHECK(bench.buffer.stamp_at(3 * kSectorBytes) == written[1]);
  REQUIRE(a_done.size() == 2);
  REQUIRE(b_done.size() == 1);
  const sc_time sectors = bus_time(2 * kSectorBytes);  // 514 cycles
  CHECK(a_done[0] == sectors + kSramLatency);
  CHECK(a_done[1] == bus_time(4) + kSramLatency);  // its own port: not behind the sectors
  CHECK(b_done[0] == sectors + sectors + kSramLatency);
  CHECK(bench.bus.transactions() == 3);  // the unmapped access is not counted
  CHECK(bench.bus.port_busy_time(0) == sectors + sectors);
  CHECK(bench.bus.port_busy_time(1) == bus_time(4));
  CHECK(bench.sram.reads() == 1);
  CHECK(bench.buffer.bytes_written() == 2 * kSectorBytes);
}

TEST_CASE("Interconnect and its targets: nb_transport_fw completes at once as b_transport would, no DMI",
          "[bus][memory]") {
  Bench bench;
  sc_time nb_delay, b_delay;
  tlm::tlm_sync_enum sync = tlm::TLM_ACCEPTED;
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  bool dmi = true;
  unsigned debug_bytes = 1;
  uint8_t bytes[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, back[16] = {};
  bench.a.script = [&](Initiator& i) {
    tlm::tlm_generic_payload p;
    i.prepare(p, tlm::TLM_WRITE_COMMAND, kByteRegionBase + 32, bytes, 16);
    sync = i.socket->nb_transport_fw(p, phase, nb_delay);
    tlm::tlm_dmi d;
    dmi = i.socket->get_direct_mem_ptr(p, d);
    debug_bytes = i.socket->transport_dbg(p);
    // The same access blocking, once the port is free again: the same time.
    sc_core::wait(sc_time(1, sc_core::SC_US));
    b_delay = i.access(tlm::TLM_READ_COMMAND, kByteRegionBase + 32, back, 16, nullptr);
  };
  sc_core::sc_start();
  CHECK(sync == tlm::TLM_COMPLETED);
  CHECK(phase == tlm::BEGIN_RESP);
  CHECK(nb_delay == bus_time(16) + kSramLatency);
  CHECK(b_delay == nb_delay);
  CHECK(std::equal(bytes, bytes + 16, back));
  CHECK_FALSE(dmi);
  CHECK(debug_bytes == 0);
}

}  // namespace interconnect_bench
