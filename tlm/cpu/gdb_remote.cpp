#include "cpu/gdb_remote.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace ufs {

namespace {
// gdb's Arm core feature; cpsr keeps the number it has had since the FPA registers sat
// between pc and cpsr (25), so the g packet is r0-pc, cpsr, then d0-d15 and fpscr (200 bytes).
constexpr const char* kTargetXml =
    "<?xml version=\"1.0\"?>"
    "<!DOCTYPE target SYSTEM \"gdb-target.dtd\">"
    "<target version=\"1.0\">"
    "<architecture>arm</architecture>"
    "<feature name=\"org.gnu.gdb.arm.core\">"
    "<reg name=\"r0\" bitsize=\"32\"/><reg name=\"r1\" bitsize=\"32\"/><reg name=\"r2\" bitsize=\"32\"/>"
    "<reg name=\"r3\" bitsize=\"32\"/><reg name=\"r4\" bitsize=\"32\"/><reg name=\"r5\" bitsize=\"32\"/>"
    "<reg name=\"r6\" bitsize=\"32\"/><reg name=\"r7\" bitsize=\"32\"/><reg name=\"r8\" bitsize=\"32\"/>"
    "<reg name=\"r9\" bitsize=\"32\"/><reg name=\"r10\" bitsize=\"32\"/><reg name=\"r11\" bitsize=\"32\"/>"
    "<reg name=\"r12\" bitsize=\"32\"/><reg name=\"sp\" bitsize=\"32\" type=\"data_ptr\"/>"
    "<reg name=\"lr\" bitsize=\"32\"/><reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\"/>"
    "<reg name=\"cpsr\" bitsize=\"32\" regnum=\"25\"/>"
    "</feature>"
    // The core's VFPv3-D16 view (the Cortex-R8's single-precision VFPv3xD has s0-s31, which
    // gdb shows as pseudo registers of d0-d15); gdb numbers them on from cpsr: 26-42.
    "<feature name=\"org.gnu.gdb.arm.vfp\">"
    "<reg name=\"d0\" bitsize=\"64\" type=\"ieee_double\"/><reg name=\"d1\" bitsize=\"64\" type=\"ieee_double\"/>"
    "<reg name=\"d2\" bitsize=\"64\" type=\"ieee_double\"/><reg name=\"d3\" bitsize=\"64\" type=\"ieee_double\"/>"
    "<reg name=\"d4\" bitsize=\"64\" type=\"ieee_double\"/><reg name=\"d5\" bitsize=\"64\" type=\"ieee_double\"/>"
    "<reg name=\"d6\" bitsize=\"64\" type=\"ieee_double\"/><reg name=\"d7\" bitsize=\"64\" type=\"ieee_double\"/>"
    "<reg name=\"d8\" bitsize=\"64\" type=\"ieee_double\"/><reg name=\"d9\" bitsize=\"64\" type=\"ieee_double\"/>"
    "<reg name=\"d10\" bitsize=\"64\" type=\"ieee_double\"/><reg name=\"d11\" bitsize=\"64\" type=\"ieee_double\"/>"
    "<reg name=\"d12\" bitsize=\"64\" type=\"ieee_double\"/><reg name=\"d13\" bitsize=\"64\" type=\"ieee_double\"/>"
    "<reg name=\"d14\" bitsize=\"64\" type=\"ieee_double\"/><reg name=\"d15\" bitsize=\"64\" type=\"ieee_double\"/>"
    "<reg name=\"fpscr\" bitsize=\"32\" type=\"int\" group=\"float\"/>"
    "</feature></target>";
constexpr int kCpsrNumber = 25;  // gdb's number of cpsr (GdbTarget::kCpsr); d0-d15 and fpscr follow it

// gdb's register number -> GdbTarget's (-1: none).
int target_register(uint64_t n) {
  if (n < 16) return int(n);
  if (n >= kCpsrNumber && n <= kCpsrNumber + 17) return GdbTarget::kCpsr + int(n - kCpsrNumber);
  return -1;
}
constexpr uint32_t kMaxMemory = 0x800;  // bytes per m packet (PacketSize 0x1000 hex digits)

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
// A hex number at s[at...] up to a character that is not a hex digit; false: none there.
bool parse_hex(const std::string& s, size_t& at, uint64_t& value) {
  const size_t start = at;
  value = 0;
  while (at < s.size() && hex_digit(s[at]) >= 0 && at - start < 16) value = value << 4 | uint64_t(hex_digit(s[at++]));
  return at > start;
}
bool parse_bytes(const std::string& s, size_t at, std::vector<uint8_t>& out, size_t count) {
  if (s.size() < at + 2 * count) return false;
  out.resize(count);
  for (size_t i = 0; i < count; ++i) {
    const int hi = hex_digit(s[at + 2 * i]), lo = hex_digit(s[at + 2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    out[i] = uint8_t(hi << 4 | lo);
  }
  return true;
}
std::string hex_bytes(const uint8_t* p, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  s.reserve(2 * n);
  for (size_t i = 0; i < n; ++i) {
    s += digits[p[i] >> 4];
    s += digits[p[i] & 15];
  }
  return s;
}
std::string hex_value(uint64_t v, int bytes) {  // target order: little-endian
  uint8_t b[8];
  for (int i = 0; i < bytes; ++i) b[i] = uint8_t(v >> (8 * i));
  return hex_bytes(b, size_t(bytes));
}
uint64_t value_of(const std::vector<uint8_t>& b, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = v << 8 | b[at + size_t(i)];
  return v;
}
bool starts(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }
}  // namespace

GdbRemote::GdbRemote(uint16_t port, std::string program) : port_(port), program_(std::move(program)) {
  listener_ = socket(AF_INET, SOCK_STREAM, 0);
  if (listener_ < 0) throw std::runtime_error("cpu.gdb_port: cannot open a socket: " + std::string(std::strerror(errno)));
  const int one = 1;
  setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(listener_, 1) != 0) {
    const std::string why = std::strerror(errno);
    ::close(listener_);
    listener_ = -1;
    throw std::runtime_error("cpu.gdb_port: cannot listen on 127.0.0.1:" + std::to_string(port) + ": " + why);
  }
}

GdbRemote::~GdbRemote() {
  close_connection();
  if (listener_ >= 0) ::close(listener_);
}

void GdbRemote::close_connection() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  in_.clear();
  awaiting_stop_ = false;
  breakpoints_.clear();
}

