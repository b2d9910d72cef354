#include "fcc/copy_back_sequence.h"
#include <algorithm>
#include "fcc/flash_timeline.h"
#include "fcc/flash_topology.h"
#include "fcc/op_pool.h"
#include "fcc/program_power_budget.h"
#include "fcc/status_poller.h"

namespace ufs {

using sc_core::sc_time;

CopyBackSequence::Phases CopyBackSequence::book(uint32_t die, const OpSlot& slot, const sc_time& start) {
  const uint32_t channel = parts_.topology.channel_of(die);
  FlashChannel& ch = parts_.topology.channel(channel);
  NandDie& nand = parts_.topology.die(die);
  const FlashOp& op = slot.op;
  const uint32_t pages = std::max(1u, op.page_count);
  const sc_time& cmd = parts_.topology.op_cmd();
  Phases p;
  for (uint32_t i = 0; i < pages; ++i) {
    FlashAddress a = op.address;
    a.page += i;
    p.t_r += nand.read_time(a, op.slc);
  }
  p.t_p = nand.program_time(op.dest, pages, op.slc);
  p.read_start = ch.reserve(start, cmd) + cmd;
  const sc_time read_end = parts_.poller.ready_seen(channel, p.read_start, p.read_start + p.t_r, slot);
  sc_time prog_earliest = read_end;
  if (op.read_oob) {
    const uint64_t bytes = uint64_t(parts_.topology.nand_params().spare_bytes_per_page) * pages;
    const sc_time spare = cmd + ch.transfer_time(bytes);
    prog_earliest = ch.reserve(read_end, spare) + spare;
    ch.count_bytes(bytes);
    if (parts_.timeline.on()) parts_.timeline.bus(channel, "copy-back spare out", prog_earliest - spare, spare, slot, bytes);
  }
  p.program_start = parts_.budget.book(die, ch.reserve(prog_earliest, cmd) + cmd, p.t_p);
  if (parts_.timeline.on()) {
    parts_.timeline.bus(channel, "copy-back cmd", p.read_start - cmd, cmd, slot, 0);
    parts_.timeline.bus(channel, "copy-back cmd", p.program_start - cmd, cmd, slot, 0);
  }
  return p;
}

}  // namespace ufs
