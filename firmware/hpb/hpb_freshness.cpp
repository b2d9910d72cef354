#include "hpb/hpb_freshness.h"
#include <algorithm>
#include "ftl/l2p_map.h"
#include "hpb/hpb_ftl.h"
#include "protocol/ufs_protocol.h"

namespace ufs {

HpbFreshness::HpbFreshness(Hal& hal, const HpbDeviceParams& params, HpbRegions& regions)
    : hal_(hal),
      params_(params),
      regions_(regions),
      changed_(params.response_entries ? params.response_delta_entries : 0,
               params.response_entries ? regions.subregions() : 0, params.subregion_size_exp - 3),
      change_count_(regions.subregions(), 0) {}

void HpbFreshness::power_up() {
  changed_.clear();
  updates_ready_.clear();
  to_sign_.clear();
  ++epoch_;  // batches still with the engine are dropped when they come back
}

// Charged per change looked at (cycles_update_entry: the table look-up, the tracking, the
// item to sign); a change that dirties the sub-region instead pays mark_dirty's on top.
void HpbFreshness::track_change(uint64_t lba, uint32_t value) {
  hal_.charge_cycles(params_.cycles_update_entry);
  const uint32_t s = regions_.subregion_of(lba);
  uint32_t* tracked = changed_.find(uint32_t(lba));
  const bool host_write = L2pMap::is_cached(value);
  if (value == L2pMap::kUnmapped || (!tracked && !host_write)) { regions_.mark_dirty(s); return; }
  if (!tracked) {
    tracked = changed_.insert(uint32_t(lba), kInCache);
    if (!tracked) {  // the table is full (response_delta_entries)
      ++stats_.delta_overflows;
      regions_.mark_dirty(s);
      return;
    }
    stats_.delta_peak = std::max<uint64_t>(stats_.delta_peak, changed_.size());
  }
  ++stats_.delta_changes;
  ++change_count_[s];
  regions_.break_run(s, lba % regions_.subregion_blocks());
  if (host_write) { *tracked = kInCache; return; }
  *tracked = value;  // programmed: sign the new entry for the host (flush)
  to_sign_.emplace_back();
  HpbSignItem& item = to_sign_.back();
  item.lba = lba;
  item.ppn = value;
  item.generation = regions_.generation(s);
  ++stats_.entries_signed;
}

void HpbFreshness::flush() {
  if (to_sign_.empty()) return;
  hal_.charge_cycles(params_.cycles_sign_batch);
  if (spare_batches_.empty()) batches_.emplace_back();
  else {
    batches_.push_back(std::move(spare_batches_.back()));
    spare_batches_.pop_back();
  }
  Batch& b = batches_.back();
  b.id = next_batch_++;
  b.epoch = epoch_;
  b.items.swap(to_sign_);  // to_sign_ takes the spare's emptied vector (its capacity stays)
  to_sign_.clear();
  b.entries.resize(b.items.size() * hpb_op::kEntryBytes);
  HpbSignBatch batch;
  batch.items = b.items.data();
  batch.entries = b.entries.data();
  batch.count = uint32_t(b.items.size());
  batch.lun = publish_lun_;
  batch.cookie = hpb_cookie::kUpdate | b.id;
  hal_.submit_sign_batch(batch);
}

bool HpbFreshness::has_changes(uint32_t s) const { return !changed_.empty() && changed_.has_subregion(s); }

void HpbFreshness::drop_changes(uint32_t s) {
  if (changed_.empty() || !changed_.has_subregion(s)) return;
  changed_.drop_subregion(s, [&] { hal_.charge_cycles(params_.cycles_update_entry); });  // an updated entry forgotten: its work
}

// Each signed entry (0: not signed) waits for a response while its change is the latest.
void HpbFreshness::update_signed(const HpbCryptoResult& r) {
  const uint64_t id = r.cookie & ~hpb_cookie::kUpdate;
  auto b = batches_.begin();
  while (b != batches_.end() && b->id != id) ++b;
  if (b == batches_.end()) return;
  for (size_t i = 0; b->epoch == epoch_ && i < b->items.size(); ++i) {
    hal_.charge_cycles(params_.cycles_update_entry);
    const HpbSignItem& item = b->items[i];
    const uint64_t entry = get_be64(&b->entries[i * hpb_op::kEntryBytes]);
    const uint32_t* tracked = changed_.find(uint32_t(item.lba));
    if (entry && tracked && *tracked == item.ppn) updates_ready_.push_back({item.lba, item.ppn, entry});
  }
  spare_batches_.push_back(std::move(*b));
  batches_.erase(b);
}

// Only if the change is still the latest one.
void HpbFreshness::add_updates(CommandResponse& r) {
  while (r.hpb_entry_count < params_.response_entries && !updates_ready_.empty()) {
    const SignedUpdate u = updates_ready_.front();
    updates_ready_.pop_front();
    const uint32_t* tracked = changed_.find(uint32_t(u.lba));
    if (!tracked || *tracked != u.ppa) continue;
    r.hpb_entries[r.hpb_entry_count++] = HpbEntryUpdate{uint32_t(u.lba), u.entry};
    ++stats_.response_entries_sent;
  }
}

}  // namespace ufs
