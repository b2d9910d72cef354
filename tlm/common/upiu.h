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

  // Bytes on the wire before UniPro framing.
  uint32_t wire_bytes() const {
    switch (type) {
      case UpiuType::DataIn:
      case UpiuType::DataOut: return kUpiuHeaderBytes + data_bytes;
      case UpiuType::Response:
        return kUpiuHeaderBytes + (response.status != 0 || response.hpb_update_alert ? kSenseSegmentBytes : 0);
      default: return kUpiuHeaderBytes;
    }
  }
};

}  // namespace ufs
