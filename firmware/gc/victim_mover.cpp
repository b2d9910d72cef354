#include "gc/victim_mover.h"
#include <algorithm>

namespace ufs {

namespace {
constexpr uint32_t kOpShift = 48;
uint64_t op_index(uint64_t op, uint64_t index) { return op << kOpShift | index; }
}  // namespace

VictimMover::VictimMover(Hal& hal, const FirmwareParams& params, BlockManager& blocks, FlashPort& flash,
                         GcUnits& units, GcHostGate& gate, VictimMoveListener& listener)
    : hal_(hal),
      params_(params),
      blocks_(blocks),
      flash_(flash),
      client_(flash.attach(*this)),
      units_(units),
      gate_(gate),
      listener_(listener),
      copy_back_(blocks),
      dies_(blocks.layout().geometry().dies()),
      sealed_(blocks.layout().geometry().dies(), 0),
      unit_limit_(params.gc.units_per_die ? params.gc.units_per_die : blocks.layout().geometry().planes_per_die) {}

void VictimMover::start(uint32_t die, const Move& m) {
  DieMove d;
  static_cast<Move&>(d) = m;
  d.no_copy_back = m.flush;  // copy-back cannot turn SLC pages into TLC ones
  dies_[die] = d;
}

void VictimMover::clear(uint32_t die) { dies_[die] = DieMove{}; }

void VictimMover::units_freed() {
  if (unit_waiters_.empty()) return;
  std::vector<uint32_t> dies;
  dies.swap(unit_waiters_);
  for (uint32_t d : dies) fill(d);
}

// Read the victim's valid sectors into GC units (one unit at a time per die).
void VictimMover::fill(uint32_t die) {
  DieMove& g = dies_[die];
  if (g.victim == BlockManager::kNoBlock || g.scanned) return;
  // Hybrid page size: a victim's valid data goes back into its own pool (GC units of the
  // victim's page size), so each pool's share of the data stays where the splitter put it,
  // unless the pool holds more than its share (the selector): then into the other pool.
  const uint32_t spb = blocks_.layout().hybrid() ? blocks_.sectors_in_block(g.victim) : blocks_.layout().sectors_per_block();
  const uint32_t base = g.victim * blocks_.layout().sectors_per_block();
  const uint32_t page_spp = blocks_.layout().spp_of(g.victim);
  while (g.cursor < spb) {
    if (params_.gc.copy_back && g.stream == WriteStream::Gc && !g.no_copy_back) {
      while (g.cursor < spb && !blocks_.is_valid(base + g.cursor)) ++g.cursor;
      if (g.cursor >= spb) break;
      // Whole valid pages only: a partly valid one is compacted through the buffer.
      uint32_t valid = 0;
      while (g.cursor % page_spp == 0 && valid < page_spp && blocks_.is_valid(base + g.cursor + valid)) ++valid;
      if (valid == page_spp) {
        // The die's window (resumed in copy_back_done): a copy-back holds the die as a
        // program does, and host reads queue behind every one issued.
        if (queued(die) >= unit_limit(die)) return;
        if (copy_back_page(die)) continue;
        g.no_copy_back = true;  // no block in the victim's plane: the rest goes through the buffer
      }
    }
    if (g.unit == kNone) {
      // At most a program's worth of the die's moved data waits in the write cache (resumed in
      // unit_programmed): GC holding more would only queue it behind its own programs on this
      // die while host writes, finding no unit, hold every tag (issue 14 item 2).
      if (g.flush ? !pacer_->may_fill(die, sealed_[die]) : queued(die) >= unit_limit(die)) return;
      g.unit = units_.gc_unit(g.stream, g.to_large, die, g.flush);
      g.unit_used = false;
      if (g.unit == kNone) {
        if (std::find(unit_waiters_.begin(), unit_waiters_.end(), die) == unit_waiters_.end())
          unit_waiters_.push_back(die);
        return;
      }
    }
    if (!stage_run(die, g.victim, g.cursor)) break;
  }
  g.scanned = true;
  top_up(die);
  if (g.unit != kNone) close_unit(die);
  listener_.moves_may_be_done(die);
}

bool VictimMover::stage_run(uint32_t die, uint32_t block, uint32_t& cursor) {
  DieMove& g = dies_[die];
  const uint32_t spb = blocks_.layout().hybrid() ? blocks_.sectors_in_block(block) : blocks_.layout().sectors_per_block();
  const uint32_t base = block * blocks_.layout().sectors_per_block();
  const uint32_t page_spp = blocks_.layout().spp_of(block);
  while (cursor < spb && !blocks_.is_valid(base + cursor)) ++cursor;
  if (cursor >= spb) return false;
  const uint32_t start = cursor, room = units_.gc_unit_room(g.unit);
  uint32_t n = 0;
  while (cursor < spb && n < room && blocks_.is_valid(base + cursor) && (n == 0 || cursor % page_spp != 0)) {
    ++n;
    ++cursor;
  }
  uint32_t r;
  if (free_reads_.empty()) { r = static_cast<uint32_t>(reads_.size()); reads_.emplace_back(); }
  else { r = free_reads_.back(); free_reads_.pop_back(); }
  uint32_t pos;
  const uint64_t buffer = units_.gc_stage(g.unit, base + start, n, pos);
  reads_[r] = Read{g.unit, pos, n, die};
  g.unit_used = true;
  if (g.flush) pacer_->sectors_staged(n);
  ++g.reads_in_flight;
  ++stats_.buffered_reads;
  flash_.read(client_, op_index(kRead, r), blocks_.layout().address_of(block, start / page_spp), start % page_spp, n, buffer);
  if (n == room) close_unit(die);
  return true;
}

// The victim's last unit, partly filled, takes valid sectors of the block its policy would clean
// next (as a controller's GC goes on writing its destination block from the next victim) rather
// than padding: on a device with little spare a victim gives back only a unit or two, and the
// padding of its last unit (half a unit on average) was a third of that (issue 14 item 2,
// ufs31 at 7% spare). Those sectors' next victim then has that much less to move. Not for a
// flush or a migration (their blocks are not GC's to pick), nor into the other pool (hybrid).
void VictimMover::top_up(uint32_t die) {
  DieMove& g = dies_[die];
  if (!next_ || g.unit == kNone || !g.unit_used || g.flush || g.stream != WriteStream::Gc) return;
  if (blocks_.layout().hybrid() && blocks_.info(g.victim).large != g.to_large) return;
  // A map block in line is the map writer's to move (its pages are not user data): padded then.
  const uint32_t block = next_->next_victim(die, g.to_large);
  if (block == BlockManager::kNoBlock || blocks_.info(block).holds_map) return;
  uint32_t cursor = 0;
  while (g.unit != kNone) {
    const uint32_t room = units_.gc_unit_room(g.unit);
    if (!stage_run(die, block, cursor)) break;
    stats_.topped_up += room - (g.unit != kNone ? units_.gc_unit_room(g.unit) : 0);
  }
}

// Each die moving a victim's data through the buffer may hold up to unit_limit(die) units.
uint32_t VictimMover::units_wanted() const {
  uint32_t n = 0;
  if (!gate_.on()) return 0;  // with pacing only (host units then wait their turn anyway)
  for (uint32_t d = 0; d < dies_.size(); ++d) {
    const DieMove& g = dies_[d];
    if (g.victim == BlockManager::kNoBlock || g.scanned || g.flush) continue;
    const uint32_t held = queued(d) + (g.unit != kNone);
    n += unit_limit(d) > held ? unit_limit(d) - held : 0;
  }
  return n;
}

// Each die cleaning a victim (a flush has its own pace) at its full limit, whether it is a block
// ahead, between units or done reading: what it wants moves with the pace and the victim, and
// host units filled while it wanted little cannot be taken back when it wants more (issue 14
// item 2: on ufs31 37 of the cache's 42 units were host units no die would take, and every
// unit freed went to GC's reserve while no write completed for up to 50 ms).
uint32_t VictimMover::units_working_set() const {
  if (!gate_.on()) return 0;
  uint32_t n = 0;
  for (const DieMove& g : dies_)
    if (g.victim != BlockManager::kNoBlock && !g.flush) n += unit_limit_;
  return n;
}

// With host pacing, a die whose GC is a block ahead of its need holds one unit (gc/host_pacing.h).
uint32_t VictimMover::unit_limit(uint32_t die) const {
  return gate_.on() && gate_.pacing().gc_ahead(die) ? 1 : unit_limit_;
}

void VictimMover::close_unit(uint32_t die) {
  DieMove& g = dies_[die];
  const uint32_t unit = g.unit;
  g.unit = kNone;
  if (!g.unit_used) {
    units_.gc_release(unit);
    return;
  }
  ++sealed_[die];  // before sealing: placing the unit may look at the pace
  units_.gc_seal(unit);
}

void VictimMover::read_done(uint32_t index, const FlashCompletion& c) {
  const Read r = reads_[index];
  free_reads_.push_back(index);
  --dies_[r.die].reads_in_flight;
  units_.gc_data_arrived(r.unit, r.pos, r.count, c.oob);
}

void VictimMover::moved(uint64_t lba, uint32_t from, uint32_t to) {
  ++stats_.moved_sectors;
  hal_.charge_cycles(params_.cycles.gc_per_sector);
  units_.gc_follow_move(lba, from, to);
}

void VictimMover::unit_programmed(uint32_t die, bool /*flush_unit: counted alike*/) {
  if (sealed_[die]) --sealed_[die];
  gate_.retry(die);
  fill(die);  // the next unit, if it may
  listener_.moves_may_be_done(die);
}

// Copy-back of the victim's page at the cursor (firmware.gc_copy_back); false when its
// plane has no block to take it.
bool VictimMover::copy_back_page(uint32_t die) {
  DieMove& g = dies_[die];
  const uint32_t spp = blocks_.layout().geometry().sectors_per_page();
  const uint32_t page = g.cursor / spp;
  uint32_t index;
  if (!copy_back_.plan(die, g.victim, page, hal_.now_ps(), index)) return false;
  g.cursor = (page + 1) * spp;
  ++g.reads_in_flight;
  ++g.copy_backs;
  ++stats_.copy_backs;
  const GcCopyBack::Move& m = copy_back_.move(index);
  flash_.copy_back(client_, op_index(kCopyBack, index), blocks_.layout().address_of(g.victim, page),
                   blocks_.layout().address_of(m.dst_block, m.dst_page));
  return true;
}

// The page is in its new place: the map follows each sector still live (the OOB read
// out with it names the LBAs). A failed copy-back leaves the page in the victim, and
// the victim is scanned again through the buffer (pages already moved are no longer
// valid there; one moved twice is simply not mapped the second time).
void VictimMover::copy_back_done(uint32_t index, const FlashCompletion& c) {
  const GcCopyBack::Move m = copy_back_.finish(index);
  DieMove& g = dies_[m.die];
  --g.reads_in_flight;
  --g.copy_backs;
  if (c.status != FlashStatus::Ok) {
    if (c.status == FlashStatus::ProgramFail) flash_.count_program_failure();
    copy_back_.destination_failed(m, c.status == FlashStatus::ProgramFail);
    g.no_copy_back = true;
    g.cursor = 0;
    g.scanned = false;
    fill(m.die);
    return;
  }
  const uint32_t spp = blocks_.layout().geometry().sectors_per_page();
  const uint32_t from = blocks_.layout().ppa(m.victim, m.src_page, 0), to = blocks_.layout().ppa(m.dst_block, m.dst_page, 0);
  hal_.l2p_sram_access(4 * spp, true);
  for (uint32_t s = 0; s < spp; ++s) {
    if (c.oob.lba[s] == kNoOobLba) continue;
    hal_.charge_cycles(params_.cycles.gc_per_sector);
    stats_.moved_sectors += units_.gc_follow_move(c.oob.lba[s], from + s, to + s);
  }
  gate_.retry(m.die);
  fill(m.die);  // the next copy-back or unit, if the window allows
  listener_.moves_may_be_done(m.die);
}

void VictimMover::on_flash_done(uint64_t index, const FlashCompletion& c) {
  const uint32_t i = static_cast<uint32_t>(index & ((1ull << kOpShift) - 1));
  if (index >> kOpShift == kCopyBack) copy_back_done(i, c);
  else read_done(i, c);
}

std::string VictimMover::progress(uint32_t die, bool erasing) const {
  const DieMove& g = dies_[die];
  return " cursor " + std::to_string(g.cursor) + (g.scanned ? " scanned" : "") + (erasing ? " erasing" : "") +
         " reads " + std::to_string(g.reads_in_flight);
}

}  // namespace ufs
