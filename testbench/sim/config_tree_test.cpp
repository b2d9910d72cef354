// ConfigTree: presets, inheritance, --set parsing, type/range checks, unknown keys.
// Uses small local parameter structs so it does not depend on the real models.
#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "config/config_tree.h"

namespace fs = std::filesystem;
using ufs::ConfigError;
using ufs::ConfigTree;

namespace {

struct FlashParams {
  uint32_t channels = 2;
  uint32_t ways = 4;
  uint64_t page_bytes = 16384;
  int64_t skew_ps = 0;
  double bus_mts = 400.0;
  bool multi_plane = true;
  std::string cell = "tlc";

  template <class B>
  void bind(B& b) {
    b("channels", channels, "", "flash channels");
    b("ways", ways, "", "dies (CE) per channel");
    b("page_bytes", page_bytes, "B", "NAND page size");
    b("skew_ps", skew_ps, "ps", "clock skew");
    b("bus_mts", bus_mts, "MT/s", "channel bus rate");
    b("multi_plane", multi_plane, "", "multi-plane operations");
    b("cell", cell, "", "cell type: slc, mlc, tlc");
  }
  std::string validate() const {
    if (channels < 1) return "channels: must be at least 1";
    if (cell != "slc" && cell != "mlc" && cell != "tlc") return "cell: must be slc, mlc or tlc";
    return "";
  }
};

struct HostParams {
  uint32_t queue_depth = 32;
  template <class B>
  void bind(B& b) {
    b("queue_depth", queue_depth, "", "host queue depth");
  }
  std::string validate() const { return ""; }
};

// A scratch preset directory, unique per process and test.
class PresetDir {
 public:
  PresetDir() {
    static std::atomic<int> counter{0};
    path_ = fs::temp_directory_path() /
            ("ufs_cfg_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(path_);
  }
  ~PresetDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    const auto p = path_ / (name + ".json");
    std::ofstream(p) << text;
    return p.string();
  }
  std::string str() const { return path_.string(); }

 private:
  fs::path path_;
};

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("config: defaults stay when nothing is set, and are documented", "[config]") {
  ConfigTree tree("/nonexistent");
  FlashParams fcc;
  tree.bind_section("fcc", fcc);
  tree.check_unknown_keys();
  CHECK(fcc.channels == 2);
  const auto cfg = tree.effective_config_json();
  CHECK(cfg["fcc"]["channels"] == 2);
  CHECK(cfg["fcc"]["cell"] == "tlc");
  CHECK(cfg["fcc"]["bus_mts"] == 400.0);
  REQUIRE(tree.parameters().size() == 7);
  CHECK(tree.parameters()[0].key == "fcc.channels");
  CHECK(tree.parameters()[0].type == "u32");
  CHECK(tree.parameters()[2].unit == "B");
  const std::string table = tree.describe_parameters();
  CHECK(table.find("fcc.page_bytes") != std::string::npos);
  CHECK(table.find("NAND page size") != std::string::npos);
  CHECK(table.find("MEANING") != std::string::npos);
}

TEST_CASE("config: preset values, inheritance, documentation keys", "[config]") {
  PresetDir dir;
  dir.write("base", R"({
    "_comment": "the family",
    "fcc": {"channels": 4, "ways": 2, "_source": "datasheet table 3"},
    "host": {"queue_depth": 16}
  })");
  dir.write("child", R"({
    "base": "base",
    "fcc": {"ways": 8, "cell": "mlc", "bus_mts": 800, "page_bytes": "8k", "skew_ps": -5}
  })");
  ConfigTree tree(dir.str());
  tree.load("child");
  FlashParams fcc;
  HostParams host;
  tree.bind_section("fcc", fcc);
  tree.bind_section("host", host);
  tree.check_unknown_keys();
  CHECK(fcc.channels == 4);  // from base
  CHECK(fcc.ways == 8);      // child overrides base
  CHECK(fcc.cell == "mlc");
  CHECK(fcc.bus_mts == 800.0);  // doubles accept integers
  CHECK(fcc.page_bytes == 8192);
  CHECK(fcc.skew_ps == -5);
  CHECK(host.queue_depth == 16);
  REQUIRE(tree.loaded_files().size() == 2);
  CHECK(tree.loaded_files()[0].find("base.json") != std::string::npos);
  CHECK(tree.parameters()[1].origin.find("child.json") != std::string::npos);
  CHECK(tree.list_presets() == std::vector<std::string>{"base", "child"});
}

