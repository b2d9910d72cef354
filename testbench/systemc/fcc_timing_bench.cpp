// FlashController (flash demux) foundation: exact simulated times of reads,
// programs and erases on one die, on dies sharing a channel and on separate
// channels; die-queue ordering; data integrity through the DMA; rule violations.
#include "fcc_bench_harness.h"

TEST_CASE("FCC: Defaults: parameters valid, geometry of a 512 GiB device, one 4 KiB read", "[fcc]") {
  FlashControllerParams f;
  NandParams n;
  CHECK(f.validate() == "");
  FlashControllerParams bad = f;
  bad.channels = 0;
  CHECK(bad.validate().rfind("channels:", 0) == 0);
  FakeBuffer buf("buf", sc_core::SC_ZERO_TIME);
  FlashController fcc("fcc", f, n);
  fcc.dma.bind(buf.socket);
  Recorder rec;
  fcc.set_listener(&rec);
  const FlashGeometry g = fcc.geometry();
  CHECK(g.channels == 2);
  CHECK(g.ways_per_channel == 4);
  CHECK(g.dies_per_way == 2);
  CHECK(g.dies() == 16);
  CHECK(g.planes_per_die == 2);
  CHECK(g.pages_per_block == 1152);
  CHECK(g.page_bytes == 16384);
  CHECK(g.total_sectors() * kSectorBytes >= 512ull << 30);
  Driver drv("drv", [&] { fcc.submit(read_op(5, 1, 100, 7, 1), sc_core::SC_ZERO_TIME); });
  sc_core::sc_start();
  REQUIRE(rec.done.size() == 1);
  // 200 ns command + 50 us tR + (4096 + 552 spare) B at 1400 MB/s = 3.32 us + 1 us ECC.
  CHECK(rec.done[0].t == ns(200 + 50000 + 3320 + 1000));
  CHECK(fcc.topology().allocated_blocks() == 0);
}

TEST_CASE("FCC: One read: command + tR + data-out of the requested sectors + ECC + DMA", "[fcc][timing]") {
  Bench b;
  Driver drv("drv", [&] {
    b.fcc.submit(read_op(0, 0, 0, 0, 1, 1), sc_core::SC_ZERO_TIME);
    sc_core::wait(ns(100000));
    b.fcc.submit(read_op(0, 0, 0, 0, 2, 0), sc_core::SC_ZERO_TIME);  // whole page
  });
  sc_core::sc_start();
  REQUIRE(b.rec.done.size() == 2);
  CHECK(b.rec.of(1).t == ns(100 + 50000 + 4096 + 500 + 10));
  CHECK(b.rec.of(2).t == ns(100000 + 100 + 50000 + 16384 + 500 + 10));
  CHECK(b.rec.of(1).c.status == FlashStatus::Ok);
  CHECK(b.rec.of(1).c.opcode == FlashOpcode::Read);
  CHECK(b.fcc.arrays().busy_time(0) == sc_time(100, SC_US));
  CHECK(b.fcc.topology().channel(0).busy_time() == ns(2 * 100 + 4096 + 16384));
  CHECK(b.fcc.channel_bytes(0) == 5 * 4096);
  CHECK(b.fcc.ops_completed(FlashOpcode::Read) == 2);
  CHECK(b.fcc.ops_in_flight() == 0);
  CHECK(b.buf.writes == 2);
}

TEST_CASE("FCC: ECC decode not pipelined: one decode latency per sector", "[fcc][timing]") {
  FlashControllerParams f = test_fcc();
  f.ecc_pipelined = false;
  Bench b(f);
  Driver drv("drv", [&] { b.fcc.submit(read_op(0, 0, 0, 0, 1, 0), sc_core::SC_ZERO_TIME); });
  sc_core::sc_start();
  CHECK(b.rec.of(1).t == ns(100 + 50000 + 16384 + 4 * 500 + 10));
}

TEST_CASE("FCC: Submit delay: the op arrives at now + delay", "[fcc][timing]") {
  Bench b;
  Driver drv("drv", [&] { b.fcc.submit(read_op(0, 0, 0, 0, 1, 1), ns(1000)); });
  sc_core::sc_start();
  CHECK(b.rec.of(1).t == ns(1000 + 100 + 50000 + 4096 + 500 + 10));
}

