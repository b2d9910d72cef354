// UniproLink timing: exact serialisation of single UPIUs (hand-computed below), back-to-back
// UPIUs queueing on one direction, independence of the two directions, framing of segmented
// Upius, and slot filling for calls made out of simulated-time order.
#include <catch2/catch.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <functional>
#include <vector>
#include "link/unipro_link.h"

using namespace ufs;
using sc_core::sc_time;
using sc_core::SC_PS;
using sc_core::SC_NS;
using sc_core::SC_US;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace link_timing_bench {

namespace {

// Records when each UPIU's last bit arrives (now + annotated delay).
struct Sink : sc_core::sc_module {
  tlm_utils::simple_target_socket<Sink> in;
  std::vector<sc_time> arrivals;
  std::vector<UpiuType> types;
  explicit Sink(sc_core::sc_module_name n) : sc_core::sc_module(n), in("in") {
    in.register_b_transport(this, &Sink::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& p, sc_time& delay) {
    arrivals.push_back(sc_core::sc_time_stamp() + delay);
    types.push_back(reinterpret_cast<Upiu*>(p.get_data_ptr())->type);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

// Sends UPIUs from a thread as the test script says.
struct Source : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Source> out;
  std::function<void(Source&)> script;
  SC_HAS_PROCESS(Source);
  explicit Source(sc_core::sc_module_name n) : sc_core::sc_module(n), out("out") { SC_THREAD(run); }
  void run() {
    if (script) script(*this);
  }
  // Returns the delay the link hands back (end of serialisation).
  sc_time send(Upiu& u, const sc_time& delay = sc_core::SC_ZERO_TIME) {
    tlm::tlm_generic_payload p;
    p.set_command(tlm::TLM_WRITE_COMMAND);
    p.set_data_ptr(reinterpret_cast<unsigned char*>(&u));
    p.set_data_length(u.wire_bytes());
    p.set_streaming_width(u.wire_bytes());
    sc_time d = delay;
    out->b_transport(p, d);
    return d;
  }
};

struct Bench {
  UniproLink link;
  Source host, device;
  Sink at_device, at_host;
  explicit Bench(const LinkParams& p) : link("link", p), host("host"), device("device"), at_device("at_device"), at_host("at_host") {
    host.out.bind(link.host_in);
    link.device_out.bind(at_device.in);
    device.out.bind(link.device_in);
    link.host_out.bind(at_host.in);
  }
};

Upiu command_upiu() {
  Upiu u;
  u.type = UpiuType::Command;
  return u;
}
Upiu data_in_upiu(uint32_t bytes, uint32_t segment = 0) {
  Upiu u;
  u.type = UpiuType::DataIn;
  u.data_bytes = bytes;
  u.segment_bytes = segment;
  return u;
}
// One COMMAND UPIU each way at time 0, then run: both directions' arrival times.
void command_each_way(Bench& b) {
  b.host.script = [](Source& s) {
    Upiu u = command_upiu();
    s.send(u);
  };
  b.device.script = [](Source& s) {
    Upiu u = command_upiu();
    s.send(u);
  };
  sc_core::sc_start();
}
LinkParams params(uint32_t gear, uint32_t lanes, double latency_ns = 0.0) {
  LinkParams p;
  p.h2d_gear = p.d2h_gear = gear;
  p.h2d_lanes = p.d2h_lanes = lanes;
  p.upiu_latency_ns = latency_ns;
  return p;
}

// Counts parameter keys the way the config tree walks them.
struct KeyCounter {
  int keys = 0;
  template <class T>
  void operator()(const char* key, T&, const char* unit, const char* meaning) {
    ++keys;
    CHECK(std::string(meaning).size() > 5);
  }
};

}  // namespace

TEST_CASE("link: one COMMAND UPIU at HS-G4B x2", "[link]") {
  // 32-byte UPIU -> 1 frame -> 32 + 8 = 40 bytes -> 8b10b: 400 line bits.
  // 2 lanes x 11660.8 Mb/s = 23321.6 Mb/s -> 400 / 23321.6e6 s = 17.15148 ns = 17151 ps.
  Bench b(params(4, 2));
  sc_time returned;
  b.host.script = [&](Source& s) {
    Upiu u = command_upiu();
    returned = s.send(u);
  };
  sc_core::sc_start();
  REQUIRE(b.at_device.arrivals.size() == 1);
  CHECK(b.at_device.arrivals[0] == sc_time(17151, SC_PS));
  CHECK(returned == sc_time(17151, SC_PS));  // sender is free when the last bit has left
  CHECK(b.link.stats(UniproLink::kHostToDevice).wire_bytes == 40);
  CHECK(b.link.stats(UniproLink::kHostToDevice).upiu_bytes == 32);
  CHECK(b.link.stats(UniproLink::kHostToDevice).busy == sc_time(17151, SC_PS));
}

TEST_CASE("link: one 4 KiB DATA IN UPIU at HS-G4B x2 with pipeline latency", "[link]") {
  // 32 + 4096 = 4128 bytes -> ceil(4128 / 272) = 16 frames -> 4128 + 16 * 8 = 4256 bytes
  // -> 42560 line bits / 23321.6e6 = 1824.918 ns = 1824918 ps; + 100 ns pipeline latency.
  Bench b(params(4, 2, 100.0));
  b.device.script = [&](Source& s) {
    Upiu u = data_in_upiu(4096);
    s.send(u);
  };
  sc_core::sc_start();
  REQUIRE(b.at_host.arrivals.size() == 1);
  CHECK(b.at_host.arrivals[0] == sc_time(1824918 + 100000, SC_PS));
  CHECK(b.link.stats(UniproLink::kDeviceToHost).wire_bytes == 4256);
}

TEST_CASE("link: one COMMAND UPIU at HS-G1B x1", "[link]") {
  // 400 line bits / 1457.6e6 = 274.4237 ns = 274424 ps.
  Bench b(params(1, 1));
  b.host.script = [&](Source& s) {
    Upiu u = command_upiu();
    s.send(u);
  };
  sc_core::sc_start();
  REQUIRE(b.at_device.arrivals.size() == 1);
  CHECK(b.at_device.arrivals[0] == sc_time(274424, SC_PS));
}

TEST_CASE("link: rate series A and 128b/130b at HS-G5", "[link]") {
  LinkParams p = params(1, 1);
  p.rate_series = "A";
  p.d2h_gear = 5;
  p.d2h_lanes = 2;
  Bench b(p);
  command_each_way(b);
  // G1A x1: 400 bits / 1248e6 = 320.5128 ns.
  CHECK(b.at_device.arrivals.at(0) == sc_time(320513, SC_PS));
  // G5A x2, 128b/130b: 40 bytes x 8.125 = 325 bits / (2 x 19968e6) = 8.13802 ns.
  CHECK(b.at_host.arrivals.at(0) == sc_time(8138, SC_PS));
}

TEST_CASE("link: PWM gears in the slow power mode run at 9 x 2^(gear-1) Mb/s, 8b/10b", "[link]") {
  LinkParams p = params(1, 1);
  p.power_mode = "slow";
  p.d2h_gear = 7;
  p.d2h_lanes = 2;
  Bench b(p);
  command_each_way(b);
  // PWM-G1 x1: 400 bits / 9e6 = 44.444444 us.
  CHECK(b.at_device.arrivals.at(0) == sc_time(44444444, SC_PS));
  // PWM-G7 x2: 8b/10b still (no 128b/130b in PWM): 400 bits / (2 x 576e6) = 347.2222 ns.
  CHECK(b.at_host.arrivals.at(0) == sc_time(347222, SC_PS));
  CHECK(b.link.lane_rate_mbps(UniproLink::kHostToDevice) == 9.0);
  CHECK(b.link.lane_rate_mbps(UniproLink::kDeviceToHost) == 576.0);
}

TEST_CASE("link: back-to-back UPIUs serialise, directions are independent", "[link]") {
  Bench b(params(4, 2, 50.0));
  b.host.script = [&](Source& s) {
    Upiu a = command_upiu(), c = command_upiu();
    s.send(a);
    s.send(c);  // same ready time: waits for the first
  };
  b.device.script = [&](Source& s) {
    Upiu d = command_upiu();
    s.send(d);
  };
  sc_core::sc_start();
  REQUIRE(b.at_device.arrivals.size() == 2);
  CHECK(b.at_device.arrivals[0] == sc_time(17151 + 50000, SC_PS));
  CHECK(b.at_device.arrivals[1] == sc_time(2 * 17151 + 50000, SC_PS));
  REQUIRE(b.at_host.arrivals.size() == 1);
  CHECK(b.at_host.arrivals[0] == sc_time(17151 + 50000, SC_PS));  // not behind host->device traffic
  CHECK(b.link.next_free(UniproLink::kHostToDevice) == sc_time(2 * 17151, SC_PS));
}

TEST_CASE("link: a later UPIU waits for the next-free time, an idle gap is reused", "[link]") {
  Bench b(params(4, 2));
  const sc_time d4k(1824918, SC_PS);
  b.device.script = [&](Source& s) {
    Upiu a = data_in_upiu(4096);
    s.send(a);                                  // [0, d4k)
    Upiu later = data_in_upiu(4096);
    s.send(later, sc_time(10, SC_US));          // reserved ahead: [10us, 10us + d4k)
    Upiu c = command_upiu();
    s.send(c, sc_time(1, SC_NS));               // ready at 1 ns: waits for the first, fits the gap
    wait(sc_time(20, SC_US));
    Upiu e = command_upiu();
    s.send(e);                                  // idle link: no wait
  };
  sc_core::sc_start();
  REQUIRE(b.at_host.arrivals.size() == 4);
  CHECK(b.at_host.arrivals[0] == d4k);
  CHECK(b.at_host.arrivals[1] == sc_time(10, SC_US) + d4k);
  CHECK(b.at_host.arrivals[2] == d4k + sc_time(17151, SC_PS));
  CHECK(b.at_host.arrivals[3] == sc_time(20, SC_US) + sc_time(17151, SC_PS));
}

TEST_CASE("link: a segmented Upiu is framed as separate UPIUs", "[link]") {
  Bench b(params(4, 2));
  // 64 KiB in two 32 KiB DATA IN UPIUs: each 32 + 32768 = 32800 bytes, ceil(32800/272) = 121
  // frames -> 32800 + 968 = 33768 framed bytes; two of them = 67536.
  const Upiu seg = data_in_upiu(65536, 32768);
  CHECK(seg.segments() == 2);
  CHECK(seg.wire_bytes() == 2 * 32 + 65536);
  CHECK(b.link.framed_bytes(seg) == 67536);
  // The same as two single Upius.
  CHECK(b.link.framed_bytes(data_in_upiu(32768)) * 2 == 67536);
  // Uneven tail: 40 KiB = 32 KiB + 8 KiB (8224 bytes -> 31 frames -> 8472).
  CHECK(b.link.framed_bytes(data_in_upiu(40960, 32768)) == 33768 + 8472);
  Upiu rtt;
  rtt.type = UpiuType::ReadyToTransfer;
  rtt.data_bytes = 3 * 32768;
  rtt.segment_bytes = 32768;
  CHECK(rtt.wire_bytes() == 3 * 32);
  CHECK(b.link.framed_bytes(rtt) == 3 * 40);
}

TEST_CASE("link: effective sequential-read bandwidth of HS-G4B x2 for 512 KiB", "[link][bandwidth]") {
  Bench b(params(4, 2));
  // 512 KiB as 16 DATA IN UPIUs of 32 KiB + one 32-byte RESPONSE.
  const uint64_t framed = 16 * b.link.framed_bytes(data_in_upiu(32768)) + b.link.framed_bytes(command_upiu());
  const double seconds = b.link.serialisation_time(UniproLink::kDeviceToHost, framed).to_seconds();
  const double mbps = 524288.0 / seconds / 1e6;
  WARN("HS-G4B x2, 512 KiB reads, 32 KiB DATA IN UPIUs: link-limited " << mbps << " MB/s (raw "
       << b.link.framed_bytes_per_second(UniproLink::kDeviceToHost) / 1e6 << " MB/s after 8b10b)");
  CHECK(framed == 16 * 33768 + 40);
  CHECK(mbps == Approx(2262.9).epsilon(0.001));
}

Upiu response_upiu() {
  Upiu u;
  u.type = UpiuType::Response;
  return u;
}

// Auto-hibernate: 1 ms idle threshold, 600 us exit. A command after more than 1 ms with
// nothing outstanding waits for the wake-up; one 0.4 ms after the last response does not.
TEST_CASE("link: auto-hibernate delays the first UPIU after an idle gap by the exit latency", "[link][hibernate]") {
  LinkParams p = params(4, 2);
  p.hibernate_idle_us = 1000;
  p.hibernate_exit_us = 600;
  Bench b(p);
  const sc_time cmd(17151, SC_PS);  // one COMMAND / RESPONSE UPIU at HS-G4B x2
  b.host.script = [&](Source& s) {
    Upiu c = command_upiu();
    s.send(c, sc_time(2, sc_core::SC_MS));               // idle since 0: hibernated 1 ms, wakes
    sc_core::wait(sc_time(10, sc_core::SC_MS));
    s.send(c);                                           // at 10 ms: response at 3 ms, idle 7 ms
    sc_core::wait(sc_time(10, sc_core::SC_MS));          // 20 ms
    s.send(c);                                           // response at 10.5 ms: idle 9.5 ms
    sc_core::wait(sc_time(1, sc_core::SC_MS));           // 21 ms
    s.send(c);                                           // last response at 20.6 ms: idle 0.4 ms, awake
  };
  b.device.script = [&](Source& s) {
    Upiu r = response_upiu();
    sc_core::wait(sc_time(3, sc_core::SC_MS));
    s.send(r);
    sc_core::wait(sc_time(7500, SC_US));                 // 10.5 ms
    s.send(r);
    sc_core::wait(sc_time(10100, SC_US));                // 20.6 ms
    s.send(r);
  };
  sc_core::sc_start();
  REQUIRE(b.at_device.arrivals.size() == 4);
  CHECK(b.at_device.arrivals[0] == sc_time(2600, SC_US) + cmd);
  CHECK(b.at_device.arrivals[1] == sc_time(10600, SC_US) + cmd);
  CHECK(b.at_device.arrivals[2] == sc_time(20600, SC_US) + cmd);
  CHECK(b.at_device.arrivals[3] == sc_time(21000, SC_US) + cmd);
  CHECK(b.link.hibernate_stats().entries == 3);
}

TEST_CASE("link: a request outstanding keeps the link out of Hibern8", "[link][hibernate]") {
  LinkParams p = params(4, 2);
  p.hibernate_idle_us = 1000;
  Bench b(p);
  const sc_time cmd(17151, SC_PS);
  b.host.script = [&](Source& s) {
    Upiu c = command_upiu();
    s.send(c);                                           // outstanding until 5 ms
    sc_core::wait(sc_time(4, sc_core::SC_MS));
    s.send(c);                                           // 4 ms after the first: still outstanding, no wake-up
  };
  b.device.script = [&](Source& s) {
    Upiu r = response_upiu();
    sc_core::wait(sc_time(5, sc_core::SC_MS));
    s.send(r);
    s.send(r);
  };
  sc_core::sc_start();
  REQUIRE(b.at_device.arrivals.size() == 2);
  CHECK(b.at_device.arrivals[1] == sc_time(4, sc_core::SC_MS) + cmd);
  CHECK(b.link.hibernate_stats().entries == 0);
}

TEST_CASE("link: parameter validation names the key", "[link]") {
  LinkParams p;
  CHECK(p.validate().empty());
  p.h2d_gear = 6;
  CHECK(p.validate().rfind("h2d_gear:", 0) == 0);
  p = LinkParams();
  p.rate_series = "C";
  CHECK(p.validate().rfind("rate_series:", 0) == 0);
  p = LinkParams();
  p.line_coding = "64b66b";
  CHECK(p.validate().rfind("line_coding:", 0) == 0);
  // The slow power mode: PWM gears 1..7, 8b/10b only.
  p = LinkParams();
  p.power_mode = "medium";
  CHECK(p.validate().rfind("power_mode:", 0) == 0);
  p.power_mode = "slow";
  p.h2d_gear = 7;
  CHECK(p.validate().empty());
  p.d2h_gear = 8;
  CHECK(p.validate().rfind("d2h_gear:", 0) == 0);
  p.d2h_gear = 1;
  p.line_coding = "128b130b";
  CHECK(p.validate().rfind("line_coding:", 0) == 0);
  // Every key has a unit string and a meaning.
  KeyCounter binder;
  p.bind(binder);
  CHECK(binder.keys == 12);
}

}  // namespace link_timing_bench
