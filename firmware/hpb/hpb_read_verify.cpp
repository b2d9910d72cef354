#include "hpb/hpb_read_verify.h"
#include <algorithm>
#include "scsi/scsi_command.h"

namespace ufs {

HpbReadVerify::HpbReadVerify(Hal& hal, HpbFtl& ftl, const HpbDeviceParams& params, const HpbRegions& regions,
                             const HpbFreshness& freshness)
    : hal_(hal), ftl_(ftl), params_(params), regions_(regions), freshness_(freshness), tags_(256) {}

uint8_t HpbReadVerify::start(const HostCommand& c) {
  hal_.charge_cycles(params_.cycles_hpb_read);
  const uint64_t lba = get_be32(c.cdb.data() + 2);
  const uint64_t entry = get_be64(c.cdb.data() + 6);
  const uint32_t n = c.cdb[14];
  const uint8_t read_id = c.cdb[15];
  const uint64_t logical = ftl_.hpb_logical_blocks();
  if (n == 0 || n > params_.max_read_blocks() || c.direction != DataDirection::Read) return asc::kInvalidFieldInCdb;
  if (lba >= logical || n > logical - lba) return asc::kLbaOutOfRange;
  if (c.expected_length < n * uint32_t(kSectorBytes)) return asc::kInvalidFieldInCdb;
  ++stats_.hpb_reads;
  stats_.hpb_read_blocks += n;
  Tag& t = tags_[c.tag];
  t.step = Step::Verify;
  t.command = c;
  t.lba = lba;
  t.blocks = n;
  t.failed = 0;
  t.ppas.clear();
  t.subregion = regions_.subregion_of(lba);
  t.last_subregion = regions_.subregion_of(lba + n - 1);
  t.generation = regions_.generation(t.subregion);
  t.last_generation = regions_.generation(t.last_subregion);
  t.changes = freshness_.changes(t.subregion);
  t.last_changes = freshness_.changes(t.last_subregion);
  ftl_.hpb_claim_tag(c.tag, c.lun);
  if (regions_.dirty(t.subregion) || regions_.dirty(t.last_subregion)) {  // the first-line check: no crypto needed
    ++stats_.rejected_dirty;
    fallback(c.tag);
    return 0;
  }
  Prefetch& p = prefetch_[read_id];
  if (read_id != 0 && p.valid && p.lba == lba && p.entries.size() == n) {
    // HPB 2.0: one entry per block from the WRITE BUFFER 0x02 with this read id; each is verified.
    p.valid = false;
    t.ppas.assign(n, hpb_op::kNoPpn);
    t.pending = n;
    ftl_.hpb_verify_time(c.tag, true);
    for (uint32_t i = 0; i < n; ++i)
      verify(c, lba + i, regions_.generation(regions_.subregion_of(lba + i)), p.entries[i], i);
    return 0;
  }
  if (t.subregion != t.last_subregion) {  // one entry cannot vouch for a run across sub-regions
    ++stats_.rejected_not_contiguous;
    fallback(c.tag);
    return 0;
  }
  t.pending = 1;
  ftl_.hpb_verify_time(c.tag, true);
  verify(c, lba, t.generation, entry, 0);
  return 0;
}

void HpbReadVerify::verify(const HostCommand& c, uint64_t lba, uint32_t generation, uint64_t entry, uint32_t index) {
  HpbCryptoJob job;
  job.kind = HpbCryptoJob::Verify;
  job.lba = lba;
  job.lun = c.lun;
  job.generation = generation;
  job.entry = entry;
  job.cookie = hpb_cookie::kVerify | uint64_t(c.tag) << 32 | index;
  hal_.submit_crypto(job);
}

void HpbReadVerify::verify_done(const HpbCryptoResult& r) {
  const uint8_t tag = uint8_t(r.cookie >> 32);
  Tag& t = tags_[tag];
  if (t.step != Step::Verify) return;
  const uint32_t index = uint32_t(r.cookie & 0xFFFFFFFFu);
  if (!r.valid) ++t.failed;
  else if (!t.ppas.empty()) t.ppas[index] = r.ppn;
  else t.ppa = r.ppn;
  if (--t.pending == 0) finish(tag);
}

void HpbReadVerify::finish(uint8_t tag) {
  Tag& t = tags_[tag];
  ftl_.hpb_verify_time(tag, false);
  if (!entries_usable(t)) { fallback(tag); return; }
  stats_.verified += t.ppas.empty() ? 1 : t.ppas.size();
  t.step = Step::Read;
  ftl_.hpb_start_read(t.command, t.lba, t.blocks, true);
}

bool HpbReadVerify::entries_usable(const Tag& t) {
  if (t.failed) { ++stats_.rejected_forged; return false; }
  if (!still_fresh(t.command.tag)) { ++stats_.rejected_stale_in_flight; return false; }
  if (freshness_.tracking()) {  // response_entries: an entry older than a tracked change is stale
    bool ok = true;
    if (t.ppas.empty()) ok = freshness_.entry_ok(t.lba, t.ppa);
    else for (uint32_t i = 0; i < t.blocks && ok; ++i) ok = freshness_.entry_ok(t.lba + i, t.ppas[i]);
    if (!ok) { ++stats_.rejected_updated; return false; }
  }
  if (t.ppas.empty()) {
    if (t.ppa == hpb_op::kNoPpn) { ++stats_.rejected_no_ppn; return false; }
    // HPB 2.0 run from one entry: the device's own record of the published sub-region
    // says whether the following blocks are physically next to it.
    if (!regions_.contiguous_run(t.subregion, uint32_t(t.lba % regions_.subregion_blocks()), t.blocks)) {
      ++stats_.rejected_not_contiguous;
      return false;
    }
  } else if (std::find(t.ppas.begin(), t.ppas.end(), hpb_op::kNoPpn) != t.ppas.end()) {
    ++stats_.rejected_no_ppn;
    return false;
  }
  return true;
}

bool HpbReadVerify::still_fresh(uint8_t tag) const {
  const Tag& t = tags_[tag];
  if (regions_.dirty(t.subregion) || regions_.generation(t.subregion) != t.generation) return false;
  if (regions_.dirty(t.last_subregion) || regions_.generation(t.last_subregion) != t.last_generation) return false;
  if (freshness_.changes(t.subregion) != t.changes || freshness_.changes(t.last_subregion) != t.last_changes)
    return false;
  if (!t.ppas.empty())  // multi-entry reads may span more sub-regions
    for (uint32_t s = t.subregion + 1; s < t.last_subregion; ++s) if (regions_.dirty(s)) return false;
  return true;
}

void HpbReadVerify::fallback(uint8_t tag) {
  Tag& t = tags_[tag];
  ++stats_.fallbacks;
  t.step = Step::Read;
  t.ppas.clear();
  ftl_.hpb_start_read(t.command, t.lba, t.blocks, false);
}

uint8_t HpbReadVerify::start_prefetch(const HostCommand& c) {
  const uint8_t* cdb = c.cdb.data();
  const uint64_t lba = get_be32(cdb + 2);
  const uint32_t len = get_be16(cdb + 7);
  const uint32_t n = len / hpb_op::kEntryBytes;
  if (cdb[6] == 0 || c.direction != DataDirection::Write) return asc::kInvalidFieldInCdb;  // read id 0: none
  if (len == 0 || len % hpb_op::kEntryBytes || n > params_.max_read_blocks() || c.expected_length < len)
    return asc::kParamListLength;
  const uint64_t logical = ftl_.hpb_logical_blocks();
  if (lba >= logical || n > logical - lba) return asc::kLbaOutOfRange;
  Tag& t = tags_[c.tag];
  t.step = Step::Prefetch;
  t.command = c;
  t.lba = lba;
  t.blocks = n;
  ftl_.hpb_claim_tag(c.tag, c.lun);
  hal_.request_data_out(c.tag, 0, hpb_cookie::control_address(c.tag), len, hpb_cookie::kToken);
  return 0;
}

void HpbReadVerify::prefetch_received(uint8_t tag) {
  Tag& t = tags_[tag];
  if (t.step != Step::Prefetch) return;
  ++stats_.write_buffer_prefetch;
  Prefetch& p = prefetch_[t.command.cdb[6]];
  p.valid = true;
  p.lba = t.lba;
  p.entries.resize(t.blocks);
  uint8_t list[4096];
  hal_.read_buffer_bytes(hpb_cookie::control_address(tag), list, t.blocks * hpb_op::kEntryBytes);
  for (uint32_t i = 0; i < t.blocks; ++i) p.entries[i] = get_be64(list + i * hpb_op::kEntryBytes);
  t.step = Step::Idle;
  ftl_.hpb_respond(tag, t.command.lun);
}

}  // namespace ufs
