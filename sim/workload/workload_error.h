// The one exception type of the workload library. Every message is a single line
// naming the problem (FILE:LINE for traces, the key for specs) so the program can
// print it verbatim and exit with status 2.
#pragma once
#include <stdexcept>
#include <string>

namespace ufs {

class WorkloadError : public std::runtime_error {
 public:
  explicit WorkloadError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace ufs
