// Parts of the flash controller alone (no FlashController around them): the array
// time ledger, the status poller, the read, program and copy-back sequences. The controller's
// whole behaviour is in fcc_timing_bench and fcc_features_bench.
#include <catch2/catch.hpp>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>
#include "fcc/array_ledger.h"
#include "fcc/copy_back_sequence.h"
#include "fcc/die_queues.h"
#include "fcc/flash_dma.h"
#include "fcc/flash_timeline.h"
#include "fcc/flash_topology.h"
#include "fcc/program_power_budget.h"
#include "fcc/program_sequence.h"
#include "fcc/read_sequence.h"
#include "fcc/status_poller.h"
#include "fcc_bench_harness.h"

namespace {
sc_time us(double v) { return sc_time(v, SC_US); }
sc_time nsec(double v) { return sc_time(v, SC_NS); }

// What a command sequence works with, without a controller: the topology (test_nand on
// test_fcc's channels), op records, die queues, a DMA to a fake buffer, the program
// power budget, the status poller, tracing off.
struct SequenceRig : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<SequenceRig> socket;
  FakeBuffer buf;
  FlashControllerParams params;
  FlashTopology topology;
  OpPool pool;
  DieQueues queues;
  FlashDma dma;
  FlashTimeline timeline;
  ProgramPowerBudget budget;
  StatusPoller poller;
  explicit SequenceRig(const FlashControllerParams& f, const NandParams& nand = test_nand())
      : sc_module("rig"),
        socket("socket"),
        buf("buf", kLat),
        params(f),
        topology(params, nand),
        queues(params, topology, pool),
        dma(socket, "rig"),
        budget(f.max_concurrent_programs),
        poller(params, topology, timeline) {
    socket.bind(buf.socket);
  }
  uint32_t slot(const FlashOp& op, const sc_time& arrival = sc_core::SC_ZERO_TIME) {
    const uint32_t s = pool.alloc();
    pool[s].op = op;
    pool[s].arrival = arrival;
    return s;
  }
  DataPathParts data_path() { return {topology, pool, queues, dma, timeline}; }
  CopyBackSequence::Parts copy_back_parts() { return {topology, budget, poller, timeline}; }
};
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
  ledger.book(0, us(3500), us(3500));  // a two-plane erase [0, 3500) us
  ledger.count(ArrayLedger::kArrayErase, us(3500), 1, 2);
  CHECK(ledger.plane_time(ArrayLedger::kArrayErase) == us(7000));
  ledger.give_back(0, ArrayLedger::kArrayErase, us(1000), us(2500), 2);  // suspended at 1000 us
  CHECK(ledger.busy_time(0) == us(1000));
  CHECK(ledger.busy_until(0, us(2000)) == us(1000));
  CHECK(ledger.time(ArrayLedger::kArrayErase) == us(1000));
  CHECK(ledger.plane_time(ArrayLedger::kArrayErase) == us(2000));
  ledger.book(0, us(3600), us(2500));  // resumed at 1100 us
  ledger.count(ArrayLedger::kArrayErase, us(2500), 0, 2);
  CHECK(ledger.busy_time(0) == us(3500));
  CHECK(ledger.time(ArrayLedger::kArrayErase) == us(3500));
  CHECK(ledger.plane_time(ArrayLedger::kArrayErase) == us(7000));
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

TEST_CASE("FCC parts: ReadSequence: the requested sectors go out after tR, are decoded and land in the buffer",
          "[fcc][parts][read]") {
  SequenceRig rig(test_fcc());
  ReadSequence reads(rig.params, rig.data_path());
  const std::vector<uint32_t> group{rig.slot(read_op(0, 0, 0, 0, 1, 2, 1, 8192))};
  std::vector<sc_time> landed;
  Driver drv("drv", [&] {
    sc_time t_r;
    CHECK(reads.commands(0, group, sc_core::SC_ZERO_TIME, &t_r) == nsec(100));  // command [0, 100)
    CHECK(t_r == us(50));
    CHECK(rig.pool[group[0]].first_sector == 1);  // column address: sectors 1 and 2 only
    CHECK(rig.pool[group[0]].sectors == 2);
    sc_core::wait(nsec(50100));
    const ReadSequence::DataOut out = reads.data_out(0, group, sc_core::SC_ZERO_TIME, landed);
    CHECK(out.cache_free_at == nsec(50100 + 8192));
    CHECK(out.free_at == nsec(50100 + 8192));  // no cache read: the die waits for its data-out
  });
  sc_core::sc_start();
  REQUIRE(landed.size() == 1);
  CHECK(landed[0] == nsec(50100 + 8192 + 500 + 10));  // ECC, then the buffer's latency
  CHECK(rig.buf.writes == 1);
  CHECK(rig.topology.channel(0).busy_time() == nsec(100 + 8192));
  CHECK(rig.topology.channel(0).bytes_transferred() == 8192);
}

