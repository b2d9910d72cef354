// FlashController (flash demux) features beyond the foundation: cell types and
// SLC mode, multi-plane operations, copy-back, cache read, bad blocks and injected
// failures, program suspend for reads, ganging; and a speed check of the demux alone.
#include <chrono>
#include <random>
#include "fcc_bench_harness.h"

TEST_CASE("FCC: Page types: LSB/CSB/MSB pages read with their own tR", "[fcc][cell]") {
  NandParams n = test_nand();
  n.t_read_us = 40;
  n.t_read_csb_us = 60;
  n.t_read_msb_us = 80;
  Bench b(test_fcc(), n);
  Driver drv("drv", [&] {
    b.fcc.submit(read_op(0, 0, 0, 0, 1, 1), sc_core::SC_ZERO_TIME);
    b.fcc.submit(read_op(2, 0, 0, 1, 2, 1), sc_core::SC_ZERO_TIME);
    b.fcc.submit(read_op(1, 0, 0, 2, 3, 1), sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start();
  CHECK(b.rec.of(1).t == ns(100 + 40000 + 4096 + 510));
  CHECK(b.rec.of(2).t == ns(100 + 60000 + 4096 + 510));
  CHECK(b.rec.of(3).t == ns(200 + 80000 + 4096 + 510));  // its command waited for die 0's
}

TEST_CASE("FCC: SLC mode: fewer pages per block, single-page programs with SLC tPROG", "[fcc][cell]") {
  NandParams n = test_nand();
  n.slc_mode = true;
  Bench b(test_fcc(), n);
  CHECK(b.fcc.geometry().pages_per_block == 4);
  Driver drv("drv", [&] {
    b.fcc.submit(program_op(0, 0, 0, 0, 1, 0, 1), sc_core::SC_ZERO_TIME);
    b.fcc.submit(read_op(0, 0, 0, 0, 2, 1), sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start();
  const double prog_end = 10 + 100 + 16384 + 160000;
  CHECK(b.rec.of(1).t == ns(prog_end));
  CHECK(b.rec.of(1).c.status == FlashStatus::Ok);
  CHECK(b.rec.of(2).t == ns(prog_end + 100 + 30000 + 4096 + 510));
  CHECK(b.fcc.rule_violations() == 0);
}

TEST_CASE("FCC: Per-block SLC on a TLC die: SLC timings for SLC ops, mode fixed until erase", "[fcc][cell]") {
  Bench b;  // TLC die: 12 pages per block natively, 4 as SLC
  CHECK(b.fcc.geometry().pages_per_block == 12);
  CHECK(b.fcc.geometry().bits_per_cell == 3);
  CHECK(b.fcc.geometry().slc_pages_per_block() == 4);
  auto slc = [](FlashOp op) { op.slc = true; return op; };
  Driver drv("drv", [&] {
    b.fcc.submit(slc(program_op(0, 0, 1, 0, 1, 0, 1)), sc_core::SC_ZERO_TIME);
    b.fcc.submit(slc(read_op(0, 0, 1, 0, 2, 1)), sc_core::SC_ZERO_TIME);
    sc_core::wait(1, sc_core::SC_MS);
    b.fcc.submit(read_op(0, 0, 1, 0, 3, 1), sc_core::SC_ZERO_TIME);       // TLC read of an SLC block
    b.fcc.submit(program_op(0, 0, 1, 3, 4, 0, 3), sc_core::SC_ZERO_TIME);  // TLC program into it
    b.fcc.submit(slc(program_op(0, 0, 1, 4, 5, 0, 1)), sc_core::SC_ZERO_TIME);  // past the 4 SLC pages
    sc_core::wait(5, sc_core::SC_MS);
    b.fcc.submit(erase_op(0, 0, 1, 6), sc_core::SC_ZERO_TIME);
    sc_core::wait(5, sc_core::SC_MS);
    b.fcc.submit(program_op(0, 0, 1, 0, 7, 0, 3), sc_core::SC_ZERO_TIME);  // TLC again after the erase
  });
  sc_core::sc_start();
  const double prog_end = 10 + 100 + 16384 + 160000;  // t_prog_slc_us, not the 500 us TLC one-shot
  CHECK(b.rec.of(1).t == ns(prog_end));
  CHECK(b.rec.of(1).c.status == FlashStatus::Ok);
  CHECK(b.rec.of(2).t == ns(prog_end + 100 + 30000 + 4096 + 510));  // t_read_slc_us
  CHECK(b.rec.of(2).c.status == FlashStatus::Ok);
  CHECK(b.rec.of(3).c.status == FlashStatus::Uncorrectable);
  CHECK(b.rec.of(4).c.status == FlashStatus::ProgramFail);
  CHECK(b.rec.of(5).c.status == FlashStatus::ProgramFail);
  CHECK(b.fcc.topology().violation_counts().mode_mismatch == 2);
  CHECK(b.fcc.topology().violation_counts().address_out_of_range == 1);
  CHECK(b.rec.of(6).c.status == FlashStatus::Ok);
  CHECK(b.rec.of(7).c.status == FlashStatus::Ok);
  CHECK(b.fcc.nand_die(0).block(0, 1).next_page() == 3);
  CHECK_FALSE(b.fcc.nand_die(0).block(0, 1).slc());
}

TEST_CASE("FCC: One-shot TLC: a program must cover whole word lines", "[fcc][cell]") {
  Bench b;
  Driver drv("drv", [&] { b.fcc.submit(program_op(0, 0, 0, 0, 1, 0, 1), sc_core::SC_ZERO_TIME); });
  sc_core::sc_start();
  CHECK(b.rec.of(1).c.status == FlashStatus::ProgramFail);
  CHECK(b.fcc.topology().violation_counts().one_shot_misuse == 1);
}

TEST_CASE("FCC: Multi-plane read: one tR for both planes, transfers one after the other", "[fcc][multiplane]") {
  FlashControllerParams f = test_fcc();
  f.multi_plane = true;
  Bench b(f);
  Driver drv("drv", [&] {
    b.fcc.submit(erase_op(0, 0, 7, 9), sc_core::SC_ZERO_TIME);  // busy until 3500100
    b.fcc.submit(read_op(0, 0, 1, 4, 1, 1), sc_core::SC_ZERO_TIME);
    b.fcc.submit(read_op(0, 1, 2, 4, 2, 1), sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start();
  // Commands [3500100, 3500300], one tR to 3550300, data [3550300, 3554396] and [.., 3558492].
  CHECK(b.rec.of(1).t == ns(3554396 + 510));
  CHECK(b.rec.of(2).t == ns(3558492 + 510));
  CHECK(b.fcc.queues().multi_plane_ops() == 2);
  CHECK(b.fcc.arrays().busy_time(0) == sc_time(3550, SC_US));
}

TEST_CASE("FCC: Multi-plane pairing rules: same block required, different blocks stay apart", "[fcc][multiplane]") {
  FlashControllerParams f = test_fcc();
  f.multi_plane = true;
  NandParams n = test_nand();
  n.multi_plane_same_block = true;
  Bench b(f, n);
  Driver drv("drv", [&] {
    b.fcc.submit(erase_op(0, 0, 7, 9), sc_core::SC_ZERO_TIME);
    b.fcc.submit(read_op(0, 0, 1, 4, 1, 1), sc_core::SC_ZERO_TIME);
    b.fcc.submit(read_op(0, 1, 2, 4, 2, 1), sc_core::SC_ZERO_TIME);  // other block
    b.fcc.submit(read_op(0, 0, 3, 4, 3, 1), sc_core::SC_ZERO_TIME);  // same plane as 1
  });
  sc_core::sc_start();
  CHECK(b.fcc.queues().multi_plane_ops() == 0);
  CHECK(b.rec.of(2).t == ns(3500100 + 2 * (100 + 50000 + 4096) + 510));
}

TEST_CASE("FCC: Multi-plane program and erase: data-in per plane, one tPROG / tBERS", "[fcc][multiplane]") {
  FlashControllerParams f = test_fcc();
  f.multi_plane = true;
  Bench b(f);
  Driver drv("drv", [&] {
    b.fcc.submit(read_op(0, 0, 7, 0, 9, 1), sc_core::SC_ZERO_TIME);  // die busy until 54196
    b.fcc.submit(program_op(0, 0, 0, 0, 1, 0), sc_core::SC_ZERO_TIME);
    b.fcc.submit(program_op(0, 1, 0, 0, 2, 12 * kSectorBytes), sc_core::SC_ZERO_TIME);
    b.fcc.submit(erase_op(0, 0, 5, 3), sc_core::SC_ZERO_TIME);
    b.fcc.submit(erase_op(0, 1, 6, 4), sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start();
  const double in = 3 * (100 + 16384);
  const double first_in_end = 54196 + 10 + in;
  const double prog_end = first_in_end + 10 + in + 500000;
  CHECK(b.rec.of(1).t == ns(prog_end));
  CHECK(b.rec.of(2).t == ns(prog_end));
  CHECK(b.rec.of(3).t == ns(prog_end + 200 + 3500000));
  CHECK(b.rec.of(4).t == ns(prog_end + 200 + 3500000));
  CHECK(b.fcc.queues().multi_plane_ops() == 4);
  CHECK(b.fcc.nand_die(0).block(0, 5).erase_count() == 1);
  CHECK(b.fcc.nand_die(0).block(1, 6).erase_count() == 1);
  CHECK(b.fcc.rule_violations() == 0);
}

TEST_CASE("FCC: Copy-back: page moves inside the plane without crossing the channel", "[fcc][copyback]") {
  FlashControllerParams f = test_fcc();
  f.read_first = false;  // the read of the copy must follow it
  Bench b(f);
  for (uint64_t s = 0; s < 12; ++s) b.buf.sectors[s] = SectorStamp{700 + s, 1};
  Driver drv("drv", [&] {
    b.fcc.submit(program_op(0, 0, 0, 0, 1, 0), sc_core::SC_ZERO_TIME);
    b.fcc.submit(copy_back_op(2), sc_core::SC_ZERO_TIME);
    b.fcc.submit(read_op(0, 0, 1, 2, 3, 0, 0, 50 * kSectorBytes), sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start();
  const double prog_end = 10 + 3 * (100 + 16384) + 500000;
  const double cb_end = prog_end + 100 + 3 * 50000 + 100 + 500000;
  CHECK(b.rec.of(2).t == ns(cb_end));
  CHECK(b.rec.of(2).c.status == FlashStatus::Ok);
  CHECK(b.rec.of(3).t == ns(cb_end + 100 + 50000 + 16384 + 510));
  CHECK(b.buf.sectors[53] == (SectorStamp{711, 1}));
  CHECK(b.rec.of(3).c.oob.sequence == 12);
  // Bus: the program's data-in, two copy-back commands, the read.
  CHECK(b.fcc.topology().channel(0).busy_time() == ns(3 * (100 + 16384) + 200 + 100 + 16384));
}

TEST_CASE("FCC: Copy-back with read_oob: the spare bytes come out between tR and the program", "[fcc][copyback]") {
  NandParams n = test_nand();
  n.spare_bytes_per_page = 64;  // 16 per sector
  Bench b(test_fcc(), n);
  Driver drv("drv", [&] {
    b.fcc.submit(program_op(0, 0, 0, 0, 1, 0), sc_core::SC_ZERO_TIME);
    FlashOp cb = copy_back_op(2);
    cb.read_oob = true;
    b.fcc.submit(cb, sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start();
  // Program: DMA 10, data-in 3 x (100 + 4 x 4112) to 49654, tPROG to 549654. Copy-back:
  // command to 549754, 3 x tR to 699754, spare out 100 + 3 x 64 to 700046, program
  // command to 700146, tPROG to 1200146.
  CHECK(b.rec.of(2).t == ns(1200146));
  CHECK(b.rec.of(2).c.status == FlashStatus::Ok);
  CHECK(b.rec.of(2).c.oob.sequence == 10);  // the first source page's OOB
  CHECK(b.rec.of(2).c.oob.lba[1] == 101);
  CHECK(b.fcc.topology().channel(0).busy_time() == ns(3 * (100 + 4 * 4112) + 100 + 292 + 100));
}

TEST_CASE("FCC: Cache read: the next read's tR overlaps the previous data-out", "[fcc][cache]") {
  FlashControllerParams f = test_fcc();
  f.cache_read = true;
  f.t_cache_ns = 3000;
  Bench b(f);
  Driver drv("drv", [&] {
    b.fcc.submit(read_op(0, 0, 0, 0, 1, 0), sc_core::SC_ZERO_TIME);
    b.fcc.submit(read_op(0, 0, 0, 1, 2, 0), sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start();
  // A: tR to 50100, copy to the cache register to 53100, data [53100, 69484].
  // B: command [50100, 50200], tR [53100, 103100], copy to 106100, data to 122484.
  CHECK(b.rec.of(1).t == ns(69484 + 510));
  CHECK(b.rec.of(2).t == ns(122484 + 510));
}

TEST_CASE("FCC: Cache program: the next program's data-in overlaps tPROG", "[fcc][cache]") {
  FlashControllerParams f = test_fcc();
  f.cache_program = true;
  Bench b(f);
  Driver drv("drv", [&] {
    b.fcc.submit(program_op(0, 0, 0, 0, 1, 0), sc_core::SC_ZERO_TIME);
    b.fcc.submit(program_op(0, 0, 0, 3, 2, 12 * kSectorBytes), sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start();
  // A: DMA 10, data-in 3 x (100 + 16384) to 49462, tPROG to 549462. B: DMA and data-in
  // into the cache register from 49462 (to 98924), tPROG from A's end to 1049462.
  const double in = 3 * (100 + 16384);
  CHECK(b.rec.of(1).t == ns(10 + in + 500000));
  CHECK(b.rec.of(2).t == ns(10 + in + 500000 + 500000));
  CHECK(b.fcc.topology().channel(0).busy_time() == ns(2 * in));
  CHECK(b.fcc.rule_violations() == 0);
}

TEST_CASE("FCC: Cache program: a program waits behind an older copy-back into its block", "[fcc][cache][copyback]") {
  // GC copy-back and buffered GC units fill one block (the GC block of plane 0): the
  // firmware numbers their pages in submit order, so the cache register may not take a
  // program past a copy-back to the same block still queued (it would skip pages).
  FlashControllerParams f = test_fcc();
  f.cache_program = true;
  f.read_first = false;
  Bench b(f);
  Driver drv("drv", [&] {
    b.fcc.submit(program_op(0, 0, 0, 0, 1, 0), sc_core::SC_ZERO_TIME);                     // block 0, pages 0-2
    b.fcc.submit(copy_back_op(2), sc_core::SC_ZERO_TIME);                                  // to block 1, pages 0-2
    b.fcc.submit(program_op(0, 0, 1, 3, 3, 12 * kSectorBytes), sc_core::SC_ZERO_TIME);   // block 1, pages 3-5
  });
  sc_core::sc_start();
  CHECK(b.rec.of(2).c.status == FlashStatus::Ok);
  CHECK(b.rec.of(3).c.status == FlashStatus::Ok);
  CHECK(b.rec.of(2).t < b.rec.of(3).t);
  CHECK(b.fcc.rule_violations() == 0);
}

TEST_CASE("FCC: Without cache program the next data-in waits for tPROG", "[fcc][cache]") {
  Bench b;
  Driver drv("drv", [&] {
    b.fcc.submit(program_op(0, 0, 0, 0, 1, 0), sc_core::SC_ZERO_TIME);
    b.fcc.submit(program_op(0, 0, 0, 3, 2, 12 * kSectorBytes), sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start();
  const double in = 3 * (100 + 16384);
  CHECK(b.rec.of(1).t == ns(10 + in + 500000));
  CHECK(b.rec.of(2).t == ns(2 * (10 + in + 500000)));
}

TEST_CASE("FCC: Erase suspend: a read waiting on an erasing die goes first", "[fcc][suspend]") {
  FlashControllerParams f = test_fcc();
  f.suspend_for_read = true;
  Bench b(f);
  Driver drv("drv", [&] {
    b.fcc.submit(erase_op(0, 0, 5, 1), sc_core::SC_ZERO_TIME);  // command to 100, tBERS to 3500100
    sc_core::wait(ns(1000000));
    b.fcc.submit(read_op(0, 1, 0, 0, 2, 1), sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start();
  // Suspend 20 us; read: command [1020000, 1020100], tR to 1070100, data to 1074196;
  // resume 20 us + the 2500100 ns of tBERS left.
  CHECK(b.rec.of(2).t == ns(1074196 + 510));
  CHECK(b.rec.of(1).t == ns(1074196 + 20000 + 2500100));
  CHECK(b.rec.of(1).c.status == FlashStatus::Ok);
  CHECK(b.fcc.suspensions() == 1);
  CHECK(b.fcc.nand_die(0).block(0, 5).erase_count() == 1);
}

TEST_CASE("FCC: Status polling: a read's data-out waits for the poll that finds the die ready", "[fcc][poll]") {
  FlashControllerParams f = test_fcc();
  f.status_poll_ns = 10000;
  Bench b(f);
  Driver drv("drv", [&] { b.fcc.submit(read_op(0, 0, 0, 0, 1, 1), sc_core::SC_ZERO_TIME); });
  sc_core::sc_start();
  // Command to 100, tR to 50100; polls at 10100, 20100, ..., 50100 (the fifth sees ready,
  // status in at 50200); data-out to 54296, ECC and DMA 510.
  CHECK(b.rec.of(1).t == ns(50200 + 4096 + 510));
  CHECK(b.fcc.status_polls() == 5);
  CHECK(b.fcc.topology().channel(0).busy_time() == ns(100 + 5 * 100 + 4096));
}

TEST_CASE("FCC: Status polling: an erase completes at the first poll after tBERS", "[fcc][poll]") {
  FlashControllerParams f = test_fcc();
  f.status_poll_ns = 1000;
  Bench b(f);
  Driver drv("drv", [&] { b.fcc.submit(erase_op(0, 0, 5, 1), sc_core::SC_ZERO_TIME); });
  sc_core::sc_start();
  CHECK(b.rec.of(1).t == ns(100 + 3500000 + 100));  // the 3500th poll, at 3500100, sees it
  CHECK(b.fcc.status_polls() == 3500);
}

TEST_CASE("FCC: Status polling: a poll interval below the command time is refused", "[fcc][poll]") {
  FlashControllerParams f = test_fcc();
  f.status_poll_ns = 50;
  CHECK(f.validate().find("status_poll_ns") == 0);
}

TEST_CASE("FCC: Factory bad blocks and injected failures reach the firmware as statuses", "[fcc][reliability]") {
  NandParams n = test_nand();
  n.bad_block_list = "1:0:3";
  n.program_fail_probability = 1.0;
  n.erase_fail_probability = 1.0;
  Bench b(test_fcc(), n);
  Driver drv("drv", [&] {
    b.fcc.submit(read_op(1, 0, 3, 0, 1, 1), sc_core::SC_ZERO_TIME);
    b.fcc.submit(program_op(1, 0, 3, 0, 2), sc_core::SC_ZERO_TIME);
    b.fcc.submit(program_op(0, 0, 0, 0, 3), sc_core::SC_ZERO_TIME);
    b.fcc.submit(erase_op(2, 0, 0, 4), sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start();
  CHECK(b.rec.of(1).c.status == FlashStatus::BadBlock);
  CHECK(b.rec.of(2).c.status == FlashStatus::BadBlock);
  CHECK(b.rec.of(3).c.status == FlashStatus::ProgramFail);
  CHECK(b.rec.of(4).c.status == FlashStatus::EraseFail);
  CHECK(b.fcc.ops_failed(FlashOpcode::Program) == 2);
  CHECK(b.fcc.rule_violations() == 0);
  CHECK(b.fcc.nand_die(1).block(0, 3).bad());
}

TEST_CASE("FCC: Program suspend: a read waiting on a programming die goes first", "[fcc][suspend]") {
  FlashControllerParams f = test_fcc();
  f.suspend_for_read = true;
  Bench b(f);
  Driver drv("drv", [&] {
    b.fcc.submit(program_op(0, 0, 0, 0, 1), sc_core::SC_ZERO_TIME);  // tPROG [49462, 549462]
    sc_core::wait(ns(100000));
    b.fcc.submit(read_op(0, 1, 0, 0, 2, 1), sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start();
  // Suspend 20 us; read: cmd [120000, 120100], tR to 170100, data to 174196;
  // resume 20 us + the 449462 ns of tPROG left.
  CHECK(b.rec.of(2).t == ns(174196 + 510));
  CHECK(b.rec.of(1).t == ns(174196 + 20000 + 449462));
  CHECK(b.rec.of(1).c.status == FlashStatus::Ok);
  CHECK(b.fcc.suspensions() == 1);
  CHECK(b.fcc.arrays().busy_time(0) == sc_time(550, SC_US));
}

TEST_CASE("FCC: Without suspend the read waits for the program", "[fcc][suspend]") {
  Bench b;
  Driver drv("drv", [&] {
    b.fcc.submit(program_op(0, 0, 0, 0, 1), sc_core::SC_ZERO_TIME);
    sc_core::wait(ns(100000));
    b.fcc.submit(read_op(0, 1, 0, 0, 2, 1), sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start();
  CHECK(b.rec.of(2).t == ns(549462 + 100 + 50000 + 4096 + 510));
  CHECK(b.fcc.suspensions() == 0);
}

TEST_CASE("FCC: Ganging: shared-control gangs widen the bus, shared-bus gangs share it", "[fcc][gang]") {
  FlashControllerParams f = test_fcc();
  f.gang_mode = "shared_control";
  f.gang_size = 2;
  FlashControllerParams g = f;
  g.gang_mode = "shared_bus";
  FakeBuffer buf1("buf1", kLat), buf2("buf2", kLat);
  FlashController control("control", f, test_nand()), bus("bus", g, test_nand());
  control.dma.bind(buf1.socket);
  bus.dma.bind(buf2.socket);
  Recorder r1, r2;
  control.set_listener(&r1);
  bus.set_listener(&r2);
  CHECK(control.geometry().ways_per_channel == 1);
  CHECK(control.geometry().page_bytes == 32768);
  CHECK(control.geometry().dies() == 2);
  Driver drv("drv", [&] {
    control.submit(read_op(0, 0, 0, 0, 1, 0), sc_core::SC_ZERO_TIME);
    bus.submit(read_op(0, 0, 0, 0, 1, 0), sc_core::SC_ZERO_TIME);
  });
  sc_core::sc_start();
  // 32 KiB gang page: over two x8 buses in lockstep, or twice through one x8 bus.
  CHECK(r1.of(1).t == ns(100 + 50000 + 16384 + 510));
  CHECK(r2.of(1).t == ns(200 + 50000 + 32768 + 510));
}

TEST_CASE("FCC: Speed: random 4 KiB reads at queue depth 32 through the demux alone", "[fcc][speed]") {
  FlashControllerParams f;  // defaults: 2 channels x 4 ways x 2 dies
  NandParams n;
  FakeBuffer buf("buf", sc_core::SC_ZERO_TIME);
  FlashController fcc("fcc", f, n);
  fcc.dma.bind(buf.socket);
  struct Loop : FlashCompletionListener {
    FlashController* fcc = nullptr;
    std::mt19937_64 rng{7};
    uint64_t left = 0, done = 0;
    FlashOp op;
    void issue() {
      const FlashGeometry g = fcc->geometry();
      op.opcode = FlashOpcode::Read;
      op.address.die = uint32_t(rng() % g.dies());
      op.address.plane = uint32_t(rng() % g.planes_per_die);
      op.address.block = uint32_t(rng() % g.blocks_per_plane);
      op.address.page = uint32_t(rng() % g.pages_per_block);
      op.sector_offset = uint32_t(rng() % 4);
      op.sector_count = 1;
      op.buffer_address = (done % 64) * kSectorBytes;
      fcc->submit(op, sc_core::SC_ZERO_TIME);
      --left;
    }
    void flash_complete(const FlashCompletion&) override {
      ++done;
      if (left) issue();
    }
  } loop;
  loop.fcc = &fcc;
  loop.left = 200000;
  fcc.set_listener(&loop);
  Driver drv("drv", [&] {
    for (int i = 0; i < 32; ++i) loop.issue();
  });
  const auto t0 = std::chrono::steady_clock::now();
  sc_core::sc_start();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(loop.done == 200000);
  const double sim_s = sc_core::sc_time_stamp().to_seconds();
  WARN("demux alone: " << loop.done / wall << " reads per wall second; simulated "
                       << loop.done / sim_s << " IOPS");
  CHECK(fcc.ops_in_flight() == 0);
}

// Power budget (fcc.max_concurrent_programs, the controller's way of staying within the
// host's bActiveICCLevel): a program whose data is in waits for a slot before its array phase.
TEST_CASE("FCC: Power budget: with one program slot a second die's program starts when the first one's ends",
          "[fcc][power]") {
  FlashControllerParams f = test_fcc();
  f.max_concurrent_programs = 1;
  Bench b(f);
  Driver drv("drv", [&] {
    b.fcc.submit(program_op(0, 0, 0, 0, 1), sc_core::SC_ZERO_TIME);  // die 0, channel 0
    b.fcc.submit(program_op(2, 0, 0, 0, 2), sc_core::SC_ZERO_TIME);  // die 2, channel 1
  });
  sc_core::sc_start();
  const double data_in = 10 + 3 * 100 + 3 * 16384;  // buffer, 3 command sequences, 3 pages
  CHECK(b.rec.of(1).t == ns(data_in + 500000));
  CHECK(b.rec.of(2).t == ns(data_in + 500000 + 500000));  // its data was in at the same time
  CHECK(b.fcc.power_budget().delays() == 1);
  CHECK(b.fcc.power_budget().wait() == ns(500000));
  CHECK(b.fcc.rule_violations() == 0);
}

TEST_CASE("FCC: Power budget: two slots let two dies program at once, the third waits for the first to end",
          "[fcc][power]") {
  FlashControllerParams f = test_fcc();
  f.max_concurrent_programs = 2;
  Bench b(f);
  Driver drv("drv", [&] {
    b.fcc.submit(program_op(0, 0, 0, 0, 1), sc_core::SC_ZERO_TIME);  // channel 0
    b.fcc.submit(program_op(2, 0, 0, 0, 2), sc_core::SC_ZERO_TIME);  // channel 1
    sc_core::wait(100, sc_core::SC_US);
    b.fcc.submit(program_op(3, 0, 0, 0, 3), sc_core::SC_ZERO_TIME);  // channel 1, 100 us later
    b.fcc.submit(read_op(1, 0, 0, 0, 4), sc_core::SC_ZERO_TIME);     // reads are not budgeted
  });
  sc_core::sc_start();
  const double data_in = 10 + 3 * 100 + 3 * 16384;
  CHECK(b.rec.of(1).t == ns(data_in + 500000));
  CHECK(b.rec.of(2).t == ns(data_in + 500000));
  CHECK(b.rec.of(3).t == ns(data_in + 500000 + 500000));  // slot free at the first two's end
  CHECK(b.rec.of(4).t == ns(100000 + 100 + 50000 + 4096 + 510));
  CHECK(b.fcc.power_budget().delays() == 1);
  CHECK(b.fcc.power_budget().wait() == ns(data_in + 500000 - (100000 + data_in)));
}
