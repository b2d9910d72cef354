// Base of the trace format readers: streams lines, turns a malformed line into
// "FILE:LINE: expected <what> but found '<text>'" (or counts and skips it when
// the user asked with skip_bad=1), and rebases timestamps to the first record.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "line_reader.h"
#include "rwbs_decoder.h"
#include "stream_table.h"
#include "trace_record.h"

namespace ufs {

class TraceReader {
 public:
  TraceReader(const std::string& path, bool skip_bad);
  virtual ~TraceReader() = default;
  TraceReader(const TraceReader&) = delete;
  TraceReader& operator=(const TraceReader&) = delete;

  // The next request record; false at the end of the trace.
  bool next(TraceRecord& record);

  virtual const char* format() const = 0;
  const std::string& stream_name(uint32_t id) const { return streams_.name(id); }
  uint32_t stream_count() const { return streams_.size(); }

  const std::string& path() const { return lines_.path(); }
  uint64_t line_number() const { return lines_.line_number(); }
  uint64_t bytes_read() const { return lines_.bytes_read(); }
  std::string where() const;               // "PATH:LINE" of the current line
  uint64_t bad_lines() const { return bad_lines_; }     // skipped with skip_bad=1
  uint64_t ignored() const { return ignored_; }         // valid but not block I/O (e.g. RWBS "N")

  // Throws WorkloadError "PATH:LINE: expected <expected> but found '<found>'".
  [[noreturn]] void fail(std::string_view expected, std::string_view found) const;

 protected:
  enum class LineResult { Record, Skip, Ignore, End };
  virtual LineResult parse_line(std::string_view line, TraceRecord& record) = 0;

  // `native` in units of `ps_per_unit` picoseconds -> ps since the first record. The
  // difference is taken before converting, so absolute timestamps of any size work.
  int64_t relative_time_ps(__int128 native, int64_t ps_per_unit, std::string_view text);
  // Fills op/offset/length from decoded RWBS flags; zero-length data is malformed
  // unless it is a preflush (an empty flush bio shows as "FWS ... + 0").
  LineResult fill_rwbs(const RwbsInfo& info, uint64_t offset_bytes, uint64_t length_bytes,
                       std::string_view length_text, TraceRecord& record) const;
  // Helpers that parse or fail with the field's description.
  uint64_t need_u64(std::string_view field, std::string_view what) const;
  // count * unit_bytes, failing on overflow.
  uint64_t to_bytes(uint64_t count, uint64_t unit_bytes, std::string_view field) const;

  StreamTable streams_;

 private:
  LineReader lines_;
  bool skip_bad_;
  bool have_origin_ = false;
  __int128 origin_ = 0;
  uint64_t bad_lines_ = 0;
  uint64_t ignored_ = 0;
};

}  // namespace ufs
