// PageWords (tlm/nand/page_words): the words a page holds beside its stamps (a map page's L2P
// entries, issue 20) read back exactly whatever they are, sequential pages stay small, an erase
// drops exactly its block's pages; and a die keeps them with the pages it programs. No kernel.
#include <catch2/catch.hpp>
#include <algorithm>
#include <random>
#include <vector>
#include "nand/nand_die.h"
#include "nand/page_words.h"

using namespace ufs;

namespace {
std::vector<uint32_t> round_trip(PageWords& w, uint64_t key, const std::vector<uint32_t>& in) {
  w.store(key, in.data(), uint32_t(in.size()));
  std::vector<uint32_t> out(in.size(), 7);
  REQUIRE(w.load(key, out.data(), uint32_t(out.size())));
  return out;
}
}  // namespace

TEST_CASE("Page words: random, sequential, unmapped and mixed pages read back exactly", "[nand][page_words]") {
  PageWords w;
  std::mt19937_64 rng(42);
  std::vector<uint32_t> page(4096);
  // Random words (any 32-bit value, the extremes too).
  for (auto& v : page) v = uint32_t(rng());
  page[0] = 0;
  page[1] = ~0u;
  page[2] = 0x80000000u;
  CHECK(round_trip(w, 1, page) == page);
  CHECK(w.bytes() <= 4 * 4096 + 16);  // kept plain
  CHECK(w.words(1) == 4096);
  // Sequential runs (a write unit's entries count up), wrapping at 2^32, and unmapped stretches.
  uint32_t v = 0xFFFFFFF0u;
  for (uint32_t i = 0; i < 4096; ++i) page[i] = i % 1000 < 700 ? v++ : ~0u;
  CHECK(round_trip(w, 2, page) == page);
  // Repeats of one value, ones that step by one for just two words, single words between.
  for (uint32_t i = 0; i < 4096; ++i) page[i] = i % 5 == 0 ? 9 : i % 5 == 1 ? 10 : uint32_t(rng() % 3);
  CHECK(round_trip(w, 3, page) == page);
  // A shorter page than asked for reads as erased past its end.
  std::vector<uint32_t> shorter(100, 5), out(200, 0);
  w.store(4, shorter.data(), 100);
  REQUIRE(w.load(4, out.data(), 200));
  CHECK(out[99] == 5);
  CHECK(out[100] == ~0u);
  CHECK(w.words(4) == 100);
  CHECK_FALSE(w.load(5, out.data(), 200));
  // ... a plain one too.
  for (auto& x : shorter) x = uint32_t(rng());
  w.store(6, shorter.data(), 100);
  REQUIRE(w.load(6, out.data(), 200));
  CHECK(std::equal(shorter.begin(), shorter.end(), out.begin()));
  CHECK(out[100] == ~0u);
  CHECK(w.words(6) == 100);
}

TEST_CASE("Page words: a sequentially written map page takes a few bytes, a block's erase drops only its pages",
          "[nand][page_words]") {
  PageWords w;
  std::vector<uint32_t> page(4096);
  for (uint32_t i = 0; i < 4096; ++i) page[i] = 1000 + i;
  for (uint32_t p = 0; p < 10; ++p) {
    w.store(PageWords::page_key(3, p), page.data(), 4096);
    w.store(PageWords::page_key(4, p), page.data(), 4096);
  }
  CHECK(w.pages() == 20);
  CHECK(w.bytes() < 20 * 16);
  w.drop_block(3);
  CHECK(w.pages() == 10);
  CHECK_FALSE(w.has(PageWords::page_key(3, 0)));
  CHECK(w.has(PageWords::page_key(4, 9)));
  const uint64_t before = w.bytes();
  w.store(PageWords::page_key(4, 9), page.data(), 10);  // stored again: replaced, not added
  CHECK(w.pages() == 10);
  CHECK(w.bytes() <= before);
}

