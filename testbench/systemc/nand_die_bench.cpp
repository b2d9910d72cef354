// NandDie / NandBlock: storage, NAND rules, page types and timings, bad blocks,
// injected failures. No simulation time is needed: the die is passive.
#include <catch2/catch.hpp>
#include <systemc>
#include "nand/nand_die.h"
#include "nand/nand_package.h"

using namespace ufs;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

NandParams small_tlc() {
  NandParams p;
  p.dies_per_package = 1;
  p.planes_per_die = 2;
  p.blocks_per_plane = 8;
  p.pages_per_block = 12;
  p.page_bytes = 16384;
  p.spare_bytes_per_page = 0;
  return p;
}

// Stamps for `pages` pages of 4 sectors: lba = base + i, version = v.
std::vector<SectorStamp> stamps_for(uint64_t base, uint32_t pages, uint64_t v) {
  std::vector<SectorStamp> s(pages * 4);
  for (size_t i = 0; i < s.size(); ++i) s[i] = SectorStamp{base + i, v};
  return s;
}

std::vector<PageOob> oobs_for(uint64_t base, uint32_t pages, uint64_t seq) {
  std::vector<PageOob> o(pages);
  for (uint32_t p = 0; p < pages; ++p) {
    o[p].kind = PageKind::UserData;
    o[p].sequence = seq + p;
    for (uint32_t s = 0; s < 4; ++s) o[p].lba[s] = uint32_t(base + p * 4 + s);
  }
  return o;
}

FlashAddress at(uint32_t plane, uint32_t block, uint32_t page) {
  FlashAddress a;
  a.plane = plane;
  a.block = block;
  a.page = page;
  return a;
}

}  // namespace

TEST_CASE("NAND: NandParams defaults are valid and describe a 256 Gb TLC die", "[nand]") {
  NandParams p;
  CHECK(p.validate() == "");
  const double bits = 8.0 * p.planes_per_die * p.blocks_per_plane * p.pages_per_block * p.page_bytes;
  CHECK(bits >= 256.0 * (1ull << 30));
  CHECK(bits < 256.0 * (1ull << 30) * 1.01);
  CHECK(p.bits_per_cell() == 3);
  NandParams bad = p;
  bad.planes_per_die = 0;
  CHECK(bad.validate().rfind("planes_per_die:", 0) == 0);
  bad = p;
  bad.cell_type = "qlc";
  CHECK(bad.validate().rfind("cell_type:", 0) == 0);
  bad = p;
  bad.pages_per_block = 1000;  // not a multiple of 3
  CHECK(bad.validate().rfind("pages_per_block:", 0) == 0);
  bad = p;
  bad.bad_block_list = "0:1:x";
  CHECK(bad.validate().rfind("bad_block_list:", 0) == 0);
}

TEST_CASE("NAND: Erased pages read as kNoLba and storage is allocated lazily", "[nand]") {
  NandDie die(small_tlc(), 0);
  SectorStamp out[4];
  PageOob oob;
  CHECK(die.read(at(1, 3, 5), 0, 4, out, &oob) == FlashStatus::Ok);
  for (const SectorStamp& s : out) CHECK(s.lba == kNoLba);
  CHECK(oob.kind == PageKind::Erased);
  CHECK(die.allocated_blocks() == 0);
  auto data = stamps_for(100, 3, 7);
  auto oobs = oobs_for(100, 3, 1);
  CHECK(die.program(at(1, 3, 0), 3, data.data(), oobs.data(), 3) == FlashStatus::Ok);
  CHECK(die.allocated_blocks() == 1);
}

