// Verilated RTL: AES-128 known answers on the datapath for every
// rounds-per-cycle setting, the unit's latency and throughput, its register
// interface, and the 1M-job differential test against the C++ reference model.
#include <catch2/catch.hpp>
#include <verilated.h>
#include <chrono>
#include <cstdio>
#include <deque>
#include <memory>
#include "Vhpb_aes128_block_r1.h"
#include "Vhpb_aes128_block_r10.h"
#include "Vhpb_aes128_block_r2.h"
#include "Vhpb_aes128_block_r5.h"
#include "Vhpb_crypto_unit_r2.h"
#include "crypto/hpb_crypto_core.h"
#include "crypto/hpb_crypto_ref_core.h"
#include "crypto/hpb_crypto_rtl_core.h"
#include "crypto/hpb_entry_codec.h"
#include "crypto_test_util.h"

using namespace ufs;
using ufs::test::Rng;
namespace reg = hpb_crypto_reg;

namespace {

// 128-bit port <-> FIPS byte order (byte 0 in bits [127:120]; VlWide word 0 = bits [31:0]).
template <class Wide>
void set_wide(Wide& w, const AesBlock& b) {
  for (int i = 0; i < 4; ++i) {
    const std::size_t o = std::size_t(12 - 4 * i);
    w[i] = uint32_t(b[o]) << 24 | uint32_t(b[o + 1]) << 16 | uint32_t(b[o + 2]) << 8 | b[o + 3];
  }
}
template <class Wide>
AesBlock get_wide(const Wide& w) {
  AesBlock b{};
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < 4; ++k) b[std::size_t(12 - 4 * i + k)] = uint8_t(w[i] >> (24 - 8 * k));
  return b;
}

template <class Model>
void run_aes_block_kat(uint32_t rounds) {
  VerilatedContext context;
  Model m(&context, "aes");
  uint64_t cycle = 0;
  auto tick = [&] {
    m.clk = 0;
    m.eval();
    m.clk = 1;
    m.eval();
    ++cycle;
  };
  m.clk = 1;
  m.rst_n = 0;
  m.in_valid = 0;
  m.out_ready = 1;
  m.eval();
  m.rst_n = 1;
  m.eval();
  uint64_t prev_accept = 0;
  bool first = true;
  for (const auto& v : test::kAesVectors) {
    set_wide(m.in_key, test::hex16(v.key));
    set_wide(m.in_block, test::hex16(v.plaintext));
    m.in_valid = 1;
    m.eval();
    while (!m.in_ready) tick();
    const uint64_t accept = cycle;
    tick();
    m.in_valid = 0;
    while (!m.out_valid) tick();
    CHECK(cycle - 1 - accept == 10 / rounds);  // latency in cycles
    if (!first) CHECK(accept - prev_accept == 10 / rounds + 1);
    first = false;
    prev_accept = accept;
    CHECK(test::to_hex(get_wide(m.out_block)) == v.ciphertext);
  }
  m.final();
}

HpbCryptoJob random_job(Rng& rng, std::deque<HpbCryptoJob>& signed_jobs) {
  HpbCryptoJob j;
  j.cookie = rng.next();
  j.lun = uint8_t(rng.below(4));
  j.lba = rng.next() & ((1ull << kHpbCryptoLbaBits) - 1);
  if (rng.below(1000) == 0) j.lba |= 1ull << (kHpbCryptoLbaBits + rng.below(16));  // out of range
  j.generation = uint32_t(rng.below(64));
  j.ppn = uint32_t(rng.next());
  const uint64_t pick = rng.below(100);
  if (pick < 50) {
    j.kind = HpbCryptoJob::Sign;
  } else {
    j.kind = HpbCryptoJob::Verify;
    j.entry = rng.next();
    if (pick < 85 && !signed_jobs.empty()) {  // a published entry, maybe tampered with
      const HpbCryptoJob& s = signed_jobs[rng.below(signed_jobs.size())];
      j.lun = s.lun;
      j.lba = s.lba;
      j.generation = s.generation;
      j.entry = s.entry;
      const uint64_t t = rng.below(10);
      if (t == 0) j.entry ^= 1ull << rng.below(64);
      if (t == 1) j.generation += 1;
      if (t == 2) j.lba ^= 1;
    }
  }
  return j;
}

