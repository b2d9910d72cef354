// A GDB remote port (issue 20, "Debugging"; cpu.gdb_port): the GDB Remote Serial Protocol
// server side for one 32-bit Arm core, on a TCP socket at 127.0.0.1:port. It knows packets,
// not cores: the core that stops (tlm/cpu/iss_gdb.h) calls stopped(), which tells the
// debugger why, serves its requests (registers, memory, breakpoints) through a GdbTarget and
// returns when the debugger resumes the core (continue, single step), lets it go (detach) or
// kills the run. Everything happens on the caller's thread: while the debugger holds the
// core, the caller (and with it the simulation) waits.
//
// Packets: $data#checksum framing with +/- acknowledgements, qSupported, a target
// description (qXfer:features:read:target.xml: org.gnu.gdb.arm.core, r0-r12, sp, lr, pc,
// cpsr as regnum 25; org.gnu.gdb.arm.vfp, d0-d15 and fpscr: the firmware is hard-float), ?, g/G, p/P, m/M, c/s (with an address too), vCont (c, s: the first
// action applies to the one core), Z0/z0 and Z1/z1 (breakpoints kept here: the core checks
// breakpoint_at before each instruction; guest memory is never patched), D, k, the thread
// queries of a single-threaded target, and 0x03 (interrupt) between packets.
#pragma once
#include <cstdint>
#include <set>
#include <string>

namespace ufs {

// What the debugger reads and writes: registers 0-15 (r0-r12, sp, lr, pc), 16 (cpsr),
// 17-32 (the VFP's d0-d15, 64 bits), 33 (fpscr); memory.
class GdbTarget {
 public:
  static constexpr int kRegisters = 34;
  static constexpr int kCpsr = 16, kD0 = 17, kFpscr = 33;
  static int register_bytes(int n) { return n >= kD0 && n < kFpscr ? 8 : 4; }
  virtual ~GdbTarget() = default;
  virtual uint64_t read_register(int n) = 0;
  virtual void write_register(int n, uint64_t value) = 0;
  // False: (part of) the range is not memory of the core.
  virtual bool read_memory(uint32_t address, uint8_t* out, uint32_t bytes) = 0;
  virtual bool write_memory(uint32_t address, const uint8_t* in, uint32_t bytes) = 0;
};

class GdbRemote {
 public:
  // Listens on 127.0.0.1:port; throws std::runtime_error (one line) when it cannot (in use).
  // `program`: the ELF the debugger should load (named in the waiting message).
  GdbRemote(uint16_t port, std::string program);
  ~GdbRemote();
  GdbRemote(const GdbRemote&) = delete;
  GdbRemote& operator=(const GdbRemote&) = delete;

  enum class Resume { Continue, Step, Detach, Kill };
  // The core stopped with `signal` (5: trap, a breakpoint or a finished step; 2: interrupted;
  // 6: the firmware panicked): the first time, waits for the debugger to connect (saying so
  // on stderr), then tells it (or answers its '?'), serves it until it resumes the core.
  // A debugger that goes away counts as a detach.
  Resume stopped(GdbTarget& target, int signal);
  // While the core runs: whether the debugger asked to interrupt it (0x03). Never blocks.
  bool interrupt_requested();
  // The run ends: a debugger waiting for the core to stop is told the program exited
  // (W00; with `signal` nonzero: terminated by it, X) and the connection closes.
  void finish(int signal);

  bool breakpoint_at(uint32_t address) const { return !breakpoints_.empty() && breakpoints_.count(address & ~1u); }
  bool attached() const { return fd_ >= 0; }
  uint16_t port() const { return port_; }

 private:
  bool accept_debugger();
  bool receive(bool block);               // more bytes into in_; false: the connection is gone
  bool read_packet(std::string& packet);  // false: the connection is gone
  bool send_packet(const std::string& data);
  bool send_raw(const std::string& bytes);
  void close_connection();
  // One packet's reply; sets resume_ when the packet resumes the core.
  std::string handle(GdbTarget& target, const std::string& packet, int signal);
  std::string read_registers(GdbTarget& target);
  std::string features(const std::string& annex, const std::string& range);

  uint16_t port_;
  std::string program_;
  bool awaited_ = false;                 // the first stop waited for the debugger
  int listener_ = -1, fd_ = -1;
  std::string in_;                       // received, not yet handled
  bool awaiting_stop_ = false;           // the debugger resumed the core and waits for its stop
  bool interrupt_ = false;               // 0x03 seen while reading
  bool resumed_ = false;
  Resume resume_ = Resume::Continue;
  std::set<uint32_t> breakpoints_;
};

}  // namespace ufs
