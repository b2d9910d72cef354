#include "config/config_tree.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <memory>
#include <regex>
#include <sstream>

#ifndef UFS_PRESET_DIR
#define UFS_PRESET_DIR "sim/presets"
#endif

namespace ufs {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Documentation next to a parameter ("_source": "datasheet table 5"): kept in the
// preset for the reader, ignored by the simulator.
bool is_documentation_key(const std::string& name) {
  return name.rfind("_source", 0) == 0 || name.rfind("_comment", 0) == 0;
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  const auto last = s.find_last_not_of(" \t\r\n");
  return s.substr(first, last - first + 1);
}

std::string quoted(const std::string& text) { return json(text).dump(); }

// How a rejected value is shown: JSON as written, --set text in quotes.
std::string describe_json(const json& v) {
  if (v.is_object()) return "an object";
  if (v.is_array()) return "an array";
  return v.dump();
}

// Where a value came from, appended to type errors so inherited presets are debuggable.
std::string origin_suffix(const std::string& origin) {
  return origin.empty() || origin == "default" ? "" : " (from " + origin + ")";
}

bool is_size_unit(const std::string& unit) { return unit == "B" || unit == "bytes" || unit == "byte"; }

// Unsigned integer text: decimal, 0x hex, and (for byte-sized fields) 4k / 1.5m / 8GiB
// with binary multiples. Returns false when the text is not such a number; `overflow`
// tells apart "too large" from "not a number".
bool parse_unsigned_text(const std::string& raw, bool allow_size, uint64_t& out, bool& overflow) {
  overflow = false;
  const std::string s = trim(raw);
  if (s.empty()) return false;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    if (!std::all_of(s.begin() + 2, s.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); }))
      return false;
    errno = 0;
    out = std::strtoull(s.c_str() + 2, nullptr, 16);
    overflow = errno == ERANGE;
    return !overflow;
  }
  if (std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    errno = 0;
    out = std::strtoull(s.c_str(), nullptr, 10);
    overflow = errno == ERANGE;
    return !overflow;
  }
  if (!allow_size) return false;
  static const std::regex size_re(R"(^([0-9]+(?:\.[0-9]+)?)\s*([kKmMgGtTpP]?)(?:i?[bB])?$)");
  std::smatch m;
  if (!std::regex_match(s, m, size_re)) return false;
  long double value = std::strtold(m[1].str().c_str(), nullptr);
  const std::string suffix = m[2].str();
  if (!suffix.empty()) {
    const std::string order = "kmgtp";
    const auto power = order.find(static_cast<char>(std::tolower(static_cast<unsigned char>(suffix[0])))) + 1;
    for (size_t i = 0; i < power; ++i) value *= 1024.0L;
  }
  if (value != std::floor(value)) return false;  // 1.3k is not a whole number of bytes
  if (value > static_cast<long double>(std::numeric_limits<uint64_t>::max())) {
    overflow = true;
    return false;
  }
  out = static_cast<uint64_t>(value);
  return true;
}

// Signed variant: optional leading '-' on the unsigned syntax.
bool parse_signed_text(const std::string& raw, bool allow_size, int64_t& out, bool& overflow) {
  const std::string s = trim(raw);
  const bool negative = !s.empty() && s[0] == '-';
  uint64_t magnitude = 0;
  if (!parse_unsigned_text(negative ? s.substr(1) : s, allow_size, magnitude, overflow)) return false;
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  if (magnitude > limit) {
    overflow = true;
    return false;
  }
  out = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  return true;
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::vector<std::string> split_key(const std::string& key) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(key);
  while (std::getline(in, part, '.')) parts.push_back(part);
  return parts;
}

bool valid_key(const std::string& key) {
  if (key.empty() || key.front() == '.' || key.back() == '.' || key.find("..") != std::string::npos) return false;
  return std::none_of(key.begin(), key.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return std::isspace(u) != 0 || u < 0x20 || u == 0x7f;
  });
}

// Per-type conversion of a tree entry. Each returns the value or throws ConfigError.
class EntryConverter {
 public:
  EntryConverter(const std::string& key, const std::string& unit, const std::string& origin)
      : key_(key), unit_(unit), origin_(origin) {}

