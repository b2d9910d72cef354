#include "hpb/hpb_device.h"
#include <algorithm>
#include "scsi/scsi_command.h"

namespace ufs {

namespace {
constexpr uint32_t kChunkEntries = 4096 / hpb_op::kEntryBytes;  // entries per 4 KiB control area
}  // namespace

HpbDevice::HpbDevice(Hal& hal, HpbFtl& ftl, const HpbDeviceParams& params)
    : hal_(hal), ftl_(ftl), params_(params), enabled_(params.enabled),
      subregion_blocks_(params.subregion_blocks()),
      subregions_per_region_(uint32_t(params.region_blocks() / params.subregion_blocks())),
      tags_(256) {
  const uint64_t logical = ftl.hpb_logical_blocks();
  const uint32_t subregions = uint32_t((logical + subregion_blocks_ - 1) / subregion_blocks_);
  regions_ = (subregions + subregions_per_region_ - 1) / subregions_per_region_;
  dirty_.assign(subregions, 1);  // nothing published yet
  generation_.assign(subregions, 0);
  change_count_.assign(subregions, 0);
  update_recommended_.assign(subregions, 0);
  miss_count_.assign(subregions, 0);
  contiguous_.resize(subregions);
  region_active_.assign(regions_, 0);
  for (uint32_t r = params.pinned_start_region; r < params.pinned_start_region + params.pinned_regions && r < regions_; ++r)
    region_active_[r] = 1;
}

void HpbDevice::on_power_up() {
  // The session key is new: every entry handed out before is dead. Start over.
  std::fill(dirty_.begin(), dirty_.end(), 1);
  std::fill(update_recommended_.begin(), update_recommended_.end(), 0);
  for (auto& c : contiguous_) std::vector<uint64_t>().swap(c);
  global_generation_ = 0;
  changed_.clear();
  updates_ready_.clear();
}

void HpbDevice::fail(const HostCommand& c, uint8_t asc_code) {
  ++stats_.check_conditions;
  tags_[c.tag].kind = Kind::Idle;
  ftl_.hpb_fail(c, sense_key::kIllegalRequest, asc_code);
}

void HpbDevice::on_command(const HostCommand& c) {
  if (!enabled_) { fail(c, asc::kInvalidOpcode); return; }  // fHPBEn cleared: no HPB commands
  switch (c.cdb[0]) {
    case hpb_op::kHpbRead: start_hpb_read(c); return;
    case hpb_op::kReadBuffer: start_read_buffer(c); return;
    default: start_write_buffer(c); return;
  }
}

// ---------------------------------------------------------------- HPB READ

void HpbDevice::start_hpb_read(const HostCommand& c) {
  hal_.charge_cycles(params_.cycles_hpb_read);
  const uint64_t lba = get_be32(c.cdb.data() + 2);
  const uint64_t entry = get_be64(c.cdb.data() + 6);
  const uint32_t n = c.cdb[14];
  const uint8_t read_id = c.cdb[15];
  const uint64_t logical = ftl_.hpb_logical_blocks();
  if (n == 0 || n > params_.max_read_blocks() || c.direction != DataDirection::Read) {
    fail(c, asc::kInvalidFieldInCdb);
    return;
  }
  if (lba >= logical || n > logical - lba) { fail(c, asc::kLbaOutOfRange); return; }
  if (c.expected_length < n * uint32_t(kSectorBytes)) { fail(c, asc::kInvalidFieldInCdb); return; }
  ++stats_.hpb_reads;
  stats_.hpb_read_blocks += n;
  TagState& t = tags_[c.tag];
  t.kind = Kind::Verify;
  t.command = c;
  t.lba = lba;
  t.blocks = n;
  t.failed = 0;
  t.ppas.clear();
  t.subregion = uint32_t(lba / subregion_blocks_);
  t.last_subregion = uint32_t((lba + n - 1) / subregion_blocks_);
  t.generation = generation_[t.subregion];
  t.last_generation = generation_[t.last_subregion];
  t.changes = change_count_[t.subregion];
  t.last_changes = change_count_[t.last_subregion];
  ftl_.hpb_claim_tag(c.tag, c.lun);
  if (dirty_[t.subregion] || dirty_[t.last_subregion]) {  // the first-line check: no crypto needed
    ++stats_.rejected_dirty;
    fallback(c.tag);
    return;
  }
  Prefetch& p = prefetch_[read_id];
  if (read_id != 0 && p.valid && p.lba == lba && p.entries.size() == n) {
    // HPB 2.0: one entry per block from the WRITE BUFFER 0x02 with this read id; each is verified.
    p.valid = false;
    t.ppas.assign(n, hpb_op::kNoPpn);
    t.pending = n;
    ftl_.hpb_verify_time(c.tag, true);
    for (uint32_t i = 0; i < n; ++i) {
      HpbCryptoJob job;
      job.kind = HpbCryptoJob::Verify;
      job.lba = lba + i;
      job.lun = c.lun;
      job.generation = generation_[(lba + i) / subregion_blocks_];
      job.entry = p.entries[i];
      job.cookie = kCryptoVerify | uint64_t(c.tag) << 32 | i;
      hal_.submit_crypto(job);
    }
    return;
  }
  if (t.subregion != t.last_subregion) {  // one entry cannot vouch for a run across sub-regions
    ++stats_.rejected_not_contiguous;
    fallback(c.tag);
    return;
  }
  t.pending = 1;
  ftl_.hpb_verify_time(c.tag, true);
  HpbCryptoJob job;
  job.kind = HpbCryptoJob::Verify;
  job.lba = lba;
  job.lun = c.lun;
  job.generation = t.generation;
  job.entry = entry;
  job.cookie = kCryptoVerify | uint64_t(c.tag) << 32;
  hal_.submit_crypto(job);
}

void HpbDevice::verify_done(uint8_t tag, const HpbCryptoResult& r) {
  TagState& t = tags_[tag];
  const uint32_t index = uint32_t(r.cookie & 0xFFFFFFFFu);
  if (!r.valid) ++t.failed;
  else if (!t.ppas.empty()) t.ppas[index] = r.ppn;
  else t.ppa = r.ppn;
  if (--t.pending == 0) finish_verify(tag);
}

void HpbDevice::finish_verify(uint8_t tag) {
  TagState& t = tags_[tag];
  ftl_.hpb_verify_time(tag, false);
  if (t.failed) { ++stats_.rejected_forged; fallback(tag); return; }
  if (!still_fresh(tag)) { ++stats_.rejected_stale_in_flight; fallback(tag); return; }
  if (!changed_.empty()) {  // response_entries: an entry older than a tracked change is stale
    bool ok = true;
    if (t.ppas.empty()) ok = changed_entry_ok(t.lba, t.ppa);
    else for (uint32_t i = 0; i < t.blocks && ok; ++i) ok = changed_entry_ok(t.lba + i, t.ppas[i]);
    if (!ok) { ++stats_.rejected_updated; fallback(tag); return; }
  }
  if (t.ppas.empty()) {
    if (t.ppa == hpb_op::kNoPpn) { ++stats_.rejected_no_ppn; fallback(tag); return; }
    // HPB 2.0 run from one entry: the device's own record of the published sub-region
    // says whether the following blocks are physically next to it.
    const uint32_t first = uint32_t(t.lba % subregion_blocks_);
    const std::vector<uint64_t>& bits = contiguous_[t.subregion];
    for (uint32_t i = first; i + 1 < first + t.blocks; ++i) {
      if (bits.empty() || !(bits[i / 64] >> (i % 64) & 1)) {
        ++stats_.rejected_not_contiguous;
        fallback(tag);
        return;
      }
    }
  } else if (std::find(t.ppas.begin(), t.ppas.end(), hpb_op::kNoPpn) != t.ppas.end()) {
    ++stats_.rejected_no_ppn;
    fallback(tag);
    return;
  }
  stats_.verified += t.ppas.empty() ? 1 : t.ppas.size();
  t.kind = Kind::Read;
  ftl_.hpb_start_read(t.command, t.lba, t.blocks, true);
}

bool HpbDevice::still_fresh(uint8_t tag) const {
  const TagState& t = tags_[tag];
  if (dirty_[t.subregion] || generation_[t.subregion] != t.generation) return false;
  if (dirty_[t.last_subregion] || generation_[t.last_subregion] != t.last_generation) return false;
  if (change_count_[t.subregion] != t.changes || change_count_[t.last_subregion] != t.last_changes) return false;
  if (!t.ppas.empty())  // multi-entry reads may span more sub-regions
    for (uint32_t s = t.subregion + 1; s < t.last_subregion; ++s) if (dirty_[s]) return false;
  return true;
}

void HpbDevice::fallback(uint8_t tag) {
  TagState& t = tags_[tag];
  ++stats_.fallbacks;
  t.kind = Kind::Read;
  t.ppas.clear();
  ftl_.hpb_start_read(t.command, t.lba, t.blocks, false);
}

// ---------------------------------------------------------------- READ BUFFER (publish a sub-region)

void HpbDevice::start_read_buffer(const HostCommand& c) {
  hal_.charge_cycles(params_.cycles_hpb_read);
  const uint8_t* cdb = c.cdb.data();
  if (cdb[1] != hpb_op::kReadBufferMapId || c.direction != DataDirection::Read) {
    fail(c, asc::kInvalidFieldInCdb);
    return;
  }
  const uint32_t region = get_be16(cdb + 2), sub = get_be16(cdb + 4), alloc = get_be24(cdb + 6);
  const uint64_t s = uint64_t(region) * subregions_per_region_ + sub;
  if (region >= regions_ || sub >= subregions_per_region_ || s >= dirty_.size()) {
    fail(c, asc::kInvalidFieldInCdb);
    return;
  }
  const uint64_t first = s * subregion_blocks_;
  const uint32_t entries = uint32_t(std::min<uint64_t>(subregion_blocks_, ftl_.hpb_logical_blocks() - first));
  if (alloc == 0 || alloc % hpb_op::kEntryBytes) { fail(c, asc::kInvalidFieldInCdb); return; }
  const uint32_t n = std::min(entries, alloc / hpb_op::kEntryBytes);
  if (c.expected_length < n * hpb_op::kEntryBytes) { fail(c, asc::kInvalidFieldInCdb); return; }
  ++stats_.read_buffers;
  publish_lun_ = c.lun;
  TagState& t = tags_[c.tag];
  t.kind = Kind::ReadBufferLoad;
  t.command = c;
  t.subregion = t.last_subregion = uint32_t(s);
  t.lba = first;
  t.entries = n;
  t.chunk = 0;
  t.prev_ppa = hpb_op::kNoPpn;
  t.counted_loads = false;
  ftl_.hpb_claim_tag(c.tag, c.lun);
  publish(uint32_t(s));
  t.generation = t.last_generation = generation_[s];
  read_buffer_pages_ready(c.tag);
}

// A sub-region becomes clean under a fresh generation (unless it already was: its
// entries are then the same as those handed out before).
void HpbDevice::publish(uint32_t s) {
  update_recommended_[s] = 0;
  miss_count_[s] = 0;
  const uint32_t region = s / subregions_per_region_;
  if (!region_active_[region]) activate_region(region, false, s % subregions_per_region_);
  if (!dirty_[s] && !has_changes(s)) return;
  dirty_[s] = 0;
  drop_changes(s);  // the new generation's entries carry every change; older entries die with the old generation
  generation_[s] = ++global_generation_;
  contiguous_[s].assign((subregion_blocks_ + 63) / 64, 0);
}

void HpbDevice::read_buffer_pages_ready(uint8_t tag) {
  TagState& t = tags_[tag];
  const uint64_t step = ftl_.hpb_map_page_entries();
  uint32_t missing = 0;
  for (uint64_t l = t.lba - t.lba % step; l < t.lba + t.entries; l += step)
    if (!ftl_.hpb_map_page_ready(l)) ++missing;
  if (!t.counted_loads) { stats_.read_buffer_map_loads += missing; t.counted_loads = true; }
  if (missing) { t.kind = Kind::ReadBufferLoad; return; }
  sign_chunk(tag);
}

void HpbDevice::on_map_page_loaded() {
  for (uint32_t tag = 0; tag < tags_.size(); ++tag)
    if (tags_[tag].kind == Kind::ReadBufferLoad) read_buffer_pages_ready(uint8_t(tag));
}

void HpbDevice::sign_chunk(uint8_t tag) {
  TagState& t = tags_[tag];
  const uint32_t start = t.chunk * kChunkEntries;
  const uint32_t count = std::min(kChunkEntries, t.entries - start);
  const uint32_t s = t.subregion;
  const bool record = !dirty_[s] && generation_[s] == t.generation;  // contiguity of what is still published
  t.kind = Kind::ReadBufferSign;
  t.data.assign(size_t(count) * hpb_op::kEntryBytes, 0);
  t.pending = count;
  hal_.l2p_sram_access(4 * count, false);
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t lba = t.lba + start + i;
    const uint32_t ppa = ftl_.hpb_mapping(lba);
    hal_.charge_cycles(params_.cycles_sign_entry);
    const uint32_t offset = start + i;
    if (record && offset > 0 && ppa != hpb_op::kNoPpn && t.prev_ppa != hpb_op::kNoPpn && ppa == t.prev_ppa + 1)
      contiguous_[s][(offset - 1) / 64] |= 1ull << ((offset - 1) % 64);
    t.prev_ppa = ppa;
    HpbCryptoJob job;
    job.kind = HpbCryptoJob::Sign;
    job.lba = lba;
    job.ppn = ppa;
    job.lun = t.command.lun;
    job.generation = t.generation;
    job.cookie = kCryptoSign | uint64_t(tag) << 32 | i;
    hal_.submit_crypto(job);
  }
  stats_.entries_signed += count;
}

