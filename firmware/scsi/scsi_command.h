// SCSI CDB decoding (SPC-4 / SBC-4 subset UFS devices implement).
#pragma once
#include <array>
#include <cstdint>
#include "protocol/ufs_protocol.h"

namespace ufs {

enum class ScsiOp : uint8_t {
  TestUnitReady, RequestSense, Inquiry, ReadCapacity10, ReadCapacity16,
  Read, Write, SynchronizeCache, Unmap, Unsupported,
};

struct ScsiCommand {
  ScsiOp op = ScsiOp::Unsupported;
  uint64_t lba = 0;
  uint32_t blocks = 0;          // READ/WRITE transfer length; SYNC CACHE number of blocks (0 = all)
  bool fua = false;
  uint32_t allocation_length = 0;  // INQUIRY / READ CAPACITY(16) / REQUEST SENSE
  uint32_t parameter_length = 0;   // UNMAP parameter list length
  bool evpd = false;               // INQUIRY vital product data
  uint8_t page_code = 0;
  uint8_t invalid_asc = 0;         // non-zero: the CDB is malformed (ASC to report)
};

ScsiCommand decode_cdb(const std::array<uint8_t, 16>& cdb);

}  // namespace ufs