namespace {
// A page as map pages are made of: stretches that count up, repeat, alternate between two
// values, or are random, of random lengths (short ones around the coder's 4-word groups and
// 64-word bitmap words too), with values near 0 and 2^32 so that deltas wrap.
std::vector<uint32_t> mixed_page(std::mt19937_64& rng, uint32_t count) {
  std::vector<uint32_t> page(count);
  uint32_t i = 0;
  while (i < count) {
    const uint32_t kind = uint32_t(rng() % 5);
    const uint32_t len = std::min<uint32_t>(count - i, rng() % 4 == 0 ? uint32_t(rng() % 300) + 1 : uint32_t(rng() % 9) + 1);
    const uint32_t base = rng() % 3 == 0 ? ~0u - uint32_t(rng() % 8) : rng() % 3 == 0 ? uint32_t(rng() % 8) : uint32_t(rng());
    for (uint32_t k = 0; k < len; ++k, ++i)
      page[i] = kind == 0 ? base + k : kind == 1 ? base : kind == 2 ? base + (k & 1) : kind == 3 ? base + (k & 1 ? 0 : k) : uint32_t(rng());
  }
  return page;
}
}  // namespace

TEST_CASE("Page words: every kind of page reads back exactly, at every length around the coder's groups",
          "[nand][page_words]") {
  PageWords w;
  std::mt19937_64 rng(7);
  const uint32_t lengths[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 63, 64, 65, 66, 127, 128, 129, 1000, 4095, 4096, 4097, 8192};
  uint64_t key = 0;
  for (uint32_t count : lengths) {
    auto check = [&](const std::vector<uint32_t>& page) {
      ++key;
      w.store(key, page.data(), count);
      CHECK(w.words(key) == count);
      std::vector<uint32_t> out(count + 3, 7);
      REQUIRE(w.load(key, out.data(), count + 3));
      CHECK(std::equal(page.begin(), page.end(), out.begin()));
      CHECK(out[count] == ~0u);  // past the page's end: erased
    };
    std::vector<uint32_t> page(count);
    for (uint32_t i = 0; i < count; ++i) page[i] = 0xFFFFFFF0u + i;  // all sequential, wrapping
    check(page);
    std::fill(page.begin(), page.end(), ~0u);  // all unmapped
    check(page);
    for (uint32_t i = 0; i < count; ++i) page[i] = 5 + (i & 1);  // alternating: up, down, up...
    check(page);
    for (uint32_t i = 0; i < count; ++i) page[i] = i / 2;  // pairs: repeat, up, repeat...
    check(page);
    for (auto& v : page) v = uint32_t(rng());  // random
    check(page);
    for (int n = 0; n < 20; ++n) check(mixed_page(rng, count));
  }
  // Any page costs at most its plain words and a few bytes.
  CHECK(w.bytes() <= w.pages() * 16 + [&] {
    uint64_t words = 0;
    for (uint64_t k = 1; k <= key; ++k) words += w.words(k);
    return words * 4;
  }());
}

TEST_CASE("Page words: the runs-or-plain choice looks at the whole page, and unmapped entries next to written ones "
          "cost one delta byte", "[nand][page_words]") {
  PageWords w;
  std::mt19937_64 rng(3);
  std::vector<uint32_t> page(4096);
  // A map page whose first quarter was written randomly, the rest in order: ~1,024 runs, kept as
  // runs (a coder that judges by the first quarter keeps all 16 KiB plain).
  for (uint32_t i = 0; i < 4096; ++i) page[i] = i < 1024 ? uint32_t(rng() % 30000000) : 50000000 + i;
  w.store(1, page.data(), 4096);
  CHECK(w.bytes() < 1024 * 6);  // ~5 bytes a random entry
  std::vector<uint32_t> out(4096);
  REQUIRE(w.load(1, out.data(), 4096));
  CHECK(out == page);
  // Written stretches of 63 entries between single unmapped ones (128 runs): the delta from a
  // written entry to the unmapped value and back is small modulo 2^32 (a 64-bit delta takes 5
  // bytes), so that each run takes 2 bytes.
  PageWords u;
  for (uint32_t i = 0; i < 4096; ++i) page[i] = i % 64 == 63 ? ~0u : i;
  u.store(1, page.data(), 4096);
  CHECK(u.bytes() < 128 * 3 + 16);
  REQUIRE(u.load(1, out.data(), 4096));
  CHECK(out == page);
}

namespace {
// One SLC die, 2 planes x 8 blocks x 12 pages of 16 KiB: room for a few map pages.
NandParams small_slc_die() {
  NandParams params;
  params.dies_per_package = 1;
  params.planes_per_die = 2;
  params.blocks_per_plane = 8;
  params.pages_per_block = 12;
  params.page_bytes = 16384;
  params.cell_type = "slc";
  return params;
}
}  // namespace