TEST_CASE("FCC parts: ReadSequence: a read waiting for the die gets its command slot right after the data-out",
          "[fcc][parts][read]") {
  SequenceRig rig(test_fcc());
  ReadSequence reads(rig.params, rig.data_path());
  const std::vector<uint32_t> first{rig.slot(read_op(0, 0, 0, 0, 1))};
  const uint32_t next = rig.slot(read_op(0, 1, 0, 0, 2));
  std::vector<sc_time> landed;
  Driver drv("drv", [&] {
    sc_time t_r;
    reads.commands(0, first, sc_core::SC_ZERO_TIME, &t_r);
    rig.queues.enqueue(0, next);
    sc_core::wait(nsec(50100));
    const ReadSequence::DataOut out = reads.data_out(0, first, sc_core::SC_ZERO_TIME, landed);
    CHECK(out.free_at == nsec(54196));
    CHECK(rig.topology.channel(0).busy_time() == nsec(100 + 4096 + 100));  // the slot is booked with it
    // Another die's burst on the channel cannot take the slot; the next read's command uses it.
    CHECK(rig.topology.channel(0).reserve(nsec(54196), nsec(4096)) == nsec(54296));
    rig.queues.clear(0);
    CHECK(reads.commands(0, {next}, out.free_at, &t_r) == nsec(54296));
    CHECK(rig.topology.channel(0).busy_time() == nsec(100 + 4096 + 100 + 4096));
  });
  sc_core::sc_start();
}

TEST_CASE("FCC parts: ReadSequence: with cache read the next tR waits only for the page register's copy",
          "[fcc][parts][read]") {
  FlashControllerParams f = test_fcc();
  f.cache_read = true;
  f.t_cache_ns = 3000;
  SequenceRig rig(f);
  ReadSequence reads(rig.params, rig.data_path());
  const std::vector<uint32_t> first{rig.slot(read_op(0, 0, 0, 0, 1))};
  const std::vector<uint32_t> next{rig.slot(read_op(0, 0, 0, 1, 2))};
  std::vector<sc_time> landed;
  Driver drv("drv", [&] {
    sc_time t_r;
    reads.commands(0, first, sc_core::SC_ZERO_TIME, &t_r);
    sc_core::wait(nsec(50100));
    const ReadSequence::DataOut out = reads.data_out(0, first, sc_core::SC_ZERO_TIME, landed);
    CHECK(out.free_at == nsec(50100));                   // the die takes a command now
    CHECK(out.cache_free_at == nsec(53100 + 4096));      // data-out after the 3 us copy
    CHECK(reads.commands(0, next, out.free_at, &t_r) == nsec(53100));  // command at 50100, tR from the copy's end
  });
  sc_core::sc_start();
  CHECK(landed[0] == nsec(53100 + 4096 + 510));
}

TEST_CASE("FCC parts: ProgramSequence: each op's data comes from the buffer and goes in on the channel",
          "[fcc][parts][program]") {
  SequenceRig rig(test_fcc());
  ProgramSequence programs(false, rig.data_path());
  const std::vector<uint32_t> group{rig.slot(program_op(0, 0, 0, 0, 1)), rig.slot(program_op(0, 1, 0, 0, 2))};
  Driver drv("drv", [&] {
    sc_time t_prog;
    // Each op: the buffer's 10 ns, then 3 pages (100 ns command each, 3 x 16 KiB) in.
    const sc_time in = nsec(3 * 100 + 3 * 16384);
    CHECK(programs.data_in(0, group, sc_core::SC_ZERO_TIME, &t_prog) == nsec(10) + in + nsec(10) + in);
    CHECK(t_prog == rig.topology.die(0).program_time(rig.pool[group[0]].op.address, 3, false));
    CHECK(rig.pool[group[1]].stamps.size() == 12);
    CHECK(programs.try_cache(0, sc_core::SC_ZERO_TIME) == -1);  // cache program off
  });
  sc_core::sc_start();
  CHECK(rig.buf.reads == 2);
  CHECK(rig.topology.channel(0).bytes_to_dies() == 2 * 3 * 16384);
}

