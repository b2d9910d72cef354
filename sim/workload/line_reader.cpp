#include "line_reader.h"

#include <zlib.h>

#include <cerrno>
#include <cstring>

#include "workload_error.h"

namespace ufs {

namespace {
constexpr size_t kInitialBuffer = 1 << 20;
}

LineReader::LineReader(const std::string& path) : path_(path), buffer_(kInitialBuffer) {
  errno = 0;
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) {
    const int err = errno;
    throw WorkloadError(path + ": cannot open (" + (err ? std::strerror(err) : "out of memory") + ")");
  }
  gzbuffer(f, 256 * 1024);
  file_ = f;
}

LineReader::~LineReader() {
  if (file_) gzclose(static_cast<gzFile>(file_));
}

void LineReader::refill() {
  // Keep the partial line, then fill the rest of the buffer (growing it for a
  // line longer than the buffer).
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buffer_.size()) {
    // No trace format has lines beyond a few hundred bytes: a longer one is not a trace
    // (binary data, /dev/zero), and growing for it would only exhaust memory.
    if (buffer_.size() >= kMaxLineBytes)
      throw WorkloadError(path_ + ":" + std::to_string(line_number_ + 1) + ": line longer than " +
                          std::to_string(kMaxLineBytes >> 20) + " MiB (not a text trace?)");
    buffer_.resize(buffer_.size() * 2);
  }
  gzFile f = static_cast<gzFile>(file_);
  const int n = gzread(f, buffer_.data() + end_, static_cast<unsigned>(buffer_.size() - end_));
  if (n < 0) {
    int code = 0;
    const char* message = gzerror(f, &code);
    throw WorkloadError(path_ + ":" + std::to_string(line_number_ + 1) + ": cannot read (" + message + ")");
  }
  int code = Z_OK;
  gzerror(f, &code);
  // Z_BUF_ERROR is zlib's signal for a gzip stream that ends early: hand out the
  // complete lines first, then fail at the line where the data stops.
  if (code == Z_BUF_ERROR) truncated_ = true;
  if (n == 0 || truncated_) eof_ = true;
  end_ += static_cast<size_t>(n);
  bytes_read_ = static_cast<uint64_t>(gzoffset(f));
}

bool LineReader::next(std::string_view& line) {
  for (;;) {
    const char* start = buffer_.data() + begin_;
    const size_t avail = end_ - begin_;
    const void* newline = std::memchr(start, '\n', avail);
    size_t length;
    if (newline) {
      length = static_cast<size_t>(static_cast<const char*>(newline) - start);
      begin_ += length + 1;
    } else if (eof_) {
      if (truncated_)
        throw WorkloadError(path_ + ":" + std::to_string(line_number_ + 1) + ": cannot read (truncated gzip data)");
      if (avail == 0) return false;
      length = avail;  // last line without a newline
      begin_ = end_;
    } else {
      refill();
      continue;
    }
    if (length > 0 && start[length - 1] == '\r') --length;
    line = std::string_view(start, length);
    ++line_number_;
    return true;
  }
}

}  // namespace ufs