void compare(const HpbCoreResult& a, const HpbCoreResult& b) {
  REQUIRE(a.accept_cycle == b.accept_cycle);
  REQUIRE(a.done_cycle == b.done_cycle);
  REQUIRE(a.result.kind == b.result.kind);
  REQUIRE(a.result.status == b.result.status);
  REQUIRE(a.result.valid == b.result.valid);
  REQUIRE(a.result.ppn == b.result.ppn);
  REQUIRE(a.result.entry == b.result.entry);
  REQUIRE(a.result.cookie == b.result.cookie);
  REQUIRE(a.result.cycles == b.result.cycles);
}

// Random jobs, random arrival gaps (half of them back to back), occasional key
// reloads, zeroizes and counter clears, on the RTL and the C++ core in lock step.
// job_per_evaluation: the RTL model runs each job's clock edges in one evaluation (the
// default), or one evaluation per edge (as while waves are dumped).
void differential(uint32_t rounds, uint64_t jobs, uint64_t seed, bool job_per_evaluation = true) {
  auto rtl = make_hpb_crypto_rtl_core(rounds, job_per_evaluation);
  auto cpp = make_hpb_crypto_core("cpp", rounds);
  Rng rng(seed);
  std::deque<HpbCryptoJob> signed_jobs;
  uint64_t ok_verifies = 0, failed_verifies = 0, errors = 0;
  double rtl_seconds = 0, cpp_seconds = 0;
  using clock = std::chrono::steady_clock;
  uint64_t reload_at = 0;  // after a zeroize, firmware reloads a key some jobs later
  for (uint64_t i = 0; i < jobs; ++i) {
    const uint64_t control = rng.below(20000);
    if (i == reload_at || control < 4) {
      const AesKey key = rng.key();
      const uint64_t at = rtl->cycle() + rng.below(8);
      REQUIRE(rtl->load_key(key.data(), at) == cpp->load_key(key.data(), at));
    } else if (control == 4) {
      reload_at = i + 1 + rng.below(200);
      REQUIRE(rtl->write_reg(reg::kCtrl, reg::kCtrlKeyZeroize, 0) ==
              cpp->write_reg(reg::kCtrl, reg::kCtrlKeyZeroize, 0));
    } else if (control == 5) {
      REQUIRE(rtl->write_reg(reg::kCtrl, reg::kCtrlClearCounters, 0) ==
              cpp->write_reg(reg::kCtrl, reg::kCtrlClearCounters, 0));
    }
    HpbCryptoJob job = random_job(rng, signed_jobs);
    const uint64_t arrival = rng.below(2) ? 0 : rtl->cycle() + rng.below(40);
    const auto t0 = clock::now();
    const HpbCoreResult a = rtl->run(job, arrival);
    const auto t1 = clock::now();
    const HpbCoreResult b = cpp->run(job, arrival);
    const auto t2 = clock::now();
    rtl_seconds += std::chrono::duration<double>(t1 - t0).count();
    cpp_seconds += std::chrono::duration<double>(t2 - t1).count();
    compare(a, b);
    REQUIRE(a.done_cycle - a.accept_cycle == rtl->latency_cycles());
    if (job.kind == HpbCryptoJob::Sign && a.result.valid) {
      job.entry = a.result.entry;
      signed_jobs.push_back(job);
      if (signed_jobs.size() > 64) signed_jobs.pop_front();
    }
    if (job.kind == HpbCryptoJob::Verify) (a.result.valid ? ok_verifies : failed_verifies)++;
    if (a.result.status == HpbCryptoStatus::NoKey || a.result.status == HpbCryptoStatus::LbaRange)
      ++errors;
    if (i % 997 == 0)
      for (uint32_t r = 0; r < reg::kSize; r += 4) REQUIRE(rtl->read_reg(r) == cpp->read_reg(r));
  }
  REQUIRE(rtl->cycle() == cpp->cycle());
  for (uint32_t r = 0; r < reg::kSize; r += 4) REQUIRE(rtl->read_reg(r) == cpp->read_reg(r));
  std::printf("differential R=%u%s: %llu jobs identical (verify ok %llu, rejected %llu, errors %llu); "
              "%llu cycles; rtl %.0f jobs/s, cpp %.0f jobs/s\n",
              rounds, job_per_evaluation ? "" : " (edge by edge)", (unsigned long long)jobs,
              (unsigned long long)ok_verifies,
              (unsigned long long)failed_verifies, (unsigned long long)errors,
              (unsigned long long)rtl->cycle(), jobs / rtl_seconds, jobs / cpp_seconds);
  CHECK(ok_verifies > jobs / 5);
  CHECK(failed_verifies > jobs / 20);
}

}  // namespace

