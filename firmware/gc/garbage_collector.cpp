#include "gc/garbage_collector.h"
#include <algorithm>
#include <cmath>

namespace ufs {

namespace {
constexpr uint32_t kOpShift = 48;
uint64_t op_index(uint64_t op, uint64_t index) { return op << kOpShift | index; }
}  // namespace

GarbageCollector::GarbageCollector(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry,
                                   BlockManager& blocks, FlashPort& flash, GcUnits& units, MapBlockCleaner& maps,
                                   GcEraseListener& erased, HybridPoolShares* shares)
    : hal_(hal),
      params_(params),
      geo_(geometry),
      blocks_(blocks),
      flash_(flash),
      client_(flash.attach(*this)),
      units_(units),
      maps_(maps),
      erased_(erased),
      shares_(shares),
      policy_(make_victim_policy(params.gc_victim, VictimPolicyContext{params, geometry, [&hal] { return hal.random64(); }})),
      wear_(params.wear_levelling, params.block_lifetime, params.wl_retirement_age, params.wl_age_variance),
      copy_back_(blocks),
      gc_(geometry.dies()),
      sealed_(geometry.dies(), 0),
      unit_limit_(params.gc_units_per_die ? params.gc_units_per_die : geometry.planes_per_die),
      burst_(geometry.dies() * 2, 0),
      pacing_(geometry.dies(), 8 * blocks.sectors_per_block()),
      paced_retry_(geometry.dies(), 0) {
  if (!policy_) policy_ = make_greedy_victims(VictimPolicyContext{params, geometry, {}});  // validated before
  if (wear_.rate_limits())
    allow_ = [this](uint32_t block) {
      const bool ok = wear_.may_clean(blocks_, block, double(hal_.random64() >> 11) * 0x1.0p-53);
      stats_.wl_rate_limited += !ok;
      return ok;
    };
}

void GarbageCollector::check(uint32_t die) {
  if (stopped_) return;
  // Hybrid page size: each pool (small-, large-page blocks) keeps its own free blocks; a
  // die cleans one victim at a time, of the small pool first.
  if (!check_pool(die, false) && blocks_.hybrid()) check_pool(die, true);
  if (!gc_[die].active) pacing_.stop(die);  // no foreground GC: host units go freely
}

bool GarbageCollector::host_may_place(uint32_t die) {
  if (pacing_.may_place(die)) return true;
  pacing_.count_refusal();
  return false;
}

bool GarbageCollector::check_pool(uint32_t die, bool large) {
  DieState& g = gc_[die];
  // Foreground GC starts below gc_start_free_blocks and keeps taking victims until
  // gc_stop_free_blocks; in idle time background GC cleans up to bg_gc_free_blocks.
  const uint32_t free = blocks_.free_blocks(die, large);
  uint8_t& burst = burst_[die * 2 + large];
  if (free < params_.gc_start_free_blocks) burst = 1;
  else if (free >= params_.gc_stop_free_blocks) burst = 0;
  uint32_t target = burst ? params_.gc_stop_free_blocks : params_.gc_start_free_blocks;
  if (background_) target = std::max(target, params_.bg_gc_free_blocks);
  if (g.active && g.flush && free < target) fill(die);  // a paused flush finishes first
  if (held_ || g.active || free >= target) return false;
  // A victim must give back at least one program unit: moving a fuller block (with the
  // padding of its last unit) would use up as much space as it frees, and GC would spin.
  // Hybrid: a unit is one page of the pool's size. A pool holding more than its share (its
  // blocks retired) moves its victims' data into the other pool while that one has room
  // (never both ways: data would bounce): any victim then gives this pool a whole block back.
  const bool hybrid = blocks_.hybrid();
  const uint32_t page_sectors = large ? geo_.large_sectors_per_page() : geo_.sectors_per_page();
  const bool to_other = hybrid && shares_->gc_to_other(large, blocks_);
  VictimQuery q;
  q.die = die;
  q.large = large;
  q.now_ps = hal_.now_ps();
  q.max_valid = !hybrid ? blocks_.sectors_per_block() - params_.write_unit_sectors(geo_)
                        : geo_.pages_per_block * page_sectors - (to_other ? 0 : page_sectors);
  q.allow = allow_ ? &allow_ : nullptr;
  uint32_t victim = policy_->pick(blocks_, q);
  // Rate limiting only slows the wear of old blocks: it may not stop the device.
  if (victim == BlockManager::kNoBlock && q.allow) {
    q.allow = nullptr;
    victim = policy_->pick(blocks_, q);
  }
  if (victim == BlockManager::kNoBlock) return false;
  // Below the foreground threshold host units go at this victim's pace; a victim taken
  // only for idle time's higher target paces nothing.
  const BlockInfo& vb = blocks_.info(victim);
  // A map block's pages move through the map stream, not counted here: it earns at its erase.
  if (params_.gc_host_pacing && free < (burst ? params_.gc_stop_free_blocks : params_.gc_start_free_blocks))
    pacing_.victim_taken(die, vb.holds_map ? 0 : vb.valid, blocks_.sectors_in_block(victim) - vb.valid,
                         !pacing_.paced(die));
  else
    pacing_.stop(die);
  ++stats_.victims;
  stats_.bg_victims += background_;
  g = DieState{};
  g.active = true;
  g.victim = victim;
  g.large = large;
  g.to_large = to_other ? !large : large;
  stats_.cross_pool_victims += to_other;
  g.start_ps = hal_.now_ps();
  blocks_.info(victim).state = BlockState::Victim;
  if (blocks_.info(victim).holds_map) {
    // GC of a map block: its live map pages are rewritten through the map stream (a merge
    // read brings back those not in SRAM); the block empties as they land.
    g.scanned = true;
    maps_.relocate_block(die, victim);
    maybe_erase_victim(die);
  } else {
    fill(die);
  }
  return true;
}

void GarbageCollector::idle_began() {
  background_ = true;
  if (write_back_) write_back_->write_back_dirty();
  for (uint32_t die = 0; die < geo_.dies(); ++die) check(die);
}

void GarbageCollector::start_flush(uint32_t die, uint32_t victim) {
  DieState& g = gc_[die];
  g = DieState{};
  g.active = true;
  g.flush = true;
  g.no_copy_back = true;  // copy-back cannot turn SLC pages into TLC ones
  g.victim = victim;
  g.start_ps = hal_.now_ps();
  blocks_.info(victim).state = BlockState::Victim;
  pacing_.stop(die);
}

bool GarbageCollector::any_flushing() const {
  for (const DieState& g : gc_)
    if (g.flush) return true;
  return false;
}

void GarbageCollector::units_freed() {
  if (unit_waiters_.empty()) return;
  std::vector<uint32_t> dies;
  dies.swap(unit_waiters_);
  for (uint32_t d : dies) fill(d);
}

// Read the victim's valid sectors into GC units (one unit at a time per die).
void GarbageCollector::fill(uint32_t die) {
  DieState& g = gc_[die];
  if (!g.active || g.scanned) return;
  // Hybrid page size: a victim's valid data goes back into its own pool (GC units of the
  // victim's page size), so each pool's share of the data stays where the splitter put it,
  // unless the pool holds more than its share (check_pool): then into the other pool.
  const uint32_t spb = blocks_.hybrid() ? blocks_.sectors_in_block(g.victim) : blocks_.sectors_per_block();
  const uint32_t base = g.victim * blocks_.sectors_per_block();
  const uint32_t page_spp = blocks_.spp_of(g.victim);
  while (g.cursor < spb) {
    if (params_.gc_copy_back && g.stream == WriteStream::Gc && !g.no_copy_back) {
      while (g.cursor < spb && !blocks_.is_valid(base + g.cursor)) ++g.cursor;
      if (g.cursor >= spb) break;
      // Whole valid pages only: a partly valid one is compacted through the buffer.
      uint32_t valid = 0;
      while (g.cursor % page_spp == 0 && valid < page_spp && blocks_.is_valid(base + g.cursor + valid)) ++valid;
      if (valid == page_spp) {
        if (copy_back_page(die)) continue;
        g.no_copy_back = true;  // no block in the victim's plane: the rest goes through the buffer
      }
    }
    if (g.unit == kNone) {
      // At most a program's worth of the die's moved data waits in the write cache (resumed in
      // unit_programmed): GC holding more would only queue it behind its own programs on this
      // die while host writes, finding no unit, hold every tag (issue 14 item 2).
      if (g.flush ? !pacer_->may_fill(die, sealed_[die]) : sealed_[die] >= unit_limit_) return;
      g.unit = units_.gc_unit(g.stream, g.to_large, die, g.flush);
      g.unit_used = false;
      if (g.unit == kNone) {
        if (std::find(unit_waiters_.begin(), unit_waiters_.end(), die) == unit_waiters_.end())
          unit_waiters_.push_back(die);
        return;
      }
    }
    // Next run of valid sectors within one page.
    while (g.cursor < spb && !blocks_.is_valid(base + g.cursor)) ++g.cursor;
    if (g.cursor >= spb) break;
    const uint32_t start = g.cursor, room = units_.gc_unit_room(g.unit);
    uint32_t n = 0;
    while (g.cursor < spb && n < room && blocks_.is_valid(base + g.cursor) && (n == 0 || g.cursor % page_spp != 0)) {
      ++n;
      ++g.cursor;
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
    flash_.read(client_, op_index(kRead, r), blocks_.address_of(g.victim, start / page_spp), start % page_spp, n,
                buffer);
    if (n == room) close_unit(die);
  }
  g.scanned = true;
  if (g.unit != kNone) close_unit(die);
  maybe_erase_victim(die);
}

// Each die moving a victim's data through the buffer may hold up to unit_limit_ units.
uint32_t GarbageCollector::units_wanted() const {
  uint32_t n = 0;
  if (!params_.gc_host_pacing) return 0;  // with pacing only (host units then wait their turn anyway)
  for (uint32_t d = 0; d < geo_.dies(); ++d) {
    const DieState& g = gc_[d];
    if (!g.active || g.scanned || g.flush) continue;
    const uint32_t held = sealed_[d] + (g.unit != kNone);
    n += unit_limit_ > held ? unit_limit_ - held : 0;
  }
  return n;
}

void GarbageCollector::close_unit(uint32_t die) {
  DieState& g = gc_[die];
  const uint32_t unit = g.unit;
  g.unit = kNone;
  if (!g.unit_used) {
    units_.gc_release(unit);
    return;
  }
  ++sealed_[die];  // before sealing: placing the unit may look at the pace
  // A partly filled unit's padding takes space the victim's erase does not give back.
  if (g.stream == WriteStream::Gc && !g.flush) pacing_.placed(die, units_.gc_unit_room(unit));
  units_.gc_seal(unit);
}

void GarbageCollector::read_done(uint32_t index, const FlashCompletion& c) {
  const Read r = reads_[index];
  free_reads_.push_back(index);
  --gc_[r.die].reads_in_flight;
  units_.gc_data_arrived(r.unit, r.pos, r.count, c.oob);
}

void GarbageCollector::moved(uint64_t lba, uint32_t from, uint32_t to) {
  ++stats_.moved_sectors;
  earn_for_move(from);
  hal_.charge_cycles(params_.cycles_gc_per_sector);
  units_.gc_follow_move(lba, from, to);
}

void GarbageCollector::unit_programmed(uint32_t die, bool /*flush_unit: counted alike*/) {
  if (sealed_[die]) --sealed_[die];
  retry_paced(die);
  fill(die);  // the next unit, if it may
  maybe_erase_victim(die);
}

// Copy-back of the victim's page at the cursor (firmware.gc_copy_back); false when its
// plane has no block to take it.
bool GarbageCollector::copy_back_page(uint32_t die) {
  DieState& g = gc_[die];
  const uint32_t spp = geo_.sectors_per_page();
  const uint32_t page = g.cursor / spp;
  uint32_t index;
  if (!copy_back_.plan(die, g.victim, page, hal_.now_ps(), index)) return false;
  g.cursor = (page + 1) * spp;
  ++g.reads_in_flight;
  ++stats_.copy_backs;
  const GcCopyBack::Move& m = copy_back_.move(index);
  flash_.copy_back(client_, op_index(kCopyBack, index), blocks_.address_of(g.victim, page),
                   blocks_.address_of(m.dst_block, m.dst_page));
  return true;
}

// The page is in its new place: the map follows each sector still live (the OOB read
// out with it names the LBAs). A failed copy-back leaves the page in the victim, and
// the victim is scanned again through the buffer (pages already moved are no longer
// valid there; one moved twice is simply not mapped the second time).
void GarbageCollector::copy_back_done(uint32_t index, const FlashCompletion& c) {
  const GcCopyBack::Move m = copy_back_.finish(index);
  DieState& g = gc_[m.die];
  --g.reads_in_flight;
  if (c.status != FlashStatus::Ok) {
    if (c.status == FlashStatus::ProgramFail) flash_.count_program_failure();
    copy_back_.destination_failed(m, c.status == FlashStatus::ProgramFail);
    g.no_copy_back = true;
    g.cursor = 0;
    g.scanned = false;
    fill(m.die);
    return;
  }
  const uint32_t spp = geo_.sectors_per_page();
  const uint32_t from = blocks_.ppa(m.victim, m.src_page, 0), to = blocks_.ppa(m.dst_block, m.dst_page, 0);
  hal_.l2p_sram_access(4 * spp, true);
  for (uint32_t s = 0; s < spp; ++s) {
    if (c.oob.lba[s] == kNoOobLba) continue;
    hal_.charge_cycles(params_.cycles_gc_per_sector);
    earn_for_move(from + s);
    stats_.moved_sectors += units_.gc_follow_move(c.oob.lba[s], from + s, to + s);
  }
  retry_paced(m.die);
  maybe_erase_victim(m.die);
}

void GarbageCollector::maybe_erase_victim(uint32_t die) {
  DieState& g = gc_[die];
  if (!g.active || !g.scanned || g.erasing || g.reads_in_flight) return;
  BlockInfo& b = blocks_.info(g.victim);
  if (b.valid != 0) return;
  g.erasing = true;
  flash_.erase(client_, op_index(kErase, g.victim), blocks_.address_of(g.victim, 0));
}

void GarbageCollector::on_flash_done(uint64_t index, const FlashCompletion& c) {
  const uint32_t i = static_cast<uint32_t>(index & ((1ull << kOpShift) - 1));
  switch (index >> kOpShift) {
    case kRead: read_done(i, c); return;
    case kCopyBack: copy_back_done(i, c); return;
    default: erase_done(i, c.status); return;
  }
}

void GarbageCollector::erase_done(uint32_t block, FlashStatus status) {
  const uint32_t die = blocks_.die_of_block(block);
  BlockInfo& b = blocks_.info(block);
  if (status != FlashStatus::Ok || b.retire_after_gc) {
    if (status != FlashStatus::Ok) flash_.count_erase_failure();
    blocks_.retire_block(block);
    if (shares_) shares_->block_retired(b.large, blocks_.sectors_in_block(block));
  }
  if (b.slc) pacer_->slc_block_erased(block);  // a flushed WriteBooster block
  uint32_t cold = BlockManager::kNoBlock;
  if (status == FlashStatus::Ok && !b.retire_after_gc) {
    ++stats_.erases;
    stats_.expired_blocks += wear_.expired(b.erase_count + 1) && !wear_.expired(b.erase_count);
    cold = migration_after_erase(die, block);
  }
  DieState& g = gc_[die];
  if (!g.flush && g.stream == WriteStream::Gc) pacing_.victim_erased(die);  // space_returned below retries
  if (g.flush) pacer_->block_flushed();
  else if (g.active) {
    stats_.clean_ps += hal_.now_ps() - g.start_ps;
    ++stats_.cleaned;
  }
  g = DieState{};
  if (cold != BlockManager::kNoBlock) {  // before anything else can start a GC on this die
    ++stats_.wl_migrations;
    g.active = true;
    g.victim = cold;
    g.stream = WriteStream::Cold;
    blocks_.info(cold).state = BlockState::Victim;
    pacing_.stop(die);  // a migration frees nothing: host units go freely meanwhile
    fill(die);
  }
  // Space came back: units waiting for a die go first, then maybe more GC.
  erased_.space_returned(die);
  check(die);
  if (done_) done_->victim_done(die);
}

// Wear levelling's migration: a worn block just erased takes the cold data of a young one
// (returned: its victim), which joins the pool instead; else the block goes back to the pool.
uint32_t GarbageCollector::migration_after_erase(uint32_t die, uint32_t block) {
  const BlockInfo& b = blocks_.info(block);
  uint32_t cold = BlockManager::kNoBlock;
  uint32_t& cold_open = blocks_.open_block(die, WriteStream::Cold);
  if (!b.slc && wear_.wants_cold_data(blocks_, block) &&  // SLC blocks go back to the buffer
      (cold_open == BlockManager::kNoBlock || blocks_.info(cold_open).programs_in_flight == 0))
    cold = wear_.pick_cold_block(blocks_, block);
  blocks_.return_erased_block(block, cold == BlockManager::kNoBlock);
  if (cold != BlockManager::kNoBlock) {
    if (cold_open != BlockManager::kNoBlock) blocks_.info(cold_open).state = BlockState::Closed;  // the last one's rest
    cold_open = block;
  }
  return cold;
}

// Moved data of `from` programmed on `to`: `to` pays for the space, `from` keeps what its
// victim's erase will give back.
void GarbageCollector::gc_spilled(uint32_t from, uint32_t to, uint32_t sectors) {
  pacing_.placed(to, sectors);
  if (pacing_.refund(from, sectors)) paced_retry_[from] = 1;
}

// A sector moved out of a paced victim earns the host its share of the victim's space.
void GarbageCollector::earn_for_move(uint32_t from) {
  const uint32_t block = blocks_.block_of(from), die = blocks_.die_of_block(block);
  if (gc_[die].victim == block && gc_[die].stream == WriteStream::Gc && pacing_.sector_moved(die))
    paced_retry_[die] = 1;
}

// Host units waiting for a paced die retry once it has credit again.
void GarbageCollector::retry_paced(uint32_t die) {
  if (!paced_retry_[die]) return;
  paced_retry_[die] = 0;
  erased_.pace_earned(die);
}

bool GarbageCollector::idle() const {
  for (const DieState& g : gc_)
    if (g.active) return false;
  return true;
}

std::string GarbageCollector::debug_state(uint32_t die) const {
  const DieState& g = gc_[die];
  if (!g.active) return "";
  const BlockInfo& v = blocks_.info(g.victim);
  return ", GC victim " + std::to_string(g.victim) + " valid " + std::to_string(v.valid) + " cursor " +
         std::to_string(g.cursor) + (g.scanned ? " scanned" : "") + (g.erasing ? " erasing" : "") + " reads " +
         std::to_string(g.reads_in_flight);
}

void GarbageCollector::visit_stats(StatsVisitor& v) const {
  const GcStats& f = stats_;
  v.count("ftl.gc_cross_pool_victims", f.cross_pool_victims, "blocks", "hybrid: victims moved into the other pool");
  v.count("ftl.gc_victims", f.victims, "blocks", "GC victims taken");
  v.count("ftl.bg_gc_victims", f.bg_victims, "blocks", "of which in idle time");
  v.count("ftl.gc_moved_sectors", f.moved_sectors, "sectors", "valid sectors GC moved");
  if (params_.gc_host_pacing)
    v.count("ftl.gc_host_pacing_waits", pacing_.refusals(), "tries",
            "host units not placed on a die for want of its GC's pace (gc_host_pacing)");
  v.count("ftl.gc_buffered_reads", f.buffered_reads, "reads", "GC reads through the data buffer");
  v.count("ftl.gc_copy_backs", f.copy_backs, "pages", "pages GC moved by copy-back");
  v.count("ftl.gc_cleaned", f.cleaned, "blocks", "victims erased after cleaning");
  v.figure("ftl.gc_clean_us_mean", f.cleaned ? double(f.clean_ps) / double(f.cleaned) / 1e6 : 0.0, "us",
           "victims' cleaning time, picked to erased");
  v.count("ftl.erases", f.erases, "blocks", "blocks erased");
  // Wear: erase counts over the blocks still in use (Agrawal et al.'s table 7 columns).
  double sum = 0, sum2 = 0;
  uint32_t n = 0, lo = ~0u, hi = 0;
  for (uint32_t b = 0; b < blocks_.block_count(); ++b) {
    if (blocks_.info(b).state == BlockState::Bad) continue;
    const uint32_t e = blocks_.info(b).erase_count;
    sum += e; sum2 += double(e) * e; ++n;
    lo = std::min(lo, e); hi = std::max(hi, e);
  }
  const double mean = n ? sum / n : 0.0;
  v.figure("ftl.wear.erase_count_mean", mean, "cycles", "mean erase count of the blocks in use");
  v.figure("ftl.wear.erase_count_stddev", n ? std::sqrt(std::max(0.0, sum2 / n - mean * mean)) : 0.0, "cycles",
           "standard deviation of the erase counts");
  v.count("ftl.wear.erase_count_min", n ? lo : 0, "cycles", "fewest erases of a block in use");
  v.count("ftl.wear.erase_count_max", hi, "cycles", "most erases of a block in use");
  v.count("ftl.wear.expired_blocks", f.expired_blocks, "blocks", "blocks whose erase count reached block_lifetime");
  v.count("ftl.wear.rate_limited_candidates", f.wl_rate_limited, "blocks", "victim candidates passed over");
  v.count("ftl.wear.migrations", f.wl_migrations, "blocks", "cold blocks moved into worn blocks");
}

}  // namespace ufs
