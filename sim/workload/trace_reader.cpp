#include "trace_reader.h"

#include "spec_values.h"
#include "text_scan.h"
#include "workload_error.h"

namespace ufs {

TraceReader::TraceReader(const std::string& path, bool skip_bad) : lines_(path), skip_bad_(skip_bad) {}

std::string TraceReader::where() const { return lines_.path() + ":" + std::to_string(lines_.line_number()); }

void TraceReader::fail(std::string_view expected, std::string_view found) const {
  constexpr size_t kMaxShown = 120;  // keep the message one readable line
  // Trace bytes are shown escaped: control characters and escape sequences must not reach
  // the terminal, and a NUL would cut the message short.
  std::string shown;
  for (const char ch : found.substr(0, kMaxShown)) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c != 0x7f) {
      shown += ch;
      continue;
    }
    static const char hex[] = "0123456789abcdef";
    shown += "\\x";
    shown += hex[c >> 4];
    shown += hex[c & 15];
  }
  if (found.size() > kMaxShown) shown += "...";
  throw WorkloadError(where() + ": expected " + std::string(expected) + " but found '" + shown + "'");
}

bool TraceReader::next(TraceRecord& record) {
  std::string_view line;
  while (lines_.next(line)) {
    LineResult result;
    try {
      record = TraceRecord{};
      result = parse_line(line, record);
    } catch (const WorkloadError&) {
      if (!skip_bad_) throw;
      ++bad_lines_;
      continue;
    }
    switch (result) {
      case LineResult::Record: return true;
      case LineResult::Skip: break;
      case LineResult::Ignore: ++ignored_; break;
      case LineResult::End: return false;
    }
  }
  return false;
}

int64_t TraceReader::relative_time_ps(__int128 native, int64_t ps_per_unit, std::string_view text) {
  if (!have_origin_) {
    have_origin_ = true;
    origin_ = native;
  }
  __int128 delta = 0, ps = 0;
  if (__builtin_sub_overflow(native, origin_, &delta) || __builtin_mul_overflow(delta, __int128{ps_per_unit}, &ps) ||
      ps > __int128{static_cast<int64_t>(kMaxSimulatedPs)} || ps < -__int128{static_cast<int64_t>(kMaxSimulatedPs)})
    fail("a timestamp within 100 days of the first", text);
  return static_cast<int64_t>(ps);
}

TraceReader::LineResult TraceReader::fill_rwbs(const RwbsInfo& info, uint64_t offset_bytes, uint64_t length_bytes,
                                               std::string_view length_text, TraceRecord& record) const {
  switch (info.kind) {
    case RwbsInfo::Kind::NoData: return LineResult::Ignore;
    case RwbsInfo::Kind::FlushOnly:
      record.op = BlockOp::Flush;
      return LineResult::Record;
    case RwbsInfo::Kind::Data: break;
  }
  if (length_bytes == 0) {
    if (!info.preflush) fail("a non-zero size", length_text);
    record.op = BlockOp::Flush;
    return LineResult::Record;
  }
  record.op = info.op;
  record.offset_bytes = offset_bytes;
  record.length_bytes = length_bytes;
  record.fua = info.fua;
  record.preflush = info.preflush;
  return LineResult::Record;
}

uint64_t TraceReader::need_u64(std::string_view field, std::string_view what) const {
  uint64_t v = 0;
  if (!text::parse_u64(field, v)) fail(what, field);
  return v;
}

uint64_t TraceReader::to_bytes(uint64_t count, uint64_t unit_bytes, std::string_view field) const {
  uint64_t bytes = 0;
  if (__builtin_mul_overflow(count, unit_bytes, &bytes)) fail("an address below 16 EiB", field);
  return bytes;
}

}  // namespace ufs