TEST_CASE("config: effective config round-trips as a preset", "[config]") {
  PresetDir dir;
  ConfigTree first(dir.str());
  first.set("fcc.channels", "6");
  FlashParams a;
  HostParams h;
  first.bind_section("fcc", a);
  first.bind_section("host", h);
  const std::string saved = dir.write("saved", first.effective_config_json().dump(2));

  ConfigTree second(dir.str());
  second.load(saved);
  FlashParams b;
  HostParams h2;
  second.bind_section("fcc", b);
  second.bind_section("host", h2);
  second.check_unknown_keys();
  CHECK(b.channels == 6);
  CHECK(second.effective_config_json() == first.effective_config_json());
}

TEST_CASE("config: --set parses text by the field's type", "[config]") {
  ConfigTree tree("/nonexistent");
  tree.set_assignment("fcc.channels=8");
  tree.set("fcc.page_bytes", "4k");
  tree.set("fcc.multi_plane", "0");
  tree.set("fcc.bus_mts", "1.2e3");
  tree.set("fcc.cell", "slc");
  tree.set("fcc.skew_ps", "-0x10");
  tree.set("fcc.ways", "0x10");
  FlashParams fcc;
  tree.bind_section("fcc", fcc);
  tree.check_unknown_keys();
  CHECK(fcc.channels == 8);
  CHECK(fcc.page_bytes == 4096);
  CHECK_FALSE(fcc.multi_plane);
  CHECK(fcc.bus_mts == 1200.0);
  CHECK(fcc.cell == "slc");
  CHECK(fcc.skew_ps == -16);
  CHECK(fcc.ways == 16);
  CHECK(tree.parameters()[0].origin == "--set");
  CHECK(tree.parameters()[0].default_value == 2);
  CHECK(tree.parameters()[0].value == 8);
}

TEST_CASE("config: size suffixes", "[config]") {
  auto page_bytes = [](const std::string& text) {
    ConfigTree tree("/nonexistent");
    tree.set("fcc.page_bytes", text);
    FlashParams fcc;
    tree.bind_section("fcc", fcc);
    return fcc.page_bytes;
  };
  CHECK(page_bytes("512") == 512);
  CHECK(page_bytes("4k") == 4096);
  CHECK(page_bytes("4K") == 4096);
  CHECK(page_bytes("1m") == 1048576);
  CHECK(page_bytes("8g") == 8ull << 30);
  CHECK(page_bytes("2GiB") == 2ull << 30);
  CHECK(page_bytes("1.5k") == 1536);
  CHECK(page_bytes("1t") == 1ull << 40);
  CHECK_THROWS_AS(page_bytes("4q"), ConfigError);
  CHECK_THROWS_AS(page_bytes("1.3k"), ConfigError);
  CHECK_THROWS_AS(page_bytes("99999999999t"), ConfigError);
  // Suffixes only for byte-sized fields.
  ConfigTree tree("/nonexistent");
  tree.set("fcc.channels", "4k");
  FlashParams fcc;
  CHECK(error_of([&] { tree.bind_section("fcc", fcc); }) == "fcc.channels: expected an unsigned integer, got \"4k\" (from --set)");
}

