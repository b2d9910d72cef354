#include "hpb/hpb_entry_server.h"
#include <algorithm>
#include "scsi/scsi_command.h"

namespace ufs {

namespace {
constexpr uint32_t kChunkEntries = 4096 / hpb_op::kEntryBytes;  // entries per 4 KiB control area
}  // namespace

HpbEntryServer::HpbEntryServer(Hal& hal, HpbFtl& ftl, const HpbDeviceParams& params, HpbRegions& regions)
    : hal_(hal), ftl_(ftl), params_(params), regions_(regions), tags_(256) {}

uint8_t HpbEntryServer::start(const HostCommand& c) {
  hal_.charge_cycles(params_.cycles_hpb_read);
  const uint8_t* cdb = c.cdb.data();
  if (cdb[1] != hpb_op::kReadBufferMapId || c.direction != DataDirection::Read) return asc::kInvalidFieldInCdb;
  const uint32_t region = get_be16(cdb + 2), sub = get_be16(cdb + 4), alloc = get_be24(cdb + 6);
  const uint64_t s = uint64_t(region) * regions_.subregions_per_region() + sub;
  if (region >= regions_.regions() || sub >= regions_.subregions_per_region() || s >= regions_.subregions())
    return asc::kInvalidFieldInCdb;
  const uint64_t first = s * regions_.subregion_blocks();
  const uint32_t entries =
      uint32_t(std::min<uint64_t>(regions_.subregion_blocks(), ftl_.hpb_logical_blocks() - first));
  if (alloc == 0 || alloc % hpb_op::kEntryBytes) return asc::kInvalidFieldInCdb;
  const uint32_t n = std::min(entries, alloc / hpb_op::kEntryBytes);
  if (c.expected_length < n * hpb_op::kEntryBytes) return asc::kInvalidFieldInCdb;
  ++stats_.read_buffers;
  Tag& t = tags_[c.tag];
  t.step = Step::Load;
  t.lun = c.lun;
  t.subregion = uint32_t(s);
  t.lba = first;
  t.entries = n;
  t.chunk = 0;
  t.prev_ppa = hpb_op::kNoPpn;
  t.counted_loads = false;
  ftl_.hpb_claim_tag(c.tag, c.lun);
  regions_.publish(uint32_t(s));
  t.generation = regions_.generation(uint32_t(s));
  pages_ready(c.tag);
  return 0;
}

void HpbEntryServer::pages_ready(uint8_t tag) {
  Tag& t = tags_[tag];
  const uint64_t step = ftl_.hpb_map_page_entries();
  uint32_t missing = 0;
  for (uint64_t l = t.lba - t.lba % step; l < t.lba + t.entries; l += step)
    if (!ftl_.hpb_map_page_ready(l)) ++missing;
  if (!t.counted_loads) { stats_.read_buffer_map_loads += missing; t.counted_loads = true; }
  if (missing) { t.step = Step::Load; return; }
  sign_chunk(tag);
}

void HpbEntryServer::on_map_page_loaded() {
  for (uint32_t tag = 0; tag < tags_.size(); ++tag)
    if (tags_[tag].step == Step::Load) pages_ready(uint8_t(tag));
}

// The chunk's entries read from the map (and their runs recorded) into one sign batch.
void HpbEntryServer::sign_chunk(uint8_t tag) {
  hal_.charge_cycles(params_.cycles_sign_batch);
  Tag& t = tags_[tag];
  const uint32_t start = t.chunk * kChunkEntries;
  const uint32_t count = std::min(kChunkEntries, t.entries - start);
  const uint32_t s = t.subregion;
  const bool record = !regions_.dirty(s) && regions_.generation(s) == t.generation;  // contiguity of what is still published
  t.step = Step::Sign;
  if (t.items.capacity() < kChunkEntries) {
    t.items.reserve(kChunkEntries);
    t.data.reserve(size_t(kChunkEntries) * hpb_op::kEntryBytes);
  }
  t.items.resize(count);
  t.data.resize(size_t(count) * hpb_op::kEntryBytes);
  if (ppas_.size() < kChunkEntries) ppas_.resize(kChunkEntries);
  hal_.l2p_sram_access(4 * count, false);
  // Per entry: its share of the map walk, then its item (entry 0's charge comes first, so
  // the walk is charged per entry, not per batch).
  hal_.charge_cycles(params_.cycles_sign_entry);
  ftl_.hpb_mappings(t.lba + start, count, ppas_.data());  // the map page(s) read in order
  HpbSignItem* item = t.items.data();
  for (uint32_t i = 0; i < count; ++i, ++item) {
    if (i) hal_.charge_cycles(params_.cycles_sign_entry);
    const uint64_t lba = t.lba + start + i;
    const uint32_t ppa = ppas_[i];
    const uint32_t offset = start + i;
    if (record && offset > 0 && ppa != hpb_op::kNoPpn && t.prev_ppa != hpb_op::kNoPpn && ppa == t.prev_ppa + 1)
      regions_.record_contiguous(s, offset - 1);
    t.prev_ppa = ppa;
    item->lba = lba;
    item->ppn = ppa;
    item->generation = t.generation;
  }
  HpbSignBatch batch;
  batch.items = t.items.data();
  batch.entries = t.data.data();
  batch.count = count;
  batch.lun = t.lun;
  batch.cookie = hpb_cookie::kSign | uint64_t(tag) << 32;
  hal_.submit_sign_batch(batch);
  stats_.entries_signed += count;
}

// The engine wrote the chunk's entries (0 for one it could not sign): send them.
void HpbEntryServer::sign_done(const HpbCryptoResult& r) {
  const uint8_t tag = uint8_t(r.cookie >> 32);
  Tag& t = tags_[tag];
  if (t.step != Step::Sign) return;
  t.step = Step::Send;
  const uint32_t bytes = uint32_t(t.data.size());
  hal_.write_buffer_bytes(hpb_cookie::control_address(tag), t.data.data(), bytes);
  hal_.send_data_in(tag, t.chunk * 4096, hpb_cookie::control_address(tag), bytes, hpb_cookie::kToken);
}

void HpbEntryServer::data_in_done(uint8_t tag) {
  Tag& t = tags_[tag];
  if (t.step != Step::Send) return;
  ++t.chunk;
  if (t.chunk * kChunkEntries >= t.entries) { ftl_.hpb_respond(tag, t.lun); return; }
  sign_chunk(tag);
}

}  // namespace ufs
