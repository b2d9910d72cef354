// SCSI command dispatch: the commands the device answers itself (TEST UNIT READY,
// REQUEST SENSE, INQUIRY, READ CAPACITY), the checks a READ, WRITE, SYNCHRONIZE CACHE or
// UNMAP passes (length, range, write protection) before its engine takes it, and
// CHECK CONDITION for anything malformed or unknown. HPB's commands go to HPB before this.
#pragma once
#include <cstdint>
#include "command/command_table.h"
#include "command/read_engine.h"
#include "protect/write_protection.h"
#include "scsi/scsi_command.h"
#include "write/write_engine.h"

namespace ufs {

class ScsiDispatch {
 public:
  ScsiDispatch(CommandTable& table, ReadEngine& reads, WriteEngine& writes, WriteProtection& protection,
               uint32_t max_transfer_blocks, uint64_t logical_blocks)
      : table_(table), reads_(reads), writes_(writes), protection_(protection),
        max_transfer_blocks_(max_transfer_blocks), logical_blocks_(logical_blocks) {}

  void dispatch(const HostCommand& c);

 private:
  void inquiry(const HostCommand& c, const ScsiCommand& s);
  void read_capacity(const HostCommand& c, const ScsiCommand& s);
  void read_write(const HostCommand& c, const ScsiCommand& s);
  void invalid(const HostCommand& c, uint8_t asc_code) { table_.fail(c, sense_key::kIllegalRequest, asc_code); }

  CommandTable& table_;
  ReadEngine& reads_;
  WriteEngine& writes_;
  WriteProtection& protection_;
  uint32_t max_transfer_blocks_;
  uint64_t logical_blocks_;
};

}  // namespace ufs
