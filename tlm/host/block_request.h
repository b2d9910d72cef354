// What a workload hands the host driver: block requests in 4 KiB logical blocks.
// Plain C++ (no SystemC) so workload generators and trace readers build without the kernel.
#pragma once
#include <cstdint>
#include <string>

namespace ufs {

enum class BlockOp : uint8_t { Read, Write, Flush, Unmap };

struct BlockRequest {
  BlockOp op = BlockOp::Read;
  uint64_t lba = 0;        // first 4 KiB logical block
  uint32_t blocks = 1;     // length in 4 KiB blocks (0 for Flush)
  uint64_t arrival_ps = 0; // open-loop arrival time; 0 = issue as soon as the submitter may
  uint32_t stream = 0;     // stream/process id (trace process names map to ids)
  bool fua = false;        // force unit access (write through the cache)
};

// A source of requests with its own outstanding limit (fio's job with iodepth, or
// a trace replayed open- or closed-loop). The host driver pulls from each submitter
// while it has fewer than max_outstanding() requests in flight and a tag is free.
class RequestSubmitter {
 public:
  virtual ~RequestSubmitter() = default;
  // Next request, or false when the submitter is exhausted.
  virtual bool next(BlockRequest& out) = 0;
  virtual uint32_t max_outstanding() const = 0;
  // True when requests carry arrival times that must be honoured (open loop).
  virtual bool timed() const { return false; }
  // Stream names (index = BlockRequest::stream), for reports; may be empty.
  virtual std::string stream_name(uint32_t stream) const { return "job" + std::to_string(stream); }
  // Something the user should know about the requests handed out, once they are all out
  // (e.g. a trace whose timestamps went backwards); "" when nothing.
  virtual std::string warning() const { return ""; }
};

}  // namespace ufs
