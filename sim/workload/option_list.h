// A parsed "key=value,key=value" list. Consumers take() the keys they know;
// finish() then rejects whatever is left, so a typo ("bsz=4k") is an error
// instead of a silently ignored option.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ufs {

class OptionList {
 public:
  // `context` prefixes errors: "workload spec: unknown key 'bsz'".
  OptionList(std::string_view text, std::string context);

  // The value of `key` (or of one of its aliases), marking it used.
  std::optional<std::string> take(std::string_view key, std::string_view alias = {});
  bool has(std::string_view key) const;
  // Throws WorkloadError naming the first key nobody took.
  void finish() const;

 private:
  struct Entry {
    std::string key;
    std::string value;
    bool used = false;
  };
  std::vector<Entry> entries_;
  std::string context_;
};

}  // namespace ufs
