// HpbCryptoEngine in the SystemC kernel: completion times from the RTL's
// cycles, rtl and cpp modes identical, the register socket, waves in a window.
// Each test case elaborates once (ctest runs one process per test case).
#include <catch2/catch.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <vector>
#include "crypto/hpb_crypto_engine.h"
#include "crypto/hpb_entry_codec.h"
#include "crypto_test_util.h"
#include "protocol/ufs_protocol.h"

using namespace ufs;
using namespace sc_core;
using ufs::test::Rng;
namespace reg = hpb_crypto_reg;

namespace {

struct Recorder : HpbCryptoListener {
  struct Entry {
    sc_time at;
    HpbCryptoResult result;
  };
  std::vector<Entry> done;
  void crypto_done(const HpbCryptoResult& r) override { done.push_back({sc_time_stamp(), r}); }
};

struct RegisterMaster : sc_module {
  tlm_utils::simple_initiator_socket<RegisterMaster> socket;
  SC_HAS_PROCESS(RegisterMaster);
  explicit RegisterMaster(sc_module_name n) : sc_module(n), socket("socket") {}
  tlm::tlm_response_status access(bool write, uint64_t address, uint32_t& data, sc_time& delay) {
    tlm::tlm_generic_payload t;
    t.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    t.set_address(address);
    t.set_data_ptr(reinterpret_cast<unsigned char*>(&data));
    t.set_data_length(4);
    t.set_streaming_width(4);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    socket->b_transport(t, delay);
    return t.get_response_status();
  }
};

// The register socket must be bound (the bus does it in the platform).
struct BusStub {
  RegisterMaster master;
  explicit BusStub(HpbCryptoEngine& e, const char* name = "bus") : master(name) { master.socket.bind(e.regs); }
};

HpbCryptoParams params_for(const std::string& model, uint32_t rounds, double mhz = 400.0) {
  HpbCryptoParams p;
  p.model = model;
  p.rounds_per_cycle = rounds;
  p.clock_mhz = mhz;
  return p;
}

// Drives a list of engines with the same random job stream from one thread.
struct Driver : sc_module {
  std::vector<HpbCryptoEngine*> engines;
  uint64_t jobs = 0;
  uint64_t seed = 1;
  SC_HAS_PROCESS(Driver);
  explicit Driver(sc_module_name n) : sc_module(n) { SC_THREAD(run); }
  void run() {
    Rng rng(seed);
    const AesKey key = rng.key();
    for (auto* e : engines) e->load_session_key(key);
    wait(100, SC_NS);
    std::vector<HpbCryptoJob> published;
    for (uint64_t i = 0; i < jobs; ++i) {
      HpbCryptoJob j;
      j.cookie = i;
      j.lun = uint8_t(rng.below(2));
      j.lba = rng.below(1u << 20);
      j.generation = uint32_t(rng.below(4));
      j.ppn = uint32_t(rng.next());
      if (rng.below(2) && !published.empty()) {
        j = published[rng.below(published.size())];
        j.kind = HpbCryptoJob::Verify;
        j.cookie = i;
        if (rng.below(4) == 0) j.entry ^= 1ull << rng.below(64);
      } else {
        j.kind = HpbCryptoJob::Sign;
        j.entry = HpbEntryCodec(key).sign(j.lun, j.generation, j.lba, j.ppn);
        published.push_back(j);
      }
      const sc_time delay(double(rng.below(30)), SC_NS);
      for (auto* e : engines) e->submit(j, delay);
      const uint64_t gap = rng.below(10);
      if (gap < 3) wait(double(rng.below(200)), SC_NS);  // else a burst in the same delta
    }
  }
};

}  // namespace

