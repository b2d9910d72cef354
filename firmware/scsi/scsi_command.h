// SCSI CDB decoding (SPC-4 / SBC-4 subset UFS devices implement).
#pragma once
#include <array>
#include <cstdint>

namespace ufs {

enum class ScsiOp : uint8_t {
  TestUnitReady, RequestSense, Inquiry, ReadCapacity10, ReadCapacity16,
  Read, Write, SynchronizeCache, Unmap, Unsupported,
};

namespace opcode {
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
}  // namespace opcode

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

inline uint32_t get_be16(const uint8_t* p) { return uint32_t(p[0]) << 8 | p[1]; }
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
