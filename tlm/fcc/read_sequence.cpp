#include "fcc/read_sequence.h"
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

ReadSequence::ReadSequence(const FlashControllerParams& params, const Parts& parts)
    : cache_read_(params.cache_read),
      ecc_pipelined_(params.ecc_pipelined),
      t_ecc_(params.ecc_decode_ns, sc_core::SC_NS),
      t_cache_(params.t_cache_ns, sc_core::SC_NS),
      parts_(parts),
      dies_(parts.topology.dies()) {}

sc_time ReadSequence::commands(uint32_t die, const std::vector<uint32_t>& group, const sc_time& start, sc_time* t_r) {
  Die& d = dies_[die];
  const uint32_t channel = parts_.topology.channel_of(die);
  FlashChannel& ch = parts_.topology.channel(channel);
  NandDie& nand = parts_.topology.die(die);
  const sc_time& cmd = parts_.topology.op_cmd();
  sc_time cursor = start;
  *t_r = sc_core::SC_ZERO_TIME;
  for (uint32_t s : group) {
    OpSlot& slot = parts_.pool[s];
    if (d.cmd_slot && d.cmd_slot_at >= cursor) {
      cursor = d.cmd_slot_at + cmd;  // the slot booked after this die's last data-out
      d.cmd_slot = false;
    } else {
      cursor = ch.reserve(cursor, cmd) + cmd;
    }
    if (parts_.timeline.on()) parts_.timeline.bus(channel, "read cmd", cursor - cmd, cmd, slot, 0);
    *t_r = std::max(*t_r, nand.read_time(slot.op.address, slot.op.slc));
    const uint32_t spp = nand.sectors_per_page(slot.op.address);
    slot.first_sector = std::min(slot.op.sector_offset, spp - 1);
    const uint32_t left = spp - slot.first_sector;
    slot.sectors = slot.op.sector_count ? std::min(slot.op.sector_count, left) : left;
  }
  return std::max(cursor, d.register_free_at);
}

ReadSequence::DataOut ReadSequence::data_out(uint32_t die, const std::vector<uint32_t>& group,
                                             const sc_time& cache_free_at, std::vector<sc_time>& landed) {
  Die& d = dies_[die];
  const uint32_t channel = parts_.topology.channel_of(die);
  FlashChannel& ch = parts_.topology.channel(channel);
  NandDie& nand = parts_.topology.die(die);
  const sc_time now = sim_now();
  const sc_time data_ready = cache_read_ ? now + t_cache_ : now;
  sc_time last_end = data_ready;
  const sc_time& cmd = parts_.topology.op_cmd();
  const bool book_cmd = !cache_read_ && parts_.queues.read_waiting(die, now);
  d.cmd_slot = false;
  landed.clear();
  for (size_t k = 0; k < group.size(); ++k) {
    OpSlot& slot = parts_.pool[group[k]];
    slot.status = nand.read(slot.op.address, slot.first_sector, slot.sectors, slot.stamps.data(), &slot.done.oob,
                            slot.op.slc, slot.op.words, slot.op.words_per_page);
    const uint64_t bytes = parts_.topology.sector_bus_bytes(slot.sectors);
    const sc_time xfer = parts_.topology.read_transfer_time(slot.first_sector, slot.sectors, ch);
    const bool with_cmd = book_cmd && k + 1 == group.size();
    const sc_time xfer_start = ch.reserve(std::max(data_ready, cache_free_at), with_cmd ? xfer + cmd : xfer);
    if (with_cmd) {
      d.cmd_slot = true;
      d.cmd_slot_at = xfer_start + xfer;
    }
    ch.count_bytes(bytes);
    if (parts_.timeline.on()) parts_.timeline.bus(channel, "data out", xfer_start, xfer, slot, bytes);
    const sc_time xfer_end = xfer_start + xfer;
    last_end = std::max(last_end, xfer_end);
    const sc_time decoded = xfer_end + (ecc_pipelined_ ? t_ecc_ : t_ecc_ * double(slot.sectors));
    // Loosely timed: the data lands in the buffer now, annotated with when it is there.
    landed.push_back(
        parts_.dma.transfer(tlm::TLM_WRITE_COMMAND, slot.op.buffer_address, slot.stamps.data(), slot.sectors, decoded));
  }
  if (cache_read_) {
    // The next read's command goes out now; its tR starts once the page register has
    // been copied to the cache register; its data-out waits for this one's.
    d.register_free_at = data_ready;
    return DataOut{last_end, now};
  }
  return DataOut{last_end, last_end};
}

}  // namespace ufs
