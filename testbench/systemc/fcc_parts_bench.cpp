// Parts of the flash controller alone (no FlashController around them): the array
// time ledger and the status poller. The controller's whole behaviour is in
// fcc_timing_bench and fcc_features_bench.
#include <catch2/catch.hpp>
#include <systemc>
#include "fcc/array_ledger.h"
#include "fcc/flash_timeline.h"
#include "fcc/flash_topology.h"
#include "fcc/status_poller.h"
#include "fcc_bench_harness.h"

namespace {
sc_time us(double v) { return sc_time(v, SC_US); }
sc_time nsec(double v) { return sc_time(v, SC_NS); }
}  // namespace

TEST_CASE("FCC parts: ArrayLedger books a die's array time, and before a moment only what lies before it",
          "[fcc][parts][ledger]") {
  ArrayLedger ledger(2);
  ledger.book(1, us(600), us(500));  // die 1 busy [100, 600) us
  ledger.count(ArrayLedger::kArrayProgram, us(500));
  CHECK(ledger.busy_time(1) == us(500));
  CHECK(ledger.busy_time(0) == sc_core::SC_ZERO_TIME);
  CHECK(ledger.busy_until(1, us(300)) == us(200));
  CHECK(ledger.busy_until(1, us(50)) == sc_core::SC_ZERO_TIME);
  CHECK(ledger.busy_until(1, us(700)) == us(500));
  ledger.book(1, us(1000), us(50));  // a second phase [950, 1000) us
  CHECK(ledger.busy_until(1, us(960)) == us(510));
  CHECK(ledger.time(ArrayLedger::kArrayProgram) == us(500));
  CHECK(ledger.ops(ArrayLedger::kArrayProgram) == 1);
  CHECK(ledger.ops(ArrayLedger::kArrayRead) == 0);
}

TEST_CASE("FCC parts: ArrayLedger: a suspended phase gives back the time it did not run, its resume is no new op",
          "[fcc][parts][ledger]") {
  ArrayLedger ledger(1);
  ledger.book(0, us(3500), us(3500));  // an erase [0, 3500) us
  ledger.count(ArrayLedger::kArrayErase, us(3500));
  ledger.give_back(0, ArrayLedger::kArrayErase, us(1000), us(2500));  // suspended at 1000 us
  CHECK(ledger.busy_time(0) == us(1000));
  CHECK(ledger.busy_until(0, us(2000)) == us(1000));
  CHECK(ledger.time(ArrayLedger::kArrayErase) == us(1000));
  ledger.book(0, us(3600), us(2500));  // resumed at 1100 us
  ledger.count(ArrayLedger::kArrayErase, us(2500), 0);
  CHECK(ledger.busy_time(0) == us(3500));
  CHECK(ledger.time(ArrayLedger::kArrayErase) == us(3500));
  CHECK(ledger.ops(ArrayLedger::kArrayErase) == 1);
}

TEST_CASE("FCC parts: ArrayLedger: each op's kind and its stats name", "[fcc][parts][ledger]") {
  FlashOp op = read_op(0, 0, 0, 0, 1);
  CHECK(ArrayLedger::kind_of(op) == ArrayLedger::kArrayRead);
  op.slc = true;
  CHECK(ArrayLedger::kind_of(op) == ArrayLedger::kArrayReadSlc);
  op = program_op(0, 0, 0, 0, 1);
  CHECK(ArrayLedger::kind_of(op) == ArrayLedger::kArrayProgram);
  op.opcode = FlashOpcode::CopyBack;  // counted by its parts; alone, a program
  op.slc = true;
  CHECK(ArrayLedger::kind_of(op) == ArrayLedger::kArrayProgramSlc);
  CHECK(ArrayLedger::kind_of(erase_op(0, 0, 1, 1)) == ArrayLedger::kArrayErase);
  CHECK(std::string(ArrayLedger::kind_name(ArrayLedger::kArrayReadSlc)) == "read_slc");
  CHECK(std::string(ArrayLedger::kind_name(ArrayLedger::kArrayErase)) == "erase");
  CHECK(std::string(ArrayLedger::kind_name(ArrayLedger::kArrayKinds)) == "?");
}

TEST_CASE("FCC parts: StatusPoller: with the ready/busy line the end is seen at once, no bus time",
          "[fcc][parts][poll]") {
  const FlashControllerParams f = test_fcc();  // status_poll_ns 0
  FlashTopology topology(f, test_nand());
  FlashTimeline timeline;
  StatusPoller poller(f, topology, timeline);
  OpSlot lead;
  CHECK(poller.ready_seen(0, nsec(100), nsec(50100), lead) == nsec(50100));
  CHECK(poller.polls() == 0);
  CHECK(topology.channel(0).busy_time() == sc_core::SC_ZERO_TIME);
}

TEST_CASE("FCC parts: StatusPoller: polls every interval on the die's channel, a busy bus delays them",
          "[fcc][parts][poll]") {
  FlashControllerParams f = test_fcc();
  f.status_poll_ns = 10000;
  FlashTopology topology(f, test_nand());
  FlashTimeline timeline;
  StatusPoller poller(f, topology, timeline);
  OpSlot lead;
  // Channel 1 free: polls at 10100, ..., 50100 (100 ns each); the fifth finds the die ready.
  CHECK(poller.ready_seen(1, nsec(100), nsec(50100), lead) == nsec(50200));
  CHECK(poller.polls() == 5);
  CHECK(topology.channel(1).busy_time() == nsec(500));
  // Channel 0 carries a data-out [20000, 25000): the second poll waits for it and every
  // later one follows from there (35000, 45000, 55000: the last sees the end at 50100).
  CHECK(topology.channel(0).reserve(nsec(20000), nsec(5000)) == nsec(20000));
  CHECK(poller.ready_seen(0, nsec(100), nsec(50100), lead) == nsec(55100));
  CHECK(poller.polls() == 10);
  CHECK(topology.channel(0).busy_time() == nsec(5000 + 500));
}
