#include "fcc/die_queues.h"
#include <algorithm>
#include "fcc/flash_topology.h"

namespace ufs {

using sc_core::sc_time;

DieQueues::DieQueues(const FlashControllerParams& params, const FlashTopology& topology, OpPool& pool)
    : read_first_(params.read_first), multi_plane_(params.multi_plane), topology_(topology), pool_(pool),
      queue_(topology.dies()) {
  for (auto& q : queue_) q.reserve(16);
}

void DieQueues::enqueue(uint32_t die, uint32_t slot) {
  pool_[slot].seq = seq_++;
  queue_[die].push_back(slot);
}

uint32_t DieQueues::first_arrival(uint32_t die) const {
  const std::vector<uint32_t>& q = queue_[die];
  uint32_t first = 0;
  for (uint32_t i = 1; i < q.size(); ++i)
    if (pool_[q[i]].arrival < pool_[q[first]].arrival) first = i;
  return q[first];
}

bool DieQueues::read_waiting(uint32_t die, const sc_time& at) const {
  for (uint32_t q : queue_[die])
    if (pool_[q].op.opcode == FlashOpcode::Read && pool_[q].arrival <= at) return true;
  return false;
}

// Queue order: higher priority first; then reads first if read_first; then FIFO.
bool DieQueues::better(const OpSlot& a, const OpSlot& b) const {
  if (a.op.priority != b.op.priority) return a.op.priority > b.op.priority;
  if (read_first_) {
    const bool ra = a.op.opcode == FlashOpcode::Read, rb = b.op.opcode == FlashOpcode::Read;
    if (ra != rb) return ra;
  }
  return a.seq < b.seq;
}

// Pages of a block must be programmed in order: a program may only be paired into a
// multi-plane group (or cached) when no older program to the same block still waits. A
// copy-back programs its destination: GC copy-back and GC units moved through the buffer
// fill one block (ftl/gc_copy_back.h), so a copy-back into the block counts as well.
bool DieQueues::oldest_program_to_block(uint32_t die, const OpSlot& c) const {
  for (uint32_t q : queue_[die]) {
    const OpSlot& o = pool_[q];
    if (o.seq >= c.seq) continue;
    const FlashAddress* to = o.op.opcode == FlashOpcode::Program    ? &o.op.address
                             : o.op.opcode == FlashOpcode::CopyBack ? &o.op.dest
                                                                    : nullptr;
    if (to && to->plane == c.op.address.plane && to->block == c.op.address.block) return false;
  }
  return true;
}

uint32_t DieQueues::take(uint32_t die, size_t i) {
  std::vector<uint32_t>& q = queue_[die];
  const uint32_t s = q[i];
  q[i] = q.back();
  q.pop_back();
  return s;
}

void DieQueues::pick_group(uint32_t die, const sc_time& at, bool reads_only, std::vector<uint32_t>& group) {
  const std::vector<uint32_t>& q = queue_[die];
  // Leader: the best op that has arrived by `at`.
  long best = -1;
  for (size_t i = 0; i < q.size(); ++i) {
    const OpSlot& c = pool_[q[i]];
    if (c.arrival > at) continue;
    if (reads_only && c.op.opcode != FlashOpcode::Read) continue;
    if (best < 0 || better(c, pool_[q[size_t(best)]])) best = long(i);
  }
  if (best < 0) return;
  const uint32_t leader_slot = take(die, size_t(best));
  group.push_back(leader_slot);
  const FlashOp& lead = pool_[leader_slot].op;
  const NandParams& nand = topology_.nand_params();
  const bool groupable = multi_plane_ && nand.planes_per_die > 1 && lead.opcode != FlashOpcode::CopyBack;
  if (!groupable) return;
  const NandDie& nand_die = topology_.die(die);
  // Multi-plane: for each other plane, the best queued op that pairs with the leader.
  for (uint32_t plane = 0; plane < nand.planes_per_die; ++plane) {
    if (plane == lead.address.plane) continue;
    best = -1;
    for (size_t i = 0; i < q.size(); ++i) {
      const OpSlot& c = pool_[q[i]];
      const FlashOp& o = c.op;
      if (o.opcode != lead.opcode || o.address.plane != plane || c.arrival > at) continue;
      if (nand.multi_plane_same_block && o.address.block != lead.address.block) continue;
      if (lead.opcode != FlashOpcode::Erase && nand.multi_plane_same_page && o.address.page != lead.address.page)
        continue;
      if (lead.opcode == FlashOpcode::Program && o.page_count != lead.page_count) continue;
      // Hybrid page size: a multi-plane program moves pages of one size.
      if (lead.opcode == FlashOpcode::Program &&
          nand_die.large_block(o.address.block) != nand_die.large_block(lead.address.block))
        continue;
      if (lead.opcode == FlashOpcode::Program && !oldest_program_to_block(die, c)) continue;
      if (best < 0 || better(c, pool_[q[size_t(best)]])) best = long(i);
    }
    if (best < 0) continue;
    group.push_back(take(die, size_t(best)));
  }
  if (group.size() > 1) {
    multi_plane_ops_ += group.size();
    std::sort(group.begin(), group.end(),
              [this](uint32_t a, uint32_t b) { return pool_[a].op.address.plane < pool_[b].op.address.plane; });
  }
}

long DieQueues::take_program(uint32_t die, const sc_time& at) {
  const std::vector<uint32_t>& q = queue_[die];
  long best = -1;
  for (size_t i = 0; i < q.size(); ++i) {
    const OpSlot& c = pool_[q[i]];
    if (c.arrival > at) continue;
    if (c.op.opcode == FlashOpcode::Read && read_first_) return -1;
    if (c.op.opcode != FlashOpcode::Program || !oldest_program_to_block(die, c)) continue;
    if (best < 0 || better(c, pool_[q[size_t(best)]])) best = long(i);
  }
  if (best < 0) return -1;
  return long(take(die, size_t(best)));
}

}  // namespace ufs