TEST_CASE("NAND: Program then read returns the stamps and OOB, partial reads by column", "[nand]") {
  NandDie die(small_tlc(), 0);
  auto data = stamps_for(1000, 3, 42);
  auto oobs = oobs_for(1000, 3, 9);
  oobs[1].kind = PageKind::MapData;
  oobs[1].lba[2] = 77;  // OOB that differs from the stamps is kept as written
  REQUIRE(die.program(at(0, 2, 0), 3, data.data(), oobs.data(), 3) == FlashStatus::Ok);
  for (uint32_t page = 0; page < 3; ++page) {
    SectorStamp out[4];
    PageOob oob;
    REQUIRE(die.read(at(0, 2, page), 0, 4, out, &oob) == FlashStatus::Ok);
    for (uint32_t s = 0; s < 4; ++s) CHECK(out[s] == data[page * 4 + s]);
    CHECK(oob.kind == oobs[page].kind);
    CHECK(oob.sequence == oobs[page].sequence);
    for (uint32_t s = 0; s < 4; ++s) CHECK(oob.lba[s] == oobs[page].lba[s]);
  }
  SectorStamp two[2];
  REQUIRE(die.read(at(0, 2, 2), 1, 2, two, nullptr) == FlashStatus::Ok);
  CHECK(two[0] == data[2 * 4 + 1]);
  CHECK(two[1] == data[2 * 4 + 2]);
  // Page 3 is still erased.
  SectorStamp out[4];
  REQUIRE(die.read(at(0, 2, 3), 0, 4, out, nullptr) == FlashStatus::Ok);
  CHECK(out[0].lba == kNoLba);
  CHECK(die.violations().total() == 0);
}

TEST_CASE("NAND: NAND rules: program of a programmed page, out of order, one-shot misuse", "[nand]") {
  NandDie die(small_tlc(), 0);
  auto data = stamps_for(0, 3, 1);
  auto oobs = oobs_for(0, 3, 1);
  REQUIRE(die.program(at(0, 0, 0), 3, data.data(), oobs.data(), 3) == FlashStatus::Ok);
  CHECK(die.program(at(0, 0, 0), 3, data.data(), oobs.data(), 3) == FlashStatus::ProgramFail);
  CHECK(die.violations().program_not_erased == 1);
  CHECK(die.program(at(0, 0, 6), 3, data.data(), oobs.data(), 3) == FlashStatus::ProgramFail);
  CHECK(die.violations().program_out_of_order == 1);
  CHECK(die.program(at(0, 0, 3), 1, data.data(), oobs.data(), 1) == FlashStatus::ProgramFail);
  CHECK(die.violations().one_shot_misuse == 1);
  CHECK(die.program(at(0, 0, 9), 3, data.data(), oobs.data(), 3) == FlashStatus::ProgramFail);
  CHECK(die.program(at(0, 9, 0), 3, data.data(), oobs.data(), 3) == FlashStatus::ProgramFail);
  CHECK(die.violations().address_out_of_range == 1);
  CHECK(die.violations().total() == 5);
  // Failed programs changed nothing: the next in-order program works.
  CHECK(die.program(at(0, 0, 3), 3, data.data(), oobs.data(), 3) == FlashStatus::Ok);
  CHECK(die.block(0, 0).next_page() == 6);
}

TEST_CASE("NAND: Erase resets the block, counts cycles, allows reprogramming", "[nand]") {
  NandDie die(small_tlc(), 0);
  auto data = stamps_for(0, 3, 1);
  auto oobs = oobs_for(0, 3, 1);
  REQUIRE(die.program(at(1, 4, 0), 3, data.data(), oobs.data(), 3) == FlashStatus::Ok);
  CHECK(die.erase(at(1, 4, 0)) == FlashStatus::Ok);
  CHECK(die.block(1, 4).erase_count() == 1);
  SectorStamp out[4];
  die.read(at(1, 4, 0), 0, 4, out, nullptr);
  CHECK(out[0].lba == kNoLba);
  auto data2 = stamps_for(500, 3, 2);
  CHECK(die.program(at(1, 4, 0), 3, data2.data(), oobs.data(), 3) == FlashStatus::Ok);
  die.read(at(1, 4, 0), 0, 4, out, nullptr);
  CHECK(out[0] == data2[0]);
  CHECK(die.violations().total() == 0);
}

