// A trace written by a test into a fresh temporary file (plain or gzip'd) and
// removed afterwards: tests never read the shared real traces.
#pragma once
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace ufs::test {

class TempTraceFile {
 public:
  explicit TempTraceFile(const std::string& content, bool gzip = false, const std::string& suffix = ".trace") {
    std::string pattern = "/tmp/ufs_wl_test_XXXXXX" + suffix;
    const int fd = mkstemps(pattern.data(), static_cast<int>(suffix.size()));
    if (fd < 0) throw std::runtime_error("mkstemps failed");
    path_ = pattern;
    if (gzip) {
      gzFile f = gzdopen(fd, "wb");
      gzwrite(f, content.data(), static_cast<unsigned>(content.size()));
      gzclose(f);
    } else {
      FILE* f = fdopen(fd, "wb");
      std::fwrite(content.data(), 1, content.size(), f);
      std::fclose(f);
    }
  }
  ~TempTraceFile() { std::remove(path_.c_str()); }
  TempTraceFile(const TempTraceFile&) = delete;
  TempTraceFile& operator=(const TempTraceFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace ufs::test
