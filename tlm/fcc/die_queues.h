// The ops waiting for each die and the choice of what a die runs next: the best op
// that has arrived (higher priority, then reads first if read_first, then FIFO), and
// the ops of other planes that pair with it into a multi-plane operation (same
// opcode, same page count and page size, the block/page rules of the NAND, and a
// program only when no older program to its block still waits).
#pragma once
#include <systemc>
#include <cstdint>
#include <vector>
#include "fcc/flash_controller_params.h"
#include "fcc/op_pool.h"

namespace ufs {

class FlashTopology;

class DieQueues {
 public:
  DieQueues(const FlashControllerParams& params, const FlashTopology& topology, OpPool& pool);

  void enqueue(uint32_t die, uint32_t slot);  // stamps the slot's submission order
  bool empty(uint32_t die) const { return queue_[die].empty(); }
  size_t size(uint32_t die) const { return queue_[die].size(); }
  void clear(uint32_t die) { queue_[die].clear(); }  // power cut
  const std::vector<uint32_t>& waiting(uint32_t die) const { return queue_[die]; }  // in no order
  // The waiting op that arrives first.
  uint32_t first_arrival(uint32_t die) const;
  // Whether a read has arrived by `at`.
  bool read_waiting(uint32_t die, const sc_core::sc_time& at) const;

  // Moves into `group` the best op arrived by `at` (only reads if `reads_only`) and
  // the ops that pair with it, sorted by plane; leaves `group` empty if none arrived.
  void pick_group(uint32_t die, const sc_core::sc_time& at, bool reads_only, std::vector<uint32_t>& group);
  // Cache program: the best program arrived by `at` that may go ahead (none, -1, when
  // a read has arrived and reads come first).
  long take_program(uint32_t die, const sc_core::sc_time& at);

  // Ops that went out as part of a multi-plane operation (2 or more planes).
  uint64_t multi_plane_ops() const { return multi_plane_ops_; }

 private:
  bool better(const OpSlot& a, const OpSlot& b) const;
  bool oldest_program_to_block(uint32_t die, const OpSlot& c) const;
  uint32_t take(uint32_t die, size_t i);

  bool read_first_, multi_plane_;
  const FlashTopology& topology_;
  OpPool& pool_;
  std::vector<std::vector<uint32_t>> queue_;  // per die: waiting op slots
  uint64_t seq_ = 0;
  uint64_t multi_plane_ops_ = 0;
};

}  // namespace ufs
