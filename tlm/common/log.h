// One log format for every model: `[level time hierarchy] message` on stderr, e.g.
//     [info 12.345us ufs.fcc] die 3: program suspended for a read
// The level is set per component from the configuration (section `log`, see LogParams):
//     "log": { "level": "warning", "components": "fcc=debug,host=info" }
// A disabled message costs one load and one compare: the message expression is not
// evaluated. Use from a model:
//     UFS_LOG(Debug, Fcc, name(), "die " << die << ": suspended");
#pragma once
#include <cstdint>
#include <sstream>
#include <string>

namespace ufs {

enum class LogLevel : uint8_t { Off = 0, Error, Warning, Info, Debug, Trace };

// The components a level can be set for (the names are the config's: "fcc=debug").
enum class LogComponent : uint8_t { Sim, Host, Link, Hostif, Bus, Memory, Cpu, Firmware, Fcc, Nand, Crypto, Count };

namespace log_detail {
extern uint8_t levels[size_t(LogComponent::Count)];
void write(LogLevel level, const char* hierarchy, const std::string& message);
}  // namespace log_detail

inline bool log_enabled(LogLevel level, LogComponent component) {
  return uint8_t(level) <= log_detail::levels[size_t(component)];
}

const char* log_level_name(LogLevel level);
const char* log_component_name(LogComponent component);
// "debug" -> Debug; false when the name is not a level.
bool parse_log_level(const std::string& text, LogLevel& out);

// The `log` section of the configuration.
struct LogParams {
  std::string level = "warning";  // default for every component
  std::string components;         // per-component overrides: "fcc=debug,host=info"

  template <class B>
  void bind(B& b) {
    b("level", level, "", "log level of every component: off, error, warning, info, debug, trace");
    b("components", components, "",
      "per-component levels, comma separated: sim, host, link, hostif, bus, memory, cpu, firmware, fcc, nand, "
      "crypto (e.g. fcc=debug,host=info)");
  }
  // "" or "key: what is wrong".
  std::string validate() const;
  // Sets the process-wide levels (validate() first).
  void apply() const;
};

// Sets every component to `level` (tests, tools).
void set_log_level(LogLevel level);
void set_log_level(LogComponent component, LogLevel level);
// Where messages go (default stderr); nullptr restores stderr. For tests.
void set_log_sink(std::ostream* sink);

}  // namespace ufs

// Level and component are the enumerators' names: UFS_LOG(Info, Host, name(), "tag " << t).
#define UFS_LOG(level, component, hierarchy, message)                                       \
  do {                                                                                      \
    if (::ufs::log_enabled(::ufs::LogLevel::level, ::ufs::LogComponent::component)) {       \
      std::ostringstream ufs_log_stream_;                                                   \
      ufs_log_stream_ << message;                                                           \
      ::ufs::log_detail::write(::ufs::LogLevel::level, (hierarchy), ufs_log_stream_.str()); \
    }                                                                                       \
  } while (0)
