// The flash array as the controller sees it: packages on channels (ganged packages
// folded into one wider package), each die's channel, and the bus times of command
// sequences and sector transfers on them. Built once; owns the NAND packages and the
// channels' calendars. Statistics over all dies (rule violations, blocks in use).
#pragma once
#include <systemc>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>
#include "fcc/flash_channel.h"
#include "fcc/flash_controller_params.h"
#include "hal/flash_types.h"
#include "nand/nand_package.h"
#include "nand/nand_params.h"

namespace ufs {

class FlashTopology {
 public:
  // Parameters must have passed validate() and geometry_for() without a problem.
  FlashTopology(const FlashControllerParams& params, const NandParams& nand);

  // The geometry the firmware sees for these parameters (ganged packages act as one wider
  // package); "" or "key: problem" in `problem` when the combination cannot be built.
  static FlashGeometry geometry_for(const FlashControllerParams& params, const NandParams& nand, std::string* problem);
  const FlashGeometry& geometry() const { return geometry_; }
  // The NAND parameters of one (ganged) package.
  const NandParams& nand_params() const { return nand_params_; }
  uint32_t dies() const { return uint32_t(dies_.size()); }
  uint32_t channels() const { return uint32_t(channels_.size()); }
  NandDie& die(uint32_t d) const { return *dies_[d]; }
  uint32_t channel_of(uint32_t die) const { return die_channel_[die]; }
  FlashChannel& channel(uint32_t c) { return channels_[c]; }
  const FlashChannel& channel(uint32_t c) const { return channels_[c]; }

  // One command/address sequence; an op's (one per package of a shared-bus gang).
  const sc_core::sc_time& t_cmd() const { return t_cmd_; }
  const sc_core::sc_time& op_cmd() const { return op_cmd_; }
  uint32_t cmd_per_op() const { return cmd_per_op_; }
  uint64_t sector_bus_bytes(uint32_t sectors) const {
    return uint64_t(sectors) * (kSectorBytes + spare_per_sector_);
  }
  // Channel time of `sectors` sectors with their spare bytes (table: sc_time from a
  // double is slow on the hot path).
  sc_core::sc_time sector_transfer_time(uint32_t sectors, const FlashChannel& ch) const {
    return sectors < xfer_table_.size() ? xfer_table_[sectors] : ch.transfer_time(sector_bus_bytes(sectors));
  }
  // Bus time of sectors [first, first + n) of a page: on a shared-control gang each
  // package's share of the gang page crosses its own data path, so a partial read
  // takes as long as the package holding most of the sectors needs.
  sc_core::sc_time read_transfer_time(uint32_t first, uint32_t n, const FlashChannel& ch) const;

  NandRuleViolations violation_counts() const;
  uint64_t allocated_blocks() const;

 private:
  NandParams nand_params_;
  FlashGeometry geometry_;
  std::deque<NandPackage> packages_;  // never moves: dies_ point into it
  std::vector<FlashChannel> channels_;
  std::vector<NandDie*> dies_;
  std::vector<uint32_t> die_channel_;
  sc_core::sc_time t_cmd_, op_cmd_;
  std::vector<sc_core::sc_time> xfer_table_;
  uint32_t spare_per_sector_ = 0;
  uint32_t cmd_per_op_ = 1;  // command sequences per op (shared-bus gang: one per package)
  uint32_t lanes_ = 1;       // shared-control gang: packages whose data paths form the bus
};

}  // namespace ufs
