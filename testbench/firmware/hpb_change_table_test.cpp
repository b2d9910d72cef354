// HpbChangeTable (firmware/hpb/hpb_change_table.h), the fixed SRAM table of HPB's tracked
// entries: against a std::map over long random runs of inserts, look-ups and sub-region
// drops (small tables, so probe runs wrap and collide and every deletion shifts), full at
// exactly its capacity, cleared by a power-up, and its RAM as sized at start.
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include "hpb/hpb_change_table.h"

using namespace ufs;

namespace {
constexpr uint32_t kShift = 4;  // 16 LBAs a sub-region

// The table holds exactly what `model` holds.
void check_same(const HpbChangeTable& t, const std::map<uint32_t, uint32_t>& model, uint32_t lbas) {
  REQUIRE(t.size() == model.size());
  for (uint32_t lba = 0; lba < lbas; ++lba) {
    const auto it = model.find(lba);
    const uint32_t* v = t.find(lba);
    INFO("lba " << lba);
    REQUIRE((v != nullptr) == (it != model.end()));
    if (v) CHECK(*v == it->second);
  }
  for (uint32_t s = 0; s < lbas >> kShift; ++s) {
    const auto it = model.lower_bound(s << kShift);
    CHECK(t.has_subregion(s) == (it != model.end() && it->first < (s + 1) << kShift));
  }
}
}  // namespace

TEST_CASE("HPB change table: a fixed table answers as a map through inserts, sub-region drops and a clear",
          "[firmware][hpb]") {
  for (const uint32_t capacity : {1u, 7u, 64u, 300u}) {
    INFO("capacity " << capacity);
    const uint32_t lbas = 1024, subregions = lbas >> kShift;
    HpbChangeTable t(capacity, subregions, kShift);
    std::map<uint32_t, uint32_t> model;
    std::mt19937 rng(capacity);
    uint64_t full_refusals = 0, dropped = 0;
    for (int step = 0; step < 40000; ++step) {
      const uint32_t lba = rng() % lbas;
      const uint32_t op = rng() % 10;
      if (op < 6) {  // track (or update) a change
        const uint32_t value = rng();
        if (uint32_t* v = t.find(lba)) {
          *v = value;
          model[lba] = value;
        } else if (uint32_t* n = t.insert(lba, value)) {
          CHECK(*n == value);
          model[lba] = value;
        } else {
          CHECK(model.size() == capacity);  // refused only when full
          ++full_refusals;
        }
      } else if (op < 9) {  // a sub-region republished or dirtied
        const uint32_t s = lba >> kShift;
        uint32_t n = 0;
        t.drop_subregion(s, [&] { ++n; });
        const auto first = model.lower_bound(s << kShift), last = model.lower_bound((s + 1) << kShift);
        CHECK(n == uint32_t(std::distance(first, last)));
        model.erase(first, last);
        dropped += n;
      } else {
        const uint32_t* v = t.find(lba);
        CHECK((v != nullptr) == (model.count(lba) == 1));
      }
      CHECK(t.full() == (model.size() == capacity));
      if (step % 4000 == 0) check_same(t, model, lbas);
    }
    check_same(t, model, lbas);
    CHECK(dropped > 100);
    if (capacity < 300) CHECK(full_refusals > 0);
    t.clear();  // power-up
    model.clear();
    check_same(t, model, lbas);
    for (uint32_t i = 0; i < capacity; ++i) REQUIRE(t.insert(i * 3, i));  // every entry free again
    CHECK(t.full());
    CHECK(t.insert(lbas - 1, 1) == nullptr);
  }
}

TEST_CASE("HPB change table: neighbouring LBAs and a whole sub-region at once", "[firmware][hpb]") {
  HpbChangeTable t(4096, 64, 12);  // ufs31's sub-regions: 4,096 LBAs
  for (uint32_t lba = 8192; lba < 8192 + 4096; ++lba) REQUIRE(t.insert(lba, lba + 1));
  CHECK(t.full());
  CHECK(t.has_subregion(2));
  CHECK_FALSE(t.has_subregion(1));
  for (uint32_t lba = 8192; lba < 8192 + 4096; ++lba) REQUIRE(*t.find(lba) == lba + 1);
  CHECK(t.find(8191) == nullptr);
  uint32_t n = 0;
  t.drop_subregion(2, [&] { ++n; });
  CHECK(n == 4096);
  CHECK(t.empty());
  CHECK(t.find(9000) == nullptr);
  // RAM: 12 B an entry, an index of 8,192 slots (twice the entries), 4 B a sub-region.
  CHECK(t.ram_bytes() == 4096 * 12 + 8192 * 4 + 64 * 4);
}
