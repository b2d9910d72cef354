#include "map/map_writer.h"
#include <algorithm>
#include "core/firmware_ram.h"
#include "ftl/l2p_map.h"

namespace ufs {

MapWriter::MapWriter(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry, BlockManager& blocks,
                     FlashPort& flash, MapStore& store, UnitPlacer& placer, ObsoleteCopyListener& obsolete,
                     FreeSpaceListener& space, L2pMap& map)
    : hal_(hal), params_(params), spp_(geometry.sectors_per_page()), page_bytes_(geometry.page_bytes),
      blocks_(blocks), flash_(flash), client_(flash.attach(*this)), store_(store), map_(map), placer_(placer),
      obsolete_(obsolete), space_(space) {
  if (!store.enabled()) return;
  queued_.assign(store.pages(), 0);
  units_.resize(6);
  relocations_.resize(geometry.dies());
  // Each unit's pages' entries as programmed (FlashOp::words), from program to completion: the
  // frames a page evicted dirty leaves (the cache's own go to the next page it holds).
  unit_words_.resize(units_.size());
  for (auto& w : unit_words_) w.assign(size_t(params.program_pages) * (page_bytes_ / 4), L2pMap::kUnmapped);
}

// A page waits once: its write-back programs whatever the page holds by then.
void MapWriter::write_back(uint32_t page) {
  if (queued_[page]) return;
  enqueue(page);
  flush(false);
}

void MapWriter::enqueue(uint32_t page) {
  queued_[page] = 1;
  queue_.push_back(page);
  map_.hold_page(page);
}

// Two of the units are kept for GC relocations, so cleaning a map block never waits
// behind ordinary write-backs.
uint32_t MapWriter::free_unit(bool relocation) const {
  uint32_t busy = 0;
  for (const Unit& u : units_) busy += u.busy;
  if (!relocation && busy + 2 >= units_.size()) return kNone;
  for (uint32_t i = 0; i < units_.size(); ++i)
    if (!units_[i].busy) return i;
  return kNone;
}

// Dirty pages go back in program units of program_pages pages; `force` writes a partial
// unit too (GC relocating map pages must not wait for more).
void MapWriter::flush(bool force) {
  while (queue_.size() >= params_.program_pages || (force && !queue_.empty())) {
    const uint32_t unit = free_unit(false);
    if (unit == kNone) return;  // retried when a unit completes
    Unit& u = units_[unit];
    u = Unit{};
    u.busy = true;
    while (u.pages.size() < params_.program_pages && !queue_.empty()) {
      const uint32_t page = queue_.front();
      queue_.pop_front();
      if (!queued_[page]) { map_.release_page(page); continue; }  // taken over by a GC relocation meanwhile
      queued_[page] = 0;
      u.pages.push_back(page);
    }
    if (u.pages.empty()) { u.busy = false; continue; }
    start(unit);
  }
}

void MapWriter::flush_relocations(uint32_t die) {
  auto& queue = relocations_[die];
  while (!queue.empty()) {
    const uint32_t unit = free_unit(true);
    if (unit == kNone) return;
    Unit& u = units_[unit];
    u = Unit{};
    u.busy = true;
    u.reloc_die = die;
    while (u.pages.size() < params_.program_pages && !queue.empty()) {
      u.pages.push_back(queue.front());
      queue.pop_front();
    }
    start(unit);
  }
}

// A page not (fully) in SRAM is merged with its NAND copy before it is written back: the copy's
// entries are read into the unit's buffer, where the program's entries are then made.
void MapWriter::start(uint32_t unit) {
  Unit& u = units_[unit];
  u.merged.assign(u.pages.size(), 0);
  const uint32_t per_page = page_bytes_ / 4;
  for (uint32_t p = 0; p < u.pages.size(); ++p) {
    const uint32_t page = u.pages[p];
    const uint32_t at = store_.location(page);
    if (store_.in_sram(page) || at == L2pMap::kUnmapped) continue;
    uint32_t* const words = unit_words_[unit].data() + size_t(p) * per_page;
    words[0] = MapFrames::kUnknown;  // still there after the read: the copy carried no entries
    u.merged[p] = 1;
    flash_.read(client_, unit, blocks_.layout().address_of(blocks_.layout().block_of(at), blocks_.layout().page_of(at)), 0, spp_, kL2pSramBase,
                uint8_t(params_.map_read_priority), words, per_page);
    ++u.pending_reads;
    ++stats_.merge_reads;
  }
  if (u.pending_reads == 0) program(unit);
}

void MapWriter::on_flash_done(uint64_t unit, const FlashCompletion& c) {
  if (c.opcode == FlashOpcode::Program) { programmed(uint32_t(unit), c.status); return; }
  if (--units_[unit].pending_reads == 0) program(uint32_t(unit));  // the merge reads are in
}

void MapWriter::program(uint32_t unit) {
  Unit& mu = units_[unit];
  UnitPlace where;
  where.stream = WriteStream::Map;
  if (mu.reloc_die != kNone) {  // GC work: on the victim's die, with its reserve
    where.die = mu.reloc_die;
    where.gc_privilege = true;
  }
  if (!placer_.place(where)) { program_waiters_.push_back(unit); return; }
  mu.block = where.block;
  mu.page = where.page;
  mu.seq = flash_.next_sequence();
  // The entries below hold every program older than the oldest still in flight (recovery
  // replays the data programmed from there: recovery/power_up_recovery.h).
  const uint64_t covers = std::min(mu.seq, flash_.oldest_program_in_flight());
  std::vector<PageOob>& oob = flash_.program_oob(params_.program_pages);
  for (uint32_t p = 0; p < params_.program_pages; ++p) {
    PageOob& o = oob[p];
    o.kind = p < mu.pages.size() ? PageKind::MapData : PageKind::Padding;
    o.sequence = mu.seq;
    o.data_seq[0] = covers;
    for (uint32_t s = 0; s < spp_; ++s) o.lba[s] = p < mu.pages.size() ? mu.pages[p] : kNoOobLba;
  }
  hal_.l2p_sram_access(uint32_t(mu.pages.size()) * page_bytes_, false);
  // The entries go with the pages (padding pages: unmapped).
  const uint32_t per_page = page_bytes_ / 4;
  std::vector<uint32_t>& w = unit_words_[unit];
  for (uint32_t p = 0; p < params_.program_pages; ++p) {
    uint32_t* const page_words = w.data() + size_t(p) * per_page;
    if (p >= mu.pages.size()) {
      std::fill_n(page_words, per_page, L2pMap::kUnmapped);
      continue;
    }
    // The frame's entries, the rest from the merge read (or, none, the newest copy, peeked).
    const bool merged = mu.merged[p] && page_words[0] != MapFrames::kUnknown;
    store_.source()->nand_entries(mu.pages[p], page_words, per_page, merged ? page_words : nullptr);
    store_.snapshot(mu.pages[p], mu.seq, page_words);  // firmware.map_verify: what this copy holds
  }
  uint32_t* const words = w.data();
  flash_.program(client_, unit, blocks_.layout().address_of(mu.block, mu.page), params_.program_pages, kL2pSramBase,
                 words, per_page);
  stats_.page_writes += mu.pages.size();
}

void MapWriter::programmed(uint32_t unit, FlashStatus status) {
  Unit& mu = units_[unit];
  BlockInfo& b = blocks_.info(mu.block);
  --b.programs_in_flight;
  if (status != FlashStatus::Ok) {  // grown bad block: the pages are still in SRAM, program them elsewhere
    flash_.count_program_failure();
    const uint32_t failed_die = blocks_.layout().die_of_block(mu.block);
    uint32_t& open = blocks_.write_points().open_block(failed_die, WriteStream::Map);
    if (open == mu.block) open = BlockManager::kNoBlock;
    b.state = BlockState::Closed;
    b.retire_after_gc = true;
    program(unit);
    space_.free_space_changed(failed_die);
    return;
  }
  for (uint32_t p = 0; p < mu.pages.size(); ++p) {
    const uint32_t page = mu.pages[p];
    if (mu.seq < store_.sequence(page)) { map_.release_page(page); continue; }  // a newer copy already landed
    const uint32_t old = store_.location(page);
    const uint32_t ppa = blocks_.layout().ppa(mu.block, mu.page + p, 0);
    store_.set_location(page, ppa, mu.seq);
    for (uint32_t s = 0; s < spp_; ++s) blocks_.mark_valid(ppa + s);
    if (old != L2pMap::kUnmapped)
      for (uint32_t s = 0; s < spp_; ++s) obsolete_.copy_obsolete(old + s);
    map_.release_page(page);  // on NAND now: its frame may go
  }
  mu.busy = false;
  for (uint32_t die = 0; die < relocations_.size(); ++die) flush_relocations(die);
  flush(false);
}

void MapWriter::relocate_block(uint32_t die, uint32_t victim) {
  for (uint32_t page = 0; page < store_.pages(); ++page) {
    const uint32_t at = store_.location(page);
    if (at == L2pMap::kUnmapped || blocks_.layout().block_of(at) != victim) continue;
    store_.written_back(page);  // the rewrite carries its updates
    queued_[page] = 0;          // and replaces a pending write-back
    relocations_[die].push_back(page);
    map_.hold_page(page);
    ++stats_.relocations;
  }
  flush_relocations(die);
}

// As a GC relocation does, an idle write-back leaves the page clean (a later update dirties
// it again), so evictions under the next burst cost no write-back.
void MapWriter::write_back_dirty() {
  for (uint32_t page = 0; page < store_.pages(); ++page) {
    if (!store_.resident_dirty(page) || queued_[page]) continue;
    store_.written_back(page);
    enqueue(page);
    ++stats_.idle_writebacks;
  }
  flush(true);
}

void MapWriter::write_back_pages(const std::vector<uint8_t>& pages) {
  for (uint32_t mp = 0; mp < pages.size(); ++mp)
    if (pages[mp]) write_back(mp);
  if (!queue_.empty()) flush(true);
}

void MapWriter::retry_programs() {
  for (size_t n = program_waiters_.size(); n > 0; --n) {
    const uint32_t unit = program_waiters_.front();
    program_waiters_.pop_front();
    program(unit);
  }
}

uint64_t MapWriter::ram_bytes() const {
  return vector_bytes(queued_) + vector_bytes(relocations_) + vector_bytes(units_) +
         uint64_t(units_.size()) * params_.program_pages * sizeof(uint32_t);
}

uint64_t MapWriter::buffer_bytes() const {
  uint64_t b = vector_bytes(unit_words_);
  for (const auto& w : unit_words_) b += vector_bytes(w);
  return b;
}

void MapWriter::visit_stats(StatsVisitor& v) const {
  v.count("ftl.map_cache.merge_reads", stats_.merge_reads, "pages", "map pages read back to merge updates");
  v.count("ftl.map_cache.page_writes", stats_.page_writes, "pages", "map pages programmed");
  v.count("ftl.map_cache.relocations", stats_.relocations, "pages", "map pages rewritten because GC cleaned their block");
  v.count("ftl.map_cache.idle_writebacks", stats_.idle_writebacks, "pages", "dirty map pages written back in idle time");
}

}  // namespace ufs
