#include "host/scsi_cdb.h"

#include <cstring>

namespace ufs {
namespace host_scsi {

uint32_t encode_block_request(const BlockRequest& r, HostCommand& cmd, uint8_t* unmap_params) {
  cmd.cdb.fill(0);
  uint8_t* c = cmd.cdb.data();
  switch (r.op) {
    case BlockOp::Read:
    case BlockOp::Write: {
      const bool read = r.op == BlockOp::Read;
      cmd.direction = read ? DataDirection::Read : DataDirection::Write;
      cmd.expected_length = r.blocks * kLogicalBlockBytes;
      if (fits_10_byte_cdb(r.lba, r.blocks)) {
        c[0] = read ? scsi_op::kRead10 : scsi_op::kWrite10;
        put_be32(c + 2, static_cast<uint32_t>(r.lba));
        put_be16(c + 7, static_cast<uint16_t>(r.blocks));
      } else {
        c[0] = read ? scsi_op::kRead16 : scsi_op::kWrite16;
        put_be64(c + 2, r.lba);
        put_be32(c + 10, r.blocks);
      }
      if (r.fua) c[1] |= scsi_op::kFuaBit;
      return 0;
    }
    case BlockOp::Flush:
      // LBA 0 and NUMBER OF BLOCKS 0: the whole medium (what Linux sends for a flush).
      c[0] = scsi_op::kSynchronizeCache10;
      cmd.direction = DataDirection::None;
      cmd.expected_length = 0;
      return 0;
    case BlockOp::Unmap: {
      c[0] = scsi_op::kUnmap;
      put_be16(c + 7, static_cast<uint16_t>(kUnmapParamBytes));  // PARAMETER LIST LENGTH
      cmd.direction = DataDirection::Write;
      cmd.expected_length = kUnmapParamBytes;
      uint8_t* p = unmap_params;
      std::memset(p, 0, kUnmapParamBytes);
      put_be16(p + 0, static_cast<uint16_t>(kUnmapParamBytes - 2));  // UNMAP DATA LENGTH
      put_be16(p + 2, static_cast<uint16_t>(scsi_op::kUnmapDescriptorBytes));  // BLOCK DESCRIPTOR DATA LENGTH
      put_be64(p + 8, r.lba);
      put_be32(p + 16, r.blocks);
      return kUnmapParamBytes;
    }
  }
  return 0;
}

}  // namespace host_scsi
}  // namespace ufs