TEST_CASE("FCC parts: ProgramSequence: cache program takes one arrived program while the die programs, not before a read",
          "[fcc][parts][program]") {
  SequenceRig rig(test_fcc());
  ProgramSequence programs(true, rig.data_path());
  const uint32_t cached = rig.slot(program_op(0, 0, 1, 0, 1));
  const uint32_t later_one = rig.slot(program_op(0, 0, 1, 3, 2));
  const uint32_t read = rig.slot(read_op(0, 1, 0, 0, 3));
  Driver drv("drv", [&] {
    rig.queues.enqueue(0, cached);
    rig.queues.enqueue(0, later_one);
    // The program in flight began its array phase at 2 us: the data goes in from then.
    CHECK(programs.try_cache(0, us(2)) == long(cached));
    CHECK(programs.cached(0));
    CHECK(programs.try_cache(0, us(2)) == -1);  // one at a time
    std::vector<uint32_t> group;
    const sc_time ready = programs.take_cached(0, group);
    CHECK(ready == us(2) + nsec(10 + 3 * 100 + 3 * 16384));
    CHECK(group == std::vector<uint32_t>{cached});
    CHECK_FALSE(programs.cached(0));
    rig.queues.enqueue(0, read);  // a read has arrived: it goes first
    CHECK(programs.try_cache(0, us(2)) == -1);
    CHECK(rig.queues.size(0) == 2);
  });
  sc_core::sc_start();
}

TEST_CASE("FCC parts: CopyBackSequence: tR of every source page, then the program command, no data on the channel",
          "[fcc][parts][copyback]") {
  SequenceRig rig(test_fcc());
  CopyBackSequence copy_backs(rig.copy_back_parts());
  const OpSlot& slot = rig.pool[rig.slot(copy_back_op(1))];
  const CopyBackSequence::Phases p = copy_backs.book(0, slot, sc_core::SC_ZERO_TIME);
  CHECK(p.read_start == nsec(100));
  CHECK(p.t_r == us(150));  // 3 pages x 50 us
  CHECK(p.program_start == nsec(100 + 150000 + 100));
  CHECK(p.t_p == rig.topology.die(0).program_time(slot.op.dest, 3, false));
  CHECK(rig.topology.channel(0).busy_time() == nsec(200));
  CHECK(rig.topology.channel(0).bytes_transferred() == 0);
}

TEST_CASE("FCC parts: CopyBackSequence: spare bytes out, status polls and the power budget delay the program",
          "[fcc][parts][copyback]") {
  FlashControllerParams f = test_fcc();
  f.status_poll_ns = 10000;
  f.max_concurrent_programs = 1;
  NandParams n = test_nand();
  n.spare_bytes_per_page = 64;
  SequenceRig rig(f, n);
  CopyBackSequence copy_backs(rig.copy_back_parts());
  FlashOp op = copy_back_op(1);
  op.read_oob = true;
  const OpSlot& slot = rig.pool[rig.slot(op)];
  rig.budget.book(1, sc_core::SC_ZERO_TIME, us(200));  // die 1 programs [0, 200) us
  const CopyBackSequence::Phases p = copy_backs.book(0, slot, sc_core::SC_ZERO_TIME);
  // tR ends at 150100; the 15th poll (150100) sees it, status in at 150200; 3 x 64 spare
  // bytes out with a command [150200, 150492); program command to 150592; the budget's
  // one slot frees at 200 us.
  CHECK(rig.poller.polls() == 15);
  CHECK(rig.topology.channel(0).bytes_transferred() == 192);
  CHECK(p.program_start == us(200));
  CHECK(rig.budget.delays() == 1);
}
