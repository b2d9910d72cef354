// How the host's SCSI layer turns block requests into CDBs (SBC-4), as the Linux sd
// driver does for a UFS logical unit with 4 KiB logical blocks. Plain C++ (no SystemC).
#pragma once
#include <cstdint>
#include "hal/host_types.h"
#include "protocol/ufs_protocol.h"
#include "host/block_request.h"

namespace ufs {
namespace host_scsi {

// Opcodes, the FUA bit and the UNMAP list's sizes: protocol/ufs_protocol.h (scsi_op).
constexpr uint32_t kLogicalBlockBytes = 4096;
constexpr uint32_t kUnmapParamBytes = scsi_op::kUnmapHeaderBytes + scsi_op::kUnmapDescriptorBytes;

// True when READ(10)/WRITE(10) can carry the request (32-bit LBA, 16-bit length).
inline bool fits_10_byte_cdb(uint64_t lba, uint32_t blocks) {
  return lba <= 0xFFFFFFFFull && blocks <= 0xFFFFu;
}

// Fills cmd.cdb, cmd.direction and cmd.expected_length for a block request (tag and lun
// are left to the caller). For Unmap, writes the parameter list (kUnmapParamBytes, one
// descriptor) into unmap_params; returns the bytes of DATA OUT parameter data (0 otherwise).
uint32_t encode_block_request(const BlockRequest& request, HostCommand& cmd, uint8_t* unmap_params);

}  // namespace host_scsi
}  // namespace ufs