  [[noreturn]] void fail(const std::string& expected, const std::string& got) const {
    throw ConfigError(key_ + ": expected " + expected + ", got " + got + origin_suffix(origin_));
  }
  [[noreturn]] void out_of_range(const std::string& got, const std::string& range) const {
    throw ConfigError(key_ + ": " + got + " is out of range " + range + origin_suffix(origin_));
  }

  bool to_bool(const json& v) const {
    if (v.is_boolean()) return v.get<bool>();
    fail("a boolean (true/false)", describe_json(v));
  }
  bool to_bool(const std::string& text) const {
    std::string t = trim(text);
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (t == "true" || t == "1") return true;
    if (t == "false" || t == "0") return false;
    fail("a boolean (true/false/1/0)", quoted(text));
  }

  uint64_t to_unsigned(const json& v, uint64_t max) const {
    const std::string expected = "an unsigned integer";
    uint64_t value = 0;
    if (v.is_number_unsigned()) {
      value = v.get<uint64_t>();
    } else if (v.is_number_integer()) {
      fail(expected, describe_json(v));  // negative
    } else if (v.is_number_float()) {
      const double d = v.get<double>();
      if (d < 0 || d != std::floor(d)) fail(expected, describe_json(v));
      if (d >= 18446744073709551616.0) out_of_range(describe_json(v), range_text(max));
      value = static_cast<uint64_t>(d);
    } else if (v.is_string() && is_size_unit(unit_)) {
      return to_unsigned(v.get<std::string>(), max);
    } else {
      fail(is_size_unit(unit_) ? expected + " or a size like \"4k\"" : expected, describe_json(v));
    }
    if (value > max) out_of_range(describe_json(v), range_text(max));
    return value;
  }
  uint64_t to_unsigned(const std::string& text, uint64_t max) const {
    uint64_t value = 0;
    bool overflow = false;
    if (!parse_unsigned_text(text, is_size_unit(unit_), value, overflow)) {
      if (overflow) out_of_range(quoted(text), range_text(max));
      fail(is_size_unit(unit_) ? "an unsigned integer or a size like 4k" : "an unsigned integer", quoted(text));
    }
    if (value > max) out_of_range(quoted(text), range_text(max));
    return value;
  }

  int64_t to_signed(const json& v) const {
    const std::string range = "(-9223372036854775808..9223372036854775807)";
    if (v.is_number_unsigned()) {
      const uint64_t u = v.get<uint64_t>();
      if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) out_of_range(describe_json(v), range);
      return static_cast<int64_t>(u);
    }
    if (v.is_number_integer()) return v.get<int64_t>();
    if (v.is_number_float()) {
      const double d = v.get<double>();
      if (d != std::floor(d)) fail("an integer", describe_json(v));
      if (d < -9223372036854775808.0 || d >= 9223372036854775808.0) out_of_range(describe_json(v), range);
      return static_cast<int64_t>(d);
    }
    if (v.is_string() && is_size_unit(unit_)) return to_signed(v.get<std::string>());
    fail("an integer", describe_json(v));
  }
  int64_t to_signed(const std::string& text) const {
    int64_t value = 0;
    bool overflow = false;
    if (!parse_signed_text(text, is_size_unit(unit_), value, overflow)) {
      if (overflow) out_of_range(quoted(text), "(-9223372036854775808..9223372036854775807)");
      fail("an integer", quoted(text));
    }
    return value;
  }

  double to_double(const json& v) const {
    if (v.is_number()) return v.get<double>();
    fail("a number", describe_json(v));
  }
  double to_double(const std::string& text) const {
    const std::string t = trim(text);
    char* end = nullptr;
    errno = 0;
    const double d = t.empty() ? 0.0 : std::strtod(t.c_str(), &end);
    if (t.empty() || end != t.c_str() + t.size() || !std::isfinite(d)) fail("a number", quoted(text));
    if (errno == ERANGE && d != 0.0) out_of_range(quoted(text), "(double)");
    return d;
  }

  std::string to_string(const json& v) const {
    if (v.is_string()) return v.get<std::string>();
    fail("a string", describe_json(v));
  }

 private:
  static std::string range_text(uint64_t max) { return "(0.." + std::to_string(max) + ")"; }

  const std::string& key_;
  const std::string& unit_;
  const std::string& origin_;
};

