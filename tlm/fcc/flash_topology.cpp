#include "fcc/flash_topology.h"
#include <algorithm>
#include <cstdlib>

namespace ufs {

FlashTopology::FlashTopology(const FlashControllerParams& params, const NandParams& nand) : nand_params_(nand) {
  // Ganging: gang_size packages on one channel act as one wider package. Shared bus:
  // one data bus, a command sequence per package. Shared control: commands go to all
  // at once, each package has its own data path (the gang's bus is gang_size wide).
  uint32_t ways = params.ways_per_channel;
  uint32_t width_bytes = params.bus_width_bits / 8;
  std::string problem;
  geometry_ = geometry_for(params, nand_params_, &problem);
  if (params.gang_mode != "none" && params.gang_size > 1) {
    const uint32_t g = params.gang_size;
    ways /= g;
    nand_params_.page_bytes *= g;
    nand_params_.spare_bytes_per_page *= g;
    if (params.gang_mode == "shared_bus") {
      cmd_per_op_ = g;
    } else {
      width_bytes *= g;
      lanes_ = g;
    }
  }
  const uint32_t packages = params.channels * ways;
  for (uint32_t p = 0; p < packages; ++p) packages_.emplace_back(nand_params_, p * nand_params_.dies_per_package);
  channels_.reserve(params.channels);
  for (uint32_t c = 0; c < params.channels; ++c) channels_.emplace_back(params.bus_mt_s, width_bytes);
  for (uint32_t d = 0; d < geometry_.dies(); ++d) {
    dies_.push_back(&packages_[d / geometry_.dies_per_way].die(d % geometry_.dies_per_way));
    die_channel_.push_back(geometry_.channel_of(d));
  }
  t_cmd_ = sc_core::sc_time(params.t_cmd_addr_ns, sc_core::SC_NS);
  op_cmd_ = t_cmd_ * double(cmd_per_op_);
  spare_per_sector_ = nand_params_.spare_bytes_per_page / nand_params_.sectors_per_page();
  // Up to a multi-plane, one-shot program's worth of sectors.
  xfer_table_.resize(size_t(kMaxSectorsPerPage) * 4 + 1);
  for (size_t n = 0; n < xfer_table_.size(); ++n)
    xfer_table_[n] = channels_[0].transfer_time(sector_bus_bytes(uint32_t(n)));
}

FlashGeometry FlashTopology::geometry_for(const FlashControllerParams& params, const NandParams& nand,
                                          std::string* problem) {
  FlashGeometry g;
  uint32_t ways = params.ways_per_channel, page_bytes = nand.page_bytes;
  if (params.gang_mode != "none" && params.gang_size > 1) {
    ways /= params.gang_size;
    page_bytes *= params.gang_size;
    if (page_bytes / kSectorBytes > kMaxSectorsPerPage)
      *problem = "fcc.gang_size: the ganged page (" + std::to_string(params.gang_size) + " x nand.page_bytes) exceeds 32 KiB";
    else if (nand.hybrid())
      *problem = "fcc.gang_size: ganging is not modelled with nand.hybrid_large_page_bytes";
  }
  g.channels = params.channels;
  g.ways_per_channel = ways;
  g.dies_per_way = nand.dies_per_package;
  g.planes_per_die = nand.planes_per_die;
  g.blocks_per_plane = nand.blocks_per_plane;
  g.pages_per_block = nand.effective_pages_per_block();
  g.bits_per_cell = nand.operated_bits();
  g.page_bytes = page_bytes;
  g.large_page_bytes = nand.hybrid_large_page_bytes;
  g.small_blocks_per_plane = nand.hybrid() ? nand.hybrid_small_blocks_per_plane : 0;
  // bad_block_list names dies by global index (its syntax is checked by NandParams::validate).
  const std::string& list = nand.bad_block_list;
  for (size_t pos = 0; problem->empty() && pos < list.size();) {
    const size_t end = std::min(list.find(',', pos), list.size());
    const std::string item = list.substr(pos, end - pos);
    if (std::strtoull(item.c_str(), nullptr, 10) >= g.dies())
      *problem = "nand.bad_block_list: '" + item + "' names a die beyond the device's " + std::to_string(g.dies());
    pos = end + 1;
  }
  return g;
}

sc_core::sc_time FlashTopology::read_transfer_time(uint32_t first, uint32_t n, const FlashChannel& ch) const {
  if (lanes_ <= 1) return sector_transfer_time(n, ch);
  const uint32_t per_package = std::max(1u, nand_params_.sectors_per_page() / lanes_);
  uint32_t most = 0;
  for (uint32_t k = 0; k < lanes_; ++k) {
    const uint32_t lo = std::max(first, k * per_package), hi = std::min(first + n, (k + 1) * per_package);
    if (hi > lo) most = std::max(most, hi - lo);
  }
  // `most` sectors through one package's path = most x lanes_ sectors' time on the wide bus.
  return sector_transfer_time(most * lanes_, ch);
}

NandRuleViolations FlashTopology::violation_counts() const {
  NandRuleViolations sum;
  for (const NandDie* d : dies_) {
    const NandRuleViolations& v = d->violations();
    sum.program_not_erased += v.program_not_erased;
    sum.program_out_of_order += v.program_out_of_order;
    sum.one_shot_misuse += v.one_shot_misuse;
    sum.address_out_of_range += v.address_out_of_range;
    sum.plane_mismatch += v.plane_mismatch;
    sum.mode_mismatch += v.mode_mismatch;
  }
  return sum;
}

uint64_t FlashTopology::allocated_blocks() const {
  uint64_t n = 0;
  for (const NandDie* d : dies_) n += d->allocated_blocks();
  return n;
}

}  // namespace ufs