TEST_CASE("config: type and range errors name the key", "[config]") {
  auto bind_error = [](const std::string& key, const std::string& text) {
    ConfigTree tree("/nonexistent");
    tree.set(key, text);
    FlashParams fcc;
    return error_of([&] { tree.bind_section("fcc", fcc); });
  };
  CHECK(bind_error("fcc.channels", "four") == "fcc.channels: expected an unsigned integer, got \"four\" (from --set)");
  CHECK(bind_error("fcc.channels", "-1").find("fcc.channels: expected an unsigned integer") == 0);
  CHECK(bind_error("fcc.channels", "4294967296") ==
        "fcc.channels: \"4294967296\" is out of range (0..4294967295) (from --set)");
  CHECK(bind_error("fcc.channels", "4294967295").empty());
  CHECK(bind_error("fcc.multi_plane", "maybe").find("fcc.multi_plane: expected a boolean") == 0);
  CHECK(bind_error("fcc.bus_mts", "fast").find("fcc.bus_mts: expected a number") == 0);
  CHECK(bind_error("fcc.bus_mts", "inf").find("fcc.bus_mts: expected a number") == 0);
  CHECK(bind_error("fcc.skew_ps", "9223372036854775808").find("out of range") != std::string::npos);
  CHECK(bind_error("fcc.skew_ps", "-9223372036854775808").empty());

  PresetDir dir;
  auto json_error = [&](const std::string& body) {
    const std::string path = dir.write("p", body);
    ConfigTree tree(dir.str());
    tree.load(path);
    FlashParams fcc;
    return error_of([&] { tree.bind_section("fcc", fcc); });
  };
  CHECK(json_error(R"({"fcc": {"channels": "four"}})").find("fcc.channels: expected an unsigned integer, got \"four\" (from ") == 0);
  CHECK(json_error(R"({"fcc": {"channels": 2.5}})").find("got 2.5") != std::string::npos);
  CHECK(json_error(R"({"fcc": {"channels": 8.0}})").empty());
  CHECK(json_error(R"({"fcc": {"channels": -3}})").find("got -3") != std::string::npos);
  CHECK(json_error(R"({"fcc": {"channels": 1e12}})").find("out of range") != std::string::npos);
  CHECK(json_error(R"({"fcc": {"multi_plane": 1}})").find("expected a boolean") != std::string::npos);
  CHECK(json_error(R"({"fcc": {"cell": 3}})").find("fcc.cell: expected a string, got 3") == 0);
  CHECK(json_error(R"({"fcc": {"channels": [1, 2]}})").find("got an array") != std::string::npos);
  CHECK(json_error(R"({"fcc": {"channels": {"a": 1}}})").find("fcc.channels: expected an unsigned integer, got an object") == 0);
  CHECK(json_error(R"({"fcc": {"page_bytes": "16k"}})").empty());
}

TEST_CASE("config: validate() failures are prefixed with the section", "[config]") {
  ConfigTree tree("/nonexistent");
  tree.set("fcc.channels", "0");
  FlashParams fcc;
  CHECK(error_of([&] { tree.bind_section("fcc", fcc); }) == "fcc.channels: must be at least 1");
}

TEST_CASE("config: unknown keys are errors with a suggestion", "[config]") {
  PresetDir dir;
  const std::string path = dir.write("typo", R"({"fcc": {"chanels": 4}})");
  ConfigTree tree(dir.str());
  tree.load(path);
  FlashParams fcc;
  HostParams host;
  tree.bind_section("fcc", fcc);
  tree.bind_section("host", host);
  const std::string e = error_of([&] { tree.check_unknown_keys(); });
  CHECK(e.find("unknown key 'fcc.chanels' (did you mean 'fcc.channels'?)") == 0);
  CHECK(e.find("typo.json") != std::string::npos);

  ConfigTree tree2("/nonexistent");
  tree2.set("nonsense.key", "1");
  tree2.set("host.queue_dept", "1");
  tree2.bind_section("fcc", fcc);
  tree2.bind_section("host", host);
  CHECK(tree2.unknown_keys() == std::vector<std::string>{"host.queue_dept", "nonsense.key"});
  const std::string e2 = error_of([&] { tree2.check_unknown_keys(); });
  CHECK(e2 == "unknown key 'host.queue_dept' (did you mean 'host.queue_depth'?) (from --set); "
              "unknown key 'nonsense.key' (from --set); `ufs-sim params` lists every key");

  ConfigTree tree3("/nonexistent");
  tree3.set("zzz", "1");
  tree3.bind_section("fcc", fcc);
  const std::string e3 = error_of([&] { tree3.check_unknown_keys(); });
  CHECK(e3.find("unknown key 'zzz'") == 0);
  CHECK(e3.find("did you mean") == std::string::npos);
}

