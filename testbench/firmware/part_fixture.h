// The common ground of a firmware part's unit test: a small flash geometry, the fake
// platform, a block manager and a flash port whose completions go back to the parts the
// test attaches (PartEvents), and NAND contents written straight through the backdoor as
// the firmware's programs would leave them. A test derives its rig from PartFixture and
// adds the part under test and stand-ins for the interfaces it talks to.
#pragma once
#include <vector>
#include "fake_platform.h"
#include "flash/flash_port.h"

namespace ufs::test {

// channels x ways dies of one plane, blocks of `pages` pages of 4 sectors (TLC).
inline FlashGeometry part_geometry(uint32_t ways = 2, uint32_t blocks_per_plane = 8, uint32_t pages = 12,
                                   uint32_t planes = 1) {
  FlashGeometry g;
  g.channels = 1; g.ways_per_channel = ways; g.planes_per_die = planes; g.blocks_per_plane = blocks_per_plane;
  g.pages_per_block = pages; g.page_bytes = 16384; g.bits_per_cell = 3;
  return g;
}

struct PartFixture {
  FlashGeometry geo;
  FirmwareParams params;
  FakePlatform hw;
  PartEvents events;
  BlockManager blocks;
  FlashPort flash;

  // per_block_slc: the flash port sets each op's SLC mode from its block (WriteBooster on).
  explicit PartFixture(const FlashGeometry& g = part_geometry(), uint32_t buffer_slots = 64,
                       bool per_block_slc = false)
      : geo(g), hw(geo, buffer_slots), blocks(geo), flash(hw, blocks, 600, per_block_slc) {
    hw.attach(&events);
    events.port = &flash;
  }

  // A page of host data on NAND: sector s holds LBA lbas[s] (kNoLba: padding), written by
  // the host write numbered `data_seq[s]` (empty: the page's own program sequence `seq`).
  void user_page(uint32_t block, uint32_t page, const std::vector<uint64_t>& lbas, uint64_t seq,
                 const std::vector<uint64_t>& data_seq = {}) {
    PageOob oob;
    oob.kind = PageKind::UserData;
    oob.sequence = seq;
    std::vector<SectorStamp> stamps(blocks.layout().spp_of(block));
    for (uint32_t s = 0; s < lbas.size(); ++s) {
      oob.lba[s] = lbas[s] == kNoLba ? kNoOobLba : uint32_t(lbas[s]);
      if (s < data_seq.size()) oob.data_seq[s] = data_seq[s];
      if (lbas[s] != kNoLba) stamps[s] = SectorStamp{lbas[s], oob.data_sequence(s)};
    }
    hw.preload_pages(blocks.layout().address_of(block, page), 1, stamps.data(), &oob);
  }
  // A map page on NAND: map page number `map_page`, programmed with sequence `seq`; its
  // entries `words` (a page's worth; empty: none), taken when the oldest program in flight
  // was `covers` (0: none was).
  void map_page(uint32_t block, uint32_t page, uint32_t map_page, uint64_t seq,
                const std::vector<uint32_t>& words = {}, uint64_t covers = 0) {
    PageOob oob;
    oob.kind = PageKind::MapData;
    oob.sequence = seq;
    oob.data_seq[0] = covers;
    for (uint32_t s = 0; s < blocks.layout().spp_of(block); ++s) oob.lba[s] = map_page;
    std::vector<SectorStamp> stamps(blocks.layout().spp_of(block));
    hw.preload_pages(blocks.layout().address_of(block, page), 1, stamps.data(), &oob, words.empty() ? nullptr : words.data(),
                     uint32_t(words.size()));
  }
};

}  // namespace ufs::test
