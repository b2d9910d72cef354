// Building blocks for host HPB cache tests (no kernel): a device of one-sub-region regions
// and a stand-in for the device answering the READ BUFFERs the cache sends.
#pragma once
#include <cstdint>
#include <vector>
#include "host/hpb_host_cache.h"
#include "scsi/scsi_command.h"

namespace ufs::test {

// `regions` regions of one sub-region of `blocks` blocks each; the host may hold `max_active`.
inline HpbDeviceInfo one_subregion_regions(uint32_t regions, uint32_t max_active, uint64_t blocks = 1024) {
  HpbDeviceInfo d;
  d.supported = true;
  d.logical_blocks = uint64_t(regions) * blocks;
  d.region_blocks = d.subregion_blocks = blocks;
  d.max_active_regions = max_active;
  return d;
}

// Every READ BUFFER the cache may send now completes GOOD; entry i of a sub-region = base + i.
inline void complete_read_buffers(HpbHostCache& cache, uint64_t now_ps, uint64_t base = 0) {
  HostCommand c;
  while (cache.next_command(0, c)) {
    CommandResponse r;
    std::vector<uint8_t> data(c.expected_length, 0);
    if (base)
      for (size_t i = 0; i < data.size() / 8; ++i) put_be64(&data[8 * i], base + i);
    cache.on_command_done(c, r, data.data(), uint32_t(data.size()), now_ps);
  }
}

}  // namespace ufs::test