TEST_CASE("config: preset file errors", "[config]") {
  PresetDir dir;
  dir.write("broken", "{\n  \"fcc\": {\n    \"channels\": 4,\n  }\n}\n");
  ConfigTree tree(dir.str());
  const std::string parse = error_of([&] { tree.load("broken"); });
  CHECK(parse.find("broken.json:4:") != std::string::npos);
  CHECK(parse.find(": parse error: ") != std::string::npos);
  CHECK(parse.find('\n') == std::string::npos);

  const std::string missing = error_of([&] { tree.load("nope"); });
  CHECK(missing.find("preset 'nope' not found") == 0);
  CHECK(missing.find("broken") != std::string::npos);  // lists available presets

  dir.write("a", R"({"base": "b"})");
  dir.write("b", R"({"base": "a"})");
  CHECK(error_of([&] { tree.load("a"); }).find("preset inheritance cycle") != std::string::npos);
  dir.write("self", R"({"base": "self"})");
  CHECK(error_of([&] { tree.load("self"); }).find("cycle") != std::string::npos);

  dir.write("nobase", R"({"base": "missing"})");
  CHECK(error_of([&] { tree.load("nobase"); }).find("base preset 'missing' not found") != std::string::npos);
  dir.write("badbase", R"({"base": 3})");
  CHECK(error_of([&] { tree.load("badbase"); }).find("\"base\" must name a preset") != std::string::npos);
  dir.write("array", R"([1, 2])");
  CHECK(error_of([&] { tree.load("array"); }).find("must be a JSON object") != std::string::npos);
  dir.write("baddoc", R"({"fcc": {"_source": 3}})");
  CHECK(error_of([&] { tree.load("baddoc"); }).find("fcc._source: documentation keys take a string") != std::string::npos);
}

TEST_CASE("config: diamond inheritance is not a cycle", "[config]") {
  PresetDir dir;
  dir.write("root", R"({"fcc": {"channels": 3}})");
  dir.write("left", R"({"base": "root", "fcc": {"ways": 5}})");
  ConfigTree tree(dir.str());
  tree.load("left");
  tree.load("root");  // loading the same file twice in sequence is layering, not a cycle
  FlashParams fcc;
  tree.bind_section("fcc", fcc);
  CHECK(fcc.channels == 3);
  CHECK(fcc.ways == 5);
}

TEST_CASE("config: --set syntax errors and late overrides", "[config]") {
  ConfigTree tree("/nonexistent");
  CHECK(error_of([&] { tree.set_assignment("fcc.channels"); }).find("expected key=value") != std::string::npos);
  CHECK(error_of([&] { tree.set_assignment("=3"); }).find("expected key=value") != std::string::npos);
  CHECK(error_of([&] { tree.set("fcc..channels", "3"); }).find("invalid key") != std::string::npos);
  FlashParams fcc;
  tree.bind_section("fcc", fcc);
  CHECK(error_of([&] { tree.set("fcc.channels", "3"); }).find("after the parameter was bound") != std::string::npos);
  // Rebinding a section (a second instance of a model) is fine.
  FlashParams second;
  tree.bind_section("fcc", second);
  CHECK(tree.parameters().size() == 7);
}

TEST_CASE("config: dotted keys in JSON and top-level binding", "[config]") {
  ConfigTree tree("/nonexistent");
  tree.load_json(nlohmann::json::parse(R"({"fcc.channels": 5, "queue_depth": 7})"), "inline");
  FlashParams fcc;
  HostParams host;
  tree.bind_section("fcc", fcc);
  tree.bind_section("", host);
  tree.check_unknown_keys();
  CHECK(fcc.channels == 5);
  CHECK(host.queue_depth == 7);
  CHECK(tree.is_set("fcc.channels"));
  CHECK_FALSE(tree.is_set("fcc.ways"));
}

