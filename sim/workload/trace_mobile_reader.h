// The MobileBlockIOTraces CSV (Pixel 6a block layer):
//   proces,device,rw_flag,sector,size,timestamp
//   kworker/u17:3-3643,8388608,W,19284320,16,6640.641113
// sector and size in 512 B sectors, timestamp in seconds. The process name (with
// its pid) becomes the stream; it is split from the right, so a name containing a
// comma still parses. rw_flag is read as RWBS: R, W, plus the flags the block
// layer adds (WS, RA, D = discard -> Unmap, FWS = preflush, F... = flush).
#pragma once
#include "trace_reader.h"

namespace ufs {

class TraceMobileReader : public TraceReader {
 public:
  TraceMobileReader(const std::string& path, bool skip_bad) : TraceReader(path, skip_bad) {}
  const char* format() const override { return "mobile"; }

 protected:
  LineResult parse_line(std::string_view line, TraceRecord& record) override;
};

}  // namespace ufs
