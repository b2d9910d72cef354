// NandBlock's compact page store (tlm/nand/nand_block): whatever is programmed reads back
// exactly (stamps, OOB kind, sequence, LBAs and data sequences, failed pages), across
// keyframes, erases and every page size; sequential data stays small. No kernel.
#include <catch2/catch.hpp>
#include <random>
#include <vector>
#include "nand/nand_block.h"

using namespace ufs;

namespace {
struct RefPage {
  std::vector<SectorStamp> stamps;
  PageOob oob;
  bool failed = false;
};

// Reads every page whole and in every sub-range and compares with the reference.
void check_block(const NandBlock& b, const NandBlockShape& shape, const std::vector<RefPage>& ref) {
  REQUIRE(b.next_page() == ref.size());
  const uint32_t spp = shape.sectors_per_page;
  for (uint32_t page = 0; page < shape.pages; ++page) {
    SectorStamp out[kMaxSectorsPerPage];
    PageOob oob;
    oob.sequence = 12345;  // overwritten
    const bool ok = b.read(shape, page, 0, spp, out, &oob);
    if (page >= ref.size()) {
      CHECK(ok);
      for (uint32_t s = 0; s < spp; ++s) CHECK(out[s] == SectorStamp{});
      CHECK(oob.kind == PageKind::Erased);
      CHECK(oob.sequence == 0);
      continue;
    }
    const RefPage& r = ref[page];
    INFO("page " << page);
    CHECK(ok == !r.failed);
    for (uint32_t s = 0; s < spp; ++s) {
      REQUIRE(out[s].lba == r.stamps[s].lba);
      REQUIRE(out[s].version == r.stamps[s].version);
    }
    CHECK(oob.kind == r.oob.kind);
    CHECK(oob.sequence == r.oob.sequence);
    for (uint32_t s = 0; s < kMaxSectorsPerPage; ++s) {
      // Sectors beyond the page read as the default OOB.
      REQUIRE(oob.lba[s] == (s < spp ? r.oob.lba[s] : kNoOobLba));
      REQUIRE(oob.data_seq[s] == (s < spp ? r.oob.data_seq[s] : 0));
    }
    for (uint32_t first = 0; first < spp; ++first)
      for (uint32_t count = 1; first + count <= spp; ++count) {
        SectorStamp part[kMaxSectorsPerPage];
        CHECK(b.read(shape, page, first, count, part, nullptr) == !r.failed);
        for (uint32_t s = 0; s < count; ++s) REQUIRE(part[s] == r.stamps[first + s]);
      }
  }
}

// Pages the way the firmware writes them: host runs, random 4 KiB data, GC copies,
// map pages, padding, torn pages; plus arbitrary 64-bit values.
RefPage make_page(std::mt19937_64& rng, uint32_t spp, uint64_t& seq, uint64_t& next_lba, uint64_t& version) {
  RefPage p;
  p.stamps.resize(spp);
  p.oob.kind = PageKind::UserData;
  const uint32_t kind = uint32_t(rng() % 9);
  if (rng() % 3) seq += rng() % 20;  // pages of one program share their sequence number
  p.oob.sequence = seq;
  for (uint32_t s = 0; s < spp; ++s) {
    SectorStamp& st = p.stamps[s];
    switch (kind) {
      case 0:  // precondition fill: {lba, 0}, continuing the last page or not
      case 1:
        st = SectorStamp{next_lba + s, 0};
        break;
      case 2:  // a sequential host write: versions step by one, data sequences too
        st = SectorStamp{next_lba + s, version + s};
        p.oob.data_seq[s] = seq - 5 + s;
        break;
      case 3:  // random 4 KiB writes, some sectors padding
        if (rng() % 5 == 0) break;
        st = SectorStamp{rng() % 100000000, version + rng() % 50};
        p.oob.data_seq[s] = seq - rng() % 300;
        break;
      case 4:  // GC copies: old data keeps its old data sequence
        st = SectorStamp{rng() % 100000000, rng() % 1000000};
        p.oob.data_seq[s] = 1 + rng() % 1000000;
        break;
      case 5:  // a map page: no stamps, OOB names the map page
        p.oob.kind = PageKind::MapData;
        break;
      case 6:  // padding
        p.oob.kind = PageKind::Padding;
        break;
      case 7:  // anything at all
        st = SectorStamp{rng(), rng()};
        p.oob.data_seq[s] = rng() % 2 ? rng() : 0;
        break;
      default:  // erased-looking torn page, sequence 0
        p.oob.kind = PageKind::Erased;
        p.oob.sequence = 0;
        p.failed = true;
        break;
    }
    p.oob.lba[s] = st.lba == kNoLba ? kNoOobLba : uint32_t(st.lba);
  }
  if (kind == 5) {
    const uint32_t map_page = uint32_t(rng() % 50000);
    for (uint32_t s = 0; s < spp; ++s) p.oob.lba[s] = map_page;
  }
  if (kind == 7 && rng() % 3 == 1)  // OOB LBAs of their own, unrelated
    for (uint32_t s = 0; s < spp; ++s) p.oob.lba[s] = uint32_t(rng());
  if (kind == 7 && rng() % 3 == 2) {  // OOB LBAs of their own, in a run
    const uint32_t first = uint32_t(rng());
    for (uint32_t s = 0; s < spp; ++s) p.oob.lba[s] = first + s;
  }
  if (kind == 1 || kind == 2) version += spp;
  if (kind <= 2) next_lba += spp;
  if (kind == 0 && rng() % 4 == 0) next_lba += 180;  // the next unit of this block, 15 others later
  if (rng() % 40 == 0) p.failed = true;
  return p;
}
}  // namespace

