#include "common/log.h"
#include "common/sim_time.h"

#include <systemc>
#include <cstdio>
#include <iostream>

namespace ufs {

namespace log_detail {
uint8_t levels[size_t(LogComponent::Count)] = {
    uint8_t(LogLevel::Warning), uint8_t(LogLevel::Warning), uint8_t(LogLevel::Warning), uint8_t(LogLevel::Warning),
    uint8_t(LogLevel::Warning), uint8_t(LogLevel::Warning), uint8_t(LogLevel::Warning), uint8_t(LogLevel::Warning),
    uint8_t(LogLevel::Warning), uint8_t(LogLevel::Warning), uint8_t(LogLevel::Warning)};

namespace {
std::ostream* sink = nullptr;
}

void write(LogLevel level, const char* hierarchy, const std::string& message) {
  // Simulated time in microseconds with nanosecond digits (the kernel counts picoseconds).
  const double us = sim_now().to_seconds() * 1e6;
  char head[96];
  std::snprintf(head, sizeof head, "[%s %.3fus %s] ", log_level_name(level), us, hierarchy ? hierarchy : "ufs");
  std::ostream& out = sink ? *sink : std::cerr;
  out << head << message << '\n';
}
}  // namespace log_detail

namespace {
constexpr const char* kLevelNames[] = {"off", "error", "warning", "info", "debug", "trace"};
constexpr const char* kComponentNames[] = {"sim", "host",     "link", "hostif", "bus",   "memory",
                                           "cpu", "firmware", "fcc",  "nand",   "crypto"};
static_assert(sizeof kComponentNames / sizeof kComponentNames[0] == size_t(LogComponent::Count));

bool parse_component(const std::string& text, LogComponent& out) {
  for (size_t i = 0; i < size_t(LogComponent::Count); ++i)
    if (text == kComponentNames[i]) {
      out = LogComponent(i);
      return true;
    }
  return false;
}

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  const size_t e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

// Calls f(component, level) for each "name=level" item; returns "" or the problem.
template <class F>
std::string for_each_override(const std::string& list, F f) {
  size_t pos = 0;
  while (pos <= list.size()) {
    size_t comma = list.find(',', pos);
    if (comma == std::string::npos) comma = list.size();
    const std::string item = trim(list.substr(pos, comma - pos));
    pos = comma + 1;
    if (item.empty()) {
      if (comma == list.size()) break;
      continue;
    }
    const size_t eq = item.find('=');
    if (eq == std::string::npos) return "'" + item + "' is not component=level";
    LogComponent c;
    LogLevel l;
    const std::string name = trim(item.substr(0, eq)), level = trim(item.substr(eq + 1));
    if (!parse_component(name, c)) {
      std::string known;
      for (const char* n : kComponentNames) known += (known.empty() ? "" : ", ") + std::string(n);
      return "unknown component '" + name + "' (known: " + known + ")";
    }
    if (!parse_log_level(level, l))
      return "'" + level + "' is not a log level (off, error, warning, info, debug, trace)";
    f(c, l);
  }
  return "";
}
}  // namespace

const char* log_level_name(LogLevel level) { return kLevelNames[size_t(level)]; }
const char* log_component_name(LogComponent component) { return kComponentNames[size_t(component)]; }

bool parse_log_level(const std::string& text, LogLevel& out) {
  for (size_t i = 0; i < sizeof kLevelNames / sizeof kLevelNames[0]; ++i)
    if (text == kLevelNames[i]) {
      out = LogLevel(i);
      return true;
    }
  if (text == "warn") {
    out = LogLevel::Warning;
    return true;
  }
  return false;
}

std::string LogParams::validate() const {
  LogLevel l;
  if (!parse_log_level(level, l))
    return "level: '" + level + "' is not a log level (off, error, warning, info, debug, trace)";
  const std::string problem = for_each_override(components, [](LogComponent, LogLevel) {});
  return problem.empty() ? "" : "components: " + problem;
}

void LogParams::apply() const {
  LogLevel l = LogLevel::Warning;
  parse_log_level(level, l);
  set_log_level(l);
  for_each_override(components, [](LogComponent c, LogLevel lv) { set_log_level(c, lv); });
}

void set_log_level(LogLevel level) {
  for (uint8_t& l : log_detail::levels) l = uint8_t(level);
}

void set_log_level(LogComponent component, LogLevel level) { log_detail::levels[size_t(component)] = uint8_t(level); }

void set_log_sink(std::ostream* sink) { log_detail::sink = sink; }

}  // namespace ufs