TEST_CASE("NAND: Page types: TLC LSB/CSB/MSB read and program times", "[nand][cell]") {
  NandParams p = small_tlc();
  p.t_read_us = 40;
  p.t_read_csb_us = 60;
  p.t_read_msb_us = 80;
  NandDie die(p, 0);
  CHECK(die.page_type(0) == NandPageType::Lsb);
  CHECK(die.page_type(4) == NandPageType::Csb);
  CHECK(die.page_type(5) == NandPageType::Msb);
  CHECK(die.read_time(3) == sc_time(40, SC_US));
  CHECK(die.read_time(4) == sc_time(60, SC_US));
  CHECK(die.read_time(5) == sc_time(80, SC_US));
  CHECK(die.program_time(0, 3) == sc_time(500, SC_US));  // one shot
  CHECK(die.erase_time() == sc_time(3500, SC_US));

  p.cell_type = "mlc";
  p.pages_per_block = 8;
  p.program_one_shot = false;
  p.t_prog_us = 300;
  p.t_prog_msb_us = 1200;
  NandDie mlc(p, 0);
  CHECK(mlc.read_time(1) == sc_time(80, SC_US));  // MLC: LSB, MSB
  CHECK(mlc.program_time(0, 1) == sc_time(300, SC_US));
  CHECK(mlc.program_time(0, 2) == sc_time(1500, SC_US));
  auto data = stamps_for(0, 1, 1);
  auto oobs = oobs_for(0, 1, 1);
  CHECK(mlc.program(at(0, 0, 0), 1, data.data(), oobs.data(), 1) == FlashStatus::Ok);
}

TEST_CASE("NAND: SLC mode: a third of the pages, SLC timings, single-page programs", "[nand][cell]") {
  NandParams p = small_tlc();
  p.slc_mode = true;
  NandDie die(p, 0);
  CHECK(die.pages_per_block() == 4);
  CHECK(die.read_time(1) == sc_time(30, SC_US));
  CHECK(die.program_time(0, 1) == sc_time(160, SC_US));
  auto data = stamps_for(0, 1, 1);
  auto oobs = oobs_for(0, 1, 1);
  for (uint32_t page = 0; page < 4; ++page)
    CHECK(die.program(at(0, 0, page), 1, data.data(), oobs.data(), 1) == FlashStatus::Ok);
  CHECK(die.program(at(0, 0, 4), 1, data.data(), oobs.data(), 1) == FlashStatus::ProgramFail);
  CHECK(die.violations().address_out_of_range == 1);
}

TEST_CASE("NAND: Per-block SLC on a TLC die: pages, timings, mode from erase to erase", "[nand][cell]") {
  NandDie die(small_tlc(), 0);
  CHECK(die.pages_per_block(true) == 4);
  CHECK(die.pages_per_block(false) == 12);
  CHECK(die.read_time(2, true) == sc_time(30, SC_US));
  CHECK(die.read_time(2, false) == sc_time(50, SC_US));
  CHECK(die.program_time(0, 2, true) == sc_time(320, SC_US));  // SLC: one tPROG per page
  CHECK(die.program_time(0, 3, false) == sc_time(500, SC_US));  // TLC one-shot word line
  auto data = stamps_for(0, 3, 1);
  auto oobs = oobs_for(0, 3, 1);
  // Block 1 as SLC (single pages, no word-line rule), block 2 as TLC, side by side.
  for (uint32_t page = 0; page < 4; ++page)
    REQUIRE(die.program(at(0, 1, page), 1, data.data(), oobs.data(), 1, true) == FlashStatus::Ok);
  CHECK(die.block(0, 1).slc());
  REQUIRE(die.program(at(0, 2, 0), 3, data.data(), oobs.data(), 3) == FlashStatus::Ok);
  CHECK_FALSE(die.block(0, 2).slc());
  SectorStamp out[4];
  CHECK(die.read(at(0, 1, 0), 0, 4, out, nullptr, true) == FlashStatus::Ok);
  CHECK(out[0] == data[0]);
  CHECK(die.violations().total() == 0);
  // Wrong mode: loud (a violation) and no data.
  CHECK(die.read(at(0, 1, 0), 0, 4, out, nullptr, false) == FlashStatus::Uncorrectable);
  CHECK(out[0].lba == kNoLba);
  CHECK(die.read(at(0, 2, 0), 0, 4, out, nullptr, true) == FlashStatus::Uncorrectable);
  CHECK(die.program(at(0, 2, 3), 1, data.data(), oobs.data(), 1, true) == FlashStatus::ProgramFail);
  CHECK(die.violations().mode_mismatch == 3);
  CHECK(die.program(at(0, 1, 4), 1, data.data(), oobs.data(), 1, true) == FlashStatus::ProgramFail);
  CHECK(die.violations().address_out_of_range == 1);
  // After an erase the block takes whatever mode its first program uses.
  REQUIRE(die.erase(at(0, 1, 0)) == FlashStatus::Ok);
  CHECK(die.program(at(0, 1, 0), 3, data.data(), oobs.data(), 3, false) == FlashStatus::Ok);
  CHECK_FALSE(die.block(0, 1).slc());
  CHECK(die.read(at(0, 1, 2), 0, 4, out, nullptr, false) == FlashStatus::Ok);
  // Copy-back stays in one mode.
  REQUIRE(die.program(at(1, 0, 0), 1, data.data(), oobs.data(), 1, true) == FlashStatus::Ok);
  CHECK(die.copy_back(at(1, 0, 0), at(1, 3, 0), 1, nullptr, true) == FlashStatus::Ok);
  CHECK(die.block(1, 3).slc());
  CHECK(die.violations().mode_mismatch == 3);
}