void HpbDevice::on_crypto_done(const HpbCryptoResult& r) {
  if (r.cookie & kCryptoUpdate) {  // an updated entry signed: it waits for a RESPONSE
    const uint64_t lba = r.cookie & 0xFFFFFFFFull;
    const auto it = changed_.find(lba);
    if (r.valid && it != changed_.end() && it->second == r.ppn) updates_ready_.push_back({lba, r.ppn, r.entry});
    return;
  }
  const uint8_t tag = uint8_t(r.cookie >> 32);
  TagState& t = tags_[tag];
  if (r.cookie & kCryptoVerify) {
    if (t.kind == Kind::Verify) verify_done(tag, r);
    return;
  }
  if (!(r.cookie & kCryptoSign) || t.kind != Kind::ReadBufferSign) return;
  const uint32_t index = uint32_t(r.cookie & 0xFFFFFFFFu);
  put_be64(t.data.data() + size_t(index) * hpb_op::kEntryBytes, r.valid ? r.entry : 0);
  if (--t.pending) return;
  t.kind = Kind::ReadBufferSend;
  const uint32_t bytes = uint32_t(t.data.size());
  hal_.write_buffer_bytes(control_address(tag), t.data.data(), bytes);
  hal_.send_data_in(tag, t.chunk * 4096, control_address(tag), bytes, kToken);
}

