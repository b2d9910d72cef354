// Streams the lines of a text file, gzip'd or plain (zlib's gzread reads plain
// files unchanged), through one large buffer: no allocation or copy per line, so
// the trace readers are bound by parsing, not I/O.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ufs {

class LineReader {
 public:
  static constexpr size_t kMaxLineBytes = 4u << 20;  // longer lines are refused (see refill)

  // Throws WorkloadError "PATH: cannot open (reason)".
  explicit LineReader(const std::string& path);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line without its "\n" / "\r\n"; valid until the following call.
  bool next(std::string_view& line);
  // 1-based number of the line last returned.
  uint64_t line_number() const { return line_number_; }
  const std::string& path() const { return path_; }
  // Compressed or plain bytes consumed so far (for progress and speed reports).
  uint64_t bytes_read() const { return bytes_read_; }

 private:
  void refill();

  std::string path_;
  void* file_ = nullptr;  // gzFile, kept opaque so users need not include zlib.h
  std::vector<char> buffer_;
  size_t begin_ = 0;
  size_t end_ = 0;
  bool eof_ = false;
  bool truncated_ = false;
  uint64_t line_number_ = 0;
  uint64_t bytes_read_ = 0;
};

}  // namespace ufs