TEST_CASE("config: hostile presets: deep nesting, duplicate keys, huge files, empty objects", "[config][hostile]") {
  PresetDir dir;
  ConfigTree tree(dir.str());
  // 20000 nested objects overflowed the stack in flatten(); 100000 nested arrays in the copy.
  std::string deep;
  for (int i = 0; i < 20000; ++i) deep += "{\"a\":";
  deep += "1" + std::string(20000, '}');
  const std::string deep_path = dir.write("deep", deep);
  CHECK(error_of([&] { tree.load("deep"); }) ==
        deep_path + ":1:161: objects and arrays nested deeper than 32 levels");
  dir.write("arrays", "{\"a\":" + std::string(100000, '[') + std::string(100000, ']') + "}");
  CHECK(error_of([&] { tree.load("arrays"); }).find("nested deeper than 32 levels") != std::string::npos);
  // A document built in memory is bounded too (flatten's own check).
  nlohmann::json doc = 1;
  for (int i = 0; i < 40; ++i) doc = nlohmann::json{{"a", doc}};
  CHECK(error_of([&] { tree.load_json(doc, "memory"); }).find("objects nested deeper than 32 levels") != std::string::npos);

  const std::string dup = dir.write("dup", R"({"fcc": {"channels": 2, "ways": 1, "channels": 4}})");
  CHECK(error_of([&] { tree.load("dup"); }) == dup + ": key 'fcc.channels' given twice");
  const std::string big = dir.write("big", "{\"_comment\": \"" + std::string(ConfigTree::kMaxPresetBytes, 'x') + "\"}");
  CHECK(error_of([&] { tree.load("big"); }) == big + ": larger than 16 MiB; a preset is a small JSON file");
  CHECK(error_of([&] { tree.load("/dev/zero"); }) == "/dev/zero: larger than 16 MiB; a preset is a small JSON file");
  CHECK(error_of([&] { tree.load(dir.str() + "/"); }) == dir.str() + "/: is a directory, not a preset file");

  // An empty object where a number goes is the wrong type, not "no value".
  {
    const std::string empty = dir.write("empty", R"({"fcc": {"channels": {}}})");
    ConfigTree t(dir.str());
    t.load("empty");
    FlashParams fcc;
    CHECK(error_of([&] { t.bind_section("fcc", fcc); }) ==
          "fcc.channels: expected an unsigned integer, got an object (from " + empty + ")");
  }
  {  // ... an unknown key where nothing is bound, and nothing at all where it names a section.
    dir.write("sections", R"({"fcc": {}, "nosuch": {}, "host": {"nosuchkey": {}}})");
    ConfigTree t(dir.str());
    t.load("sections");
    FlashParams fcc;
    HostParams host;
    t.bind_section("fcc", fcc);
    t.bind_section("host", host);
    CHECK(t.unknown_keys() == std::vector<std::string>{"host.nosuchkey", "nosuch"});
  }
}

namespace {
// Parameters with units that carry bounds of their own.
struct Timed {
  double t_us = 1, clock_mhz = 100;
  uint64_t wait_ns = 0;
  uint32_t sram_kib = 64;
  template <class B>
  void bind(B& b) {
    b("t_us", t_us, "us", "a delay");
    b("clock_mhz", clock_mhz, "MHz", "a clock");
    b("wait_ns", wait_ns, "ns", "a wait");
    b("sram_kib", sram_kib, "KiB", "an SRAM");
  }
  std::string validate() const { return ""; }
};
}  // namespace

TEST_CASE("config: times, clocks and sizes get bounds from their unit", "[config][hostile]") {
  auto bind_with = [](const std::string& assignment) {
    ConfigTree tree("/nonexistent");
    Timed t;
    return error_of([&] {
      tree.set_assignment(assignment);
      tree.bind_section("x", t);
    });
  };
  CHECK(bind_with("x.t_us=3600000000").empty());  // an hour
  CHECK(bind_with("x.t_us=1e18") == "x.t_us: \"1e18\" is out of range (0..3600000000 us: at most an hour) (from --set)");
  CHECK(bind_with("x.t_us=-1") == "x.t_us: \"-1\" is out of range (0..3600000000 us: at most an hour) (from --set)");
  CHECK(bind_with("x.clock_mhz=1e-300") == "x.clock_mhz: \"1e-300\" is out of range (1..100000 MHz: 1 MHz to 100 GHz) (from --set)");
  CHECK(bind_with("x.wait_ns=9223372036854775807").rfind("x.wait_ns: \"9223372036854775807\" is out of range", 0) == 0);
  CHECK(bind_with("x.sram_kib=1048577").rfind("x.sram_kib:", 0) == 0);
  CHECK(bind_with("x\x1b]0;x=1").rfind("--set: invalid key", 0) == 0);  // control characters
}