void HpbDevice::on_data_in_done(uint8_t tag) {
  TagState& t = tags_[tag];
  if (t.kind != Kind::ReadBufferSend) return;
  ++t.chunk;
  if (t.chunk * kChunkEntries >= t.entries) { ftl_.hpb_respond(tag, t.command.lun); return; }
  sign_chunk(tag);
}

// ---------------------------------------------------------------- WRITE BUFFER

void HpbDevice::start_write_buffer(const HostCommand& c) {
  hal_.charge_cycles(params_.cycles_hpb_read);
  const uint8_t* cdb = c.cdb.data();
  switch (cdb[1]) {
    case hpb_op::kWriteBufferInactivate: {
      const uint32_t region = get_be16(cdb + 2);
      if (region >= regions_) { fail(c, asc::kInvalidFieldInCdb); return; }
      ++stats_.write_buffer_inactivate;
      if (!pinned(region)) deactivate_region(region);
      tags_[c.tag].kind = Kind::Idle;
      ftl_.hpb_respond(c.tag, c.lun);
      return;
    }
    case hpb_op::kWriteBufferInactivateAll:
      if (params_.hpb_1_0()) { fail(c, asc::kInvalidFieldInCdb); return; }
      ++stats_.write_buffer_inactivate_all;
      for (uint32_t r = 0; r < regions_; ++r) if (!pinned(r)) deactivate_region(r);
      tags_[c.tag].kind = Kind::Idle;
      ftl_.hpb_respond(c.tag, c.lun);
      return;
    case hpb_op::kWriteBufferPrefetch: {
      if (params_.hpb_1_0()) { fail(c, asc::kInvalidFieldInCdb); return; }
      const uint64_t lba = get_be32(cdb + 2);
      const uint8_t read_id = cdb[6];
      const uint32_t len = get_be16(cdb + 7);
      const uint32_t n = len / hpb_op::kEntryBytes;
      if (read_id == 0 || c.direction != DataDirection::Write) { fail(c, asc::kInvalidFieldInCdb); return; }
      if (len == 0 || len % hpb_op::kEntryBytes || n > params_.max_read_blocks() || c.expected_length < len) {
        fail(c, asc::kParamListLength);
        return;
      }
      const uint64_t logical = ftl_.hpb_logical_blocks();
      if (lba >= logical || n > logical - lba) { fail(c, asc::kLbaOutOfRange); return; }
      TagState& t = tags_[c.tag];
      t.kind = Kind::Prefetch;
      t.command = c;
      t.lba = lba;
      t.blocks = n;
      ftl_.hpb_claim_tag(c.tag, c.lun);
      hal_.request_data_out(c.tag, 0, control_address(c.tag), len, kToken);
      return;
    }
    default:
      fail(c, asc::kInvalidFieldInCdb);
      return;
  }
}

