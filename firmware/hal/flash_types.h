// Flash-side types shared by the firmware (through the HAL) and the flash demux model.
// Plain C++: no simulator headers, so the firmware can be built for an embedded core.
#pragma once
#include <cstdint>
#include <vector>

namespace ufs {

// The stand-in for 4 KiB of user data: which LBA it belongs to and which host
// write produced it. NAND pages, the data buffer and host buffers carry these;
// the scoreboard compares them. lba == kNoLba marks an empty/erased sector.
struct SectorStamp {
  uint64_t lba = ~0ull;
  uint64_t version = 0;
  bool operator==(const SectorStamp& o) const { return lba == o.lba && version == o.version; }
  bool operator!=(const SectorStamp& o) const { return !(*this == o); }
};
constexpr uint64_t kNoLba = ~0ull;

// Data buffer address map. Below kByteRegionBase the buffer holds 4 KiB sectors,
// each represented by one SectorStamp (bus timing still counts 4096 bytes); at and
// above it the buffer holds raw bytes (parameter lists, descriptors, HPB entries).
constexpr uint64_t kSectorBytes = 4096;
constexpr uint64_t kByteRegionBase = 1ull << 40;
// Bus address of the L2P SRAM (map pages move between it and NAND).
constexpr uint64_t kL2pSramBase = 1ull << 44;

// Per-page out-of-band metadata written with a program, scanned by recovery.
enum class PageKind : uint8_t { Erased = 0, UserData = 1, MapData = 2, Padding = 3 };
constexpr uint32_t kMaxSectorsPerPage = 8;  // NAND pages up to 32 KiB
struct PageOob {
  PageKind kind = PageKind::Erased;
  uint64_t sequence = 0;               // firmware's global program sequence number
  uint32_t lba[kMaxSectorsPerPage] = {  // per 4 KiB sector: its LBA (or map page number)
      ~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u};
  // Per sector: the sequence number of the host write that produced the data (0 = the
  // page's own sequence). GC copies keep it, so after a power loss recovery can tell
  // the newest copy of an LBA whatever order programs completed in.
  uint64_t data_seq[kMaxSectorsPerPage] = {};
  // A map page (issue 20): data_seq[0] is the oldest data program still in flight when its
  // entries were taken (every older program is in them; 0 = the page's own sequence).
  uint64_t data_sequence(uint32_t sector) const { return data_seq[sector] ? data_seq[sector] : sequence; }
};
// A copy (copy-back) programmed with a new sequence: each sector keeps its data's age.
inline void restamp(PageOob* oob, uint32_t count, uint64_t sequence) {
  for (uint32_t p = 0; p < count; ++p) {
    for (uint32_t s = 0; s < kMaxSectorsPerPage; ++s) oob[p].data_seq[s] = oob[p].data_sequence(s);
    oob[p].sequence = sequence;
  }
}
constexpr uint32_t kNoOobLba = ~0u;

// Organisation of the flash array as the firmware sees it.
// Global die index: die = (channel * ways_per_channel + way) * dies_per_way + lun.
struct FlashGeometry {
  uint32_t channels = 1;
  uint32_t ways_per_channel = 1;   // chip enables (packages) per channel
  uint32_t dies_per_way = 1;       // LUNs per package
  uint32_t planes_per_die = 1;
  uint32_t blocks_per_plane = 1;
  uint32_t pages_per_block = 1;
  uint32_t page_bytes = 16384;
  uint32_t bits_per_cell = 1;      // as operated: a block programmed as SLC (FlashOp::slc) has
                                   // pages_per_block / bits_per_cell pages
  // Hybrid page size (nand.hybrid_*): blocks [small_blocks_per_plane, blocks_per_plane) of
  // each plane have large_page_bytes pages; 0 = every block has page_bytes pages.
  uint32_t large_page_bytes = 0;
  uint32_t small_blocks_per_plane = 0;
  bool hybrid() const { return large_page_bytes != 0; }
  // Block index within its plane -> has the large page.
  bool large_block(uint32_t block_in_plane) const { return hybrid() && block_in_plane >= small_blocks_per_plane; }
  uint32_t large_sectors_per_page() const { return hybrid() ? large_page_bytes / 4096 : sectors_per_page(); }
  uint32_t sectors_per_page() const { return page_bytes / 4096; }
  uint32_t slc_pages_per_block() const { return pages_per_block / bits_per_cell; }
  uint32_t dies() const { return channels * ways_per_channel * dies_per_way; }
  uint32_t channel_of(uint32_t die) const { return die / (ways_per_channel * dies_per_way); }
  // Sectors of the largest block: the stride of physical sector addresses (hybrid: a
  // small-page block uses the first pages_per_block x sectors_per_page of its stride).
  uint64_t sectors_per_block() const { return uint64_t(pages_per_block) * large_sectors_per_page(); }
  uint64_t total_blocks() const { return uint64_t(dies()) * planes_per_die * blocks_per_plane; }
  uint64_t total_sectors() const {
    if (!hybrid()) return total_blocks() * sectors_per_block();
    const uint64_t per_plane = uint64_t(pages_per_block) * (uint64_t(small_blocks_per_plane) * sectors_per_page() +
                                                            uint64_t(blocks_per_plane - small_blocks_per_plane) *
                                                                large_sectors_per_page());
    return per_plane * dies() * planes_per_die;
  }
};

// Where a flash operation goes.
struct FlashAddress {
  uint32_t die = 0;
  uint32_t plane = 0;
  uint32_t block = 0;  // block index within the plane
  uint32_t page = 0;   // first page (program ops may cover several consecutive pages)
};

enum class FlashOpcode : uint8_t {
  Read,      // page read: tR then transfer of sector_count sectors to the data buffer
  Program,   // program page_count pages starting at address.page from the data buffer
  Erase,     // block erase
  CopyBack,  // intra-plane copy: read address.page into the page register, program it to dest
};

enum class FlashStatus : uint8_t { Ok, ProgramFail, EraseFail, Uncorrectable, BadBlock };

// One command from the firmware to the flash demux. The firmware owns it until
// the completion comes back (the demux copies what it needs).
struct FlashOp {
  FlashOpcode opcode = FlashOpcode::Read;
  FlashAddress address;
  FlashAddress dest;            // CopyBack destination (same die and plane)
  uint32_t page_count = 1;      // Program: pages in one (one-shot) program, e.g. 3 for TLC
  uint32_t sector_offset = 0;   // Read: first sector within the page to transfer
  uint32_t sector_count = 0;    // Read: sectors to transfer (0 = whole page)
  uint64_t buffer_address = 0;  // data buffer byte address the data comes from / goes to
  uint8_t priority = 0;         // higher is served first in the die queue (map reads)
  bool slc = false;             // Read/Program/CopyBack: the block is operated as SLC (1 bit per cell,
                                // SLC timings); a block's mode is set by its first program after an erase
  bool read_oob = false;        // CopyBack: also read the source page's spare area out (random data
                                // output between the copy-back read and program) into the completion
  uint64_t cookie = 0;          // firmware's own identifier, returned in the completion
  std::vector<PageOob> oob;     // Program: one per page; CopyBack: oob[0].sequence, the copies'
                                // new program sequence (restamp)
  // Map pages (issue 20): words_per_page 32-bit words per page in the controller's SRAM that
  // the pages hold besides their sector stamps (a map page's L2P entries): Program stores
  // them with the pages, Read of a page that holds some writes them here. Null: none.
  uint32_t* words = nullptr;
  uint32_t words_per_page = 0;
  // Observability only: the task tag of the host command the op works for when the firmware
  // knows it is not the one whose event it is handling (-1: that event's own, or none).
  int16_t cause_tag = -1;
};

struct FlashCompletion {
  uint64_t cookie = 0;
  FlashOpcode opcode = FlashOpcode::Read;
  FlashStatus status = FlashStatus::Ok;
  FlashAddress address;
  PageOob oob;                  // Read (and CopyBack with read_oob): OOB of the (first) page read
};

}  // namespace ufs
