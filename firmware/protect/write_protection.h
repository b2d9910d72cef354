// End-of-life write protection: once the spare blocks are gone (grown bad blocks ate them)
// and GC can no longer make a free block, nothing more can be programmed; instead of
// hanging, the device turns read-only for good. Writes, UNMAPs and syncs are then refused
// with CHECK CONDITION, DATA PROTECT / WRITE PROTECTED; what was acknowledged stays
// readable (from the write cache where it never reached NAND). The part decides when and
// refuses; what must stop or be refused when it happens is told through WriteProtectHooks.
#pragma once
#include <cstdint>
#include "command/command_table.h"
#include "flash/flash_port.h"
#include "stats_visitor.h"

namespace ufs {

class WriteProtectHooks {
 public:
  virtual ~WriteProtectHooks() = default;
  // Last chance before turning read-only: start whatever could still free a block (a GC
  // victim on some die); if that puts anything on the flash, the device waits for it.
  virtual void reclaim_space() = 0;
  // The device is read-only from now on: stop background writes (GC, flush) and refuse the
  // commands waiting for space that will never come (refuse()).
  virtual void write_protect_entered() = 0;
};

class WriteProtection {
 public:
  WriteProtection(CommandTable& table, const FlashPort& flash, WriteProtectHooks& hooks)
      : table_(table), flash_(flash), hooks_(hooks) {}

  bool on() const { return on_; }
  // Nothing is on the flash and the device is not read-only yet: if programs now wait for a
  // block, no later event will free one (out_of_space()).
  bool may_be_stuck() const { return !on_ && !flash_.in_flight(); }
  // Programs wait for a block and nothing is on the flash: GC's last chance, else read-only.
  void out_of_space();

  // A write, UNMAP or SYNCHRONIZE CACHE arrives: refused (true) once read-only.
  bool refuses(const HostCommand& c) {
    if (!on_) return false;
    refuse(c);
    return true;
  }
  void refuse(const HostCommand& c);  // CHECK CONDITION DATA PROTECT, WRITE PROTECTED
  void refuse(uint8_t tag);           // the same for a command in progress (none: nothing)

  uint64_t rejects() const { return rejects_; }
  void visit_stats(StatsVisitor& v) const {
    v.flag("ftl.write_protected", on_, "spare blocks ran out: the device is read-only");
    v.count("ftl.write_protect_rejects", rejects_, "commands", "writes, UNMAPs and syncs refused");
  }

 private:
  CommandTable& table_;
  const FlashPort& flash_;
  WriteProtectHooks& hooks_;
  bool on_ = false;
  uint64_t rejects_ = 0;  // commands refused since
};

}  // namespace ufs