void HpbDevice::on_data_out_done(uint8_t tag) {
  TagState& t = tags_[tag];
  if (t.kind != Kind::Prefetch) return;
  ++stats_.write_buffer_prefetch;
  Prefetch& p = prefetch_[t.command.cdb[6]];
  p.valid = true;
  p.lba = t.lba;
  p.entries.resize(t.blocks);
  uint8_t list[4096];
  hal_.read_buffer_bytes(control_address(tag), list, t.blocks * hpb_op::kEntryBytes);
  for (uint32_t i = 0; i < t.blocks; ++i) p.entries[i] = get_be64(list + i * hpb_op::kEntryBytes);
  t.kind = Kind::Idle;
  ftl_.hpb_respond(tag, t.command.lun);
}

// ---------------------------------------------------------------- dirty tracking, regions, recommendations

void HpbDevice::mark_dirty(uint32_t s) {
  hal_.charge_cycles(params_.cycles_dirty_mark);
  ++stats_.dirty_marks;
  dirty_[s] = 1;
  drop_changes(s);
  std::vector<uint64_t>().swap(contiguous_[s]);
  // Device control mode: the host holds this sub-region; recommend fetching it again.
  const uint32_t region = s / subregions_per_region_;
  if (!params_.host_control() && region_active_[region] && !update_recommended_[s]) {
    update_recommended_[s] = 1;
    to_activate_.emplace_back(region, s % subregions_per_region_);
    ++stats_.activate_recommendations;
  }
}

