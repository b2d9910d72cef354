// MSR Cambridge traces (SNIA IOTTA):
//   Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
//   128166372003061629,wdev,0,Read,3203723264,16384,3985
// Timestamp in Windows filetime (100 ns ticks), Type Read/Write, Offset and Size
// in bytes. The header line is optional. Stream = "Hostname_DiskNumber" (the
// data set's file naming, e.g. wdev_0).
#pragma once
#include "trace_reader.h"

namespace ufs {

class TraceMsrReader : public TraceReader {
 public:
  TraceMsrReader(const std::string& path, bool skip_bad) : TraceReader(path, skip_bad) {}
  const char* format() const override { return "msr"; }

 protected:
  LineResult parse_line(std::string_view line, TraceRecord& record) override;

 private:
  std::string stream_key_;
};

}  // namespace ufs
