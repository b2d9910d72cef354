// Interns stream names (trace process names, fio file names, device numbers) into
// dense ids in first-seen order. Open addressing over string_views: no std::string
// is built per lookup, and the last id is cached because consecutive trace lines
// often come from the same process.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ufs {

class StreamTable {
 public:
  StreamTable();
  uint32_t intern(std::string_view name);
  const std::string& name(uint32_t id) const { return names_[id]; }
  uint32_t size() const { return static_cast<uint32_t>(names_.size()); }

 private:
  static uint64_t hash(std::string_view s);
  void grow();

  std::vector<std::string> names_;
  std::vector<uint32_t> slots_;  // id + 1; 0 = empty
  uint32_t last_id_ = UINT32_MAX;
};

}  // namespace ufs
