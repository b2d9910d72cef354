// One JSON configuration tree for a whole run (ARCHITECTURE.md, "Configuration,
// outputs, conventions"). Sources are layered: presets (with "base" inheritance),
// then `--set key=value` overrides. Models never see JSON: the simulator binds
// each section to a model's parameter struct with bind_section(), which assigns,
// type-checks and documents every field. Whatever no binder consumed is a typo,
// reported by check_unknown_keys() with a did-you-mean suggestion.
//
// Typical use (ufs-sim):
//     ConfigTree cfg;                          // presets from UFS_PRESET_DIR
//     cfg.load("ufs31");                       // or a path: cfg.load("my.json")
//     cfg.set_assignment("fcc.channels=8");    // each --set
//     cfg.bind_section("fcc", fcc_params);     // every section, defaults from the struct
//     cfg.bind_section("nand", nand_params);
//     cfg.check_unknown_keys();
//     run_folder.write_config(cfg.effective_config_json());
// All errors are ConfigError with a one-line message.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/config_error.h"
#include "config/json_binder.h"

namespace ufs {

class ConfigTree {
 public:
  // A pointer to the struct field being bound (the types param_binder.h allows).
  using FieldRef = std::variant<bool*, uint32_t*, uint64_t*, int64_t*, double*, std::string*>;

  // What `ufs-sim params` prints and the run folder saves, per bound key.
  struct ParameterInfo {
    std::string key;      // full dotted key, e.g. "fcc.channels"
    std::string type;     // "bool", "u32", "u64", "i64", "double", "string"
    std::string unit;
    std::string meaning;
    nlohmann::json default_value;  // the struct's value before binding
    nlohmann::json value;          // the effective value after binding
    std::string origin;            // "default", a preset file, or "--set"
  };

  // Bounds on a preset file: presets are a few KiB, four levels deep.
  static constexpr size_t kMaxPresetBytes = 16u << 20;
  static constexpr size_t kMaxNesting = 32;

  // Presets named without a path are looked up as <preset_dir>/<name>.json.
  explicit ConfigTree(std::string preset_dir = default_preset_dir());

  // UFS_PRESET_DIR from the build, unless the environment variable of the same name is set.
  static std::string default_preset_dir();
  const std::string& preset_dir() const { return preset_dir_; }

  // Layers a preset on top of what is loaded so far. `name_or_path` is a preset
  // name ("ufs31") or a file path (contains '/' or ends in ".json"). A top-level
  // "base" names another preset (or a path relative to this file) merged first.
  void load(const std::string& name_or_path);
  // Layers an in-memory document (same rules as a preset file; "base" names are
  // resolved in the preset dir). `origin` names it in error messages.
  void load_json(const nlohmann::json& doc, const std::string& origin);

  // --set override: the text is parsed later, by the type of the field it binds to.
  void set(const std::string& key, const std::string& value_text);
  // "key=value" as given on the command line.
  void set_assignment(const std::string& assignment);

  // Binds one section to a parameter struct (see tlm/common/param_binder.h) and
  // validates it. Binding the same section again (several instances of a model
  // sharing one section) is allowed.
  template <class Params>
  void bind_section(const std::string& section, Params& params) {
    JsonBinder binder(*this, section);
    params.bind(binder);
    const std::string problem = params.validate();
    if (!problem.empty()) throw ConfigError(section.empty() ? problem : section + "." + problem);
  }

  // Used by JsonBinder: bind one field under its full dotted key.
  void bind_field(const std::string& key, FieldRef field, const std::string& unit, const std::string& meaning);

  // Throws for the first key (sorted) that no binder consumed, naming the others too.
  void check_unknown_keys() const;
  // Keys set by presets or --set that no binder consumed so far (sorted).
  std::vector<std::string> unknown_keys() const;

  // True when a preset or --set gives `key` a value (bound or not).
  bool is_set(const std::string& key) const;

  // Every bound key with its effective value, as nested objects. Loadable again
  // as a preset, so a run can be repeated from its run folder.
  nlohmann::json effective_config_json() const;
  // Aligned text table: key, type, unit, value, default (when different), meaning.
  std::string describe_parameters() const;
  // The same information, in binding order.
  const std::vector<ParameterInfo>& parameters() const { return parameters_; }

  // Preset files read so far, bases first, in merge order.
  const std::vector<std::string>& loaded_files() const { return loaded_files_; }
  // Names of the presets in preset_dir(), sorted.
  std::vector<std::string> list_presets() const;

 private:
  // One leaf value from a preset or --set, not yet interpreted.
  struct Entry {
    nlohmann::json json;      // when from a preset
    std::string text;         // when from --set
    bool is_text = false;
    std::string origin;       // file path or "--set"
    bool consumed = false;
  };

  std::string resolve_preset(const std::string& name_or_path, const std::string& relative_to) const;
  void load_file(const std::string& path, std::vector<std::string>& chain);
  void load_document(const nlohmann::json& doc, const std::string& origin, const std::string& dir,
                     std::vector<std::string>& chain);
  void flatten(const nlohmann::json& object, const std::string& prefix, const std::string& origin, size_t depth);

  std::string preset_dir_;
  std::map<std::string, Entry> entries_;   // dotted key -> value
  std::vector<ParameterInfo> parameters_;  // bound keys, in binding order
  std::map<std::string, size_t> parameter_index_;
  std::vector<std::string> loaded_files_;
};

}  // namespace ufs
