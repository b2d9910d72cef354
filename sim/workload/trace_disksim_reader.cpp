#include "trace_disksim_reader.h"

#include "text_scan.h"

namespace ufs {

TraceReader::LineResult TraceDisksimReader::parse_line(std::string_view line, TraceRecord& record) {
  std::string_view rest = line;
  const std::string_view time = text::next_token(rest);
  if (time.empty()) return LineResult::Skip;
  const std::string_view devno = text::next_token(rest);
  const std::string_view blkno = text::next_token(rest);
  const std::string_view nblks = text::next_token(rest);
  const std::string_view flags = text::next_token(rest);
  if (flags.empty()) fail("5 fields 'TIME_MS DEVNO BLKNO NBLKS FLAGS'", line);
  const std::string_view extra = text::next_token(rest);
  if (!extra.empty()) fail("end of line after FLAGS", extra);

  __int128 time_ps = 0;
  if (!text::parse_fixed_point(time, 9, time_ps)) fail("a time in milliseconds", time);
  need_u64(devno, "a device number");
  record.offset_bytes = to_bytes(need_u64(blkno, "a block number"), 512, blkno);
  record.length_bytes = to_bytes(need_u64(nblks, "a block count"), 512, nblks);
  if (record.length_bytes == 0) fail("a non-zero block count", nblks);
  record.op = (need_u64(flags, "flags") & 1) ? BlockOp::Read : BlockOp::Write;
  record.time_ps = relative_time_ps(time_ps, 1, time);
  char name[32] = "dev";
  const size_t n = devno.size() < sizeof name - 4 ? devno.size() : sizeof name - 4;
  devno.copy(name + 3, n);
  record.stream = streams_.intern(std::string_view(name, 3 + n));
  return LineResult::Record;
}

}  // namespace ufs
