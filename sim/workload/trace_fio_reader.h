// fio iologs (read_iolog / write_iolog). The first line names the version:
//   fio version 2 iolog          lines: FILE ACTION [OFFSET LENGTH]
//   fio version 3 iolog          lines: TIME FILE ACTION [OFFSET LENGTH]
// ACTION: read, write, trim (-> Unmap), sync/datasync (-> Flush), and the file
// actions add/open/close (skipped). v2 "wait N" advances time by N microseconds
// (fio's documented meaning). v3 TIME is in microseconds since the start, which
// is what fio's write_iolog records (utime_since_now); `time_unit` overrides it.
// OFFSET and LENGTH are bytes. Each file name is a stream.
#pragma once
#include "trace_reader.h"

namespace ufs {

class TraceFioReader : public TraceReader {
 public:
  TraceFioReader(const std::string& path, bool skip_bad, uint64_t v3_time_unit_ps);
  const char* format() const override { return "fio"; }
  int version() const { return version_; }

 protected:
  LineResult parse_line(std::string_view line, TraceRecord& record) override;

 private:
  int version_ = 0;
  int64_t time_unit_ps_;
  __int128 wait_us_ = 0;  // v2: time accumulated from wait actions
};

}  // namespace ufs
