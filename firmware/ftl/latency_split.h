// Where a command's time in the device goes (issue 5: latency split into map-load,
// queueing, NAND and transfer). Each part is "something of that kind is outstanding for
// the command": a map page load it waits for, a NAND operation of its data (including the
// wait in the die queue; for a FUA write, the programs it waits for), a DATA IN/OUT
// transfer on the link. Parts overlap on long commands (segment 2 reads while segment 1
// transfers); each instant is charged to one part, the most advanced one active
// (transfer > NAND > map load > HPB verify), and an instant with none is waiting (for
// buffer space, the firmware core, ...). So the parts add up to the device's time for the
// command. HPB verify: an HPB READ's entry is in the crypto engine (the check HPB pays
// instead of a map load).
#pragma once
#include <cstdint>
#include <vector>

namespace ufs {

enum class LatencyPart : uint8_t { MapLoad, Nand, Transfer, HpbVerify };

class LatencySplit {
 public:
  struct Sums {
    uint64_t commands = 0;
    uint64_t device_ps = 0;  // command arrival to response, summed
    uint64_t map_load_ps = 0, nand_ps = 0, transfer_ps = 0, waiting_ps = 0, hpb_verify_ps = 0;
  };

  explicit LatencySplit(uint32_t tags) : commands_(tags) {}

  void start(uint32_t tag, uint64_t now_ps) { commands_[tag] = Command{}; commands_[tag].start_ps = commands_[tag].last_ps = now_ps; }
  void begin(uint32_t tag, LatencyPart part, uint64_t now_ps) {
    Command& c = commands_[tag];
    charge(c, now_ps);
    ++c.active[int(part)];
  }
  void end(uint32_t tag, LatencyPart part, uint64_t now_ps) {
    Command& c = commands_[tag];
    charge(c, now_ps);
    if (c.active[int(part)]) --c.active[int(part)];
  }
  // The response: the command's parts go into its op's sums.
  void finish(uint32_t tag, bool write, uint64_t now_ps);
  const Sums& reads() const { return reads_; }
  // The tag's last (or current) command waited for a map page load: an L2P miss that
  // neither the SRAM nor an HPB entry covered. Holds until the tag's next command starts.
  bool waited_for_map(uint32_t tag) const { return commands_[tag].part_ps[0] > 0; }
  const Sums& writes() const { return writes_; }
  // Drops the sums (the measured phase starts); commands in flight keep their times.
  void reset_sums() { reads_ = Sums{}; writes_ = Sums{}; }

 private:
  struct Command {
    uint64_t start_ps = 0, last_ps = 0;
    uint16_t active[4] = {0, 0, 0, 0};
    uint64_t part_ps[5] = {0, 0, 0, 0, 0};  // map load, NAND, transfer, waiting, HPB verify
  };
  static void charge(Command& c, uint64_t now_ps) {
    const int part = c.active[2] ? 2 : c.active[1] ? 1 : c.active[0] ? 0 : c.active[3] ? 4 : 3;
    c.part_ps[part] += now_ps - c.last_ps;
    c.last_ps = now_ps;
  }
  std::vector<Command> commands_;
  Sums reads_, writes_;
};

}  // namespace ufs
