// Parameters of the UFS host (controller + Linux UFS/SCSI driver stack): HostDriver.
#pragma once
#include <cstdint>
#include <string>

namespace ufs {

struct HostParams {
  uint32_t queue_depth = 32;           // task tags (UTP transfer request slots) shared by all submitters
  uint32_t lun = 0;                    // logical unit the block requests go to
  uint64_t submit_overhead_ns = 1500;  // block layer + SCSI + UFS driver until the doorbell rings
  uint64_t completion_overhead_ns = 2500;  // interrupt, completion handling, block layer completion
  uint64_t rtt_turnaround_ns = 300;    // controller: READY TO TRANSFER in -> DATA OUT out (fetch from DRAM)

  template <class B>
  void bind(B& b) {
    b("queue_depth", queue_depth, "tags", "host task tags shared by all submitters (1..256)");
    b("lun", lun, "", "logical unit addressed by block requests (0..127)");
    b("submit_overhead_ns", submit_overhead_ns, "ns",
      "host software + controller time from taking a tag to sending the COMMAND UPIU");
    b("completion_overhead_ns", completion_overhead_ns, "ns",
      "interrupt and completion path from RESPONSE UPIU arrival to the request completing");
    b("rtt_turnaround_ns", rtt_turnaround_ns, "ns",
      "host controller time from READY TO TRANSFER arrival to sending DATA OUT");
  }

  std::string validate() const {
    if (queue_depth < 1 || queue_depth > 256) return "queue_depth: must be 1..256";
    if (lun > 127) return "lun: must be 0..127";
    return "";
  }
};

}  // namespace ufs
