// How the firmware's parts report their statistics: each walks its figures through one
// visitor, naming each by its path in stats.json ("ftl.map_cache.read_hits") with unit and
// meaning (the same idea as the parameters' bind). The platform walks them into stats.json;
// a test can walk them into a map.
#pragma once
#include <cstdint>
#include <string>

namespace ufs {

class StatsVisitor {
 public:
  virtual ~StatsVisitor() = default;
  virtual void count(const char* key, uint64_t value, const char* unit, const char* meaning) = 0;
  virtual void figure(const char* key, double value, const char* unit, const char* meaning) = 0;
  virtual void flag(const char* key, bool value, const char* meaning) = 0;
  virtual void text(const char* key, const std::string& value, const char* meaning) = 0;
};

}  // namespace ufs