TEST_CASE("crypto: AES-128 RTL datapath passes the FIPS-197 and SP 800-38A known answers",
          "[crypto][rtl][kat]") {
  run_aes_block_kat<Vhpb_aes128_block_r1>(1);
  run_aes_block_kat<Vhpb_aes128_block_r2>(2);
  run_aes_block_kat<Vhpb_aes128_block_r5>(5);
  run_aes_block_kat<Vhpb_aes128_block_r10>(10);
}

TEST_CASE("crypto: RTL unit: latency and throughput per rounds-per-cycle setting", "[crypto][rtl][timing]") {
  std::printf("rounds/cycle  latency(cycles)  job period(cycles)  jobs/cycle\n");
  for (uint32_t rounds : {1u, 2u, 5u, 10u}) {
    auto core = make_hpb_crypto_core("rtl", rounds);
    Rng rng(rounds);
    core->load_key(rng.key().data(), 0);
    CHECK(core->read_reg(reg::kConfig) == (1u << 16 | (20 / rounds) << 8 | rounds));
    HpbCryptoJob job;
    job.ppn = 77;
    constexpr int kJobs = 1000;
    std::vector<HpbCryptoJob> jobs(kJobs, job);
    std::vector<HpbCoreResult> out(kJobs);
    core->run_batch(jobs.data(), nullptr, kJobs, out.data());  // back to back
    const uint64_t latency = out[0].done_cycle - out[0].accept_cycle;
    const uint64_t period = out[1].accept_cycle - out[0].accept_cycle;
    for (int i = 1; i < kJobs; ++i) {
      REQUIRE(out[i].done_cycle - out[i].accept_cycle == latency);
      REQUIRE(out[i].accept_cycle - out[i - 1].accept_cycle == period);
    }
    CHECK(latency == 2 * (10 / rounds));
    CHECK(period == latency + 1);
    const double per_cycle = double(kJobs) / double(out.back().done_cycle + 1 - out[0].accept_cycle);
    std::printf("%12u  %15llu  %18llu  %10.4f\n", rounds, (unsigned long long)latency,
                (unsigned long long)period, per_cycle);
    // A late arrival is taken on its own edge.
    const auto late = core->run(job, core->cycle() + 1000);
    CHECK(late.accept_cycle == out.back().done_cycle + 1 + 1000);
  }
}

TEST_CASE("crypto: RTL unit: register interface, key handling, errors", "[crypto][rtl][regs]") {
  auto core = make_hpb_crypto_core("rtl", 5);
  CHECK(core->read_reg(reg::kId) == reg::kIdValue);
  CHECK(core->read_reg(reg::kStatus) == 0);
  HpbCryptoJob job;
  job.ppn = 5;
  CHECK(core->run(job, 0).result.status == HpbCryptoStatus::NoKey);
  CHECK(core->read_reg(reg::kErrors) == 1);
  Rng rng(9);
  const AesKey key = rng.key();
  for (int i = 0; i < 4; ++i) core->write_reg(reg::kKey0 + 4 * uint32_t(i), key_word(key, i), 0);
  for (uint32_t r = reg::kKey0; r < reg::kKey0 + 16; r += 4) CHECK(core->read_reg(r) == 0);
  CHECK(core->read_reg(reg::kStatus) == 0);  // staged, not committed
  core->write_reg(reg::kCtrl, reg::kCtrlKeyCommit, 0);
  CHECK(core->read_reg(reg::kStatus) == reg::kStatusKeyValid);
  const auto s = core->run(job, 0).result;
  REQUIRE(s.valid);
  CHECK(s.entry == HpbEntryCodec(key).sign(0, 0, 0, 5));
  job.kind = HpbCryptoJob::Verify;
  job.entry = s.entry;
  CHECK(core->run(job, 0).result.ppn == 5);
  job.entry ^= 1;
  const auto bad = core->run(job, 0).result;
  CHECK(bad.status == HpbCryptoStatus::TagMismatch);
  CHECK(bad.ppn == 0);  // nothing decrypted leaks out of a failed verify
  job.lba = 1ull << 50;
  CHECK(core->run(job, 0).result.status == HpbCryptoStatus::LbaRange);
  CHECK(core->read_reg(reg::kSignJobs) == 2);
  CHECK(core->read_reg(reg::kVerifyJobs) == 3);
  CHECK(core->read_reg(reg::kVerifyFails) == 1);
  CHECK(core->read_reg(reg::kErrors) == 2);
  core->write_reg(reg::kCtrl, reg::kCtrlClearCounters, 0);
  for (uint32_t r : {reg::kSignJobs, reg::kVerifyJobs, reg::kVerifyFails, reg::kErrors})
    CHECK(core->read_reg(r) == 0);
  core->write_reg(reg::kCtrl, reg::kCtrlKeyZeroize, 0);
  CHECK(core->read_reg(reg::kStatus) == 0);
  job.kind = HpbCryptoJob::Sign;
  job.lba = 0;
  CHECK(core->run(job, 0).result.status == HpbCryptoStatus::NoKey);
}

