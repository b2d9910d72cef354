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
  table_.claim(tag, CommandKind::Control, lun);
}

void DeviceFirmware::hpb_start_read(const HostCommand& c, uint64_t lba, uint32_t blocks, bool hpb) {
  reads_.start(c, lba, blocks, hpb);
}

bool DeviceFirmware::hpb_map_page_ready(uint64_t lba) { return map_store_.ready_for(lba); }

}  // namespace ufs
