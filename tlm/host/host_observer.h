// What the host driver reports about each request, for statistics and the
// scoreboard. Plain C++ (times in picoseconds) so the scoreboard builds without SystemC.
#pragma once
#include <cstdint>
#include "block_request.h"
#include "hal/flash_types.h"

namespace ufs {

struct IoRecord {
  uint64_t io_id = 0;          // unique per request, in submission order
  uint8_t tag = 0;             // task tag it went out with
  BlockRequest request;
  uint64_t arrival_ps = 0;     // when the workload wanted it issued
  uint64_t issue_ps = 0;       // when the COMMAND UPIU was sent (tag taken)
  uint64_t complete_ps = 0;    // when the RESPONSE UPIU was processed
  uint8_t status = 0;          // SCSI status
  uint8_t sense_key = 0;
  uint8_t asc = 0;
  const SectorStamp* data = nullptr;  // Write: stamps sent; Read: stamps received (request.blocks)
};

class HostObserver {
 public:
  virtual ~HostObserver() = default;
  // The command is about to be sent (for writes `data` holds what will be written).
  virtual void on_issue(const IoRecord& record) {}
  // The response arrived (for reads `data` holds what came back).
  virtual void on_complete(const IoRecord& record) {}
};

}  // namespace ufs
