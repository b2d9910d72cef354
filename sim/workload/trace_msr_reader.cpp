#include "trace_msr_reader.h"

#include "text_scan.h"

namespace ufs {

TraceReader::LineResult TraceMsrReader::parse_line(std::string_view line, TraceRecord& record) {
  if (line.empty()) return LineResult::Skip;
  if (line_number() == 1 && line.substr(0, 9) == "Timestamp") return LineResult::Skip;
  std::string_view fields[7];
  std::string_view rest = line;
  bool more = true;
  size_t n = 0;
  while (more && n < 7) fields[n++] = text::next_field(rest, ',', more);
  if (n < 7 || more) fail("7 comma-separated fields (Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime)", line);

  const uint64_t ticks = need_u64(fields[0], "a timestamp in 100 ns ticks");
  need_u64(fields[2], "a disk number");
  const std::string_view type = fields[3];
  if (text::iequals(type, "Read")) record.op = BlockOp::Read;
  else if (text::iequals(type, "Write")) record.op = BlockOp::Write;
  else fail("Type Read or Write", type);
  record.offset_bytes = need_u64(fields[4], "an offset in bytes");
  record.length_bytes = need_u64(fields[5], "a size in bytes");
  if (record.length_bytes == 0) fail("a non-zero size", fields[5]);
  need_u64(fields[6], "a response time");
  record.time_ps = relative_time_ps(__int128{ticks}, 100000, fields[0]);
  stream_key_.assign(fields[1].data(), fields[1].size());
  stream_key_ += '_';
  stream_key_.append(fields[2].data(), fields[2].size());
  record.stream = streams_.intern(stream_key_);
  return LineResult::Record;
}

}  // namespace ufs