TEST_CASE("NAND: Factory bad blocks: by count and by list", "[nand][reliability]") {
  NandParams p = small_tlc();
  p.factory_bad_blocks_per_die = 3;
  p.bad_block_list = "0:1:5,1:0:2";
  NandDie die0(p, 0), die1(p, 1);
  CHECK(die0.block(1, 5).bad());
  CHECK(die1.block(0, 2).bad());
  CHECK(die0.bad_blocks() >= 3);
  CHECK(die0.bad_blocks() <= 4);
  CHECK_FALSE(die0.block(0, 0).bad());
  CHECK_FALSE(die0.block(1, 0).bad());
  auto data = stamps_for(0, 3, 1);
  auto oobs = oobs_for(0, 3, 1);
  CHECK(die0.program(at(1, 5, 0), 3, data.data(), oobs.data(), 3) == FlashStatus::BadBlock);
  CHECK(die0.erase(at(1, 5, 0)) == FlashStatus::BadBlock);
  SectorStamp out[4];
  CHECK(die0.read(at(1, 5, 0), 0, 4, out, nullptr) == FlashStatus::BadBlock);
  // Same seed, same placement.
  NandDie again(p, 0);
  for (uint32_t pl = 0; pl < 2; ++pl)
    for (uint32_t b = 0; b < 8; ++b) CHECK(again.block(pl, b).bad() == die0.block(pl, b).bad());
}

TEST_CASE("NAND: Injected program and erase failures", "[nand][reliability]") {
  NandParams p = small_tlc();
  p.program_fail_probability = 1.0;
  p.erase_fail_probability = 1.0;
  NandDie die(p, 0);
  auto data = stamps_for(0, 3, 1);
  auto oobs = oobs_for(0, 3, 1);
  CHECK(die.program(at(0, 1, 0), 3, data.data(), oobs.data(), 3) == FlashStatus::ProgramFail);
  CHECK(die.block(0, 1).next_page() == 3);  // the pages are used up
  SectorStamp out[4];
  CHECK(die.read(at(0, 1, 0), 0, 4, out, nullptr) == FlashStatus::Uncorrectable);
  CHECK(die.erase(at(0, 1, 0)) == FlashStatus::EraseFail);
  CHECK(die.violations().total() == 0);

  p.program_fail_probability = 0.25;
  p.erase_fail_probability = 0.0;
  NandDie some(p, 0);
  int fails = 0;
  for (uint32_t b = 0; b < 8; ++b)
    for (uint32_t page = 0; page < 12; page += 3)
      fails += some.program(at(0, b, page), 3, data.data(), oobs.data(), 3) == FlashStatus::ProgramFail;
  CHECK(fails > 0);
  CHECK(fails < 32);
}

TEST_CASE("NAND: Copy-back moves pages inside a plane only", "[nand]") {
  NandDie die(small_tlc(), 0);
  auto data = stamps_for(300, 3, 5);
  auto oobs = oobs_for(300, 3, 2);
  REQUIRE(die.program(at(1, 1, 0), 3, data.data(), oobs.data(), 3) == FlashStatus::Ok);
  CHECK(die.copy_back(at(1, 1, 0), at(1, 6, 0), 3) == FlashStatus::Ok);
  SectorStamp out[4];
  PageOob oob;
  die.read(at(1, 6, 2), 0, 4, out, &oob);
  CHECK(out[3] == data[11]);
  CHECK(oob.sequence == oobs[2].sequence);
  CHECK(die.copy_back(at(1, 1, 0), at(0, 6, 0), 3) == FlashStatus::ProgramFail);
  CHECK(die.violations().plane_mismatch == 1);
}