// response_entries (HotStorage'17's prototype): a host write keeps its published sub-region
// clean. The device tracks the changed entry (first "in the write cache", then its new
// PPA once programmed), rejects HPB READs whose entry predates the change, and signs the
// new entry for a later RESPONSE; the host, which marked the entry dirty when it wrote,
// takes it back. Moves of entries it does not track (GC, wear levelling) and UNMAP dirty
// the sub-region as JEDEC HPB does; so does a full tracking table.
void HpbDevice::track_change(uint64_t lba, uint32_t value) {
  const uint32_t s = uint32_t(lba / subregion_blocks_);
  auto it = changed_.find(lba);
  const bool host_write = L2pMap::is_cached(value);
  if (value == L2pMap::kUnmapped || (it == changed_.end() && !host_write)) { mark_dirty(s); return; }
  if (it == changed_.end()) {
    if (changed_.size() >= params_.response_delta_entries) { ++stats_.delta_overflows; mark_dirty(s); return; }
    it = changed_.emplace(lba, kInCache).first;
    stats_.delta_peak = std::max<uint64_t>(stats_.delta_peak, changed_.size());
  }
  hal_.charge_cycles(params_.cycles_dirty_mark);
  ++stats_.delta_changes;
  ++change_count_[s];
  // The run record around this entry no longer holds.
  std::vector<uint64_t>& bits = contiguous_[s];
  const uint64_t offset = lba % subregion_blocks_;
  if (!bits.empty()) {
    bits[offset / 64] &= ~(1ull << (offset % 64));
    if (offset > 0) bits[(offset - 1) / 64] &= ~(1ull << ((offset - 1) % 64));
  }
  if (host_write) { it->second = kInCache; return; }
  it->second = value;  // programmed: sign the new entry for the host
  hal_.charge_cycles(params_.cycles_sign_entry);
  HpbCryptoJob job;
  job.kind = HpbCryptoJob::Sign;
  job.lba = lba;
  job.ppn = value;
  job.lun = publish_lun_;
  job.generation = generation_[s];
  job.cookie = kCryptoUpdate | lba;
  hal_.submit_crypto(job);
  ++stats_.entries_signed;
}

