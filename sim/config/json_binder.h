// The binder a parameter struct sees when the configuration tree walks it:
//     params.bind(binder);   // calls binder("key", field, "unit", "meaning") per field
// Each call looks "<section>.<key>" up in the tree, assigns the field when the tree
// sets it (type- and range-checked), and records the key as known with its type,
// unit, meaning, default and effective value. Only the six field types of
// tlm/common/param_binder.h are accepted; anything else fails to compile.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>

namespace ufs {

class ConfigTree;

class JsonBinder {
 public:
  // `section` is the dotted prefix of every key this binder sees ("" for top level).
  JsonBinder(ConfigTree& tree, std::string section);

  void operator()(const std::string& key, bool& field, const std::string& unit, const std::string& meaning);
  void operator()(const std::string& key, uint32_t& field, const std::string& unit, const std::string& meaning);
  void operator()(const std::string& key, uint64_t& field, const std::string& unit, const std::string& meaning);
  void operator()(const std::string& key, int64_t& field, const std::string& unit, const std::string& meaning);
  void operator()(const std::string& key, double& field, const std::string& unit, const std::string& meaning);
  void operator()(const std::string& key, std::string& field, const std::string& unit, const std::string& meaning);

  // Catches int, float, size_t on other ABIs...: a clear compile error instead of a silent conversion.
  template <class T>
  void operator()(const std::string&, T&, const std::string&, const std::string&) {
    static_assert(!std::is_same<T, T>::value,
                  "parameter fields must be bool, uint32_t, uint64_t, int64_t, double or std::string");
  }

  const std::string& section() const { return section_; }

 private:
  std::string full_key(const std::string& key) const;

  ConfigTree& tree_;
  std::string section_;
};

}  // namespace ufs