TEST_CASE("NAND: A package holds its dies with global indices", "[nand]") {
  NandParams p = small_tlc();
  p.dies_per_package = 4;
  NandPackage pkg(p, 8);
  CHECK(pkg.dies() == 4);
  CHECK(pkg.die(0).index() == 8);
  CHECK(pkg.die(3).index() == 11);
}

TEST_CASE("NAND: hybrid page size: large-page blocks store, time and check their own pages", "[nand][hybrid]") {
  NandParams p = small_tlc();
  p.cell_type = "mlc";
  p.program_one_shot = false;
  p.pages_per_block = 8;
  p.page_bytes = 4096;
  p.t_read_us = 160;
  p.t_prog_us = 1385;
  p.hybrid_small_blocks_per_plane = 6;
  p.hybrid_large_page_bytes = 8192;
  p.t_read_large_us = 244;
  p.t_prog_large_us = 1491;
  REQUIRE(p.validate() == "");
  NandDie d(p, 0);
  CHECK_FALSE(d.large_block(5));
  CHECK(d.large_block(6));
  CHECK(d.sectors_per_page(at(0, 5, 0)) == 1);
  CHECK(d.sectors_per_page(at(0, 6, 0)) == 2);
  CHECK(d.read_time(at(0, 5, 1), false) == sc_time(160, SC_US));
  CHECK(d.read_time(at(0, 6, 1), false) == sc_time(244, SC_US));
  CHECK(d.program_time(at(0, 5, 0), 2, false) == sc_time(2 * 1385, SC_US));
  CHECK(d.program_time(at(0, 6, 0), 2, false) == sc_time(2 * 1491, SC_US));
  // Two 8 KiB pages: 2 sectors each, both read back; a third sector is out of the page.
  std::vector<SectorStamp> s = {{10, 1}, {11, 1}, {12, 1}, {13, 1}};
  std::vector<PageOob> o(2);
  o[1].lba[1] = 13;
  REQUIRE(d.program(at(1, 7, 0), 2, s.data(), o.data(), 2) == FlashStatus::Ok);
  SectorStamp out[2];
  PageOob oob;
  REQUIRE(d.read(at(1, 7, 1), 0, 2, out, &oob) == FlashStatus::Ok);
  CHECK(out[0] == (SectorStamp{12, 1}));
  CHECK(out[1] == (SectorStamp{13, 1}));
  CHECK(oob.lba[1] == 13);
  CHECK(d.read(at(1, 7, 1), 1, 2, out, nullptr) == FlashStatus::Uncorrectable);
  CHECK(d.violations().address_out_of_range == 1);
  // A small-page block holds one sector per page.
  REQUIRE(d.program(at(1, 0, 0), 1, s.data(), o.data(), 1) == FlashStatus::Ok);
  CHECK(d.read(at(1, 0, 0), 0, 2, out, nullptr) == FlashStatus::Uncorrectable);
  // Copy-back cannot change the page size.
  CHECK(d.copy_back(at(1, 0, 0), at(1, 7, 2), 1) == FlashStatus::ProgramFail);
  CHECK(d.violations().mode_mismatch == 1);

  NandParams bad = p;
  bad.hybrid_large_page_bytes = 6144;
  CHECK(bad.validate().rfind("hybrid_large_page_bytes:", 0) == 0);
  bad = p;
  bad.hybrid_small_blocks_per_plane = p.blocks_per_plane;
  CHECK(bad.validate().rfind("hybrid_small_blocks_per_plane:", 0) == 0);
  bad = p;
  bad.t_prog_large_us = 0;
  CHECK(bad.validate().rfind("t_prog_large_us:", 0) == 0);
  bad = p;
  bad.hybrid_large_page_bytes = 0;
  CHECK(bad.validate().rfind("hybrid_small_blocks_per_plane:", 0) == 0);
  bad = p;
  bad.slc_mode = true;
  CHECK(bad.validate().rfind("slc_mode:", 0) == 0);
}
