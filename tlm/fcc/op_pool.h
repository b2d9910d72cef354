// The controller's records of ops in flight: one slot per submitted op, from its
// arrival to its completion, reused across ops (a slot's vectors keep their capacity).
// Parts pass slot indices among themselves; the slot holds what each needs of the op.
#pragma once
#include <systemc>
#include <cstdint>
#include <memory>
#include <vector>
#include "hal/flash_types.h"

namespace ufs {

struct OpSlot {
  FlashOp op;  // its oob vector keeps its capacity across reuse
  std::vector<SectorStamp> stamps;
  sc_core::sc_time arrival;
  uint64_t seq = 0;  // submission order (FIFO among equals)
  FlashStatus status = FlashStatus::Ok;
  // The completion handed to the listener, built in place (issue 18: not built on the
  // stack and copied); a read (and a copy-back with read_oob) leaves the page's OOB in
  // done.oob.
  FlashCompletion done;
  uint32_t first_sector = 0, sectors = 0;  // read: what crosses the bus
  int trace_tag = -1;                      // timeline: host command tag
  uint64_t cmd = 0;                        // timeline: id of the command it works for (0: none)
};

class OpPool {
 public:
  uint32_t alloc();
  void free(uint32_t s) { free_.push_back(s); }
  OpSlot& operator[](uint32_t s) { return *slots_[s]; }
  const OpSlot& operator[](uint32_t s) const { return *slots_[s]; }

 private:
  std::vector<std::unique_ptr<OpSlot>> slots_;  // slots never move: parts hold references briefly
  std::vector<uint32_t> free_;
};

}  // namespace ufs
