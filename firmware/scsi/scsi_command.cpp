#include "scsi/scsi_command.h"
#include "hal/host_types.h"

namespace ufs {

ScsiCommand decode_cdb(const std::array<uint8_t, 16>& cdb) {
  ScsiCommand c;
  const uint8_t* b = cdb.data();
  switch (b[0]) {
    case scsi_op::kTestUnitReady: c.op = ScsiOp::TestUnitReady; break;
    case scsi_op::kRequestSense: c.op = ScsiOp::RequestSense; c.allocation_length = b[4]; break;
    case scsi_op::kInquiry:
      c.op = ScsiOp::Inquiry;
      c.evpd = b[1] & 1;
      c.page_code = b[2];
      c.allocation_length = get_be16(b + 3);
      if (!c.evpd && c.page_code != 0) c.invalid_asc = asc::kInvalidFieldInCdb;
      break;
    case scsi_op::kReadCapacity10: c.op = ScsiOp::ReadCapacity10; break;
    case scsi_op::kServiceActionIn16:
      if ((b[1] & 0x1F) != scsi_op::kReadCapacity16Action) { c.op = ScsiOp::Unsupported; c.invalid_asc = asc::kInvalidFieldInCdb; break; }
      c.op = ScsiOp::ReadCapacity16;
      c.allocation_length = get_be32(b + 10);
      break;
    case scsi_op::kRead10:
    case scsi_op::kWrite10:
      c.op = b[0] == scsi_op::kRead10 ? ScsiOp::Read : ScsiOp::Write;
      c.fua = b[1] & scsi_op::kFuaBit;
      c.lba = get_be32(b + 2);
      c.blocks = get_be16(b + 7);
      break;
    case scsi_op::kRead16:
    case scsi_op::kWrite16:
      c.op = b[0] == scsi_op::kRead16 ? ScsiOp::Read : ScsiOp::Write;
      c.fua = b[1] & scsi_op::kFuaBit;
      c.lba = get_be64(b + 2);
      c.blocks = get_be32(b + 10);
      break;
    case scsi_op::kSynchronizeCache10:
      c.op = ScsiOp::SynchronizeCache;
      c.lba = get_be32(b + 2);
      c.blocks = get_be16(b + 7);
      break;
    case scsi_op::kSynchronizeCache16:
      c.op = ScsiOp::SynchronizeCache;
      c.lba = get_be64(b + 2);
      c.blocks = get_be32(b + 10);
      break;
    case scsi_op::kUnmap:
      c.op = ScsiOp::Unmap;
      c.parameter_length = get_be16(b + 7);
      if (b[1] & 0x01) c.invalid_asc = asc::kInvalidFieldInCdb;  // ANCHOR not supported
      break;
    default:
      c.op = ScsiOp::Unsupported;
      c.invalid_asc = asc::kInvalidOpcode;
  }
  return c;
}

}  // namespace ufs