bool HpbDevice::has_changes(uint32_t s) const {
  if (changed_.empty()) return false;
  const auto it = changed_.lower_bound(uint64_t(s) * subregion_blocks_);
  return it != changed_.end() && it->first < uint64_t(s + 1) * subregion_blocks_;
}

void HpbDevice::drop_changes(uint32_t s) {
  if (changed_.empty()) return;
  changed_.erase(changed_.lower_bound(uint64_t(s) * subregion_blocks_),
                 changed_.lower_bound(uint64_t(s + 1) * subregion_blocks_));
}

bool HpbDevice::changed_entry_ok(uint64_t lba, uint32_t ppa) const {
  const auto it = changed_.find(lba);
  return it == changed_.end() || it->second == ppa;
}

void HpbDevice::on_map_miss(uint64_t lba) {
  if (params_.host_control()) return;
  const uint32_t s = uint32_t(lba / subregion_blocks_);
  // A clean published sub-region is already in the host: its misses come from reads the
  // host sent without an entry (too long, not contiguous), and fetching it again would not help.
  if (!dirty_[s] && region_active_[s / subregions_per_region_]) return;
  if (update_recommended_[s] || ++miss_count_[s] < params_.dcm_activate_misses) return;
  miss_count_[s] = 0;
  update_recommended_[s] = 1;
  const uint32_t region = s / subregions_per_region_;
  activate_region(region, true, s % subregions_per_region_);
}

void HpbDevice::activate_region(uint32_t region, bool recommend, uint32_t subregion) {
  if (!region_active_[region]) {
    if (!pinned(region)) {
      if (active_lru_.size() >= params_.max_active_regions) {
        const uint32_t victim = active_lru_.front();
        deactivate_region(victim);
        if (!params_.host_control()) {
          to_inactivate_.push_back(victim);
          ++stats_.inactivate_recommendations;
        }
      }
      active_lru_.push_back(region);
    }
    region_active_[region] = 1;
  }
  if (recommend) {
    to_activate_.emplace_back(region, subregion);
    ++stats_.activate_recommendations;
  }
}

// The host no longer holds the region: its entries are ignored from now on.
void HpbDevice::deactivate_region(uint32_t region) {
  if (!region_active_[region]) return;
  region_active_[region] = 0;
  const auto it = std::find(active_lru_.begin(), active_lru_.end(), region);
  if (it != active_lru_.end()) active_lru_.erase(it);
  const uint32_t first = region * subregions_per_region_;
  for (uint32_t s = first; s < first + subregions_per_region_ && s < dirty_.size(); ++s) {
    dirty_[s] = 1;
    drop_changes(s);
    update_recommended_[s] = 0;
    std::vector<uint64_t>().swap(contiguous_[s]);
  }
}

