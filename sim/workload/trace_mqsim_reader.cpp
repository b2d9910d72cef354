#include "trace_mqsim_reader.h"

#include "text_scan.h"

namespace ufs {

TraceReader::LineResult TraceMqsimReader::parse_line(std::string_view line, TraceRecord& record) {
  std::string_view rest = line;
  const std::string_view time = text::next_token(rest);
  if (time.empty()) return LineResult::Skip;
  const std::string_view devno = text::next_token(rest);
  const std::string_view sector = text::next_token(rest);
  const std::string_view size = text::next_token(rest);
  const std::string_view type = text::next_token(rest);
  if (type.empty()) fail("5 fields 'ARRIVAL_NS DEVNO START_SECTOR SIZE_SECTORS TYPE'", line);
  const std::string_view extra = text::next_token(rest);
  if (!extra.empty()) fail("end of line after TYPE", extra);

  const uint64_t ns = need_u64(time, "an arrival time in ns");
  need_u64(devno, "a device number");
  record.offset_bytes = to_bytes(need_u64(sector, "a start sector"), 512, sector);
  record.length_bytes = to_bytes(need_u64(size, "a size in sectors"), 512, size);
  if (record.length_bytes == 0) fail("a non-zero size", size);
  if (type == "1") record.op = BlockOp::Read;
  else if (type == "0") record.op = BlockOp::Write;
  else fail("TYPE 1 (read) or 0 (write)", type);
  record.time_ps = relative_time_ps(__int128{ns}, 1000, time);
  char name[32] = "dev";
  const size_t n = devno.size() < sizeof name - 4 ? devno.size() : sizeof name - 4;
  devno.copy(name + 3, n);
  record.stream = streams_.intern(std::string_view(name, 3 + n));
  return LineResult::Record;
}

}  // namespace ufs
