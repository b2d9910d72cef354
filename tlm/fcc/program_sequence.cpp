#include "fcc/program_sequence.h"
#include <algorithm>
#include <tlm>
#include "common/sim_time.h"
#include "fcc/die_queues.h"
#include "fcc/flash_dma.h"
#include "fcc/flash_timeline.h"
#include "fcc/flash_topology.h"
#include "fcc/op_pool.h"

namespace ufs {

using sc_core::sc_time;

ProgramSequence::ProgramSequence(bool cache_program, const Parts& parts)
    : cache_program_(cache_program), parts_(parts), dies_(parts.topology.dies()) {}

sc_time ProgramSequence::load(uint32_t die, OpSlot& slot, const sc_time& start, const char* what) {
  const uint32_t channel = parts_.topology.channel_of(die);
  FlashChannel& ch = parts_.topology.channel(channel);
  const uint32_t pages = std::max(1u, slot.op.page_count);
  const uint32_t sectors = pages * parts_.topology.die(die).sectors_per_page(slot.op.address);
  if (slot.stamps.size() < sectors) slot.stamps.resize(sectors);
  const sc_time ready =
      parts_.dma.transfer(tlm::TLM_READ_COMMAND, slot.op.buffer_address, slot.stamps.data(), sectors, start);
  // A command/address sequence and the page data per page.
  const uint64_t bytes = parts_.topology.sector_bus_bytes(sectors);
  const sc_time busy = parts_.topology.t_cmd() * double(pages * parts_.topology.cmd_per_op()) +
                       parts_.topology.sector_transfer_time(sectors, ch);
  const sc_time end = ch.reserve(ready, busy) + busy;
  ch.count_bytes_to_die(bytes);
  if (parts_.timeline.on()) parts_.timeline.bus(channel, what, end - busy, busy, slot, bytes);
  return end;
}

sc_time ProgramSequence::data_in(uint32_t die, const std::vector<uint32_t>& group, const sc_time& start,
                                 sc_time* t_prog) {
  NandDie& nand = parts_.topology.die(die);
  sc_time cursor = start;
  *t_prog = sc_core::SC_ZERO_TIME;
  for (uint32_t s : group) {
    OpSlot& slot = parts_.pool[s];
    cursor = load(die, slot, cursor, "data in");
    const sc_time t = nand.program_time(slot.op.address, std::max(1u, slot.op.page_count), slot.op.slc);
    if (*t_prog < t) *t_prog = t;
  }
  return cursor;
}

long ProgramSequence::try_cache(uint32_t die, const sc_time& array_start) {
  Die& d = dies_[die];
  if (!cache_program_ || !d.cached.empty()) return -1;
  const sc_time now = sim_now();
  const long taken = parts_.queues.take_program(die, now);
  if (taken < 0) return -1;
  d.cached.push_back(uint32_t(taken));
  // The cache register is free once the program in flight has taken its data.
  d.cached_ready = load(die, parts_.pool[uint32_t(taken)], array_start < now ? now : array_start, "data in (cache)");
  return taken;
}

const sc_time& ProgramSequence::take_cached(uint32_t die, std::vector<uint32_t>& group) {
  Die& d = dies_[die];
  group.swap(d.cached);
  d.cached.clear();
  return d.cached_ready;
}

}  // namespace ufs
