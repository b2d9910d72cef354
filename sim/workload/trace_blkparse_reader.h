// blkparse's default text output, one event per line:
//   8,0    3        1     0.000000000   697  Q   W 223490 + 8 [kjournald]
//   dev   cpu     seq    time(s.ns)     pid act rwbs sector + sectors [command]
// Only the chosen action (Q = queued, the application's view, or D = dispatched
// to the device) becomes requests; other events are skipped. The per-CPU summary
// that blkparse prints at the end ends the trace. Stream = "command-pid".
#pragma once
#include "trace_reader.h"

namespace ufs {

class TraceBlkparseReader : public TraceReader {
 public:
  TraceBlkparseReader(const std::string& path, bool skip_bad, char action);
  const char* format() const override { return "blkparse"; }

 protected:
  LineResult parse_line(std::string_view line, TraceRecord& record) override;

 private:
  char action_;
  std::string stream_key_;  // reused buffer for "command-pid"
};

}  // namespace ufs
