// The flash port alone on the fake platform: the operations it builds, completions
// routed back to the client that issued them, SLC mode from the block, the sequence.
#include <catch2/catch.hpp>
#include "fake_platform.h"
#include "flash/flash_port.h"

using namespace ufs;
using namespace ufs::test;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace flash_port_test {

namespace {
FlashGeometry small_geometry() {
  FlashGeometry g;
  g.channels = 1; g.ways_per_channel = 2; g.planes_per_die = 2; g.blocks_per_plane = 8;
  g.pages_per_block = 12; g.page_bytes = 16384; g.bits_per_cell = 3;
  return g;
}
struct Recorder : FlashClient {
  std::vector<std::pair<uint64_t, FlashCompletion>> done;
  void on_flash_done(uint64_t index, const FlashCompletion& c) override { done.emplace_back(index, c); }
};
}  // namespace

TEST_CASE("Flash port: each completion goes back to the client that issued it, with its index", "[firmware][flash-port]") {
  const FlashGeometry g = small_geometry();
  FakePlatform hw(g, 64);
  PartEvents events;
  hw.attach(&events);
  BlockManager blocks(g);
  FlashPort port(hw, blocks, 600, false);
  events.port = &port;
  Recorder a, b;
  const uint32_t ida = port.attach(a), idb = port.attach(b);
  REQUIRE(ida != idb);
  // A program then a read of what it wrote, from two clients; an erase.
  std::vector<PageOob>& oob = port.program_oob(3);
  REQUIRE(oob.size() == 3);
  for (uint32_t p = 0; p < 3; ++p) { oob[p].kind = PageKind::UserData; oob[p].sequence = port.next_sequence(); oob[p].lba[0] = 40 + p; }
  port.program(ida, 7, blocks.layout().address_of(3, 0), 3, 0);
  port.read(idb, (1ull << 50) + 5, blocks.layout().address_of(3, 1), 0, 1, 4 * kSectorBytes, 2);
  port.erase(ida, 9, blocks.layout().address_of(5, 0));
  CHECK(port.in_flight() == 3);
  CHECK(hw.cycles_ == 3 * 600);  // the submit cost, charged per operation
  hw.run();
  CHECK(port.in_flight() == 0);
  REQUIRE(a.done.size() == 2);
  REQUIRE(b.done.size() == 1);
  CHECK(a.done[0].first == 7);
  CHECK(a.done[0].second.opcode == FlashOpcode::Program);
  CHECK(a.done[1].first == 9);
  CHECK(a.done[1].second.opcode == FlashOpcode::Erase);
  CHECK(b.done[0].first == (1ull << 50) + 5);  // the client's index comes back whole
  CHECK(b.done[0].second.oob.lba[0] == 41);    // the page's OOB as the program wrote it
  CHECK(b.done[0].second.oob.sequence == 2);
  CHECK(hw.violations_ == 0);
}

TEST_CASE("Flash port: copy-back reads the spare area out, SLC mode follows the block, the sequence restarts",
          "[firmware][flash-port]") {
  const FlashGeometry g = small_geometry();
  FakePlatform hw(g, 64);
  PartEvents events;
  hw.attach(&events);
  BlockManager blocks(g);
  blocks.reserve_slc(1);  // the last block of each die is an SLC block
  FlashPort port(hw, blocks, 0, true);
  events.port = &port;
  Recorder r;
  const uint32_t id = port.attach(r);
  const uint32_t slc_block = blocks.take_free_slc_block(0);
  REQUIRE(slc_block != BlockManager::kNoBlock);
  port.program_oob(1)[0].lba[0] = 77;
  port.program(id, 1, blocks.layout().address_of(slc_block, 0), 1, 0);
  port.program_oob(1)[0].lba[0] = 78;
  port.program(id, 2, blocks.layout().address_of(0, 0), 1, 0);
  hw.run();
  CHECK(hw.slc_ops_ == 1);   // only the SLC block's program was in SLC mode
  CHECK(hw.mode_violations_ == 0);
  port.copy_back(id, 3, blocks.layout().address_of(0, 0), blocks.layout().address_of(2, 0));  // same die and plane
  hw.run();
  REQUIRE(r.done.size() == 3);
  CHECK(r.done[2].second.opcode == FlashOpcode::CopyBack);
  CHECK(r.done[2].second.oob.lba[0] == 78);
  CHECK(hw.copy_backs_ == 1);
  CHECK(hw.violations_ == 0);
  port.restart_sequence(41);
  CHECK(port.next_sequence() == 42);
}

// Power-loss recovery replays the data programmed after a map page's copy was taken
// (ftl/recovery.h): a copy-back is such a program too, so it takes a new sequence (the data
// keeping its age), and the map writer learns the oldest program still in flight.
TEST_CASE("Flash port: a copy-back takes a new program sequence, the oldest program in flight is known",
          "[firmware][flash-port][recovery]") {
  const FlashGeometry g = small_geometry();
  FakePlatform hw(g, 64);
  PartEvents events;
  hw.attach(&events);
  BlockManager blocks(g);
  FlashPort port(hw, blocks, 0, false);
  events.port = &port;
  Recorder r;
  const uint32_t id = port.attach(r);
  CHECK(port.oldest_program_in_flight() == ~0ull);
  for (uint32_t b : {0u, 4u}) {  // block 4: the other die
    PageOob& o = port.program_oob(1)[0];
    o.kind = PageKind::UserData;
    o.sequence = port.next_sequence();
    o.lba[0] = 70 + b;
    o.data_seq[0] = b == 0 ? 0 : 1;  // block 4's data is host write 1's
    port.program(id, b, blocks.layout().address_of(b, 0), 1, 0);
  }
  CHECK(port.oldest_program_in_flight() == 1);
  hw.run();
  CHECK(port.oldest_program_in_flight() == ~0ull);
  port.copy_back(id, 3, blocks.layout().address_of(0, 0), blocks.layout().address_of(2, 0));
  CHECK(port.oldest_program_in_flight() == 3);
  port.read(id, 4, blocks.layout().address_of(0, 0), 0, 1, 0);  // reads are not programs
  CHECK(port.oldest_program_in_flight() == 3);
  hw.run();
  CHECK(port.oldest_program_in_flight() == ~0ull);
  port.read(id, 5, blocks.layout().address_of(2, 0), 0, 1, 0);
  hw.run();
  REQUIRE(r.done.size() == 5);
  CHECK(r.done[2].second.oob.sequence == 1);  // the spare area read out: the source's
  const PageOob& copy = r.done[4].second.oob;
  CHECK(copy.lba[0] == 70);
  CHECK(copy.sequence == 3);            // the copy-back's own program
  CHECK(copy.data_sequence(0) == 1);    // the data keeps its host write
  CHECK(hw.violations_ == 0);
}

}  // namespace flash_port_test
