#include "config/json_binder.h"

#include "config/config_tree.h"

namespace ufs {

JsonBinder::JsonBinder(ConfigTree& tree, std::string section) : tree_(tree), section_(std::move(section)) {}

std::string JsonBinder::full_key(const std::string& key) const { return section_.empty() ? key : section_ + "." + key; }

void JsonBinder::operator()(const std::string& key, bool& field, const std::string& unit, const std::string& meaning) {
  tree_.bind_field(full_key(key), &field, unit, meaning);
}
void JsonBinder::operator()(const std::string& key, uint32_t& field, const std::string& unit, const std::string& meaning) {
  tree_.bind_field(full_key(key), &field, unit, meaning);
}
void JsonBinder::operator()(const std::string& key, uint64_t& field, const std::string& unit, const std::string& meaning) {
  tree_.bind_field(full_key(key), &field, unit, meaning);
}
void JsonBinder::operator()(const std::string& key, int64_t& field, const std::string& unit, const std::string& meaning) {
  tree_.bind_field(full_key(key), &field, unit, meaning);
}
void JsonBinder::operator()(const std::string& key, double& field, const std::string& unit, const std::string& meaning) {
  tree_.bind_field(full_key(key), &field, unit, meaning);
}
void JsonBinder::operator()(const std::string& key, std::string& field, const std::string& unit,
                            const std::string& meaning) {
  tree_.bind_field(full_key(key), &field, unit, meaning);
}

}  // namespace ufs