TEST_CASE("FCC: Two dies on one channel overlap tR and serialise their transfers", "[fcc][timing]") {
  Bench b;
  Driver drv("drv", [&] {
    b.fcc.submit(read_op(0, 0, 0, 0, 1, 1), sc_core::SC_ZERO_TIME);
    b.fcc.submit(read_op(1, 0, 0, 0, 2, 1), sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start();
  // A: cmd [0,100], tR to 50100, data [50100,54196]. B: cmd [100,200], tR to 50200,
  // data waits for the bus: [54196,58292].
  CHECK(b.rec.of(1).t == ns(54196 + 500 + 10));
  CHECK(b.rec.of(2).t == ns(58292 + 500 + 10));
  CHECK(b.fcc.topology().channel(0).busy_time() == ns(2 * 100 + 2 * 4096));
  CHECK(b.fcc.topology().channel(1).busy_time() == sc_core::SC_ZERO_TIME);
}

TEST_CASE("FCC: Two dies on different channels run fully in parallel", "[fcc][timing]") {
  Bench b;
  Driver drv("drv", [&] {
    b.fcc.submit(read_op(0, 0, 0, 0, 1, 1), sc_core::SC_ZERO_TIME);
    b.fcc.submit(read_op(2, 0, 0, 0, 2, 1), sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start();
  CHECK(b.rec.of(1).t == ns(54706));
  CHECK(b.rec.of(2).t == ns(54706));
}

TEST_CASE("FCC: Reads to one die serialise: the next command follows the data-out", "[fcc][timing]") {
  Bench b;
  Driver drv("drv", [&] {
    b.fcc.submit(read_op(0, 0, 0, 0, 1, 1), sc_core::SC_ZERO_TIME);
    b.fcc.submit(read_op(0, 1, 0, 0, 2, 1), sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start();
  CHECK(b.rec.of(1).t == ns(54706));
  // Die free at 54196; cmd [54196,54296], tR to 104296, data to 108392.
  CHECK(b.rec.of(2).t == ns(108392 + 510));
  CHECK(b.fcc.sequencer().queue_wait() == ns(54196));
}

TEST_CASE("FCC: Program: DMA from the buffer, command + data-in per page, one-shot tPROG", "[fcc][timing]") {
  Bench b;
  Driver drv("drv", [&] {
    b.fcc.submit(program_op(0, 0, 0, 0, 1), sc_core::SC_ZERO_TIME);
    b.fcc.submit(program_op(1, 0, 0, 0, 2, 0, 3), sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start();
  // Die 0: buffer ready at 10, bus [10, 10 + 3 x (100 + 16384)], then 500 us.
  const double in = 3 * (100 + 16384);
  CHECK(b.rec.of(1).t == ns(10 + in + 500000));
  // Die 1 on the same channel: its data-in waits for die 0's.
  CHECK(b.rec.of(2).t == ns(10 + 2 * in + 500000));
  CHECK(b.rec.of(1).c.status == FlashStatus::Ok);
  CHECK(b.fcc.arrays().busy_time(0) == sc_time(500, SC_US));
  CHECK(b.fcc.topology().channel(0).busy_time() == ns(2 * in));
  CHECK(b.buf.reads == 2);
}

// Hybrid page size (seed 002 Table V): blocks 0-3 of a plane have 4 KiB pages with 4PS's
// timing, blocks 4-7 8 KiB pages with 8PS's; each page crosses the bus with its own size.
TEST_CASE("FCC: Hybrid page size: a large-page block reads and programs with its own time and size",
          "[fcc][timing][hybrid]") {
  NandParams n = test_nand();
  n.cell_type = "mlc";
  n.program_one_shot = false;
  n.page_bytes = 4096;
  n.t_read_us = 160;
  n.t_prog_us = 1385;
  n.hybrid_small_blocks_per_plane = 4;
  n.hybrid_large_page_bytes = 8192;
  n.t_read_large_us = 244;
  n.t_prog_large_us = 1491;
  REQUIRE(n.validate() == "");
  Bench b(test_fcc(), n);
  CHECK(b.fcc.geometry().hybrid());
  CHECK(b.fcc.geometry().total_sectors() == 4ull * 2 * 12 * (4 * 1 + 4 * 2));  // 4 dies x 2 planes
  b.buf.sectors[8] = SectorStamp{1000, 7};
  b.buf.sectors[9] = SectorStamp{1001, 7};
  Driver drv("drv", [&] {
    // Die 0 (channel 0) a small page, die 2 (channel 1) a large page: independent.
    b.fcc.submit(program_op(0, 0, 3, 0, 1, 0, 1), sc_core::SC_ZERO_TIME);
    b.fcc.submit(program_op(2, 0, 4, 0, 2, 8 * 4096, 1), sc_core::SC_ZERO_TIME);
    sc_core::wait(ns(2000000));
    b.fcc.submit(read_op(0, 0, 3, 0, 3, 0), sc_core::SC_ZERO_TIME);   // whole 4 KiB page
    b.fcc.submit(read_op(2, 0, 4, 0, 4, 0, 0, 16 * 4096), sc_core::SC_ZERO_TIME);  // whole 8 KiB page
  });
  sc_core::sc_start();
  // Program: buffer 10 ns, command 100 ns + data-in (4096 or 8192 ns at 1 ns/B), tPROG.
  CHECK(b.rec.of(1).t == ns(10 + 100 + 4096 + 1385000));
  CHECK(b.rec.of(2).t == ns(10 + 100 + 8192 + 1491000));
  // Read: command, tR, data-out of the page, ECC, DMA.
  CHECK(b.rec.of(3).t == ns(2000000 + 100 + 160000 + 4096 + 500 + 10));
  CHECK(b.rec.of(4).t == ns(2000000 + 100 + 244000 + 8192 + 500 + 10));
  CHECK(b.fcc.channel_bytes(1) == 2 * 8192);
  CHECK(b.fcc.channel_bytes(0) == 2 * 4096);
  // Both sectors of the large page came back (the program took them from buffer sectors 8-9).
  CHECK(b.buf.sectors[16] == (SectorStamp{1000, 7}));
  CHECK(b.buf.sectors[17] == (SectorStamp{1001, 7}));
  CHECK(b.fcc.nand_die(2).violations().total() == 0);
}

TEST_CASE("FCC: Erase: command + tBERS, erase count per block", "[fcc][timing]") {
  Bench b;
  Driver drv("drv", [&] {
    b.fcc.submit(erase_op(3, 1, 5, 1), sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start();
  CHECK(b.rec.of(1).t == ns(100 + 3500000));
  CHECK(b.rec.of(1).c.opcode == FlashOpcode::Erase);
  CHECK(b.fcc.nand_die(3).block(1, 5).erase_count() == 1);
  CHECK(b.fcc.arrays().busy_time(3) == sc_time(3500, SC_US));
  CHECK(b.fcc.ops_completed(FlashOpcode::Erase) == 1);
}

TEST_CASE("FCC: Die queue: priority first, then reads before programs", "[fcc][queue]") {
  Bench b;
  Driver drv("drv", [&] {
    b.fcc.submit(erase_op(0, 0, 7, 9), sc_core::SC_ZERO_TIME);  // keeps the die busy
    b.fcc.submit(program_op(0, 1, 0, 0, 2), ns(1));
    b.fcc.submit(read_op(0, 0, 1, 0, 1, 1), ns(2));
    b.fcc.submit(read_op(0, 0, 2, 0, 3, 1), ns(3));
    FlashOp urgent = read_op(0, 0, 3, 0, 4, 1);
    urgent.priority = 7;
    b.fcc.submit(urgent, ns(4));
  });
  sc_core::sc_start();
  REQUIRE(b.rec.done.size() == 5);
  CHECK(b.rec.done[0].c.cookie == 9);
  CHECK(b.rec.done[1].c.cookie == 4);
  CHECK(b.rec.done[2].c.cookie == 1);
  CHECK(b.rec.done[3].c.cookie == 3);
  CHECK(b.rec.done[4].c.cookie == 2);
  // The urgent read starts when the erase ends.
  CHECK(b.rec.of(4).t == ns(3500100 + 100 + 50000 + 4096 + 510));
}

TEST_CASE("FCC: Die queue without read_first: priority, then FIFO", "[fcc][queue]") {
  FlashControllerParams f = test_fcc();
  f.read_first = false;
  Bench b(f);
  Driver drv("drv", [&] {
    b.fcc.submit(erase_op(0, 0, 7, 9), sc_core::SC_ZERO_TIME);
    b.fcc.submit(program_op(0, 1, 0, 0, 2), ns(1));
    b.fcc.submit(read_op(0, 0, 1, 0, 1, 1), ns(2));
    FlashOp urgent = read_op(0, 0, 3, 0, 4, 1);
    urgent.priority = 7;
    b.fcc.submit(urgent, ns(4));
  });
  sc_core::sc_start();
  REQUIRE(b.rec.done.size() == 4);
  CHECK(b.rec.done[1].c.cookie == 4);
  CHECK(b.rec.done[2].c.cookie == 2);
  CHECK(b.rec.done[3].c.cookie == 1);
}

TEST_CASE("FCC: Data integrity: program, read back stamps and OOB, partial reads", "[fcc][data]") {
  Bench b;
  for (uint64_t s = 0; s < 12; ++s) b.buf.sectors[s] = SectorStamp{5000 + s, 3};
  Driver drv("drv", [&] {
    b.fcc.submit(program_op(2, 1, 4, 0, 1, 0), sc_core::SC_ZERO_TIME);
    sc_core::wait(ns(1000000));
    for (uint32_t page = 0; page < 3; ++page)
      b.fcc.submit(read_op(2, 1, 4, page, 10 + page, 0, 0, (100 + page * 4) * kSectorBytes),
                   sc_core::SC_ZERO_TIME);
    b.fcc.submit(read_op(2, 1, 4, 1, 20, 2, 2, 200 * kSectorBytes), sc_core::SC_ZERO_TIME);
    b.fcc.submit(read_op(2, 1, 4, 3, 21, 0, 0, 300 * kSectorBytes), sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start();
  REQUIRE(b.rec.done.size() == 6);
  for (uint64_t s = 0; s < 12; ++s) CHECK(b.buf.sectors[100 + s] == (SectorStamp{5000 + s, 3}));
  for (uint32_t page = 0; page < 3; ++page) {
    const FlashCompletion& c = b.rec.of(10 + page).c;
    CHECK(c.status == FlashStatus::Ok);
    CHECK(c.oob.kind == PageKind::UserData);
    CHECK(c.oob.sequence == 10 + page);
    CHECK(c.oob.lba[3] == 100 + page * 4 + 3);
    CHECK(c.address.page == page);
  }
  // Sectors 2..3 of page 1 only.
  CHECK(b.buf.sectors[200] == (SectorStamp{5000 + 6, 3}));
  CHECK(b.buf.sectors[201] == (SectorStamp{5000 + 7, 3}));
  CHECK(b.buf.sectors.count(202) == 0);
  // Page 3 is erased.
  CHECK(b.buf.sectors[300].lba == kNoLba);
  CHECK(b.rec.of(21).c.oob.kind == PageKind::Erased);
  CHECK(b.fcc.rule_violations() == 0);
  CHECK(b.fcc.topology().allocated_blocks() == 1);
}

TEST_CASE("FCC: NAND rule violations are reported as failures and counted", "[fcc][rules]") {
  Bench b;
  Driver drv("drv", [&] {
    b.fcc.submit(program_op(0, 0, 0, 0, 1), sc_core::SC_ZERO_TIME);
    b.fcc.submit(program_op(0, 0, 0, 0, 2), sc_core::SC_ZERO_TIME);  // page not erased
    b.fcc.submit(program_op(0, 0, 0, 6, 3), sc_core::SC_ZERO_TIME);  // skips pages 3..5
    b.fcc.submit(program_op(0, 0, 0, 3, 4), sc_core::SC_ZERO_TIME);  // in order: fine
    b.fcc.submit(erase_op(0, 0, 0, 5), sc_core::SC_ZERO_TIME);
    b.fcc.submit(program_op(0, 0, 0, 0, 6), sc_core::SC_ZERO_TIME);  // erased again: fine
  });
  sc_core::sc_start();
  REQUIRE(b.rec.done.size() == 6);
  CHECK(b.rec.of(1).c.status == FlashStatus::Ok);
  CHECK(b.rec.of(2).c.status == FlashStatus::ProgramFail);
  CHECK(b.rec.of(3).c.status == FlashStatus::ProgramFail);
  CHECK(b.rec.of(4).c.status == FlashStatus::Ok);
  CHECK(b.rec.of(5).c.status == FlashStatus::Ok);
  CHECK(b.rec.of(6).c.status == FlashStatus::Ok);
  const NandRuleViolations v = b.fcc.topology().violation_counts();
  CHECK(v.program_not_erased == 1);
  CHECK(v.program_out_of_order == 1);
  CHECK(b.fcc.rule_violations() == 2);
  CHECK(b.fcc.ops_failed(FlashOpcode::Program) == 2);
  CHECK(b.fcc.nand_die(0).block(0, 0).erase_count() == 1);
}

TEST_CASE("FCC: Completions may submit more work from inside the callback", "[fcc][queue]") {
  Bench b;
  struct Chain : FlashCompletionListener {
    FlashController* fcc = nullptr;
    Recorder* rec = nullptr;
    int left = 9;
    void flash_complete(const FlashCompletion& c) override {
      rec->flash_complete(c);
      if (left-- > 0) fcc->submit(read_op(c.address.die, 0, 0, 0, c.cookie + 1, 1), sc_core::SC_ZERO_TIME);
    }
  } chain;
  chain.fcc = &b.fcc;
  chain.rec = &b.rec;
  b.fcc.set_listener(&chain);
  Driver drv("drv", [&] { b.fcc.submit(read_op(0, 0, 0, 0, 0, 1), sc_core::SC_ZERO_TIME); });
  sc_core::sc_start();
  REQUIRE(b.rec.done.size() == 10);
  // Each read starts when the previous one completed (ECC + DMA after its data-out).
  CHECK(b.rec.done.back().t == ns(10 * 54706));
}