std::string type_name(const ConfigTree::FieldRef& field) {
  static const char* const names[] = {"bool", "u32", "u64", "i64", "double", "string"};
  return names[field.index()];
}

json field_value(const ConfigTree::FieldRef& field) {
  return std::visit([](auto* p) { return json(*p); }, field);
}

std::string expected_for(const ConfigTree::FieldRef& field) {
  static const char* const names[] = {"a boolean", "an unsigned integer", "an unsigned integer",
                                      "an integer", "a number", "a string"};
  return names[field.index()];
}


// Deepest nesting of objects and arrays in a preset's text, checked before parsing: the
// parser itself is iterative, but copying, walking and freeing a deep document recurse.
void check_nesting(const std::string& text, const std::string& path) {
  size_t depth = 0, line = 1, column = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    ++column;
    if (c == '\n') {
      ++line;
      column = 0;
    }
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > ConfigTree::kMaxNesting)
        throw ConfigError(path + ":" + std::to_string(line) + ":" + std::to_string(column) +
                          ": objects and arrays nested deeper than " + std::to_string(ConfigTree::kMaxNesting) +
                          " levels");
    } else if ((c == '}' || c == ']') && depth > 0) {
      --depth;
    }
  }
}

// The parser keeps the last of two equal keys in an object; in a preset that silently
// drops a value, so a key given twice is an error.
json::parser_callback_t duplicate_key_check(const std::string& path) {
  auto keys = std::make_shared<std::vector<std::vector<std::string>>>();
  auto names = std::make_shared<std::vector<std::string>>();  // key path to the current object
  return [keys, names, path](int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start: keys->emplace_back(); break;
      case json::parse_event_t::object_end:
        keys->pop_back();
        break;
      case json::parse_event_t::key: {
        const std::string name = parsed.get<std::string>();
        auto& seen = keys->back();
        names->resize(keys->size() - 1);
        std::string full;
        for (const auto& n : *names) full += n + ".";
        if (std::find(seen.begin(), seen.end(), name) != seen.end())
          throw ConfigError(path + ": key '" + full + name + "' given twice");
        seen.push_back(name);
        names->push_back(name);
        break;
      }
      default: break;
    }
    return true;
  };
}

// Bounds every parameter with one of these units gets from its unit alone (sense, not a
// datasheet): no single delay of a storage device or its host lasts an hour, no clock of
// the device runs below 1 MHz or above 100 GHz, no controller SRAM exceeds 1 GiB, ...
// Parameters tighten these in their own validate(); seeds and counts without a unit get
// their bounds there. Without them a value like 1e18 us saturates simulated time silently.
struct UnitRange {
  double lo, hi;
  const char* why;
};
const UnitRange* unit_range(const std::string& unit) {
  static const std::map<std::string, UnitRange> ranges = {
      {"ns", {0, 3.6e12, "at most an hour"}},
      {"us", {0, 3.6e9, "at most an hour"}},
      {"ms", {0, 3.6e6, "at most an hour"}},
      {"s", {0, 3600, "at most an hour"}},
      {"MHz", {1, 1e5, "1 MHz to 100 GHz"}},
      {"cycles", {0, 1e8, "at most 1e8"}},
      {"KiB", {0, 1048576, "at most 1 GiB"}},
      {"MiB", {0, 1048576, "at most 1 TiB"}},
      {"MB/s", {0, 1e6, "at most 1 TB/s"}},
      {"fraction", {0, 1, "a fraction"}},
  };
  const auto it = ranges.find(unit);
  return it == ranges.end() ? nullptr : &it->second;
}

std::string number_text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

}  // namespace

ConfigTree::ConfigTree(std::string preset_dir) : preset_dir_(std::move(preset_dir)) {}

std::string ConfigTree::default_preset_dir() {
  if (const char* env = std::getenv("UFS_PRESET_DIR"); env != nullptr && *env != '\0') return env;
  return UFS_PRESET_DIR;
}