void HpbDevice::on_response(CommandResponse& r) {
  tags_[r.tag].kind = Kind::Idle;
  if (r.status != scsi_status::kGood) return;
  // Updated entries ride on any good response, if the change is still the latest one.
  while (r.hpb_entry_count < params_.response_entries && !updates_ready_.empty()) {
    const SignedUpdate u = updates_ready_.front();
    updates_ready_.pop_front();
    const auto it = changed_.find(u.lba);
    if (it == changed_.end() || it->second != u.ppa) continue;
    r.hpb_entries[r.hpb_entry_count++] = HpbEntryUpdate{uint32_t(u.lba), u.entry};
    ++stats_.response_entries_sent;
  }
  if (!reset_pending_ && to_activate_.empty() && to_inactivate_.empty()) return;
  // Sense data descriptor 0x80 (the Linux driver's struct utp_hpb_rsp from desc_type on).
  auto& d = r.hpb_sense_descriptor;
  d.fill(0);
  d[0] = hpb_op::kSenseDescriptorType;
  d[1] = 0x10;
  d[3] = r.lun;
  if (reset_pending_) {
    reset_pending_ = false;
    d[2] = hpb_op::kRspDeviceReset;
  } else {
    d[2] = hpb_op::kRspRegionUpdate;
    uint8_t act = 0, inact = 0;
    while (act < 2 && !to_activate_.empty()) {
      put_be16(&d[6 + 4 * act], to_activate_.front().first);
      put_be16(&d[8 + 4 * act], to_activate_.front().second);
      to_activate_.pop_front();
      ++act;
    }
    while (inact < 2 && !to_inactivate_.empty()) {
      put_be16(&d[14 + 2 * inact], to_inactivate_.front());
      to_inactivate_.pop_front();
      ++inact;
    }
    d[4] = act;
    d[5] = inact;
  }
  r.hpb_update_alert = true;
  ++stats_.responses_with_hpb_sense;
}

// ---------------------------------------------------------------- QUERY

void HpbDevice::visit_stats(StatsVisitor& v) const {
  const HpbStats& h = stats_;
  v.count("hpb.version", params_.version, "", "wHPBVersion");
  v.text("hpb.control_mode", params_.control_mode, "bHPBControl: device or host control mode");
  v.count("hpb.device.hpb_reads", h.hpb_reads, "commands", "HPB READ commands accepted");
  v.count("hpb.device.hpb_read_blocks", h.hpb_read_blocks, "blocks", "blocks HPB READs asked for");
  v.count("hpb.device.verified", h.verified, "entries", "entries the crypto engine accepted and the read used");
  v.count("hpb.device.rejected_forged", h.rejected_forged, "commands", "entries not issued for this LBA and generation");
  v.count("hpb.device.rejected_dirty", h.rejected_dirty, "commands", "sub-region changed since published");
  v.count("hpb.device.rejected_no_ppn", h.rejected_no_ppn, "commands", "authentic entry of an LBA with no NAND copy");
  v.count("hpb.device.rejected_not_contiguous", h.rejected_not_contiguous, "commands", "run not physically contiguous");
  v.count("hpb.device.rejected_stale_in_flight", h.rejected_stale_in_flight, "commands", "map changed between verify and read");
  v.count("hpb.device.fallbacks", h.fallbacks, "commands", "HPB READs served by the normal lookup");
  v.count("hpb.device.check_conditions", h.check_conditions, "commands", "malformed HPB CDBs or parameters");
  v.count("hpb.device.read_buffers", h.read_buffers, "commands", "READ BUFFER (map) commands served");
  v.count("hpb.device.entries_signed", h.entries_signed, "entries", "entries signed for the host");
  v.count("hpb.device.read_buffer_map_loads", h.read_buffer_map_loads, "pages", "map pages READ BUFFER loaded from NAND");
  v.count("hpb.device.write_buffer_inactivate", h.write_buffer_inactivate, "commands", "WRITE BUFFER 0x01");
  v.count("hpb.device.write_buffer_prefetch", h.write_buffer_prefetch, "commands", "WRITE BUFFER 0x02");
  v.count("hpb.device.write_buffer_inactivate_all", h.write_buffer_inactivate_all, "commands", "WRITE BUFFER 0x03");
  v.count("hpb.device.dirty_marks", h.dirty_marks, "sub-regions", "clean published sub-regions made dirty");
  v.count("hpb.device.activate_recommendations", h.activate_recommendations, "", "activations recommended in responses");
  v.count("hpb.device.inactivate_recommendations", h.inactivate_recommendations, "", "inactivations recommended");
  v.count("hpb.device.responses_with_hpb_sense", h.responses_with_hpb_sense, "responses", "responses carrying HPB sense data");
  v.count("hpb.device.active_regions", active_regions(), "regions", "regions the host holds (device's view)");
  if (!params_.response_entries) return;
  v.count("hpb.device.delta_changes", h.delta_changes, "entries", "map changes tracked entry by entry");
  v.count("hpb.device.delta_overflows", h.delta_overflows, "entries", "changes that dirtied the sub-region: tracking full");
  v.count("hpb.device.delta_peak", h.delta_peak, "entries", "most changed entries tracked at once");
  v.count("hpb.device.response_entries_sent", h.response_entries_sent, "entries", "updated entries sent in responses");
  v.count("hpb.device.rejected_updated", h.rejected_updated, "commands", "entries older than a tracked change");
}

