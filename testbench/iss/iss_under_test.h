// firmware.elf on the emulated core as a FirmwareUnderTest (testbench/firmware/
// firmware_under_test.h), so rigs written for the native firmware run it unchanged. Cost as
// cpu.model=iss charges it by default: executed instructions x cpi (measured), so timing and
// with it the order of events differ from the native runs; the rigs' scoreboards still hold.
#pragma once
#include "cpu/iss_firmware.h"
#include "../firmware/firmware_under_test.h"

namespace ufs::test {

struct IssUnderTest : FirmwareUnderTest {
  std::unique_ptr<IssFirmware> fw;
  IssUnderTest(FakePlatform& hw, const FirmwareParams& p, const FlashGeometry& g) {
    IssOptions o;
    o.elf = UFS_FIRMWARE_ELF;
    o.heap_mib = 64;
    fw = std::make_unique<IssFirmware>(hw, p, g, o);
  }
  FirmwareEvents& events() override { return *fw; }
  uint64_t logical_blocks() const override { return fw->logical_blocks(); }
  void recover_on_power_up() override { fw->recover_on_power_up(); }
  void visit_stats(StatsVisitor& v) const override { fw->visit_stats(v); }
};

inline std::unique_ptr<FirmwareUnderTest> make_iss(FakePlatform& hw, const FirmwareParams& p, const FlashGeometry& g) {
  return std::make_unique<IssUnderTest>(hw, p, g);
}

}  // namespace ufs::test