TEST_CASE("crypto: engine: results arrive at the RTL's completion edge", "[crypto][engine]") {
  HpbCryptoEngine engine("crypto", params_for("rtl", 2, 400.0));  // 2.5 ns clock, 10-cycle jobs
  BusStub bus(engine);
  Recorder rec;
  engine.set_listener(&rec);
  const AesKey key = hpb_session_key_from_seed(42);
  engine.load_session_key(key);
  HpbCryptoJob sign;
  sign.lba = 1000;
  sign.ppn = 0xabcdef;
  sign.lun = 1;
  sign.generation = 2;
  sign.cookie = 7;
  sc_start(1, SC_US);
  engine.submit(sign, sc_time(11, SC_NS));  // arrives at 1011 ns: next edge 1012.5 ns (405)
  engine.submit(sign, sc_time(0, SC_NS));   // queued behind it: back to back
  sc_start(1, SC_US);
  REQUIRE(rec.done.size() == 2);
  CHECK(rec.done[0].at == sc_time(2.5 * (405 + 10), SC_NS));
  CHECK(rec.done[1].at == sc_time(2.5 * (405 + 21), SC_NS));
  CHECK(rec.done[0].result.cookie == 7);
  CHECK(rec.done[0].result.valid);
  CHECK(rec.done[0].result.cycles == 10);
  CHECK(rec.done[1].result.cycles == 26);  // arrived on edge 400 (1000 ns), done on edge 426
  CHECK(rec.done[0].result.entry == HpbEntryCodec(key).sign(1, 2, 1000, 0xabcdef));
  CHECK(engine.jobs_signed() == 2);
  CHECK(engine.busy_cycles() == 20);
  CHECK(engine.jobs_in_flight() == 0);
}

// A sign batch (HpbSignBatch, one descriptor): the unit signs every item as a job of its
// own, at the times the same jobs submitted one by one get, writes each entry (big-endian,
// 0 for one it could not sign), and the listener gets one result, with the last job's.
TEST_CASE("crypto: engine: a sign batch is every item signed on the unit, one result after the last",
          "[crypto][engine][batch]") {
  HpbCryptoEngine batched("crypto_batch", params_for("rtl", 2, 400.0));
  HpbCryptoEngine single("crypto_single", params_for("rtl", 2, 400.0));
  BusStub bus_b(batched, "bus_b"), bus_s(single, "bus_s");
  Recorder rec_b, rec_s;
  batched.set_listener(&rec_b);
  single.set_listener(&rec_s);
  const AesKey key = hpb_session_key_from_seed(9);
  batched.load_session_key(key);
  single.load_session_key(key);
  constexpr uint32_t kItems = 40;
  std::vector<HpbSignItem> items(kItems);
  for (uint32_t i = 0; i < kItems; ++i) {
    items[i].lba = 5000 + i;
    items[i].ppn = 70000 + 3 * i;
    items[i].generation = 1 + i % 3;
  }
  items[17].lba = 1ull << kHpbCryptoLbaBits;  // beyond the unit's LBA field: not signed
  std::vector<uint8_t> entries(kItems * 8, 0xAA);
  HpbSignBatch b;
  b.items = items.data();
  b.entries = entries.data();
  b.count = kItems;
  b.lun = 1;
  b.cookie = 0x5151;
  sc_start(1, SC_US);
  batched.submit_batch(b, sc_time(11, SC_NS));
  for (uint32_t i = 0; i < kItems; ++i) {
    HpbCryptoJob j;
    j.lba = items[i].lba;
    j.ppn = items[i].ppn;
    j.lun = 1;
    j.generation = items[i].generation;
    j.cookie = i;
    single.submit(j, sc_time(11, SC_NS));
  }
  sc_start(2, SC_US);
  REQUIRE(rec_s.done.size() == kItems);
  REQUIRE(rec_b.done.size() == 1);  // one result for the batch
  const HpbCryptoResult& r = rec_b.done[0].result;
  CHECK(rec_b.done[0].at == rec_s.done.back().at);  // after the last item, at its time
  CHECK(r.batch == kItems);
  CHECK(r.cookie == 0x5151);
  CHECK(r.kind == HpbCryptoJob::Sign);
  CHECK_FALSE(r.valid);
  CHECK(r.status == HpbCryptoStatus::LbaRange);
  CHECK(r.cycles == rec_s.done.back().result.cycles);
  const HpbEntryCodec codec(key);
  for (uint32_t i = 0; i < kItems; ++i) {
    INFO("item " << i);
    const uint64_t entry = get_be64(&entries[8 * i]);
    CHECK(entry == rec_s.done[i].result.entry);  // 0 for item 17
    if (i != 17) CHECK(entry == codec.sign(1, items[i].generation, items[i].lba, items[i].ppn));
  }
  CHECK(get_be64(&entries[8 * 17]) == 0);
  CHECK(batched.jobs_signed() == kItems);  // every item went through the unit
  CHECK(batched.job_errors() == 1);
  CHECK(batched.busy_cycles() == single.busy_cycles());
  CHECK(batched.peek_register(reg::kSignJobs) == kItems);
  CHECK(batched.jobs_in_flight() == 0);
}

