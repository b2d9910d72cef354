// MQSim / SSDsim ASCII traces: "ARRIVAL_NS DEVNO START_SECTOR SIZE_SECTORS TYPE",
// whitespace-separated, sectors of 512 B, TYPE 1 = read, 0 = write. Stream = "devN".
#pragma once
#include "trace_reader.h"

namespace ufs {

class TraceMqsimReader : public TraceReader {
 public:
  TraceMqsimReader(const std::string& path, bool skip_bad) : TraceReader(path, skip_bad) {}
  const char* format() const override { return "mqsim"; }

 protected:
  LineResult parse_line(std::string_view line, TraceRecord& record) override;
};

}  // namespace ufs
