// Sudden power-off at random instants (testbench/firmware/power_loss_rig.h) with
// firmware.elf on the emulated core: each cut throws the core away with its RAM, a fresh
// core boots and recovers from the NAND alone, and every block acknowledged as durable
// must read back (issue 20's done-when). Cost measured from the executed instructions.
#include <catch2/catch.hpp>
#include "iss_under_test.h"
#include "../firmware/power_loss_rig.h"

using namespace ufs;
using namespace ufs::test;
using namespace ufs::test::power_loss;

TEST_CASE("ISS: sudden power-off at random instants loses no durable block", "[iss][power-loss]") {
  power_loss_cycles(spo_params(), 25, spo_geometry(), make_iss);
}

TEST_CASE("ISS: sudden power-off with a small demand-loaded map cache loses no durable block", "[iss][power-loss]") {
  FirmwareParams p = spo_params();
  p.l2p_sram_kib = 32;
  power_loss_cycles(p, 25, spo_geometry(), make_iss);
}

TEST_CASE("ISS: sudden power-off with logical pages of two program units and plane-first static placement",
          "[iss][power-loss]") {
  FirmwareParams p = spo_params();
  p.logical_page_kib = 96;
  p.stripe_order = "plane-first";
  p.lba_mapping = "static";
  REQUIRE(p.validate_for(spo_geometry()).empty());
  power_loss_cycles(p, 15, spo_geometry(), make_iss);
}

TEST_CASE("ISS: sudden power-off with hybrid page size loses no durable block", "[iss][power-loss]") {
  FirmwareParams p = spo_params();
  p.program_pages = 1;
  REQUIRE(p.validate_for(spo_hybrid_geometry()).empty());
  power_loss_cycles(p, 15, spo_hybrid_geometry(), make_iss);
}
