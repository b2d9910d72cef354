// The lookups of a policy registry (a table of {key value, factory} entries): the factory
// for a name, whether a name is registered, the names for messages and help. Shared by the
// FTL's plug-in policies (map-cache replacement, stripe order).
#pragma once
#include <cstddef>
#include <string>

namespace ufs {

template <class Make>
struct PolicyEntry {
  const char* name;  // the key's value that selects it
  Make make;
};

// The entry's factory for `name`, or nullptr.
template <class Make, std::size_t N>
Make find_policy(const PolicyEntry<Make> (&table)[N], const std::string& name) {
  for (const PolicyEntry<Make>& e : table)
    if (name == e.name) return e.make;
  return nullptr;
}

// "a | b | c"
template <class Make, std::size_t N>
std::string policy_names(const PolicyEntry<Make> (&table)[N]) {
  std::string out;
  for (const PolicyEntry<Make>& e : table) out += (out.empty() ? "" : " | ") + std::string(e.name);
  return out;
}

}  // namespace ufs