TEST_CASE("crypto: engine: rtl and cpp modes give identical results at identical times, every setting",
          "[crypto][engine][differential]") {
  std::vector<std::unique_ptr<HpbCryptoEngine>> engines;
  std::vector<std::unique_ptr<Recorder>> recorders;
  std::vector<std::unique_ptr<BusStub>> buses;
  Driver driver("driver");
  driver.jobs = 20000;
  for (uint32_t rounds : {1u, 2u, 5u, 10u})
    for (const char* model : {"rtl", "cpp"}) {
      const std::string name = std::string("crypto_") + model + "_r" + std::to_string(rounds);
      engines.push_back(std::make_unique<HpbCryptoEngine>(name.c_str(), params_for(model, rounds, 300.0)));
      recorders.push_back(std::make_unique<Recorder>());
      buses.push_back(std::make_unique<BusStub>(*engines.back(), (name + "_bus").c_str()));
      engines.back()->set_listener(recorders.back().get());
      driver.engines.push_back(engines.back().get());
    }
  sc_start();
  for (std::size_t e = 0; e < engines.size(); e += 2) {
    const auto& rtl = recorders[e]->done;
    const auto& cpp = recorders[e + 1]->done;
    REQUIRE(rtl.size() == driver.jobs);
    REQUIRE(cpp.size() == driver.jobs);
    uint64_t ok = 0;
    for (std::size_t i = 0; i < rtl.size(); ++i) {
      REQUIRE(rtl[i].at == cpp[i].at);
      REQUIRE(rtl[i].result.cookie == i);
      REQUIRE(rtl[i].result.cookie == cpp[i].result.cookie);
      REQUIRE(rtl[i].result.status == cpp[i].result.status);
      REQUIRE(rtl[i].result.ppn == cpp[i].result.ppn);
      REQUIRE(rtl[i].result.entry == cpp[i].result.entry);
      REQUIRE(rtl[i].result.cycles == cpp[i].result.cycles);
      ok += rtl[i].result.valid;
    }
    CHECK(ok > driver.jobs / 2);
    CHECK(engines[e]->busy_cycles() == engines[e + 1]->busy_cycles());
    CHECK(engines[e]->peek_register(reg::kVerifyFails) == engines[e]->verify_failures());
    std::printf("%s: %zu jobs, last result at %s, busy %llu cycles\n", engines[e]->name(),
                rtl.size(), rtl.back().at.to_string().c_str(),
                (unsigned long long)engines[e]->busy_cycles());
  }
}


