// The firmware a rig drives, in either build (issue 20): native (DeviceFirmware, here) or
// firmware.elf on the emulated Arm core (testbench/iss/iss_under_test.h). A rig that only
// sends events and reads statistics by stats.json key runs unchanged on both, so the
// hostile HPB and power-loss tests also run with cpu.model=iss.
#pragma once
#include <functional>
#include <memory>
#include "fake_platform.h"

namespace ufs::test {

struct FirmwareUnderTest {
  virtual ~FirmwareUnderTest() = default;
  virtual FirmwareEvents& events() = 0;
  virtual uint64_t logical_blocks() const = 0;
  virtual void recover_on_power_up() = 0;
  virtual void visit_stats(StatsVisitor& v) const = 0;
  // The native firmware, for checks only it can answer (part state); null on the core.
  virtual DeviceFirmware* native() { return nullptr; }
};

using FirmwareMaker =
    std::function<std::unique_ptr<FirmwareUnderTest>(FakePlatform&, const FirmwareParams&, const FlashGeometry&)>;

struct NativeUnderTest : FirmwareUnderTest {
  DeviceFirmware fw;
  NativeUnderTest(FakePlatform& hw, const FirmwareParams& p, const FlashGeometry& g) : fw(hw, p, g) {}
  FirmwareEvents& events() override { return fw; }
  uint64_t logical_blocks() const override { return fw.logical_blocks(); }
  void recover_on_power_up() override { fw.recover_on_power_up(); }
  void visit_stats(StatsVisitor& v) const override { fw.visit_stats(v); }
  DeviceFirmware* native() override { return &fw; }
};

inline std::unique_ptr<FirmwareUnderTest> make_native(FakePlatform& hw, const FirmwareParams& p, const FlashGeometry& g) {
  return std::make_unique<NativeUnderTest>(hw, p, g);
}

}  // namespace ufs::test
