// The firmware's L2P map without a whole-map copy (firmware/ftl/l2p_map.h, issue 20): the write
// cache's entries first, then the frames of map pages in SRAM (and of pages waiting for a
// write-back), then the newest NAND copy, peeked in zero time. No SystemC: a reader stands in for
// the map store's directory and the HAL's peek.
#include <catch2/catch.hpp>
#include <random>
#include <unordered_map>
#include <vector>
#include "ftl/cached_entries.h"
#include "ftl/l2p_map.h"

using namespace ufs;

namespace l2p_map_test {
namespace {
constexpr uint32_t kEpp = 4096;

// The newest copy of page p holds copy[p][i] (p * 100000 + i + generation[p] unless changed).
struct Reader : MapPageReader {
  std::vector<std::vector<uint32_t>> copy;
  uint32_t reads = 0;
  explicit Reader(uint32_t pages) : copy(pages, std::vector<uint32_t>(kEpp)) {
    for (uint32_t p = 0; p < pages; ++p)
      for (uint32_t i = 0; i < kEpp; ++i) copy[p][i] = p * 100000 + i;
  }
  void read_newest(uint32_t page, uint32_t* out) override {
    ++reads;
    std::copy(copy[page].begin(), copy[page].end(), out);
  }
};

struct Rig {
  Reader reader{4};
  L2pMap map{4 * kEpp};
  explicit Rig(bool shadow = false) {
    map.use_frames(4, kEpp, reader);
    if (shadow) map.keep_shadow();
  }
  // The map cache or writer moved page p's copy on (the directory changed).
  void new_copy(uint32_t p, uint32_t i, uint32_t value) {
    reader.copy[p][i] = value;
    map.nand_copy_moved(p);
  }
};
}  // namespace

TEST_CASE("Cached entries: put, find and erase agree with a hash map through growth and backward shifts",
          "[firmware][l2p]") {
  CachedEntries c;
  std::unordered_map<uint64_t, uint32_t> ref;
  std::mt19937_64 rng(3);
  for (int k = 0; k < 20000; ++k) {
    const uint64_t lba = rng() % 700;  // collisions and probe runs that wrap around
    if (rng() % 3 == 0) {
      c.erase(lba);
      ref.erase(lba);
    } else {
      const uint32_t e = L2pMap::cached(uint32_t(rng() % 512));
      c.put(lba, e);
      ref[lba] = e;
    }
    if (k % 97 == 0)
      for (uint64_t l = 0; l < 700; ++l) {
        const auto it = ref.find(l);
        REQUIRE(c.find(l) == (it == ref.end() ? CachedEntries::kNone : it->second));
      }
  }
  CHECK(c.size() == ref.size());
  CHECK(c.peak() <= 700);
  CHECK(c.bytes() <= 2048 * 16);  // at most twice the entries it held, 16 bytes each
}

TEST_CASE("L2P map: a resident page's frame learns its unknown entries from the newest copy at once",
          "[firmware][l2p]") {
  Rig r;
  r.map.page_resident(1, true);  // made resident by an update: nothing known yet
  REQUIRE(r.map.frames()->frame_of(1) != MapFrames::kNoFrame);
  CHECK(r.map.frames()->unknown(r.map.frames()->frame_of(1)) == kEpp);
  r.map.set(kEpp + 6, 42);
  CHECK(r.reader.reads == 0);
  CHECK(r.map.get(kEpp + 6) == 42);
  CHECK(r.map.get(kEpp + 5) == 100005);  // the copy fills the frame's unknown entries
  CHECK(r.reader.reads == 1);
  CHECK(r.map.frames()->unknown(r.map.frames()->frame_of(1)) == 0);
  r.new_copy(1, 7, 1);  // (the frame is newer than any copy: not read again)
  CHECK(r.map.get(kEpp + 7) == 100007);
  CHECK(r.map.get(kEpp + 6) == 42);
  CHECK(r.reader.reads == 1);
  // A page not resident has no frame: its entries are the newest copy's, peeked once for a run.
  CHECK(r.map.get(2 * kEpp + 3) == 200003);
  CHECK(r.map.get(2 * kEpp + 4) == 200004);
  CHECK(r.reader.reads == 2);
  CHECK(r.map.frames()->frame_of(2) == MapFrames::kNoFrame);
  r.new_copy(2, 4, 77);  // a new copy landed: the peek reads it
  CHECK(r.map.get(2 * kEpp + 4) == 77);
  CHECK(r.map.stats().peeked_pages == 3);
  // Past the cache, a frame's entries go when it leaves (nothing pending): the copy again.
  r.map.page_resident(1, false);
  CHECK(r.map.frames()->frame_of(1) == MapFrames::kNoFrame);
  CHECK(r.map.frames()->in_use() == 0);
  CHECK(r.map.get(kEpp + 6) == 100006);
}

TEST_CASE("L2P map: the write cache's entries come first and are not map-page content", "[firmware][l2p]") {
  Rig r;
  r.map.page_resident(0, true);
  r.map.set(10, 500);
  r.map.set(10, L2pMap::cached(3));  // rewritten in the cache
  r.map.set(3 * kEpp + 1, L2pMap::cached(4));  // page 3 is not resident: no frame for it
  CHECK(r.map.get(10) == L2pMap::cached(3));
  CHECK(r.map.get(3 * kEpp + 1) == L2pMap::cached(4));
  CHECK(r.map.frames()->frame_of(3) == MapFrames::kNoFrame);
  CHECK(r.map.frames()->words(r.map.frames()->frame_of(0))[10] == 500);  // the frame keeps the NAND side
  r.map.set(10, 600);  // programmed: the cache's entry goes, the frame takes the new one
  CHECK(r.map.get(10) == 600);
  r.map.set(3 * kEpp + 1, L2pMap::kUnmapped);  // UNMAP of a cached LBA (its page made resident first)
  CHECK(r.map.get(3 * kEpp + 1) == L2pMap::kUnmapped);
}

TEST_CASE("L2P map: a page leaving SRAM with a write-back pending keeps its frame until the program lands",
          "[firmware][l2p]") {
  Rig r;
  r.map.page_resident(2, true);
  r.map.set(2 * kEpp + 9, 1234);
  r.map.hold_page(2);               // evicted dirty: the writer queues it
  r.map.page_resident(2, false);
  REQUIRE(r.map.frames()->frame_of(2) != MapFrames::kNoFrame);
  CHECK(r.map.get(2 * kEpp + 9) == 1234);  // the write-back buffer, not the older copy
  r.map.page_resident(2, true);     // back in the cache before its program: the same frame
  r.map.page_resident(2, false);
  CHECK(r.map.get(2 * kEpp + 9) == 1234);
  // The writer's program: the frame's entries, the rest from the NAND copy it read (merge).
  std::vector<uint32_t> merge(kEpp, 5), out(kEpp);
  r.map.set(2 * kEpp + 10, L2pMap::cached(1));
  r.map.page_entries(2 * kEpp, out.data(), kEpp, merge.data());
  CHECK(out[9] == 1234);
  CHECK(out[10] == 5);  // cached: what the map page holds is the entry before (write_cache.h resolves it)
  CHECK(out[11] == 5);
  r.map.entries(2 * kEpp, out.data(), kEpp);  // as lookups see them
  CHECK(out[9] == 1234);
  CHECK(out[10] == L2pMap::cached(1));
  r.new_copy(2, 9, 1234);
  r.map.release_page(2);  // landed
  CHECK(r.map.frames()->frame_of(2) == MapFrames::kNoFrame);
  CHECK(r.map.get(2 * kEpp + 9) == 1234);
  CHECK(r.map.frames()->peak() == 1);
}

TEST_CASE("L2P map: a page leaving SRAM knowing few entries keeps just those for its write-back",
          "[firmware][l2p]") {
  Rig r;
  r.map.page_resident(1, true);  // an update miss: two entries change, the rest unknown
  r.map.set(kEpp + 3, 33);
  r.map.set(kEpp + 4000, 44);
  r.map.hold_page(1);
  r.map.page_resident(1, false);
  const uint32_t f = r.map.frames()->frame_of(1);
  REQUIRE(f != MapFrames::kNoFrame);
  CHECK(!MapFrames::dense(f));
  CHECK(r.map.frames()->sparse(f).size() == 2);
  CHECK(r.map.frames()->in_use() == 0);  // no 16 KiB frame held
  CHECK(r.map.frames()->sparse_peak_bytes() == 16);
  CHECK(r.map.get(kEpp + 3) == 33);
  CHECK(r.map.get(kEpp + 5) == 100005);  // the copy's
  std::vector<uint32_t> merge(kEpp, 9), out(kEpp);
  r.map.page_entries(kEpp, out.data(), kEpp, merge.data());  // the write-back's program
  CHECK(out[3] == 33);
  CHECK(out[4000] == 44);
  CHECK(out[5] == 9);
  r.map.page_entries(kEpp + 3990, out.data(), 20);  // part of the page
  CHECK(out[10] == 44);
  CHECK(out[9] == 103999);
  // Updated again before the program lands: a frame again, with both entries.
  r.map.page_resident(1, true);
  REQUIRE(MapFrames::dense(r.map.frames()->frame_of(1)));
  r.map.set(kEpp + 5, 55);
  CHECK(r.map.get(kEpp + 4000) == 44);
  CHECK(r.map.get(kEpp + 5) == 55);
  r.map.page_resident(1, false);  // still few: sparse again, three entries
  CHECK(r.map.frames()->sparse(r.map.frames()->frame_of(1)).size() == 3);
  r.new_copy(1, 3, 33);
  r.map.release_page(1);  // landed: gone
  CHECK(r.map.frames()->frame_of(1) == MapFrames::kNoFrame);
  // A page that knows many entries (loaded, or a quarter rewritten) keeps its frame.
  r.map.page_resident(2, true);
  for (uint32_t i = 0; i < kEpp / 4; ++i) r.map.set(2 * kEpp + i, i);
  r.map.hold_page(2);
  r.map.page_resident(2, false);
  CHECK(MapFrames::dense(r.map.frames()->frame_of(2)));
}

TEST_CASE("L2P map: an entry set outside the cache waits in a detached frame for its page's write-back",
          "[firmware][l2p]") {
  Rig r;
  r.map.set(3 * kEpp + 2, 88);  // recovery: no update made the page resident
  CHECK(r.map.detached(3));
  CHECK(r.map.stats().detached_frames == 1);
  CHECK(r.map.get(3 * kEpp + 2) == 88);
  CHECK(r.map.get(3 * kEpp + 3) == 300003);
  r.map.hold_page(3);
  CHECK(!r.map.detached(3));
  r.map.release_page(3);
  CHECK(r.map.frames()->frame_of(3) == MapFrames::kNoFrame);
}

TEST_CASE("L2P map: a precondition fill's entries wait in a transient map until their map pages are written",
          "[firmware][l2p]") {
  Rig r;
  r.map.begin_fill();
  for (uint32_t i = 0; i < 100; ++i) r.map.set(kEpp + i, 7000 + i);
  CHECK(r.map.frames()->in_use() == 0);
  std::vector<uint32_t> out(kEpp);
  r.map.entries(kEpp, out.data(), kEpp);
  CHECK(out[99] == 7099);
  CHECK(out[100] == 100100);  // outside the fill: the copy's
  r.map.end_fill();
  CHECK(r.map.get(kEpp + 99) == 100099);  // (its map page was not written in this test)
}

TEST_CASE("L2P map: firmware.map_verify's shadow catches a lookup that differs from what was set",
          "[firmware][l2p]") {
  Rig r(true);
  r.map.page_resident(0, true);
  r.map.set(1, 31);
  CHECK(r.map.get(1) == 31);
  CHECK(r.map.stats().get_mismatches == 0);
  // The page leaves SRAM with nothing pending (a lost write-back): the copy does not hold 31.
  r.map.page_resident(0, false);
  CHECK(r.map.get(1) == 1);
  CHECK(r.map.stats().get_mismatches == 1);
  CHECK(r.map.first_mismatch() == "LBA 1: map 1, shadow 31");
  CHECK(r.map.stats().verified_gets == 2);
}

TEST_CASE("L2P map: without a map cache the whole map is resident and nothing is peeked", "[firmware][l2p]") {
  L2pMap map(3 * kEpp);
  CHECK(map.whole());
  map.set(5, 9);
  map.set(6, L2pMap::cached(2));
  CHECK(map.get(5) == 9);
  CHECK(map.get(6) == L2pMap::cached(2));
  CHECK(map.get(7) == L2pMap::kUnmapped);
  CHECK(map.whole_chunks_allocated() == 1);
}

}  // namespace l2p_map_test
