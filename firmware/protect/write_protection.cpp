#include "protect/write_protection.h"
#include "protocol/ufs_protocol.h"

namespace ufs {

void WriteProtection::out_of_space() {
  hooks_.reclaim_space();
  if (flash_.in_flight()) return;
  on_ = true;
  hooks_.write_protect_entered();
}

void WriteProtection::refuse(const HostCommand& c) {
  ++rejects_;
  table_.fail(c, sense_key::kDataProtect, asc::kWriteProtected);
}

void WriteProtection::refuse(uint8_t tag) {
  if (table_.kind(tag) == CommandKind::Idle) return;
  HostCommand c;
  c.tag = tag;
  c.lun = table_.lun(tag);
  refuse(c);
}

}  // namespace ufs
