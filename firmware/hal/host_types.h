// Host-side command types as the firmware sees them (decoded from COMMAND UPIUs
// by the host interface; RESPONSE UPIUs are built from CommandResponse).
#pragma once
#include <cstdint>
#include <array>
#include "protocol/ufs_protocol.h"

namespace ufs {

enum class DataDirection : uint8_t { None, Read, Write };  // Read = device to host (DATA IN)

struct HostCommand {
  uint8_t tag = 0;            // task tag (slot in the host's queue)
  uint8_t lun = 0;
  DataDirection direction = DataDirection::None;
  uint32_t expected_length = 0;   // bytes the host set aside (UPIU Expected Data Transfer Length)
  std::array<uint8_t, 16> cdb{};  // SCSI CDB
};

// An updated HPB entry riding on a RESPONSE (HotStorage'17's prototype, seed 003: "HPB
// device returns updated L2P entries in a response packet for normal I/O").
struct HpbEntryUpdate {
  uint32_t lba = 0;
  uint64_t entry = 0;  // signed like READ BUFFER's entries
};
constexpr uint32_t kMaxResponseHpbEntries = 4;
constexpr uint32_t kResponseHpbEntryBytes = 12;  // LBA (4) + entry (8) in the data segment

// SCSI status and fixed-format sense data (SPC-4) in one response.
struct CommandResponse {
  uint8_t tag = 0;
  uint8_t lun = 0;
  uint8_t status = 0;        // 0x00 GOOD, 0x02 CHECK CONDITION
  uint8_t sense_key = 0;     // 0x05 ILLEGAL REQUEST, 0x03 MEDIUM ERROR, ...
  uint8_t asc = 0;
  uint8_t ascq = 0;
  uint32_t residual = 0;     // bytes not transferred
  bool hpb_update_alert = false;             // device-information bit (HPB)
  std::array<uint8_t, 20> hpb_sense_descriptor{};  // HPB descriptor type 0x80 when alert
  uint8_t hpb_entry_count = 0;                      // updated entries carried (hpb.response_entries)
  std::array<HpbEntryUpdate, kMaxResponseHpbEntries> hpb_entries{};
};

}  // namespace ufs
