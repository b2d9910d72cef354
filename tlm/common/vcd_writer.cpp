#include "common/vcd_writer.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <stdexcept>

namespace ufs {

namespace {
// Identifier codes: printable ASCII '!'..'~' as base-94 digits.
std::string id_code(uint32_t n) {
  std::string s;
  do {
    s.push_back(char('!' + n % 94));
    n /= 94;
  } while (n);
  return s;
}

// VCD identifiers of scopes and variables: no whitespace.
std::string vcd_name(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    if (c == ' ' || c == '\t' || c == '\n') c = '_';
  return out;
}

std::vector<std::string> split_scope(const std::string& scope) {
  std::vector<std::string> parts;
  size_t pos = 0;
  while (pos <= scope.size()) {
    size_t dot = scope.find('.', pos);
    if (dot == std::string::npos) dot = scope.size();
    if (dot > pos) parts.push_back(vcd_name(scope.substr(pos, dot - pos)));
    pos = dot + 1;
  }
  return parts;
}
}  // namespace

VcdWriter::VcdWriter(const std::string& path) : path_(path) {
  file_ = std::fopen(path.c_str(), "w");
  if (!file_) throw std::runtime_error("cannot write waves file " + path + ": " + std::strerror(errno));
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
}

VcdWriter::~VcdWriter() { close(); }

uint32_t VcdWriter::add_var(const std::string& scope, const std::string& name, uint32_t width) {
  Var v;
  v.scope = scope;
  v.name = vcd_name(name);
  v.width = std::max(1u, std::min(64u, width));
  v.id = id_code(uint32_t(vars_.size()));
  vars_.push_back(std::move(v));
  return uint32_t(vars_.size() - 1);
}

void VcdWriter::write_header(uint64_t time_ps, const std::vector<uint64_t>& initial) {
  if (!file_ || header_written_) return;
  header_written_ = true;
  char date[64] = "";
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S", std::localtime(&now));
  std::fprintf(file_, "$date\n  %s\n$end\n$version\n  ufs-sim (ufs-tlm)\n$end\n$timescale 1ps $end\n", date);
  // Variables grouped by scope, scopes nested as their dotted paths say (sorted, stable).
  std::vector<uint32_t> order(vars_.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [this](uint32_t a, uint32_t b) {
    return split_scope(vars_[a].scope) < split_scope(vars_[b].scope);
  });
  std::vector<std::string> open;
  for (uint32_t i : order) {
    const Var& v = vars_[i];
    const std::vector<std::string> want = split_scope(v.scope);
    size_t common = 0;
    while (common < open.size() && common < want.size() && open[common] == want[common]) ++common;
    while (open.size() > common) {
      std::fputs("$upscope $end\n", file_);
      open.pop_back();
    }
    for (size_t k = common; k < want.size(); ++k) {
      std::fprintf(file_, "$scope module %s $end\n", want[k].c_str());
      open.push_back(want[k]);
    }
    if (v.width == 1)
      std::fprintf(file_, "$var wire 1 %s %s $end\n", v.id.c_str(), v.name.c_str());
    else
      std::fprintf(file_, "$var integer %u %s %s $end\n", v.width, v.id.c_str(), v.name.c_str());
  }
  while (!open.empty()) {
    std::fputs("$upscope $end\n", file_);
    open.pop_back();
  }
  std::fputs("$enddefinitions $end\n", file_);
  std::fprintf(file_, "#%llu\n$dumpvars\n", static_cast<unsigned long long>(time_ps));
  for (uint32_t i = 0; i < vars_.size(); ++i) write_value(vars_[i], i < initial.size() ? initial[i] : 0);
  std::fputs("$end\n", file_);
  any_time_ = true;
  last_time_ = time_ps;
}

void VcdWriter::time(uint64_t time_ps) {
  if (!file_) return;
  if (any_time_ && time_ps <= last_time_) return;  // merged into the current step
  std::fprintf(file_, "#%llu\n", static_cast<unsigned long long>(time_ps));
  any_time_ = true;
  last_time_ = time_ps;
}

void VcdWriter::value(uint32_t var, uint64_t v) {
  if (file_ && var < vars_.size()) write_value(vars_[var], v);
}

void VcdWriter::write_value(const Var& v, uint64_t value) {
  if (v.width == 1) {
    std::fputc(value ? '1' : '0', file_);
    std::fputs(v.id.c_str(), file_);
    std::fputc('\n', file_);
    return;
  }
  char bits[72];
  int n = 0;
  if (v.width < 64) value &= (uint64_t(1) << v.width) - 1;
  do {
    bits[n++] = char('0' + (value & 1));
    value >>= 1;
  } while (value);
  std::fputc('b', file_);
  while (n) std::fputc(bits[--n], file_);
  std::fputc(' ', file_);
  std::fputs(v.id.c_str(), file_);
  std::fputc('\n', file_);
}

bool VcdWriter::close() {
  if (!file_) return true;
  const bool ok = std::fflush(file_) == 0 && !std::ferror(file_);
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  return ok && closed;
}

}  // namespace ufs