TEST_CASE("NAND die: a program's words read back with the page, go with a copy-back, and an erase drops them",
          "[nand][page_words]") {
  const NandParams params = small_slc_die();
  NandDie die(params, 0);
  std::vector<SectorStamp> stamps(3 * 4);
  std::vector<PageOob> oobs(3);
  for (auto& o : oobs) o.kind = PageKind::MapData;
  std::vector<uint32_t> words(3 * 4096);
  for (uint32_t i = 0; i < words.size(); ++i) words[i] = i * 7;
  const FlashAddress a{0, 1, 2, 0};
  REQUIRE(die.program(a, 3, stamps.data(), oobs.data(), 3, false, words.data(), 4096) == FlashStatus::Ok);
  SectorStamp out[4];
  std::vector<uint32_t> back(4096, 1);
  FlashAddress second = a;
  second.page = 1;
  REQUIRE(die.read(second, 0, 4, out, nullptr, false, back.data(), 4096) == FlashStatus::Ok);
  CHECK(std::equal(back.begin(), back.end(), words.begin() + 4096));
  // A page programmed without words leaves the buffer as it was.
  const FlashAddress plain{0, 1, 3, 0};
  REQUIRE(die.program(plain, 1, stamps.data(), oobs.data(), 1) == FlashStatus::Ok);
  std::fill(back.begin(), back.end(), 1u);
  REQUIRE(die.read(plain, 0, 4, out, nullptr, false, back.data(), 4096) == FlashStatus::Ok);
  CHECK(back[0] == 1);
  // Copy-back takes the words with the page register.
  const FlashAddress dst{0, 1, 4, 0};
  REQUIRE(die.copy_back(second, dst, 1) == FlashStatus::Ok);
  REQUIRE(die.read(dst, 0, 4, out, nullptr, false, back.data(), 4096) == FlashStatus::Ok);
  CHECK(std::equal(back.begin(), back.end(), words.begin() + 4096));
  // Erased: the page reads erased and its words are gone.
  REQUIRE(die.erase(a) == FlashStatus::Ok);
  std::fill(back.begin(), back.end(), 1u);
  REQUIRE(die.read(second, 0, 4, out, nullptr, false, back.data(), 4096) == FlashStatus::Ok);
  CHECK(back[0] == 1);
  CHECK(die.words().pages() == 1);  // the copy-back's
}

TEST_CASE("NAND die: a map page's words peeked in zero time are those a read brings (Hal::peek_map_words)",
          "[nand][page_words]") {
  const NandParams params = small_slc_die();
  NandDie die(params, 0);
  std::vector<SectorStamp> stamps(2 * 4);
  std::vector<PageOob> oobs(2);
  std::vector<uint32_t> words(2 * 4096);
  for (uint32_t i = 0; i < words.size(); ++i) words[i] = i % 3 ? i : ~0u;
  const FlashAddress a{0, 1, 5, 0};
  REQUIRE(die.program(a, 2, stamps.data(), oobs.data(), 2, false, words.data(), 4096) == FlashStatus::Ok);
  std::vector<uint32_t> peeked(4096, 1), read(4096, 2);
  FlashAddress second = a;
  second.page = 1;
  REQUIRE(die.peek_words(second, peeked.data(), 4096));
  SectorStamp out[4];
  REQUIRE(die.read(second, 0, 4, out, nullptr, false, read.data(), 4096) == FlashStatus::Ok);
  CHECK(peeked == read);
  CHECK(std::equal(peeked.begin(), peeked.end(), words.begin() + 4096));
  // An unwritten page, a page of another block and a block past the die's end hold none: untouched.
  std::fill(peeked.begin(), peeked.end(), 1u);
  FlashAddress unwritten = a;
  unwritten.page = 2;
  CHECK_FALSE(die.peek_words(unwritten, peeked.data(), 4096));
  CHECK_FALSE(die.peek_words(FlashAddress{0, 0, 5, 0}, peeked.data(), 4096));
  CHECK_FALSE(die.peek_words(FlashAddress{0, 1, 99, 0}, peeked.data(), 4096));
  CHECK(peeked[0] == 1);
  REQUIRE(die.erase(a) == FlashStatus::Ok);
  CHECK_FALSE(die.peek_words(second, peeked.data(), 4096));
}
