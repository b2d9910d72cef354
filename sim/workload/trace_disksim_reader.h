// DiskSim ASCII traces: "TIME_MS DEVNO BLKNO NBLKS FLAGS", whitespace-separated,
// time in (fractional) milliseconds, BLKNO/NBLKS in 512 B blocks, FLAGS bit 0 set
// = read, clear = write. Stream = "devN".
#pragma once
#include "trace_reader.h"

namespace ufs {

class TraceDisksimReader : public TraceReader {
 public:
  TraceDisksimReader(const std::string& path, bool skip_bad) : TraceReader(path, skip_bad) {}
  const char* format() const override { return "disksim"; }

 protected:
  LineResult parse_line(std::string_view line, TraceRecord& record) override;
};

}  // namespace ufs
