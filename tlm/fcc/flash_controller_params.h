// Parameters of the flash demux (flash channel controller): channel count and
// bus, per-die scheduling, ECC, and which NAND features the controller uses.
#pragma once
#include <cstdint>
#include <string>

namespace ufs {

struct FlashControllerParams {
  uint32_t channels = 2;
  uint32_t ways_per_channel = 4;
  uint32_t bus_mt_s = 1400;
  uint32_t bus_width_bits = 8;
  double t_cmd_addr_ns = 200.0;
  double ecc_decode_ns = 1000.0;
  bool ecc_pipelined = true;
  bool read_first = true;
  bool multi_plane = true;
  bool cache_read = false;
  double t_cache_ns = 3000.0;
  bool cache_program = false;
  bool suspend_for_read = false;
  double status_poll_ns = 0;  // 0: the ready/busy line signals the end of an array operation
  std::string gang_mode = "none";
  uint32_t gang_size = 1;
  uint32_t max_concurrent_programs = 0;  // power budget: 0 = none

  template <class B>
  void bind(B& b) {
    // Our choice for a 512 GiB mobile part of 256 Gb dies: 2 channels x 4 CE x 2 dies.
    b("channels", channels, "", "flash channels (independent buses)");
    b("ways_per_channel", ways_per_channel, "", "packages (chip enables) per channel");
    // Samsung 5th-gen V-NAND press release (2018): Toggle DDR 4.0, 1400 Mb/s per pin, x8 bus.
    b("bus_mt_s", bus_mt_s, "MT/s", "channel data rate (release: 1400 MT/s Toggle DDR 4.0)");
    b("bus_width_bits", bus_width_bits, "bit", "channel data width (x8 NAND interface)");
    // Estimate: 7 command/address cycles (00h, 5 addresses, 30h) at ~25 ns plus tWB.
    b("t_cmd_addr_ns", t_cmd_addr_ns, "ns",
      "bus time of one command + address sequence (per page for programs)");
    // Estimate: hard-decision LDPC decoder at ~4 GB/s (no published figure).
    b("ecc_decode_ns", ecc_decode_ns, "ns", "ECC decode latency of one 4 KiB sector");
    b("ecc_pipelined", ecc_pipelined, "",
      "decode overlaps the transfer: one sector's latency after the last byte, else one per sector");
    b("read_first", read_first, "", "die queues serve reads before programs/erases (after priority)");
    b("multi_plane", multi_plane, "",
      "group queued ops of one die on different planes into multi-plane operations");
    b("cache_read", cache_read, "",
      "cache read: the next read's tR overlaps the previous page's data-out");
    // Estimate: tRCBSY-like page register -> cache register copy.
    b("t_cache_ns", t_cache_ns, "ns", "page register to cache register copy (cache read)");
    b("cache_program", cache_program, "",
      "cache program: the next program's data-in overlaps the die's program in progress");
    b("suspend_for_read", suspend_for_read, "",
      "suspend a program/erase in progress for a read waiting on the same die");
    b("status_poll_ns", status_poll_ns, "ns",
      "poll the die's status register (70h) every so often from the start of an array operation and see "
      "its end at the first poll that finds it ready (each poll takes the bus for t_cmd_addr_ns); "
      "0 = ready/busy line");
    b("gang_mode", gang_mode, "",
      "none | shared_bus | shared_control: how gang_size packages are operated together");
    b("gang_size", gang_size, "", "packages per gang (ways on a channel ganged together)");
    // UFS hosts cap the device's active current (bActiveICCLevel, chosen from the power
    // descriptor's wActiveICCLevelsVCC per level; Linux sets it from the board's regulator
    // limits); a controller stays within it by bounding how many dies program at once, the
    // NAND operation that draws the most VCC current. No value is published for a device.
    b("max_concurrent_programs", max_concurrent_programs, "",
      "power budget: at most this many dies in a program's array phase at once (0 = no limit); a program "
      "whose data is in waits for a slot before its array phase starts");
  }

  std::string validate() const {
    // Controllers drive up to 16 channels of up to 8 chip enables today; 64 each is room to spare.
    if (channels == 0 || channels > 64) return "channels: must be within 1..64";
    if (ways_per_channel == 0 || ways_per_channel > 64) return "ways_per_channel: must be within 1..64";
    // Toggle DDR 5.0 / ONFI 5.1 run at 2400-3600 MT/s.
    if (bus_mt_s == 0 || bus_mt_s > 10000) return "bus_mt_s: must be within 1..10000";
    if (bus_width_bits == 0 || bus_width_bits % 8 != 0 || bus_width_bits > 64)
      return "bus_width_bits: must be a multiple of 8 within 8..64";
    // Bus and decode steps take nanoseconds to microseconds; a millisecond is far beyond any.
    if (t_cmd_addr_ns > 1e6) return "t_cmd_addr_ns: must be at most 1000000 ns (1 ms)";
    if (ecc_decode_ns > 1e6) return "ecc_decode_ns: must be at most 1000000 ns (1 ms)";
    if (t_cache_ns > 1e6) return "t_cache_ns: must be at most 1000000 ns (1 ms)";
    if (status_poll_ns > 1e6) return "status_poll_ns: must be at most 1000000 ns (1 ms)";
    if (t_cmd_addr_ns < 0) return "t_cmd_addr_ns: must not be negative";
    if (ecc_decode_ns < 0) return "ecc_decode_ns: must not be negative";
    if (t_cache_ns < 0) return "t_cache_ns: must not be negative";
    if (status_poll_ns < 0) return "status_poll_ns: must not be negative";
    if (status_poll_ns > 0 && status_poll_ns < t_cmd_addr_ns)
      return "status_poll_ns: must be 0 or at least t_cmd_addr_ns (a poll takes the bus that long)";
    if (gang_mode != "none" && gang_mode != "shared_bus" && gang_mode != "shared_control")
      return "gang_mode: must be none, shared_bus or shared_control, not '" + gang_mode + "'";
    if (gang_size == 0 || gang_size > ways_per_channel) return "gang_size: must be within 1..ways_per_channel";
    if (max_concurrent_programs > channels * ways_per_channel * 16)
      return "max_concurrent_programs: must not exceed the dies (at most channels x ways_per_channel x 16)";
    if (gang_mode != "none" && ways_per_channel % gang_size != 0)
      return "gang_size: must divide ways_per_channel";
    return "";
  }
};

}  // namespace ufs