std::string ConfigTree::resolve_preset(const std::string& name_or_path, const std::string& relative_to) const {
  const bool is_path = name_or_path.find('/') != std::string::npos ||
                       (name_or_path.size() > 5 && name_or_path.substr(name_or_path.size() - 5) == ".json");
  if (!is_path) return (fs::path(preset_dir_) / (name_or_path + ".json")).string();
  fs::path p(name_or_path);
  if (p.is_relative() && !relative_to.empty()) {
    // A base given as a path is relative to the preset naming it; fall back to the working directory.
    const fs::path beside = fs::path(relative_to) / p;
    if (fs::exists(beside)) return beside.lexically_normal().string();
  }
  return p.string();
}

void ConfigTree::load(const std::string& name_or_path) {
  std::vector<std::string> chain;
  const std::string path = resolve_preset(name_or_path, "");
  if (!fs::exists(path)) {
    std::string hint;
    if (name_or_path.find('/') == std::string::npos) {
      const auto names = list_presets();
      std::string joined;
      for (const auto& n : names) joined += (joined.empty() ? "" : ", ") + n;
      hint = names.empty() ? " (no presets in " + preset_dir_ + ")" : " (presets: " + joined + ")";
    }
    throw ConfigError("preset '" + name_or_path + "' not found: " + path + hint);
  }
  load_file(path, chain);
}

void ConfigTree::load_json(const json& doc, const std::string& origin) {
  std::vector<std::string> chain{origin};
  load_document(doc, origin, "", chain);
}

void ConfigTree::load_file(const std::string& path, std::vector<std::string>& chain) {
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(path, ec);
  const std::string id = ec ? path : canonical.string();
  if (std::find(chain.begin(), chain.end(), id) != chain.end()) {
    std::string cycle;
    for (const auto& c : chain) cycle += c + " -> ";
    throw ConfigError(path + ": preset inheritance cycle: " + cycle + id);
  }
  if (fs::is_directory(path, ec)) throw ConfigError(path + ": is a directory, not a preset file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path + ": cannot open preset file");
  // Bounded read: a preset is a small text file; /dev/zero or a huge file must not eat memory.
  std::string text;
  text.resize(kMaxPresetBytes + 1);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  if (text.size() > kMaxPresetBytes)
    throw ConfigError(path + ": larger than " + std::to_string(kMaxPresetBytes >> 20) +
                      " MiB; a preset is a small JSON file");
  check_nesting(text, path);
  json doc;
  try {
    doc = json::parse(text, duplicate_key_check(path));
  } catch (const json::parse_error& e) {
    // Point at line:column like a compiler; nlohmann's own text follows its "line L, column C: ".
    const size_t byte = std::min<size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
    const size_t line = 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<long>(byte), '\n'));
    const size_t line_start = text.rfind('\n', byte == 0 ? 0 : byte - 1);
    const size_t column = line_start == std::string::npos || byte == 0 ? byte + 1 : byte - line_start;
    std::string detail = e.what();
    const auto at = detail.find("parse error");
    if (at != std::string::npos) {
      const auto colon = detail.find(": ", at);
      detail = colon == std::string::npos ? detail.substr(at) : detail.substr(colon + 2);
    }
    throw ConfigError(path + ":" + std::to_string(line) + ":" + std::to_string(column) + ": parse error: " +
                      detail);
  } catch (const json::exception& e) {
    throw ConfigError(path + ": " + e.what());
  }
  chain.push_back(id);
  load_document(doc, path, fs::path(path).parent_path().string(), chain);
  chain.pop_back();
  loaded_files_.push_back(path);
}

void ConfigTree::load_document(const json& doc, const std::string& origin, const std::string& dir,
                               std::vector<std::string>& chain) {
  if (!doc.is_object()) throw ConfigError(origin + ": a preset must be a JSON object, got " + describe_json(doc));
  if (const auto base = doc.find("base"); base != doc.end()) {
    if (!base->is_string() || base->get<std::string>().empty())
      throw ConfigError(origin + ": \"base\" must name a preset, got " + describe_json(*base));
    const std::string base_path = resolve_preset(base->get<std::string>(), dir);
    if (!fs::exists(base_path))
      throw ConfigError(origin + ": base preset '" + base->get<std::string>() + "' not found: " + base_path);
    load_file(base_path, chain);
  }
  flatten(doc, "", origin, 1);
}

