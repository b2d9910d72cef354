// UFS Protocol Information Units as they cross the UniPro link (JESD220 §10).
// Carried in a tlm_generic_payload: data_ptr points at the Upiu, data_length is
// the UPIU's size on the wire (header + data segment), which the link serialises.
#pragma once
#include <cstdint>
#include "hal/host_types.h"
#include "hal/flash_types.h"

namespace ufs {

enum class UpiuType : uint8_t {
  NopOut = 0x00, Command = 0x01, DataOut = 0x02, TaskMgmtRequest = 0x04, QueryRequest = 0x16,
  NopIn = 0x20, Response = 0x21, DataIn = 0x22, TaskMgmtResponse = 0x24,
  ReadyToTransfer = 0x31, QueryResponse = 0x36, Reject = 0x3F,
};

constexpr uint32_t kUpiuHeaderBytes = 32;   // basic header + transaction-specific fields
constexpr uint32_t kSenseSegmentBytes = 20; // sense data length field + fixed sense data

struct Upiu {
  UpiuType type = UpiuType::NopOut;
  uint8_t task_tag = 0;
  uint8_t lun = 0;
  HostCommand command;        // Command
  CommandResponse response;   // Response
  uint32_t data_offset = 0;   // DataIn / DataOut / ReadyToTransfer: offset in the transfer
  uint32_t data_bytes = 0;    // DataIn / DataOut: bytes in the data segment; RTT: bytes asked for
  // Data segment contents, compressed: one SectorStamp stands for each 4 KiB of data_bytes.
  SectorStamp* stamps = nullptr;
  // Raw data segment (parameter lists, READ BUFFER data, descriptors) instead of stamps.
  uint8_t* bytes = nullptr;
  // DataIn / DataOut / ReadyToTransfer: when non-zero and smaller than data_bytes, this object
  // stands for ceil(data_bytes / segment_bytes) UPIUs of segment_bytes each (the last holds the
  // rest), all for consecutive offsets. One object instead of many saves calls; wire_bytes() and
  // the link's framing still count every UPIU's header. 0 = exactly one UPIU.
  uint32_t segment_bytes = 0;

  // How many UPIUs on the wire this object stands for.
  uint32_t segments() const {
    const bool segmented = type == UpiuType::DataIn || type == UpiuType::DataOut ||
                           type == UpiuType::ReadyToTransfer;
    if (!segmented || segment_bytes == 0 || data_bytes <= segment_bytes) return 1;
    return (data_bytes + segment_bytes - 1) / segment_bytes;
  }

  // Bytes on the wire before UniPro framing (all segments together).
  uint32_t wire_bytes() const {
    switch (type) {
      case UpiuType::DataIn:
      case UpiuType::DataOut: return segments() * kUpiuHeaderBytes + data_bytes;
      case UpiuType::ReadyToTransfer: return segments() * kUpiuHeaderBytes;
      case UpiuType::Response:
        return kUpiuHeaderBytes + (response.status != 0 || response.hpb_update_alert ? kSenseSegmentBytes : 0) +
               response.hpb_entry_count * kResponseHpbEntryBytes;
      default: return kUpiuHeaderBytes;
    }
  }
};

}  // namespace ufs
