#include "trace_mobile_reader.h"

#include "text_scan.h"

namespace ufs {

TraceReader::LineResult TraceMobileReader::parse_line(std::string_view line, TraceRecord& record) {
  if (line_number() == 1 && line.substr(0, 7) == "proces,") return LineResult::Skip;  // header
  if (line.empty()) return LineResult::Skip;
  // The five numeric fields are the last five; the name is everything before them.
  size_t commas[5];
  size_t found = 0;
  for (size_t i = line.size(); i-- > 0 && found < 5;)
    if (line[i] == ',') commas[found++] = i;
  if (found < 5) fail("6 comma-separated fields (proces,device,rw_flag,sector,size,timestamp)", line);
  auto field = [&](size_t k) {  // k = 1..5 from the left of the numeric part
    const size_t begin = commas[5 - k] + 1;
    const size_t end = k == 5 ? line.size() : commas[5 - k - 1];
    return line.substr(begin, end - begin);
  };
  const std::string_view name = line.substr(0, commas[4]);
  const std::string_view device = field(1), rw = field(2), sector = field(3), size = field(4), time = field(5);

  need_u64(device, "a device number");
  RwbsInfo info;
  if (!decode_rwbs(rw, info)) fail("rw_flag R, W or block-layer RWBS flags", rw);
  const uint64_t offset = to_bytes(need_u64(sector, "a start sector"), 512, sector);
  const uint64_t length = to_bytes(need_u64(size, "a size in sectors"), 512, size);
  __int128 seconds_ps = 0;
  if (!text::parse_fixed_point(time, 12, seconds_ps)) fail("a timestamp in seconds", time);

  const LineResult result = fill_rwbs(info, offset, length, size, record);
  record.time_ps = relative_time_ps(seconds_ps, 1, time);
  record.stream = streams_.intern(name);
  return result;
}

}  // namespace ufs