TEST_CASE("crypto: RTL unit pins: a key committed during a job waits for it to finish",
          "[crypto][rtl][regs]") {
  VerilatedContext context;
  Vhpb_crypto_unit_r2 m(&context, "unit");
  auto tick = [&] {
    m.clk = 0;
    m.eval();
    m.clk = 1;
    m.eval();
  };
  auto write = [&](uint32_t addr, uint32_t data) {
    m.reg_we = 1;
    m.reg_addr = uint8_t(addr);
    m.reg_wdata = data;
    tick();
    m.reg_we = 0;
  };
  m.clk = 1;
  m.rst_n = 0;
  m.in_valid = 0;
  m.reg_we = 0;
  m.out_ready = 1;
  m.eval();
  m.rst_n = 1;
  m.eval();
  Rng rng(3);
  const AesKey key1 = rng.key(), key2 = rng.key();
  for (int i = 0; i < 4; ++i) write(reg::kKey0 + 4 * uint32_t(i), key_word(key1, i));
  write(reg::kCtrl, reg::kCtrlKeyCommit);
  // Sign LBA 42 -> PPN 1234 under key1.
  m.in_valid = 1;
  m.in_verify = 0;
  m.in_lun = 1;
  m.in_lba = 42;
  m.in_gen = 3;
  m.in_ppn = 1234;
  m.eval();
  REQUIRE(m.in_ready);
  tick();
  m.in_valid = 0;
  // While busy: stage key2 and commit it.
  for (int i = 0; i < 4; ++i) write(reg::kKey0 + 4 * uint32_t(i), key_word(key2, i));
  write(reg::kCtrl, reg::kCtrlKeyCommit);
  m.reg_addr = reg::kStatus;
  m.eval();
  CHECK(m.reg_rdata == (reg::kStatusKeyValid | reg::kStatusBusy | reg::kStatusKeyPending));
  CHECK(!m.in_ready);
  while (!m.out_valid) tick();
  CHECK(m.out_entry == HpbEntryCodec(key1).sign(1, 3, 42, 1234));  // in-flight job kept key1
  tick();  // the pending commit applies on the first idle edge
  m.eval();
  CHECK(m.reg_rdata == reg::kStatusKeyValid);
  CHECK(m.in_ready);
  m.in_valid = 1;
  tick();
  m.in_valid = 0;
  while (!m.out_valid) tick();
  CHECK(m.out_entry == HpbEntryCodec(key2).sign(1, 3, 42, 1234));
  m.final();
}

TEST_CASE("crypto: differential: 1M random sign/verify jobs, RTL and C++ identical in results and cycles",
          "[crypto][rtl][differential]") {
  // 250k jobs on each rounds-per-cycle setting.
  differential(1, 250'000, 101);
  differential(2, 250'000, 102);
  differential(5, 250'000, 105);
  differential(10, 250'000, 110);
}

TEST_CASE("crypto: differential: the RTL model edge by edge (one evaluation per clock edge), "
          "200k jobs identical to C++",
          "[crypto][rtl][differential]") {
  // The platform's model evaluates a job's edges in one call (SIM_RUN_JOBS); with waves on
  // it evaluates every edge on its own, the unit's process once per evaluation.
  differential(1, 50'000, 201, false);
  differential(2, 50'000, 202, false);
  differential(5, 50'000, 205, false);
  differential(10, 50'000, 210, false);
}
