// How the host's SCSI layer turns block requests into CDBs (SBC-4), as the Linux sd
// driver does for a UFS logical unit with 4 KiB logical blocks. Plain C++ (no SystemC).
#pragma once
#include <cstdint>
#include "hal/host_types.h"
#include "host/block_request.h"

namespace ufs {
namespace host_scsi {

// Operation codes the host sends.
constexpr uint8_t kTestUnitReady = 0x00;
constexpr uint8_t kRequestSense = 0x03;
constexpr uint8_t kInquiry = 0x12;
constexpr uint8_t kReadCapacity10 = 0x25;
constexpr uint8_t kRead10 = 0x28;
constexpr uint8_t kWrite10 = 0x2A;
constexpr uint8_t kSynchronizeCache10 = 0x35;
constexpr uint8_t kUnmap = 0x42;
constexpr uint8_t kRead16 = 0x88;
constexpr uint8_t kWrite16 = 0x8A;
constexpr uint8_t kReadCapacity16 = 0x9E;  // SERVICE ACTION IN(16), service action 0x10

constexpr uint8_t kFuaBit = 0x08;            // byte 1 of READ/WRITE(10/16)
constexpr uint32_t kLogicalBlockBytes = 4096;
constexpr uint32_t kUnmapHeaderBytes = 8;      // UNMAP parameter list header
constexpr uint32_t kUnmapDescriptorBytes = 16; // one block descriptor: LBA(8) blocks(4) reserved(4)
constexpr uint32_t kUnmapParamBytes = kUnmapHeaderBytes + kUnmapDescriptorBytes;

// True when READ(10)/WRITE(10) can carry the request (32-bit LBA, 16-bit length).
inline bool fits_10_byte_cdb(uint64_t lba, uint32_t blocks) {
  return lba <= 0xFFFFFFFFull && blocks <= 0xFFFFu;
}

// Fills cmd.cdb, cmd.direction and cmd.expected_length for a block request (tag and lun
// are left to the caller). For Unmap, writes the parameter list (kUnmapParamBytes, one
// descriptor) into unmap_params; returns the bytes of DATA OUT parameter data (0 otherwise).
uint32_t encode_block_request(const BlockRequest& request, HostCommand& cmd, uint8_t* unmap_params);

// Big-endian field helpers for CDBs and parameter data.
inline void put_be16(uint8_t* p, uint16_t v) { p[0] = uint8_t(v >> 8); p[1] = uint8_t(v); }
inline void put_be32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (24 - 8 * i));
}
inline void put_be64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = uint8_t(v >> (56 - 8 * i));
}

}  // namespace host_scsi
}  // namespace ufs
