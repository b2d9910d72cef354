#include "cpu/iss_region_trace.h"
#include <cxxabi.h>
#include <unicorn/unicorn.h>
#include <algorithm>
#include <cstdlib>
#include "common/trace_recorder.h"
#include "cpu/iss_firmware.h"

namespace ufs {

IssRegionTrace::IssRegionTrace(IssFirmware& iss, const Hal& clock, double cycle_ps, TraceRecorder& trace, int track)
    : iss_(iss), clock_(clock), cycle_ps_(cycle_ps), trace_(trace), track_(track) {
  function_region_.assign(iss_.functions_.size(), -2);
  uc_hook h;
  uc_hook_add(iss_.uc_, &h, UC_HOOK_BLOCK, reinterpret_cast<void*>(&IssRegionTrace::on_block), this, 1, 0);
  // Blocks translated before (boot, precondition) carry only the hooks there were then.
  uc_ctl(iss_.uc_, UC_CTL_WRITE(UC_CTL_TB_FLUSH, 0));
}

std::string IssRegionTrace::region_of(const std::string& demangled) {
  if (demangled == "fw_entry" || demangled == "fw_start") return demangled;
  if (demangled.rfind("ufs::", 0) != 0) return "";  // the C library, std::, the runtime's helpers
  std::string name = demangled.substr(5, demangled.find('(') - 5);
  // The class: what comes before the last "::" outside template arguments.
  int depth = 0;
  size_t cut = std::string::npos;
  for (size_t i = 0; i + 1 < name.size(); ++i) {
    if (name[i] == '<') ++depth;
    else if (name[i] == '>') --depth;
    else if (depth == 0 && name[i] == ':' && name[i + 1] == ':') cut = i++;
  }
  return cut == std::string::npos ? name : name.substr(0, cut);
}

void IssRegionTrace::on_block(uc_struct*, uint64_t address, uint32_t, void* self) {
  auto* me = static_cast<IssRegionTrace*>(self);
  if (!me->iss_.charging_) return;  // boot, precondition, statistics: no core time
  if (address >= me->lo_ && address < me->hi_) return;  // still in the same function
  me->enter(uint32_t(address));
}

uint64_t IssRegionTrace::now() {
  // The core's clock holds what was charged; the instructions since then come at the next charge.
  const double ahead = double(iss_.instructions_) * iss_.options_.cpi - double(iss_.charged_);
  uint64_t t = clock_.now_ps() + (ahead > 0 ? uint64_t(ahead * cycle_ps_) : 0);
  last_ps_ = std::max(last_ps_, t);
  return last_ps_;
}

void IssRegionTrace::enter(uint32_t address) {
  const auto& fns = iss_.functions_;
  auto it = std::upper_bound(fns.begin(), fns.end(), address,
                             [](uint32_t a, const IssFirmware::Function& f) { return a < f.address; });
  if (it == fns.begin() || address - (it - 1)->address >= (it - 1)->size) return;  // no function: region goes on
  --it;
  lo_ = it->address;
  hi_ = it->address + it->size;
  int& region = function_region_[size_t(it - fns.begin())];
  if (region == -2) {
    int status = 0;
    char* d = abi::__cxa_demangle(it->name.c_str(), nullptr, nullptr, &status);
    const std::string name = region_of(status == 0 && d ? d : it->name);
    std::free(d);
    region = -1;
    if (!name.empty()) {
      auto known = std::find(names_.begin(), names_.end(), name);
      region = int(known - names_.begin());
      if (known == names_.end()) names_.push_back(name);
    }
  }
  if (region < 0 || (!runs_.empty() && runs_.back().region == region)) return;
  const uint64_t t = now();
  if (!runs_.empty()) runs_.back().to = t;
  runs_.push_back(Run{region, t, t});
}

void IssRegionTrace::step_end(uint64_t end_ps) {
  if (!runs_.empty()) runs_.back().to = end_ps;
  for (const Run& r : runs_) {
    const uint64_t from = std::min(r.from, end_ps), to = std::min(r.to, end_ps);
    if (to <= from) continue;
    trace_.slice(track_, names_[size_t(r.region)].c_str(), from, to);
    ++slices_;
  }
  runs_.clear();
  last_ps_ = end_ps;  // (an estimate past the step's end does not delay the next step)
  lo_ = hi_ = 0;  // the next step names its first region again
}

}  // namespace ufs
