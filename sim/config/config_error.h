// The one error type of the configuration tree. Its message is a single line that
// names the problem and where it came from (file:line, key, --set), because the
// user sees nothing else: ufs-sim prints it and exits with status 2.
#pragma once
#include <stdexcept>
#include <string>

namespace ufs {

class ConfigError : public std::runtime_error {
 public:
  explicit ConfigError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace ufs
