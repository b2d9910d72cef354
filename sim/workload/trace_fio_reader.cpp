#include "trace_fio_reader.h"

#include "spec_values.h"
#include "text_scan.h"

namespace ufs {

TraceFioReader::TraceFioReader(const std::string& path, bool skip_bad, uint64_t v3_time_unit_ps)
    : TraceReader(path, skip_bad), time_unit_ps_(static_cast<int64_t>(v3_time_unit_ps)) {}

TraceReader::LineResult TraceFioReader::parse_line(std::string_view line, TraceRecord& record) {
  if (version_ == 0) {
    const std::string_view header = text::trim(line);
    if (header == "fio version 2 iolog") version_ = 2;
    else if (header == "fio version 3 iolog") version_ = 3;
    else fail("'fio version 2 iolog' or 'fio version 3 iolog'", line);
    return LineResult::Skip;
  }
  std::string_view rest = line;
  std::string_view time_text;
  __int128 time = 0;
  if (version_ == 3) {
    time_text = text::next_token(rest);
    if (time_text.empty()) return LineResult::Skip;
    time = need_u64(time_text, "a timestamp");
  }
  const std::string_view file = text::next_token(rest);
  if (file.empty()) {
    if (version_ == 3) fail("'TIME FILE ACTION [OFFSET LENGTH]'", line);
    return LineResult::Skip;
  }
  const std::string_view action = text::next_token(rest);
  const std::string_view offset_text = text::next_token(rest);
  const std::string_view length_text = text::next_token(rest);
  const std::string_view extra = text::next_token(rest);
  if (!extra.empty()) fail("end of line after LENGTH", extra);

  if (action == "add" || action == "open" || action == "close") {
    if (!offset_text.empty()) fail("no offset after a file action", offset_text);
    return LineResult::Skip;
  }
  if (action == "wait") {
    if (version_ == 3) fail("no 'wait' in a version 3 iolog (timestamps replace it)", action);
    wait_us_ += need_u64(offset_text, "a wait time in microseconds");  // 128 bits: no overflow
    return LineResult::Skip;
  }
  uint64_t offset = 0, length = 0;
  if (action == "read" || action == "write" || action == "trim") {
    if (offset_text.empty()) fail("'" + std::string(action) + " OFFSET LENGTH'", line);
    offset = need_u64(offset_text, "an offset in bytes");
    length = need_u64(length_text, "a length in bytes");
    if (length == 0) fail("a non-zero length", length_text);
    record.op = action == "read" ? BlockOp::Read : action == "write" ? BlockOp::Write : BlockOp::Unmap;
    record.offset_bytes = offset;
    record.length_bytes = length;
  } else if (action == "sync" || action == "datasync") {
    if (!offset_text.empty()) need_u64(offset_text, "an offset in bytes");
    if (!length_text.empty()) need_u64(length_text, "a length in bytes");
    record.op = BlockOp::Flush;
  } else {
    fail("an action read, write, trim, sync, datasync, wait, add, open or close", action);
  }
  if (version_ == 3) record.time_ps = relative_time_ps(time, time_unit_ps_, time_text);
  else record.time_ps = relative_time_ps(wait_us_, static_cast<int64_t>(kPsPerUs), offset_text);
  record.stream = streams_.intern(file);
  return LineResult::Record;
}

}  // namespace ufs
