// Flash demux features behind the ATC'08 studies (seed 004), on the demux alone with the
// seed's SLC package (4 KiB + 128 B pages, tR 25 us, tPROG 200 us, 40 MB/s x8 bus):
// die interleaving on a shared bus reaches the bus rate, cache program lets an
// interleaved copy between two packages run at the bus rate, copy-back keeps data
// off the bus, and a partial read on a shared-control gang crosses one package's path.
#include <catch2/catch.hpp>
#include "experiments/flash_pipeline_runner.h"

using namespace ufs;

namespace {

FlashPipelineSpec seed_package(uint32_t channels, uint32_t dies) {
  FlashPipelineSpec s;
  s.fcc.channels = channels;
  s.fcc.ways_per_channel = 1;
  s.fcc.bus_mt_s = 40;
  s.fcc.bus_width_bits = 8;
  s.fcc.t_cmd_addr_ns = 175;
  s.fcc.ecc_decode_ns = 0;
  s.fcc.multi_plane = false;
  s.fcc.cache_read = false;
  s.nand.cell_type = "slc";
  s.nand.dies_per_package = dies;
  s.nand.planes_per_die = 4;
  s.nand.blocks_per_plane = 2048;
  s.nand.pages_per_block = 64;
  s.nand.page_bytes = 4096;
  s.nand.spare_bytes_per_page = 128;
  s.nand.t_read_us = 25;
  s.nand.t_prog_us = 200;
  s.nand.t_erase_us = 1500;
  s.pages = 400;
  s.in_flight = 8;
  return s;
}

constexpr double kXfer = 4224.0 / 40.0;  // us per page with its metadata at 40 MB/s
constexpr double kCmd = 0.175;

}  // namespace

// One elaboration per test case (ctest runs each case in its own process).
TEST_CASE("ATC08: one die serialises command, tR and transfer", "[fcc][atc08]") {
  const FlashPipelineResult one = run_flash_pipeline(seed_package(1, 1));
  CHECK(one.us_per_page == Approx(kCmd + 25 + kXfer).epsilon(0.01));
}

TEST_CASE("ATC08: two dies on one bus reach the bus rate", "[fcc][atc08]") {
  // Each die's next command goes right after its data-out, so its tR hides under the
  // other die's transfer: the bus is the only limit.
  const FlashPipelineResult two = run_flash_pipeline(seed_package(1, 2));
  CHECK(two.us_per_page == Approx(kCmd + kXfer).epsilon(0.01));
}

TEST_CASE("ATC08: without cache program an interleaved copy is program bound", "[fcc][atc08]") {
  FlashPipelineSpec s = seed_package(2, 2);
  s.kind = FlashPipelineKind::Copy;
  // Two destination dies, each data-in then tPROG per page.
  CHECK(run_flash_pipeline(s).us_per_page == Approx((kCmd + kXfer + 200) / 2).epsilon(0.02));
}

TEST_CASE("ATC08: cache program lets an interleaved copy run at the bus rate", "[fcc][atc08]") {
  FlashPipelineSpec s = seed_package(2, 2);
  s.kind = FlashPipelineKind::Copy;
  s.fcc.cache_program = true;
  const FlashPipelineResult cached = run_flash_pipeline(s);
  CHECK(cached.us_per_page == Approx(kCmd + kXfer).epsilon(0.02));
  CHECK(cached.channel_bytes == Approx(2.0 * 4224 * s.pages));
}

TEST_CASE("ATC08: copy-back keeps the data off the bus", "[fcc][atc08]") {
  FlashPipelineSpec s = seed_package(1, 2);
  s.kind = FlashPipelineKind::CopyBack;
  const FlashPipelineResult r = run_flash_pipeline(s);
  CHECK(r.channel_bytes == 0);
  CHECK(r.us_per_page == Approx((2 * kCmd + 25 + 200) / 2).epsilon(0.01));
}

TEST_CASE("ATC08: a whole gang page crosses the shared-control gang's paths in parallel", "[fcc][atc08][gang]") {
  FlashPipelineSpec s = seed_package(1, 1);
  s.fcc.ways_per_channel = 8;
  s.fcc.gang_mode = "shared_control";
  s.fcc.gang_size = 8;
  s.in_flight = 1;
  s.pages = 50;
  // 32 KiB over 8 paths in parallel = one package's page time.
  CHECK(run_flash_pipeline(s).us_per_page == Approx(kCmd + 25 + kXfer).epsilon(0.01));
}
