#include "trace_blkparse_reader.h"

#include "text_scan.h"

namespace ufs {

TraceBlkparseReader::TraceBlkparseReader(const std::string& path, bool skip_bad, char action)
    : TraceReader(path, skip_bad), action_(action) {}

namespace {

bool is_device_token(std::string_view t) {
  const size_t comma = t.find(',');
  if (comma == std::string_view::npos || comma == 0 || comma + 1 == t.size()) return false;
  for (size_t i = 0; i < t.size(); ++i)
    if (i != comma && (t[i] < '0' || t[i] > '9')) return false;
  return true;
}

}  // namespace

TraceReader::LineResult TraceBlkparseReader::parse_line(std::string_view line, TraceRecord& record) {
  std::string_view rest = line;
  const std::string_view device = text::next_token(rest);
  if (device.empty()) return LineResult::Skip;
  if (!is_device_token(device)) {
    // blkparse ends with "CPU0 (8,0):" / "Total (8,0):" summaries.
    if (device.substr(0, 3) == "CPU" || device == "Total") return LineResult::End;
    fail("a blkparse event 'MAJ,MIN CPU SEQ TIME PID ACTION RWBS ...'", line);
  }
  const std::string_view cpu = text::next_token(rest);
  const std::string_view seq = text::next_token(rest);
  const std::string_view time = text::next_token(rest);
  const std::string_view pid = text::next_token(rest);
  const std::string_view action = text::next_token(rest);
  if (action.empty()) fail("a blkparse event 'MAJ,MIN CPU SEQ TIME PID ACTION RWBS ...'", line);
  if (action.size() != 1 || action[0] != action_) return LineResult::Skip;
  need_u64(cpu, "a CPU number");
  need_u64(seq, "a sequence number");
  need_u64(pid, "a pid");
  __int128 time_ps = 0;
  if (!text::parse_fixed_point(time, 12, time_ps)) fail("a time in seconds", time);

  const std::string_view rwbs = text::next_token(rest);
  RwbsInfo info;
  if (!decode_rwbs(rwbs, info)) fail("RWBS flags (R, W, D, F, N with A, S, M, F)", rwbs);

  uint64_t offset = 0, length = 0;
  std::string_view length_text = "0";
  std::string_view token = text::next_token(rest);
  if (!token.empty() && token[0] != '[') {
    if (token[0] == '(') return LineResult::Ignore;  // a SCSI pass-through (pc) request: no block address
    offset = to_bytes(need_u64(token, "a start sector"), 512, token);
    const std::string_view plus = text::next_token(rest);
    if (plus != "+") fail("'+' after the sector", plus);
    length_text = text::next_token(rest);
    length = to_bytes(need_u64(length_text, "a size in sectors"), 512, length_text);
    token = text::next_token(rest);
  }
  // The command name may contain spaces: take the bracketed remainder.
  std::string_view command = text::trim(token.empty() ? token : std::string_view(token.data(), rest.data() + rest.size() - token.data()));
  if (command.size() >= 2 && command.front() == '[' && command.back() == ']') command = command.substr(1, command.size() - 2);
  else if (!command.empty()) fail("'[command]'", command);

  const LineResult result = fill_rwbs(info, offset, length, length_text, record);
  record.time_ps = relative_time_ps(time_ps, 1, time);
  stream_key_.assign(command.data(), command.size());
  stream_key_ += '-';
  stream_key_.append(pid.data(), pid.size());
  record.stream = streams_.intern(stream_key_);
  return result;
}

}  // namespace ufs
