// Which part of the firmware the core runs when (issue 20, "Waves"; cpu.model=iss with a
// timeline): a Unicorn block hook follows the PC and names its region, the class of the
// firmware function it is in (`ufs::ReadEngine::look_up` -> "ReadEngine"; a free function
// by its own name, fw_entry too); the C library and std:: code stay their caller's region.
// Each run of one region becomes a slice on its own timeline track, inside the firmware
// step (FirmwareCpu's slice on the "firmware" track) that ran it.
//
// Times: a region starts at the core's clock (FirmwareCpu::now_ps, the cycles charged so far)
// plus the instructions executed since the last charge x cpi; with measured cost that is
// the time the next charge confirms (HAL calls' wait states come at the call), with native
// cost (no instruction count) the regions change at the firmware's charge points. The hook
// exists only while this records: a run without a timeline has no extra hook.
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

struct uc_struct;

namespace ufs {

class Hal;
class IssFirmware;
class TraceRecorder;

class IssRegionTrace {
 public:
  // `clock`: the HAL serving `iss` (its now_ps is the core's clock); `cycle_ps`: the core's
  // clock period; `track`: the timeline track the regions go on.
  IssRegionTrace(IssFirmware& iss, const Hal& clock, double cycle_ps, TraceRecorder& trace, int track);
  IssRegionTrace(const IssRegionTrace&) = delete;
  IssRegionTrace& operator=(const IssRegionTrace&) = delete;

  // The firmware step that ran has ended at end_ps: its regions' slices are written (none
  // past end_ps), and the next step starts with no region.
  void step_end(uint64_t end_ps);
  uint64_t slices_written() const { return slices_; }

  // The region a demangled firmware function belongs to ("" : the caller's region goes on).
  static std::string region_of(const std::string& demangled);

 private:
  static void on_block(uc_struct* uc, uint64_t address, uint32_t size, void* self);
  void enter(uint32_t address);
  uint64_t now();

  IssFirmware& iss_;
  const Hal& clock_;
  double cycle_ps_;
  TraceRecorder& trace_;
  int track_;
  std::deque<std::string> names_;          // region names (slices keep pointers to them)
  std::vector<int> function_region_;       // per function of the ELF: index into names_, -1 none, -2 not yet known
  uint32_t lo_ = 0, hi_ = 0;               // the function the PC was last found in
  struct Run {
    int region;
    uint64_t from, to;
  };
  std::vector<Run> runs_;                  // this step's, the last one still open
  uint64_t last_ps_ = 0;                   // region changes never go back in time
  uint64_t slices_ = 0;
};

}  // namespace ufs
