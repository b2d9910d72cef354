#include "host/hpb_host_cache.h"
#include <algorithm>
#include "host/hpb_valve_policy.h"
#include "protocol/ufs_protocol.h"

namespace ufs {

namespace {
using namespace hpb_op;  // protocol/ufs_protocol.h
constexpr uint64_t kPollingPs = 200ull * 1'000'000'000ull;  // Linux POLLING_INTERVAL_MS = 200
}  // namespace

HpbHostCache::HpbHostCache(const HpbHostParams& params, const HpbDeviceInfo& device, std::unique_ptr<HpbPolicy> policy)
    : params_(params), device_(device), policy_(std::move(policy)) {
  if (!policy_) {
    const bool host = params.policy == "host" || (params.policy == "auto" && device.host_control);
    if (params.policy == "hpbvalve")
      policy_ = std::make_unique<HpbValvePolicy>(uint64_t(params.valve_profile_kib) * 1024 / kEntryBytes,
                                                 params.valve_launch_reads);
    else if (host) policy_ = std::make_unique<HpbHostControlPolicy>();
    else policy_ = std::make_unique<HpbDeviceControlPolicy>();
  }
  subs_per_region_ = uint32_t(std::max<uint64_t>(1, device.region_blocks / device.subregion_blocks));
  const uint32_t subs = uint32_t((device.logical_blocks + device.subregion_blocks - 1) / device.subregion_blocks);
  subs_.resize(subs);
  regions_.resize((subs + subs_per_region_ - 1) / subs_per_region_);
  lru_.resize(uint32_t(regions_.size()));
  const uint64_t by_budget = uint64_t(params.budget_mib) * 1024 * 1024 / (device.subregion_blocks * kEntryBytes);
  const uint64_t by_device = uint64_t(device.max_active_regions + device.pinned_count) * subs_per_region_;
  capacity_subs_ = uint32_t(std::max<uint64_t>(1, std::min(by_budget, by_device)));
  // Boot-time population (seed 003): the sub-regions of the first populate_mib of LBAs.
  const uint64_t populate_blocks = uint64_t(params.populate_mib) * 256;
  for (uint32_t s = 0; s < subs && uint64_t(s) * device.subregion_blocks < populate_blocks; ++s)
    if (!request_fetch(s, false)) break;
}

// ---------------------------------------------------------------- the read path

bool HpbHostCache::prepare_read(uint64_t lba, uint32_t blocks, HostCommand& cmd, uint64_t now_ps, uint64_t& host_ns,
                                uint32_t app, bool foreground) {
  ++stats_.reads_seen;
  if (now_ps >= next_tick_ps_) tick(now_ps);
  const uint32_t s = uint32_t(lba / device_.subregion_blocks);
  if (s >= subs_.size()) return false;
  read_foreground_ = foreground;
  if (foreground) policy_->on_app(*this, app, now_ps);
  policy_->on_read(*this, s, now_ps);
  touch_region(region_of(s), now_ps);
  Sub& sub = subs_[s];
  const uint64_t offset = lba % device_.subregion_blocks;
  if (sub.state != SubState::Active || sub.usable_from_ps > now_ps || blocks > device_.max_read_blocks ||
      offset + blocks > sub.entries.size() || lba > 0xFFFFFFFFull)
    return false;
  for (uint64_t i = offset; i < offset + blocks; ++i)
    if (sub.dirty[i / 64] >> (i % 64) & 1) return false;
  // HPB READ (Linux ufshpb_set_hpb_read_to_upiu): LBA BE32 at 2, entry at 6..13, length at 14.
  auto& c = cmd.cdb;
  const uint64_t entry = sub.entries[offset];
  c.fill(0);
  c[0] = kHpbRead;
  for (int i = 0; i < 4; ++i) c[2 + i] = uint8_t(lba >> (24 - 8 * i));
  for (int i = 0; i < 8; ++i) c[6 + i] = uint8_t(entry >> (56 - 8 * i));
  c[14] = uint8_t(blocks);
  host_ns = params_.lookup_ns;
  stats_.lookup_ns += params_.lookup_ns;
  ++stats_.hpb_reads;
  return true;
}

void HpbHostCache::on_write(uint64_t lba, uint64_t blocks) {
  writes_in_flight_.emplace_back(lba, blocks);
  const uint64_t end = std::min<uint64_t>(lba + blocks, device_.logical_blocks);
  while (lba < end) {
    const uint32_t s = uint32_t(lba / device_.subregion_blocks);
    const uint64_t sub_end = std::min<uint64_t>(end, uint64_t(s + 1) * device_.subregion_blocks);
    Sub& sub = subs_[s];
    if (!sub.dirty.empty()) {
      for (uint64_t i = lba % device_.subregion_blocks; i < lba % device_.subregion_blocks + (sub_end - lba); ++i) {
        uint64_t& word = sub.dirty[i / 64];
        const uint64_t bit = 1ull << (i % 64);
        if (!(word & bit)) { word |= bit; ++sub.dirty_count; ++stats_.dirty_marks; }
      }
    }
    lba = sub_end;
  }
}

void HpbHostCache::on_write_done(uint64_t lba, uint64_t blocks) {
  const auto it = std::find(writes_in_flight_.begin(), writes_in_flight_.end(), std::make_pair(lba, blocks));
  if (it != writes_in_flight_.end()) writes_in_flight_.erase(it);
}

void HpbHostCache::on_response(const CommandResponse& r, uint64_t now_ps) {
  // Updated entries (the device's response_entries): the host's copy becomes current again,
  // unless the host has written the block since (a write still in flight is newer).
  for (uint32_t i = 0; i < r.hpb_entry_count && i < r.hpb_entries.size(); ++i) {
    const uint64_t lba = r.hpb_entries[i].lba;
    ++stats_.response_entries;
    const uint64_t s = lba / device_.subregion_blocks;
    if (s >= subs_.size()) continue;
    Sub& sub = subs_[s];
    const uint64_t offset = lba % device_.subregion_blocks;
    if (sub.state != SubState::Active || offset >= sub.entries.size()) continue;
    bool newer = false;
    for (const auto& [w, n] : writes_in_flight_) newer |= lba >= w && lba < w + n;
    if (newer) continue;
    sub.entries[offset] = r.hpb_entries[i].entry;
    uint64_t& word = sub.dirty[offset / 64];
    const uint64_t bit = 1ull << (offset % 64);
    if (word & bit) {
      word &= ~bit;
      --sub.dirty_count;
    }
    ++stats_.response_entries_used;
  }
  if (!r.hpb_update_alert || r.hpb_sense_descriptor[0] != kSenseDescriptorType) return;
  ++stats_.recommendations;
  const uint8_t* d = r.hpb_sense_descriptor.data();
  if (d[2] == kRspDeviceReset) {  // the device dropped everything
    for (uint32_t region = 0; region < regions_.size(); ++region) drop_region(region, false);
    return;
  }
  if (d[2] == kRspRegionUpdate) policy_->on_sense(*this, d);
}

// ---------------------------------------------------------------- cache management

void HpbHostCache::touch_region(uint32_t region, uint64_t now_ps) {
  Region& g = regions_[region];
  g.last_read_ps = now_ps;
  g.expiries = params_.read_timeout_expiries;
  if (g.in_lru && lru_.back() != region) {  // most recently used at the back
    lru_.erase(region);
    lru_.push_back(region);
  }
}

bool HpbHostCache::request_fetch(uint32_t s, bool enforce_thresholds, bool device_stale) {
  if (s >= subs_.size()) return false;
  Sub& sub = subs_[s];
  if (sub.state == SubState::Queued || sub.state == SubState::Fetching) return true;
  if (sub.state == SubState::Active) {  // fetch again when the host wrote into it or the device says so
    if ((sub.dirty_count || device_stale) && !sub.refetch_queued) {
      sub.refetch_queued = true;
      fetch_queue_.push_back(s);
    }
    return true;
  }
  const uint32_t region = region_of(s);
  {
    if (cached_subs_ >= capacity_subs_ && !evict_for(region, enforce_thresholds)) return false;
    if (!regions_[region].in_lru && !pinned(region)) {
      uint32_t active_regions = 0;
      for (uint32_t r : lru_) active_regions += regions_[r].active_subs + regions_[r].queued_subs > 0;
      if (active_regions >= device_.max_active_regions && !evict_for(region, enforce_thresholds)) return false;
    }
    ++cached_subs_;
    ++regions_[region].queued_subs;
    if (!regions_[region].in_lru) { regions_[region].in_lru = true; lru_.push_back(region); }
  }
  sub.state = SubState::Queued;
  fetch_queue_.push_back(s);
  return true;
}

// Make room for one sub-region of `region`: evict the least recently used other region
// (host control mode: only one with few reads, and only for a region with many).
bool HpbHostCache::evict_for(uint32_t region, bool enforce_thresholds) {
  if (enforce_thresholds && regions_[region].reads < params_.eviction_enter_reads) return false;
  const int64_t chosen = policy_->choose_victim(*this, region);
  if (chosen >= 0) {
    drop_region(uint32_t(chosen), false);
    ++stats_.evictions;
    return true;
  }
  if (policy_->name() == std::string("hpbvalve")) return false;  // it never evicts the active foreground
  for (uint32_t victim : lru_) {
    if (victim == region || pinned(victim)) continue;
    if (enforce_thresholds && regions_[victim].reads > params_.eviction_exit_reads) continue;
    if (regions_[victim].queued_subs) continue;  // being fetched: keep
    drop_region(victim, device_.host_control || policy_->name() == std::string("host"));
    ++stats_.evictions;
    return true;
  }
  return false;
}

void HpbHostCache::release(uint32_t s) {
  Sub& sub = subs_[s];
  if (sub.state == SubState::Inactive) return;
  if (sub.refetch_queued) {
    fetch_queue_.erase(std::find(fetch_queue_.begin(), fetch_queue_.end(), s));
    sub.refetch_queued = false;
  }
  if (sub.state == SubState::Active || sub.state == SubState::Fetching) {
    stats_.memory_bytes -= sub.entries.capacity() * sizeof(uint64_t);
    std::vector<uint64_t>().swap(sub.entries);
    std::vector<uint64_t>().swap(sub.dirty);
    --regions_[region_of(s)].active_subs;
  } else if (sub.state == SubState::Queued) {
    --regions_[region_of(s)].queued_subs;
    fetch_queue_.erase(std::find(fetch_queue_.begin(), fetch_queue_.end(), s));
  }
  sub.state = SubState::Inactive;
  sub.dirty_count = 0;
  sub.reads = 0;
  --cached_subs_;
}

void HpbHostCache::drop_region(uint32_t region, bool tell_device) {
  Region& g = regions_[region];
  const uint32_t first = region * subs_per_region_;
  bool had = false;
  for (uint32_t s = first; s < first + subs_per_region_ && s < subs_.size(); ++s) {
    had |= subs_[s].state != SubState::Inactive;
    release(s);
  }
  g.reads = 0;
  if (g.in_lru && g.active_subs == 0 && g.queued_subs == 0) {
    lru_.erase(region);
    g.in_lru = false;
  }
  if (had && tell_device) inactivate_queue_.push_back(region);
}

uint64_t HpbHostCache::shrink(uint64_t bytes) {
  const uint64_t before = stats_.memory_bytes;
  const bool valve = policy_->name() == std::string("hpbvalve");
  while (before - stats_.memory_bytes < bytes) {
    int64_t victim = policy_->choose_victim(*this, UINT32_MAX);
    if (victim < 0 && !valve) {  // the cache's own LRU order (HPBvalve never gives up its active foreground)
      for (uint32_t r : lru_)
        if (!pinned(r) && regions_[r].queued_subs == 0) { victim = r; break; }
    }
    if (victim < 0) break;
    drop_region(uint32_t(victim), device_.host_control || policy_->name() == std::string("host"));
    ++stats_.regulator_drops;
  }
  return before - stats_.memory_bytes;
}

void HpbHostCache::tick(uint64_t now_ps) {
  next_tick_ps_ = now_ps + kPollingPs;
  policy_->on_tick(*this, now_ps);
}

// ---------------------------------------------------------------- map commands

bool HpbHostCache::next_command(uint32_t outstanding, HostCommand& cmd) {
  if (in_flight_ >= params_.map_requests_in_flight || outstanding > params_.idle_outstanding) return false;
  cmd = HostCommand{};
  cmd.lun = device_.lun;
  auto& c = cmd.cdb;
  if (!inactivate_queue_.empty()) {
    const uint32_t region = inactivate_queue_.front();
    inactivate_queue_.pop_front();
    c[0] = kWriteBuffer;
    c[1] = kWriteBufferInactivate;
    put_be16(&c[2], region);
    cmd.direction = DataDirection::None;
    ++stats_.write_buffers;
    ++in_flight_;
    return true;
  }
  if (fetch_queue_.empty()) return false;
  const uint32_t s = fetch_queue_.front();
  fetch_queue_.pop_front();
  Sub& sub = subs_[s];
  Region& g = regions_[region_of(s)];
  if (sub.state == SubState::Queued) {
    --g.queued_subs;
    ++g.active_subs;
    const uint64_t entries = std::min<uint64_t>(device_.subregion_blocks, device_.logical_blocks - uint64_t(s) * device_.subregion_blocks);
    sub.entries.assign(entries, 0);
    sub.dirty.assign((entries + 63) / 64, 0);
    stats_.memory_bytes += sub.entries.capacity() * sizeof(uint64_t);
    stats_.peak_memory_bytes = std::max(stats_.peak_memory_bytes, stats_.memory_bytes);
  } else {  // a re-fetch: writes from now on dirty its entries again
    sub.refetch_queued = false;
    std::fill(sub.dirty.begin(), sub.dirty.end(), 0);
    sub.dirty_count = 0;
  }
  sub.state = SubState::Fetching;
  const uint32_t alloc = uint32_t(sub.entries.size() * kEntryBytes);
  // READ BUFFER (Linux ufshpb_set_read_buf_cmd): region BE16 at 2, sub-region BE16 at 4, length BE24 at 6.
  c[0] = kReadBuffer;
  c[1] = kReadBufferMapId;
  put_be16(&c[2], region_of(s));
  put_be16(&c[4], s % subs_per_region_);
  c[6] = uint8_t(alloc >> 16);
  c[7] = uint8_t(alloc >> 8);
  c[8] = uint8_t(alloc);
  cmd.direction = DataDirection::Read;
  cmd.expected_length = alloc;
  ++in_flight_;
  return true;
}

uint64_t HpbHostCache::on_command_done(const HostCommand& cmd, const CommandResponse& r, const uint8_t* data,
                                       uint32_t bytes, uint64_t now_ps) {
  --in_flight_;
  if (cmd.cdb[0] != kReadBuffer) return 0;
  const uint32_t s = get_be16(&cmd.cdb[2]) * subs_per_region_ + get_be16(&cmd.cdb[4]);
  Sub& sub = subs_[s];
  if (sub.state != SubState::Fetching) return 0;
  if (r.status != scsi_status::kGood || bytes < sub.entries.size() * kEntryBytes) {
    ++stats_.read_buffer_failures;
    sub.state = SubState::Active;
    release(s);
    return 0;
  }
  for (size_t i = 0; i < sub.entries.size(); ++i) {
    uint64_t e = 0;
    for (int b = 0; b < 8; ++b) e = e << 8 | data[i * kEntryBytes + size_t(b)];
    sub.entries[i] = e;
  }
  ++stats_.read_buffers;
  ++stats_.activations;
  stats_.read_buffer_bytes += bytes;
  const uint64_t copy_ns = uint64_t(bytes) * 1000 / params_.map_copy_mb_per_s;  // bytes / (MB/s) in ns
  stats_.map_copy_ns += copy_ns;
  sub.usable_from_ps = now_ps + copy_ns * 1000;
  sub.state = SubState::Active;
  sub.reads = 0;
  return copy_ns;
}

// ---------------------------------------------------------------- policies

void HpbDeviceControlPolicy::on_sense(HpbHostCache& cache, const uint8_t* d) {
  const uint32_t inactive = std::min<uint32_t>(d[5], 2), active = std::min<uint32_t>(d[4], 2);
  for (uint32_t i = 0; i < inactive; ++i) {
    const uint32_t region = get_be16(d + 14 + 2 * i);
    if (region < cache.regions() && !cache.pinned(region)) {
      cache.drop_region(region, false);
      ++cache.mutable_stats().device_inactivations;
    }
  }
  for (uint32_t i = 0; i < active; ++i) {
    const uint32_t s = get_be16(d + 6 + 4 * i) * cache.subs_per_region() + get_be16(d + 8 + 4 * i);
    if (s < cache.subregions()) cache.request_fetch(s, false, true);
  }
}

void HpbHostControlPolicy::on_read(HpbHostCache& cache, uint32_t s, uint64_t) {
  ++cache.region_reads(cache.region_of(s));
  const auto st = cache.state(s);
  if (st == HpbHostCache::SubState::Queued || st == HpbHostCache::SubState::Fetching) return;
  if (st == HpbHostCache::SubState::Active && !cache.has_dirty(s)) return;
  if (++cache.sub_reads(s) < cache.params().activation_reads) return;
  if (cache.request_fetch(s, true)) cache.sub_reads(s) = 0;
}

// Host control mode ignores the device's recommendations, except a reset.
void HpbHostControlPolicy::on_sense(HpbHostCache&, const uint8_t*) {}

void HpbHostControlPolicy::on_tick(HpbHostCache& cache, uint64_t now_ps) {
  const uint64_t timeout = uint64_t(cache.params().read_timeout_ms) * 1'000'000'000ull;
  std::vector<uint32_t> expired;
  for (uint32_t r : cache.lru()) {
    if (cache.pinned(r) || now_ps - cache.region_last_read(r) < timeout) continue;
    cache.region_reads(r) = 0;  // Linux ufshpb_read_to_handler: the counter restarts
    if (cache.region_expiries(r) == 0 || --cache.region_expiries(r) == 0) expired.push_back(r);
  }
  for (uint32_t r : expired) {
    cache.drop_region(r, true);
    ++cache.mutable_stats().timeouts;
  }
}

}  // namespace ufs
