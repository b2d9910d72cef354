// UFS protocol constants both ends use: SCSI operation codes (SBC-4 / SPC-4), status,
// sense keys and additional sense codes, the HPB commands (JESD220-3 HPB 1.0, JESD220
// HPB 2.0), the QUERY REQUEST opcodes, identifiers and descriptor offsets (JESD220E §14,
// the Linux driver's include/ufs/ufs.h), and big-endian field helpers. The firmware
// decodes with them, the host model (tlm/host) encodes with them: one definition each.
#pragma once
#include <cstdint>
#include <vector>

namespace ufs {

namespace scsi_op {
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
constexpr uint8_t kSynchronizeCache16 = 0x91;
constexpr uint8_t kServiceActionIn16 = 0x9E;  // service action 0x10 = READ CAPACITY(16)
constexpr uint8_t kReadCapacity16Action = 0x10;
constexpr uint8_t kFuaBit = 0x08;               // byte 1 of READ/WRITE(10/16)
constexpr uint32_t kUnmapHeaderBytes = 8;       // UNMAP parameter list header
constexpr uint32_t kUnmapDescriptorBytes = 16;  // one block descriptor: LBA(8) blocks(4) reserved(4)
}  // namespace scsi_op

namespace scsi_status {
constexpr uint8_t kGood = 0x00;
constexpr uint8_t kCheckCondition = 0x02;
constexpr uint8_t kBusy = 0x08;
}  // namespace scsi_status

namespace sense_key {
constexpr uint8_t kNoSense = 0x0;
constexpr uint8_t kNotReady = 0x2;
constexpr uint8_t kMediumError = 0x3;
constexpr uint8_t kHardwareError = 0x4;
constexpr uint8_t kIllegalRequest = 0x5;
constexpr uint8_t kDataProtect = 0x7;
}  // namespace sense_key

namespace asc {
constexpr uint8_t kInvalidOpcode = 0x20;       // INVALID COMMAND OPERATION CODE
constexpr uint8_t kLbaOutOfRange = 0x21;       // LOGICAL BLOCK ADDRESS OUT OF RANGE
constexpr uint8_t kInvalidFieldInCdb = 0x24;   // INVALID FIELD IN CDB
constexpr uint8_t kInvalidFieldInParam = 0x26; // INVALID FIELD IN PARAMETER LIST
constexpr uint8_t kParamListLength = 0x1A;     // PARAMETER LIST LENGTH ERROR
constexpr uint8_t kUnrecoveredRead = 0x11;
constexpr uint8_t kWriteError = 0x0C;
constexpr uint8_t kNotReadyCause = 0x04;      // LOGICAL UNIT NOT READY (with NOT READY: recovering)
constexpr uint8_t kWriteProtected = 0x27;     // WRITE PROTECTED (with DATA PROTECT)
}  // namespace asc

// HPB commands and the HPB sense data descriptor (the Linux driver's ufshpb.h).
namespace hpb_op {
constexpr uint8_t kHpbRead = 0xF8;
constexpr uint8_t kReadBuffer = 0xF9;
constexpr uint8_t kWriteBuffer = 0xFA;
constexpr uint8_t kReadBufferMapId = 0x01;          // READ BUFFER: a sub-region's entries
constexpr uint8_t kWriteBufferInactivate = 0x01;    // WRITE BUFFER: inactivate one region
constexpr uint8_t kWriteBufferPrefetch = 0x02;      // HPB 2.0: entries for a later HPB READ (read id)
constexpr uint8_t kWriteBufferInactivateAll = 0x03; // HPB 2.0: inactivate every region
constexpr uint8_t kSenseDescriptorType = 0x80;
constexpr uint8_t kRspRegionUpdate = 0x01;          // hpb_op in the descriptor
constexpr uint8_t kRspDeviceReset = 0x02;
constexpr uint32_t kEntryBytes = 8;
constexpr uint32_t kNoPpn = 0xFFFFFFFFu;            // entry of an LBA with no NAND copy (unmapped, in the write cache)
inline bool is_hpb_opcode(uint8_t op) { return op == kHpbRead || op == kReadBuffer || op == kWriteBuffer; }
}  // namespace hpb_op

// QUERY REQUEST / RESPONSE: opcodes, results, and the identifiers and descriptor offsets
// of the features modelled (HPB, WriteBooster).
namespace ufs_query {
constexpr uint8_t kReadDescriptor = 0x01, kReadAttribute = 0x03, kWriteAttribute = 0x04,
                  kReadFlag = 0x05, kSetFlag = 0x06, kClearFlag = 0x07;
constexpr uint8_t kSuccess = 0x00, kInvalidIdn = 0xF8, kInvalidOpcode = 0xFE, kReadOnly = 0xF5;
// Descriptors and the HPB fields' byte offsets in them
constexpr uint8_t kDescDevice = 0x00, kDescUnit = 0x02, kDescGeometry = 0x07;
constexpr uint32_t kDeviceUfsFeatures = 0x1F, kDeviceHpbVersion = 0x40, kDeviceHpbControl = 0x42;
constexpr uint32_t kGeometryRegionSize = 0x48, kGeometryNumberLu = 0x49, kGeometrySubregionSize = 0x4A,
                   kGeometryMaxActiveRegions = 0x4B;
constexpr uint32_t kUnitLuEnable = 0x03, kUnitMaxActiveRegions = 0x23, kUnitPinnedStart = 0x25,
                   kUnitPinnedCount = 0x27;
constexpr uint8_t kFeatureHpb = 0x80;  // bUFSFeaturesSupport bit 7
// Flags
constexpr uint8_t kFlagWbEn = 0x0E, kFlagWbFlushEn = 0x0F, kFlagWbFlushDuringHibernate = 0x10;
constexpr uint8_t kFlagHpbReset = 0x11, kFlagHpbEnable = 0x12;
// Attributes
constexpr uint8_t kAttrWbFlushStatus = 0x1C, kAttrWbAvailableSize = 0x1D, kAttrWbLifeTimeEst = 0x1E,
                  kAttrWbCurrentSize = 0x1F;
constexpr uint8_t kAttrMaxHpbSingleCmd = 0x1F;  // (in the HPB attribute space the Linux driver reads)
constexpr uint32_t kWbFlushIdle = 0, kWbFlushInProgress = 1;  // bWBBufferFlushStatus
}  // namespace ufs_query

struct QueryRequest {
  uint8_t opcode = 0;   // ufs_query::kRead...
  uint8_t idn = 0;
  uint8_t index = 0;    // LU for unit descriptors
  uint8_t selector = 0;
  uint32_t value = 0;   // attribute to write
};
struct QueryResponse {
  uint8_t status = ufs_query::kSuccess;
  uint32_t value = 0;              // attribute or flag
  std::vector<uint8_t> descriptor; // descriptor bytes
};

// Big-endian fields of CDBs, parameter lists and descriptors.
inline uint32_t get_be16(const uint8_t* p) { return uint32_t(p[0]) << 8 | p[1]; }
inline uint32_t get_be24(const uint8_t* p) { return uint32_t(p[0]) << 16 | uint32_t(p[1]) << 8 | p[2]; }
inline uint32_t get_be32(const uint8_t* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
}
inline uint64_t get_be64(const uint8_t* p) { return uint64_t(get_be32(p)) << 32 | get_be32(p + 4); }
inline void put_be16(uint8_t* p, uint32_t v) { p[0] = uint8_t(v >> 8); p[1] = uint8_t(v); }
inline void put_be32(uint8_t* p, uint32_t v) {
  p[0] = uint8_t(v >> 24); p[1] = uint8_t(v >> 16); p[2] = uint8_t(v >> 8); p[3] = uint8_t(v);
}
inline void put_be64(uint8_t* p, uint64_t v) { put_be32(p, uint32_t(v >> 32)); put_be32(p + 4, uint32_t(v)); }

}  // namespace ufs