void HpbDevice::register_queries(QueryServer& server) {
  using namespace ufs_query;
  server.add_flag(kFlagHpbEnable, *this);
  server.add_flag(kFlagHpbReset, *this);
  server.add_attribute(kAttrMaxHpbSingleCmd, *this);
  server.add_descriptor_fields(*this);
}

void HpbDevice::describe(uint8_t idn, std::vector<uint8_t>& d) const {
  using namespace ufs_query;
  if (idn == kDescDevice) {
    d[kDeviceUfsFeatures] |= kFeatureHpb;
    put_be16(&d[kDeviceHpbVersion], params_.version);
    d[kDeviceHpbControl] = params_.host_control() ? 0x00 : 0x01;
  } else if (idn == kDescGeometry) {
    d[kGeometryRegionSize] = uint8_t(params_.region_size_exp);
    d[kGeometryNumberLu] = 1;
    d[kGeometrySubregionSize] = uint8_t(params_.subregion_size_exp);
    put_be16(&d[kGeometryMaxActiveRegions], params_.max_active_regions);
  } else if (idn == kDescUnit) {
    d[kUnitLuEnable] = 0x02;  // enabled for HPB
    put_be16(&d[kUnitMaxActiveRegions], params_.max_active_regions);
    put_be16(&d[kUnitPinnedStart], params_.pinned_start_region);
    put_be16(&d[kUnitPinnedCount], params_.pinned_regions);
  }
}

QueryResponse HpbDevice::query(const QueryRequest& q) {
  ++stats_.queries;
  QueryResponse out;
  using namespace ufs_query;
  switch (q.opcode) {
    case kReadAttribute:  // bMAX_DATA_SIZE_FOR_HPB_SINGLE_CMD
      out.value = params_.max_read_blocks();
      return out;
    case kWriteAttribute:
      out.status = kReadOnly;
      return out;
    case kReadFlag:
      out.value = q.idn == kFlagHpbEnable ? enabled_ : 0;  // fHPBReset: the reset completes at once
      return out;
    default: {  // set or clear
      const bool set = q.opcode == kSetFlag;
      if (q.idn == kFlagHpbEnable) {
        enabled_ = set;
        if (!set) for (uint32_t r = 0; r < regions_; ++r) deactivate_region(r);
      } else if (set) {  // fHPBReset: every region inactive, every entry dead; the host is told to reset
        ++stats_.resets;
        for (uint32_t r = 0; r < regions_; ++r) deactivate_region(r);
        to_activate_.clear();
        to_inactivate_.clear();
        reset_pending_ = !params_.host_control();
      }
      return out;
    }
  }
}

}  // namespace ufs