void ConfigTree::flatten(const json& object, const std::string& prefix, const std::string& origin, size_t depth) {
  // Documents built in memory (load_json) skip the file's nesting check: bound the recursion here too.
  if (depth > kMaxNesting)
    throw ConfigError(origin + ": " + prefix + ": objects nested deeper than " + std::to_string(kMaxNesting) +
                      " levels");
  for (const auto& item : object.items()) {
    const std::string& name = item.key();
    const json& value = item.value();
    if (depth == 1 && name == "base") continue;  // handled by load_document
    if (is_documentation_key(name)) {
      if (!value.is_string())
        throw ConfigError(origin + ": " + (prefix.empty() ? name : prefix + "." + name) +
                          ": documentation keys take a string, got " + describe_json(value));
      continue;
    }
    const std::string key = prefix.empty() ? name : prefix + "." + name;
    if (!valid_key(name)) throw ConfigError(origin + ": invalid key " + quoted(key));
    if (value.is_object() && !value.empty()) {
      flatten(value, key, origin, depth + 1);
      continue;
    }
    // An empty object stays an entry: where a value is bound it is the wrong type, and
    // where nothing is bound it is an unknown key (unless it names a section: "fcc": {}).
    Entry& entry = entries_[key];
    entry = Entry{};
    entry.json = value;
    entry.origin = origin;
  }
}

void ConfigTree::set(const std::string& key, const std::string& value_text) {
  if (!valid_key(key)) throw ConfigError("--set: invalid key " + quoted(key));
  if (const auto it = parameter_index_.find(key); it != parameter_index_.end())
    throw ConfigError("--set " + key + ": set after the parameter was bound (set overrides before binding)");
  Entry& entry = entries_[key];
  entry = Entry{};
  entry.text = value_text;
  entry.is_text = true;
  entry.origin = "--set";
}

void ConfigTree::set_assignment(const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("--set " + quoted(assignment) + ": expected key=value");
  set(trim(assignment.substr(0, eq)), assignment.substr(eq + 1));
}

void ConfigTree::bind_field(const std::string& key, FieldRef field, const std::string& unit,
                            const std::string& meaning) {
  ParameterInfo info;
  info.key = key;
  info.type = type_name(field);
  info.unit = unit;
  info.meaning = meaning;
  info.default_value = field_value(field);
  info.origin = "default";

  // A nested object where a scalar is expected is a mistake in the preset, not an unknown key.
  const std::string child_prefix = key + ".";
  if (const auto child = entries_.lower_bound(child_prefix);
      child != entries_.end() && starts_with(child->first, child_prefix)) {
    throw ConfigError(key + ": expected " + expected_for(field) + ", got an object" + origin_suffix(child->second.origin));
  }

  if (const auto it = entries_.find(key); it != entries_.end()) {
    Entry& entry = it->second;
    const EntryConverter convert(key, unit, entry.origin);
    std::visit(
        [&](auto* p) {
          using T = std::remove_pointer_t<decltype(p)>;
          if constexpr (std::is_same_v<T, bool>) {
            *p = entry.is_text ? convert.to_bool(entry.text) : convert.to_bool(entry.json);
          } else if constexpr (std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t>) {
            const uint64_t max = std::numeric_limits<T>::max();
            *p = static_cast<T>(entry.is_text ? convert.to_unsigned(entry.text, max) : convert.to_unsigned(entry.json, max));
          } else if constexpr (std::is_same_v<T, int64_t>) {
            *p = entry.is_text ? convert.to_signed(entry.text) : convert.to_signed(entry.json);
          } else if constexpr (std::is_same_v<T, double>) {
            *p = entry.is_text ? convert.to_double(entry.text) : convert.to_double(entry.json);
          } else {
            *p = entry.is_text ? entry.text : convert.to_string(entry.json);
          }
        },
        field);
    entry.consumed = true;
    info.origin = entry.origin;
    if (const UnitRange* range = unit_range(unit)) {
      const double v = std::visit(
          [](auto* p) -> double {
            using T = std::remove_pointer_t<decltype(p)>;
            if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) return static_cast<double>(*p);
            else return 0.0;
          },
          field);
      if (v < range->lo || v > range->hi)
        throw ConfigError(key + ": " + (entry.is_text ? json(entry.text).dump() : describe_json(entry.json)) +
                          " is out of range (" + number_text(range->lo) + ".." + number_text(range->hi) + " " + unit +
                          ": " + range->why + ")" + origin_suffix(entry.origin));
    }
  }
  info.value = field_value(field);

  if (const auto known = parameter_index_.find(key); known != parameter_index_.end()) {
    ParameterInfo& previous = parameters_[known->second];
    if (previous.type != info.type)
      throw ConfigError(key + ": bound twice with different types (" + previous.type + ", " + info.type + ")");
    previous = info;  // a second instance of the same model: same key, same meaning
  } else {
    parameter_index_.emplace(key, parameters_.size());
    parameters_.push_back(std::move(info));
  }
}

