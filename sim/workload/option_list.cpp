#include "option_list.h"

#include "text_scan.h"
#include "workload_error.h"

namespace ufs {

OptionList::OptionList(std::string_view text, std::string context) : context_(std::move(context)) {
  while (!text.empty()) {
    bool more = false;
    std::string_view item = text::trim(text::next_field(text, ',', more));
    if (item.empty()) {
      if (more || !text.empty()) throw WorkloadError(context_ + ": empty option in '" + std::string(text) + "'");
      break;
    }
    size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0)
      throw WorkloadError(context_ + ": expected key=value but found '" + std::string(item) + "'");
    Entry e;
    e.key = std::string(text::trim(item.substr(0, eq)));
    e.value = std::string(text::trim(item.substr(eq + 1)));
    for (const Entry& other : entries_)
      if (other.key == e.key) throw WorkloadError(context_ + ": key '" + e.key + "' given twice");
    entries_.push_back(std::move(e));
  }
}

std::optional<std::string> OptionList::take(std::string_view key, std::string_view alias) {
  std::optional<std::string> result;
  for (Entry& e : entries_) {
    if (e.key == key || (!alias.empty() && e.key == alias)) {
      if (result) throw WorkloadError(context_ + ": '" + std::string(key) + "' and '" + std::string(alias) + "' both given");
      e.used = true;
      result = e.value;
    }
  }
  return result;
}

bool OptionList::has(std::string_view key) const {
  for (const Entry& e : entries_)
    if (e.key == key) return true;
  return false;
}

void OptionList::finish() const {
  for (const Entry& e : entries_)
    if (!e.used) throw WorkloadError(context_ + ": unknown key '" + e.key + "'");
}

}  // namespace ufs