TEST_CASE("crypto: engine: register socket (key load, status, counters, no key read-back)",
          "[crypto][engine][regs]") {
  HpbCryptoParams p = params_for("rtl", 10, 200.0);
  p.reg_access_cycles = 3;
  HpbCryptoEngine engine("crypto", p);
  RegisterMaster master("master");
  master.socket.bind(engine.regs);
  Recorder rec;
  engine.set_listener(&rec);
  const AesKey key = hpb_session_key_from_seed(5);
  sc_start(SC_ZERO_TIME);
  sc_time delay = SC_ZERO_TIME;
  uint32_t v = 0;
  CHECK(master.access(false, reg::kId, v, delay) == tlm::TLM_OK_RESPONSE);
  CHECK(v == reg::kIdValue);
  CHECK(delay == sc_time(15, SC_NS));
  CHECK(master.access(false, reg::kConfig, v, delay) == tlm::TLM_OK_RESPONSE);
  CHECK(v == (1u << 16 | 2u << 8 | 10u));
  for (int i = 0; i < 4; ++i) {
    v = key_word(key, i);
    CHECK(master.access(true, reg::kKey0 + 4 * uint64_t(i), v, delay) == tlm::TLM_OK_RESPONSE);
  }
  v = reg::kCtrlKeyCommit;
  CHECK(master.access(true, reg::kCtrl, v, delay) == tlm::TLM_OK_RESPONSE);
  for (uint64_t a = reg::kKey0; a < reg::kKey0 + 16; a += 4) {
    v = 0xdead;
    master.access(false, a, v, delay);
    CHECK(v == 0);
  }
  master.access(false, reg::kStatus, v, delay);
  CHECK(v == reg::kStatusKeyValid);
  CHECK(master.access(false, 0x40, v, delay) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  CHECK(master.access(false, 0x02, v, delay) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  HpbCryptoJob j;
  j.ppn = 99;
  engine.submit(j, delay);
  j.kind = HpbCryptoJob::Verify;
  j.entry = 12345;  // forged
  engine.submit(j, delay);
  sc_start(1, SC_US);
  REQUIRE(rec.done.size() == 2);
  CHECK(rec.done[0].result.entry == HpbEntryCodec(key).sign(0, 0, 0, 99));
  CHECK(rec.done[1].result.status == HpbCryptoStatus::TagMismatch);
  delay = SC_ZERO_TIME;
  master.access(false, reg::kSignJobs, v, delay);
  CHECK(v == 1);
  master.access(false, reg::kVerifyFails, v, delay);
  CHECK(v == 1);
  CHECK(engine.verify_failures() == 1);
}

TEST_CASE("crypto: engine: --rtl-waves dumps the unit's signals for a time window", "[crypto][engine][waves]") {
  HpbCryptoEngine engine("crypto", params_for("rtl", 5, 250.0));  // 4 ns clock, 4-cycle jobs
  BusStub bus(engine);
  const std::string path = "crypto_waves_test.vcd";
  REQUIRE(engine.enable_waves(path, sc_time(2, SC_US), sc_time(3, SC_US)));
  Recorder rec;
  engine.set_listener(&rec);
  engine.load_session_key(hpb_session_key_from_seed(1));
  sc_start(SC_ZERO_TIME);
  HpbCryptoJob j;
  for (double t_us : {1.0, 2.5, 2.6, 4.0}) {
    sc_start(sc_time(t_us, SC_US) - sc_time_stamp());
    j.ppn = uint32_t(t_us * 10);
    engine.submit(j);
  }
  sc_start(1, SC_US);
  REQUIRE(rec.done.size() == 4);
  engine.close_waves();
  std::ifstream in(path);
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string vcd = ss.str();
  CHECK(vcd.find("in_valid") != std::string::npos);
  CHECK(vcd.find("dp_s0") != std::string::npos);  // internal datapath signals (AES state)
  CHECK(vcd.find("timescale") != std::string::npos);
  // Every time stamp lies in [2 us, 3 us] = [2000000, 3000000] ps; the jobs at
  // 2.5 and 2.6 us are there (edge 625 -> 2500000 ps).
  std::istringstream lines(vcd);
  std::string line;
  uint64_t first = 0, last = 0, stamps = 0;
  while (std::getline(lines, line)) {
    if (line.size() > 1 && line[0] == '#') {
      const uint64_t t = std::stoull(line.substr(1));
      if (!stamps) first = t;
      last = t;
      ++stamps;
    }
  }
  CHECK(stamps > 10);
  CHECK(first >= 2000000);
  CHECK(last <= 3000000);
  CHECK(vcd.find("#2500000") != std::string::npos);
  CHECK(vcd.find("#2600000") != std::string::npos);
}

namespace {
struct KeyCollector {
  std::vector<std::string> names;
  template <class T>
  void operator()(const char* key, T&, const char*, const char*) { names.push_back(key); }
};
}  // namespace

TEST_CASE("crypto: params: validation names the key", "[crypto][params]") {
  HpbCryptoParams p;
  CHECK(p.validate().empty());
  p.model = "gate";
  CHECK(p.validate().rfind("model:", 0) == 0);
  p = HpbCryptoParams{};
  p.rounds_per_cycle = 3;
  CHECK(p.validate().rfind("rounds_per_cycle:", 0) == 0);
  p = HpbCryptoParams{};
  p.clock_mhz = 0;
  CHECK(p.validate().rfind("clock_mhz:", 0) == 0);
  p = HpbCryptoParams{};
  p.model = "cpp";
  p.waves_file = "x.vcd";
  CHECK(p.validate().rfind("waves_file:", 0) == 0);
  KeyCollector keys;
  p.bind(keys);
  CHECK(keys.names.size() == 7);
}