std::vector<std::string> ConfigTree::unknown_keys() const {
  std::vector<std::string> keys;
  for (const auto& [key, entry] : entries_) {
    if (entry.consumed) continue;
    // An empty object naming a section ("fcc": {}) overrides nothing and is fine.
    if (!entry.is_text && entry.json.is_object() && entry.json.empty()) {
      const std::string prefix = key + ".";
      if (std::any_of(parameters_.begin(), parameters_.end(), [&](const ParameterInfo& p) { return starts_with(p.key, prefix); }))
        continue;
    }
    keys.push_back(key);
  }
  return keys;
}

void ConfigTree::check_unknown_keys() const {
  const auto unknown = unknown_keys();
  if (unknown.empty()) return;
  // One clause per unknown key (the first few), each with the closest bound key
  // when it is plausibly a typo of it.
  constexpr size_t kShown = 5;
  std::string message;
  bool any_without_suggestion = false;
  for (size_t i = 0; i < unknown.size() && i < kShown; ++i) {
    const std::string& key = unknown[i];
    std::string best;
    size_t best_distance = std::numeric_limits<size_t>::max();
    for (const auto& p : parameters_) {
      const size_t d = edit_distance(key, p.key);
      if (d < best_distance) {
        best_distance = d;
        best = p.key;
      }
    }
    const size_t allowed = std::max<size_t>(2, key.size() / 4);
    if (!message.empty()) message += "; ";
    message += "unknown key '" + key + "'";
    if (!best.empty() && best_distance <= allowed)
      message += " (did you mean '" + best + "'?)";
    else
      any_without_suggestion = true;
    message += origin_suffix(entries_.at(key).origin);
  }
  if (unknown.size() > kShown) message += "; " + std::to_string(unknown.size() - kShown) + " more unknown keys";
  if (any_without_suggestion) message += "; `ufs-sim params` lists every key";
  throw ConfigError(message);
}

bool ConfigTree::is_set(const std::string& key) const { return entries_.count(key) != 0; }

json ConfigTree::effective_config_json() const {
  json root = json::object();
  for (const auto& p : parameters_) {
    json* node = &root;
    const auto parts = split_key(p.key);
    for (size_t i = 0; i + 1 < parts.size(); ++i) node = &(*node)[parts[i]];
    (*node)[parts.back()] = p.value;
  }
  return root;
}

std::string ConfigTree::describe_parameters() const {
  // Values are shown as JSON (strings quoted) so they can be pasted into a preset.
  struct Row {
    std::string cells[5];
    std::string meaning;
  };
  std::vector<Row> rows;
  rows.push_back(Row{{"KEY", "TYPE", "UNIT", "VALUE", "DEFAULT"}, "MEANING"});
  for (const auto& p : parameters_) {
    const std::string value = p.value.dump();
    const std::string def = p.default_value.dump();
    rows.push_back(Row{{p.key, p.type, p.unit.empty() ? "-" : p.unit, value, def == value ? "" : def}, p.meaning});
  }
  size_t width[5] = {};
  for (const auto& r : rows)
    for (size_t c = 0; c < 5; ++c) width[c] = std::max(width[c], r.cells[c].size());
  std::ostringstream out;
  for (const auto& r : rows) {
    for (size_t c = 0; c < 5; ++c) out << std::left << std::setw(static_cast<int>(width[c] + 2)) << r.cells[c];
    out << r.meaning << '\n';
  }
  return out.str();
}

std::vector<std::string> ConfigTree::list_presets() const {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(preset_dir_, ec))
    if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace ufs
