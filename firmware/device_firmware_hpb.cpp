// DeviceFirmware's side of HPB (HpbFtl): what the HPB device logic (hpb/hpb_device.*)
// may ask of the FTL and the command machinery.
#include "device_firmware.h"
#include <algorithm>

namespace ufs {

uint32_t DeviceFirmware::hpb_mapping(uint64_t lba) const {
  const uint32_t e = map_.get(lba);
  return L2pMap::is_physical(e) ? e : hpb_op::kNoPpn;  // unmapped or still in the write cache: no NAND copy
}

void DeviceFirmware::hpb_claim_tag(uint8_t tag, uint8_t lun) {
  tags_[tag] = TagState{};
  table_.claim(tag, CommandKind::Control, lun);
}

void DeviceFirmware::hpb_start_read(const HostCommand& c, uint64_t lba, uint32_t blocks, bool hpb) {
  reads_.start(c, lba, blocks, hpb);
}

bool DeviceFirmware::hpb_map_page_ready(uint64_t lba) {
  if (!map_cache_) return true;
  const uint32_t mp = map_page_of(lba);
  if (map_cache_->resident(mp)) { map_cache_->touch(mp); return true; }
  if (map_dir_[mp] == L2pMap::kUnmapped) { install_map_page(mp, true); return true; }  // nothing on NAND yet
  auto& waiters = map_load_waiters_[mp];
  if (waiters.empty()) issue_map_load(mp);
  // A READ BUFFER waits for it: told after the page's lookups (HpbDevice::on_map_page_loaded).
  const std::pair<MapWaiter*, uint32_t> hpb_waits{nullptr, kNone};
  if (std::find(waiters.begin(), waiters.end(), hpb_waits) == waiters.end()) waiters.push_back(hpb_waits);
  return false;
}

}  // namespace ufs
