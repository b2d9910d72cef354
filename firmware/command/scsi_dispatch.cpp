#include "command/scsi_dispatch.h"
#include <cstring>

namespace ufs {

void ScsiDispatch::dispatch(const HostCommand& c) {
  const ScsiCommand s = decode_cdb(c.cdb);
  if (s.invalid_asc) { invalid(c, s.invalid_asc); return; }
  switch (s.op) {
    case ScsiOp::TestUnitReady:
      table_.respond(c.tag, c.lun);
      return;
    case ScsiOp::RequestSense: {
      uint8_t sense[18] = {0x70, 0, sense_key::kNoSense, 0, 0, 0, 0, 10};
      table_.send_control_data(c, sense, sizeof sense, s.allocation_length);
      return;
    }
    case ScsiOp::Inquiry:
      inquiry(c, s);
      return;
    case ScsiOp::ReadCapacity10:
    case ScsiOp::ReadCapacity16:
      read_capacity(c, s);
      return;
    case ScsiOp::Read:
    case ScsiOp::Write:
      read_write(c, s);
      return;
    case ScsiOp::SynchronizeCache:
      if (s.lba >= logical_blocks_ || (s.blocks && s.blocks > logical_blocks_ - s.lba)) {
        invalid(c, asc::kLbaOutOfRange);
        return;
      }
      if (protection_.refuses(c)) return;
      writes_.start_sync(c);
      return;
    case ScsiOp::Unmap:
      if (protection_.refuses(c)) return;
      writes_.start_unmap(c, s);
      return;
    case ScsiOp::Unsupported:
      break;
  }
  invalid(c, asc::kInvalidOpcode);
}

void ScsiDispatch::inquiry(const HostCommand& c, const ScsiCommand& s) {
  if (s.evpd) {
    if (s.page_code != 0x00) { invalid(c, asc::kInvalidFieldInCdb); return; }
    const uint8_t pages[] = {0x00, 0x00, 0x00, 1, 0x00};  // supported VPD pages: only page 0
    table_.send_control_data(c, pages, sizeof pages, s.allocation_length);
    return;
  }
  uint8_t d[36] = {};
  d[0] = 0x00;   // direct-access block device
  d[2] = 0x06;   // SPC-4
  d[3] = 0x02;   // response data format
  d[4] = 31;     // additional length
  d[7] = 0x02;   // CMDQUE
  std::memcpy(d + 8, "UFSTLM  ", 8);
  std::memcpy(d + 16, "ufs-tlm device  ", 16);
  std::memcpy(d + 32, "0100", 4);
  table_.send_control_data(c, d, sizeof d, s.allocation_length);
}

void ScsiDispatch::read_capacity(const HostCommand& c, const ScsiCommand& s) {
  if (s.op == ScsiOp::ReadCapacity10) {
    uint8_t d[8];
    const uint64_t last = logical_blocks_ - 1;
    put_be32(d, last > 0xFFFFFFFFull ? 0xFFFFFFFFu : uint32_t(last));
    put_be32(d + 4, uint32_t(kSectorBytes));
    table_.send_control_data(c, d, sizeof d, 8);
    return;
  }
  uint8_t d[32] = {};
  put_be64(d, logical_blocks_ - 1);
  put_be32(d + 8, uint32_t(kSectorBytes));
  table_.send_control_data(c, d, sizeof d, s.allocation_length);
}

void ScsiDispatch::read_write(const HostCommand& c, const ScsiCommand& s) {
  if (s.blocks == 0 || s.blocks > max_transfer_blocks_) { invalid(c, asc::kInvalidFieldInCdb); return; }
  if (s.lba >= logical_blocks_ || s.blocks > logical_blocks_ - s.lba) { invalid(c, asc::kLbaOutOfRange); return; }
  if (c.expected_length < uint64_t(s.blocks) * kSectorBytes) { invalid(c, asc::kInvalidFieldInCdb); return; }
  if (s.op == ScsiOp::Write && protection_.refuses(c)) return;
  if (s.op == ScsiOp::Read) reads_.start(c, s.lba, s.blocks, false);
  else writes_.start_write(c, s);
}

}  // namespace ufs
