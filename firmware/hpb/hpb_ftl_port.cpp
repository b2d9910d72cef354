#include "hpb/hpb_ftl_port.h"
#include "protocol/ufs_protocol.h"

namespace ufs {

uint32_t HpbFtlPort::hpb_mapping(uint64_t lba) const {
  const uint32_t e = map_.get(lba);
  return L2pMap::is_physical(e) ? e : hpb_op::kNoPpn;  // unmapped or still in the write cache: no NAND copy
}

void HpbFtlPort::hpb_mappings(uint64_t first, uint32_t count, uint32_t* ppas) const {
  map_.physical_range(first, count, ppas, hpb_op::kNoPpn);
}

void HpbFtlPort::hpb_verify_time(uint8_t tag, bool begin) {
  if (begin) latency_.begin(tag, LatencyPart::HpbVerify, hal_.now_ps());
  else latency_.end(tag, LatencyPart::HpbVerify, hal_.now_ps());
}

}  // namespace ufs
