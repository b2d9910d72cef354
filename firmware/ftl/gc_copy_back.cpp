#include "ftl/gc_copy_back.h"

namespace ufs {

bool GcCopyBack::plan(uint32_t die, uint32_t victim, uint32_t page, uint64_t now_ps, uint32_t& index) {
  const uint32_t plane = blocks_.layout().plane_of_block(victim);
  uint32_t& open = blocks_.write_points().open_block(die, WriteStream::Gc, plane);
  // Slot 0 may hold the block GC units (the buffered path) write, of any plane.
  if (open != BlockManager::kNoBlock && blocks_.layout().plane_of_block(open) != plane) return false;
  if (open == BlockManager::kNoBlock) {
    open = blocks_.take_free_block(die, plane);
    if (open == BlockManager::kNoBlock) return false;
    blocks_.info(open).holds_map = false;
  }
  BlockInfo& b = blocks_.info(open);
  const Move m{die, victim, page, open, b.next_page};
  ++b.next_page;
  ++b.programs_in_flight;
  b.last_write_ps = now_ps;
  if (b.next_page >= blocks_.layout().geometry().pages_per_block) {
    b.state = BlockState::Closed;
    open = BlockManager::kNoBlock;
  }
  if (free_.empty()) { index = uint32_t(moves_.size()); moves_.push_back(m); }
  else { index = free_.back(); free_.pop_back(); moves_[index] = m; }
  return true;
}

GcCopyBack::Move GcCopyBack::finish(uint32_t index) {
  free_.push_back(index);
  const Move m = moves_[index];
  --blocks_.info(m.dst_block).programs_in_flight;
  return m;
}

void GcCopyBack::destination_failed(const Move& m, bool retire) {
  uint32_t& open = blocks_.write_points().open_block(m.die, WriteStream::Gc, blocks_.layout().plane_of_block(m.dst_block));
  if (open == m.dst_block) open = BlockManager::kNoBlock;
  BlockInfo& b = blocks_.info(m.dst_block);
  b.state = BlockState::Closed;
  if (retire) b.retire_after_gc = true;
}

}  // namespace ufs