bool GdbRemote::accept_debugger() {
  if (listener_ < 0) return false;
  std::fprintf(stderr,
               "cpu.gdb_port: the firmware core waits for the debugger on 127.0.0.1:%u "
               "(gdb-multiarch %s -ex 'target remote :%u')\n",
               unsigned(port_), program_.c_str(), unsigned(port_));
  std::fflush(stderr);
  for (;;) {
    fd_ = accept(listener_, nullptr, nullptr);
    if (fd_ >= 0) break;
    if (errno != EINTR) throw std::runtime_error("cpu.gdb_port: accept failed: " + std::string(std::strerror(errno)));
  }
  const int one = 1;
  setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  // One debugger per run: a second one cannot connect after this one leaves.
  ::close(listener_);
  listener_ = -1;
  std::fprintf(stderr, "cpu.gdb_port: debugger attached; simulated time stands still while it holds the core\n");
  return true;
}

bool GdbRemote::send_raw(const std::string& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += size_t(n);
  }
  return true;
}

// Reads more bytes into in_ (blocking); false: the connection is gone.
bool GdbRemote::receive(bool block) {
  char buf[4096];
  for (;;) {
    const ssize_t n = recv(fd_, buf, sizeof buf, block ? 0 : MSG_DONTWAIT);
    if (n > 0) {
      in_.append(buf, size_t(n));
      return true;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && !block && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
    return false;
  }
}

bool GdbRemote::send_packet(const std::string& data) {
  uint8_t sum = 0;
  for (const char c : data) sum = uint8_t(sum + uint8_t(c));
  char tail[4];
  std::snprintf(tail, sizeof tail, "#%02x", sum);
  const std::string packet = "$" + data + tail;
  for (int tries = 0; tries < 10; ++tries) {
    if (!send_raw(packet)) return false;
    // The acknowledgement; anything else (a new packet) stays for read_packet.
    for (;;) {
      while (!in_.empty() && in_[0] != '+' && in_[0] != '-' && in_[0] != '$') {
        if (in_[0] == '\x03') interrupt_ = true;
        in_.erase(0, 1);
      }
      if (!in_.empty()) break;
      if (!receive(true)) return false;
    }
    if (in_[0] == '$') return true;  // (an ack lost; the debugger moved on)
    const bool ack = in_[0] == '+';
    in_.erase(0, 1);
    if (ack) return true;
  }
  return false;
}

bool GdbRemote::read_packet(std::string& packet) {
  for (;;) {
    const size_t start = in_.find('$');
    // Before a packet: acknowledgements and interrupts.
    for (size_t i = 0; i < std::min(start, in_.size()); ++i)
      if (in_[i] == '\x03') interrupt_ = true;
    if (start == std::string::npos) {
      in_.clear();
    } else {
      in_.erase(0, start);
      const size_t hash = in_.find('#');
      if (hash != std::string::npos && hash + 2 < in_.size()) {
        const std::string data = in_.substr(1, hash - 1);
        const int hi = hex_digit(in_[hash + 1]), lo = hex_digit(in_[hash + 2]);
        in_.erase(0, hash + 3);
        uint8_t sum = 0;
        for (const char c : data) sum = uint8_t(sum + uint8_t(c));
        if (hi < 0 || lo < 0 || sum != uint8_t(hi << 4 | lo)) {
          if (!send_raw("-")) return false;
          continue;
        }
        if (!send_raw("+")) return false;
        // Run-length encoding ('*') is only for replies; '}' escapes only in binary data (X),
        // which this server declines: the packet is taken as it came.
        packet = data;
        return true;
      }
    }
    if (!receive(true)) return false;
  }
}

bool GdbRemote::interrupt_requested() {
  if (fd_ < 0 || !awaiting_stop_) return false;
  if (!receive(false)) {  // the debugger went away while the core ran: it runs on alone
    std::fprintf(stderr, "cpu.gdb_port: the debugger went away; the run goes on without it\n");
    close_connection();
    return false;
  }
  for (size_t i = 0; i < in_.size();) {
    if (in_[i] == '\x03') {
      interrupt_ = true;
      in_.erase(i, 1);
    } else {
      ++i;
    }
  }
  const bool asked = interrupt_;
  interrupt_ = false;
  return asked;
}

GdbRemote::Resume GdbRemote::stopped(GdbTarget& target, int signal) {
  if (fd_ < 0) {
    if (awaited_) return Resume::Detach;  // the debugger has been and gone: no waiting again
    awaited_ = true;
    if (!accept_debugger()) return Resume::Detach;
  } else if (awaiting_stop_) {
    char reply[8];
    std::snprintf(reply, sizeof reply, "S%02x", signal & 0xff);
    if (!send_packet(reply)) {
      std::fprintf(stderr, "cpu.gdb_port: the debugger went away; the run goes on without it\n");
      close_connection();
      return Resume::Detach;
    }
  }
  awaiting_stop_ = false;
  interrupt_ = false;
  for (;;) {
    std::string packet;
    if (!read_packet(packet)) {
      std::fprintf(stderr, "cpu.gdb_port: the debugger went away; the run goes on without it\n");
      close_connection();
      return Resume::Detach;
    }
    resumed_ = false;
    const std::string reply = handle(target, packet, signal);
    if (resumed_ && resume_ == Resume::Kill) {
      if (!reply.empty()) send_packet(reply);  // (vKill's OK; k has no reply)
      std::fprintf(stderr, "cpu.gdb_port: the debugger killed the run\n");
      close_connection();
      return Resume::Kill;
    }
    if (resumed_ && resume_ != Resume::Detach) {  // the reply is the next stop
      awaiting_stop_ = true;
      return resume_;
    }
    if (!send_packet(reply)) {
      close_connection();
      return Resume::Detach;
    }
    if (resumed_) {  // detach: OK sent
      std::fprintf(stderr, "cpu.gdb_port: the debugger detached; the run goes on without it\n");
      close_connection();
      return Resume::Detach;
    }
  }
}

void GdbRemote::finish(int signal) {
  if (fd_ >= 0 && awaiting_stop_) {
    char reply[8];
    std::snprintf(reply, sizeof reply, signal ? "X%02x" : "W00", signal & 0xff);
    send_packet(reply);
  }
  close_connection();
}

std::string GdbRemote::read_registers(GdbTarget& target) {
  std::string s;
  for (int r = 0; r < GdbTarget::kRegisters; ++r)
    s += hex_value(target.read_register(r), GdbTarget::register_bytes(r));
  return s;
}

std::string GdbRemote::features(const std::string& annex, const std::string& range) {
  if (annex != "target.xml") return "E00";
  size_t at = 0;
  uint64_t offset = 0, length = 0;
  if (!parse_hex(range, at, offset) || at >= range.size() || range[at] != ',' || !parse_hex(range, ++at, length))
    return "E01";
  const std::string xml = kTargetXml;
  if (offset >= xml.size()) return "l";
  const std::string part = xml.substr(offset, length);
  return (offset + part.size() >= xml.size() ? "l" : "m") + part;  // (no character there needs escaping)
}

std::string GdbRemote::handle(GdbTarget& target, const std::string& p, int signal) {
  char buf[16];
  auto resume = [&](Resume r) {
    resumed_ = true;
    resume_ = r;
    return std::string();
  };
  // c/s/C/S with an optional address to resume at (C and S carry a signal first: ignored).
  auto resume_at = [&](Resume r, size_t at) {
    if (p[0] == 'C' || p[0] == 'S') {
      const size_t semi = p.find(';');
      if (semi == std::string::npos) return resume(r);
      at = semi + 1;
    }
    uint64_t address = 0;
    if (parse_hex(p, at, address)) target.write_register(15, uint32_t(address));
    return resume(r);
  };
  if (p.empty()) return "";
  switch (p[0]) {
    case '?':
      std::snprintf(buf, sizeof buf, "S%02x", signal & 0xff);
      return buf;
    case 'g': return read_registers(target);
    case 'G': {
      std::vector<uint8_t> b;
      if (!parse_bytes(p, 1, b, (p.size() - 1) / 2)) return "E01";
      // As many registers as came, in g order (a debugger may send the core's alone).
      size_t at = 0;
      for (int r = 0; r < GdbTarget::kRegisters && at + size_t(GdbTarget::register_bytes(r)) <= b.size(); ++r) {
        target.write_register(r, value_of(b, at, GdbTarget::register_bytes(r)));
        at += size_t(GdbTarget::register_bytes(r));
      }
      return "OK";
    }
    case 'p':
    case 'P': {
      size_t at = 1;
      uint64_t n = 0;
      if (!parse_hex(p, at, n)) return "E01";
      const int r = target_register(n);
      if (r < 0) return "E00";
      const int bytes = GdbTarget::register_bytes(r);
      if (p[0] == 'p') return hex_value(target.read_register(r), bytes);
      std::vector<uint8_t> b;
      if (at >= p.size() || p[at] != '=' || !parse_bytes(p, at + 1, b, size_t(bytes))) return "E01";
      target.write_register(r, value_of(b, 0, bytes));
      return "OK";
    }
    case 'm':
    case 'M': {
      size_t at = 1;
      uint64_t address = 0, length = 0;
      if (!parse_hex(p, at, address) || at >= p.size() || p[at] != ',' || !parse_hex(p, ++at, length)) return "E01";
      if (address > 0xffffffffu || address + length > 0x100000000ull) return "E01";
      if (p[0] == 'm') {
        std::vector<uint8_t> b(std::min<uint64_t>(length, kMaxMemory));
        if (!target.read_memory(uint32_t(address), b.data(), uint32_t(b.size()))) return "E14";
        return hex_bytes(b.data(), b.size());
      }
      std::vector<uint8_t> b;
      if (at >= p.size() || p[at] != ':' || length > kMaxMemory || !parse_bytes(p, at + 1, b, length)) return "E01";
      return target.write_memory(uint32_t(address), b.data(), uint32_t(b.size())) ? "OK" : "E14";
    }
    case 'c':
    case 'C': return resume_at(Resume::Continue, 1);
    case 's':
    case 'S': return resume_at(Resume::Step, 1);
    case 'Z':
    case 'z': {
      // Z0 software, Z1 hardware breakpoint: both the same here (nothing is written to the code).
      if (p.size() < 2 || (p[1] != '0' && p[1] != '1')) return "";  // watchpoints: not supported
      size_t at = 3;
      uint64_t address = 0;
      if (p.size() < 4 || p[2] != ',' || !parse_hex(p, at, address)) return "E01";
      if (p[0] == 'Z') breakpoints_.insert(uint32_t(address) & ~1u);
      else breakpoints_.erase(uint32_t(address) & ~1u);
      return "OK";
    }
    case 'D':
      resume(Resume::Detach);
      return "OK";
    case 'k': return resume(Resume::Kill);
    case 'H': return "OK";  // one thread: every thread is it
    case 'T': return "OK";
    case 'q':
      if (starts(p, "qSupported")) return "PacketSize=1000;qXfer:features:read+;vContSupported+";
      if (starts(p, "qXfer:features:read:")) {
        const std::string rest = p.substr(std::strlen("qXfer:features:read:"));
        const size_t colon = rest.find(':');
        if (colon == std::string::npos) return "E01";
        return features(rest.substr(0, colon), rest.substr(colon + 1));
      }
      if (p == "qAttached") return "1";
      if (p == "qC") return "QC1";
      if (p == "qfThreadInfo") return "m1";
      if (p == "qsThreadInfo") return "l";
      if (starts(p, "qSymbol")) return "OK";
      return "";
    case 'v':
      if (p == "vCont?") return "vCont;c;C;s;S";
      if (starts(p, "vCont;")) {
        // The first action is the one core's ("vCont;s:1;c": step it).
        const char a = p.size() > 6 ? p[6] : 'c';
        if (a == 's' || a == 'S') return resume(Resume::Step);
        if (a == 'c' || a == 'C') return resume(Resume::Continue);
        return "E01";
      }
      if (starts(p, "vKill")) {
        resume(Resume::Kill);
        return "OK";
      }
      return "";
    default: return "";
  }
}

}  // namespace ufs
