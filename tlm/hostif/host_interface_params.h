// Parameters of the device's UFS host interface (UPIU front end): HostInterface.
#pragma once
#include <cstdint>
#include <string>

namespace ufs {

struct HostInterfaceParams {
  uint32_t queue_depth = 32;               // commands the device holds at once (bQueueDepth)
  uint32_t max_data_segment_bytes = 32768; // data per DATA IN / DATA OUT UPIU (and per RTT)
  uint32_t max_outstanding_rtt = 2;        // READY TO TRANSFERs in flight per command (bMaxNumOfRTT)
  uint32_t data_in_segments_ahead = 2;     // DATA IN segments read and queued on the link ahead (DMA prefetch)
  bool coalesce_segments = false;          // one Upiu object for all segments of a transfer
  uint64_t command_decode_ns = 100;        // COMMAND UPIU received -> firmware notified
  uint64_t upiu_build_ns = 50;             // firmware request -> outgoing UPIU ready for the link

  template <class B>
  void bind(B& b) {
    b("queue_depth", queue_depth, "commands",
      "commands the device accepts at once (bQueueDepth); more wait in the interface");
    b("max_data_segment_bytes", max_data_segment_bytes, "bytes",
      "data bytes per DATA IN / DATA OUT UPIU and per READY TO TRANSFER (multiple of 4096, < 64 KiB)");
    b("max_outstanding_rtt", max_outstanding_rtt, "UPIUs",
      "READY TO TRANSFER UPIUs in flight per command (bMaxNumOfRTT)");
    b("data_in_segments_ahead", data_in_segments_ahead, "UPIUs",
      "DATA IN segments the interface keeps read from the buffer and queued on the link (DMA prefetch depth, 1..8)");
    b("coalesce_segments", coalesce_segments, "",
      "send a whole transfer as one Upiu standing for all its segments (fewer calls, coarser timing)");
    b("command_decode_ns", command_decode_ns, "ns", "COMMAND UPIU arrival to firmware notification");
    b("upiu_build_ns", upiu_build_ns, "ns", "firmware request to outgoing UPIU handed to the link");
  }

  std::string validate() const {
    if (queue_depth < 1 || queue_depth > 256) return "queue_depth: must be 1..256";
    if (max_data_segment_bytes == 0 || max_data_segment_bytes % 4096 != 0 || max_data_segment_bytes > 65535)
      return "max_data_segment_bytes: must be a multiple of 4096 below 65536 (16-bit Data Segment Length)";
    if (max_outstanding_rtt < 1 || max_outstanding_rtt > 255) return "max_outstanding_rtt: must be 1..255 (bMaxNumOfRTT)";
    if (data_in_segments_ahead < 1 || data_in_segments_ahead > 8) return "data_in_segments_ahead: must be 1..8";
    return "";
  }
};

}  // namespace ufs