TEST_CASE("NandBlock: random pages read back exactly, across keyframes and erases, every page size",
          "[nand][storage]") {
  for (uint32_t spp : {1u, 2u, 4u, 8u}) {
    std::mt19937_64 rng(spp);
    const NandBlockShape shape{3 * NandBlock::kKeyPages + 5, spp};
    NandBlock b;
    CHECK_FALSE(b.allocated());
    uint64_t seq = 1000, lba = 0, version = 1;
    for (int round = 0; round < 3; ++round) {
      std::vector<RefPage> ref;
      const uint32_t pages = round == 1 ? shape.pages : uint32_t(rng() % shape.pages) + 1;
      for (uint32_t i = 0; i < pages; ++i) {
        ref.push_back(make_page(rng, spp, seq, lba, version));
        b.program_next(shape, ref.back().stamps.data(), ref.back().oob, ref.back().failed);
        if (i % 7 == 0 || i + 1 == pages) check_block(b, shape, ref);
      }
      CHECK(b.allocated());
      b.erase();
      CHECK(b.next_page() == 0);
      CHECK(b.erase_count() == uint32_t(round + 1));
      check_block(b, shape, {});
    }
  }
}

TEST_CASE("NandBlock: a sequentially filled block costs about a byte per sector", "[nand][storage]") {
  // ufs31's block: 1152 pages of four sectors, programmed three pages at a time, the
  // next program of this block 16 units (192 sectors) further on, as the fill places them.
  const NandBlockShape shape{1152, 4};
  NandBlock b;
  uint64_t seq = 77, lba = 4096;
  std::vector<RefPage> ref;
  for (uint32_t page = 0; page < shape.pages; ++page) {
    if (page % 3 == 0 && page) {
      seq += 16;
      lba += 180;
    }
    RefPage p;
    for (uint32_t s = 0; s < 4; ++s) {
      p.stamps.push_back(SectorStamp{lba, 0});
      p.oob.lba[s] = uint32_t(lba++);
    }
    p.oob.kind = PageKind::UserData;
    p.oob.sequence = seq;
    b.program_next(shape, p.stamps.data(), p.oob, false);
    ref.push_back(p);
  }
  check_block(b, shape, ref);
  const double per_sector = double(b.storage_bytes()) / (shape.pages * 4);
  INFO("bytes per sector: " << per_sector);
  CHECK(per_sector < 1.3);  // 1.26 with a keyframe every 4 pages (0.97 every 8)
  // Host writes in LBA order (versions and data sequences step by one) cost no more.
  b.erase();
  ref.clear();
  uint64_t version = 500;
  for (uint32_t page = 0; page < shape.pages; ++page) {
    if (page % 3 == 0) seq += 16;
    RefPage p;
    for (uint32_t s = 0; s < 4; ++s) {
      p.stamps.push_back(SectorStamp{lba, version++});
      p.oob.data_seq[s] = seq - 20 + (page % 3) * 4 + s;
      p.oob.lba[s] = uint32_t(lba++);
    }
    p.oob.kind = PageKind::UserData;
    p.oob.sequence = seq;
    b.program_next(shape, p.stamps.data(), p.oob, false);
    ref.push_back(p);
  }
  check_block(b, shape, ref);
  CHECK(double(b.storage_bytes()) / (shape.pages * 4) < 1.5);
}
