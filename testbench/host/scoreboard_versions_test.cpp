// The scoreboard's compact per-LBA version records (testbench/common/scoreboard_versions)
// and the scoreboard's verdicts on top of them (no kernel).
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include "scoreboard.h"
#include "scoreboard_versions.h"

using namespace ufs;

TEST_CASE("Scoreboard versions: every value round-trips, untouched blocks are absent", "[scoreboard]") {
  const uint64_t absent = ~0ull - 1;
  ScoreboardVersions t(absent);
  CHECK(t.get(0) == absent);
  CHECK(t.get(123456789) == absent);
  CHECK(t.chunks_allocated() == 0);
  // Values around the reserved cells and beyond 32 bits, the "unmapped" sentinel, zero.
  const uint64_t values[] = {0, 1, 0xFFFFFFFCull, 0xFFFFFFFDull, 0xFFFFFFFEull, 0xFFFFFFFFull,
                             0x100000000ull, ~0ull, ~0ull - 2, 1ull << 62};
  uint64_t lba = 5;
  for (uint64_t v : values) {
    t.set(lba, v);
    CHECK(t.get(lba) == v);
    CHECK(t.get(lba + 1) == absent);
    lba += 4097;  // a new chunk each time
  }
  CHECK(t.chunks_allocated() == 10);
  // A large value replaced by a small one and back again.
  t.set(7, 1ull << 40);
  t.set(7, 3);
  CHECK(t.get(7) == 3);
  t.set(7, (1ull << 40) + 1);
  CHECK(t.get(7) == (1ull << 40) + 1);
  t.set(7, ~0ull);
  CHECK(t.get(7) == ~0ull);
}

TEST_CASE("Scoreboard versions: a chunk written in order stays narrow, one out of range widens it keeping every value",
          "[scoreboard]") {
  ScoreboardVersions t(~0ull - 1);
  // Chunk 0: versions in LBA order, some completing out of order, an unmap: stays narrow.
  for (uint64_t lba = 0; lba < ScoreboardVersions::kChunk; ++lba) t.set(lba, 1000000 + (lba ^ 3));
  t.set(17, ~0ull);
  t.set(18, 1000000 - 100);  // an older write completing late: within the slack
  CHECK_FALSE(t.chunk_wide(0));
  // Chunk 1: a version far from the first one widens it.
  const uint64_t c1 = ScoreboardVersions::kChunk;
  t.set(c1 + 5, 7);
  t.set(c1 + 6, ~0ull);
  t.set(c1 + 7, 9);
  CHECK_FALSE(t.chunk_wide(1));
  t.set(c1 + 8, 7 + 70000);
  CHECK(t.chunk_wide(1));
  t.set(c1 + 9, 1ull << 40);
  CHECK(t.get(c1 + 5) == 7);
  CHECK(t.get(c1 + 6) == ~0ull);
  CHECK(t.get(c1 + 7) == 9);
  CHECK(t.get(c1 + 8) == 70007);
  CHECK(t.get(c1 + 9) == 1ull << 40);
  CHECK(t.get(c1 + 10) == ~0ull - 1);
  // A chunk whose first record is an unmap takes its base from the first version after it.
  const uint64_t c2 = 2 * ScoreboardVersions::kChunk;
  t.set(c2, ~0ull);
  t.set(c2 + 1, 5000000000ull);
  CHECK_FALSE(t.chunk_wide(2));
  CHECK(t.get(c2) == ~0ull);
  CHECK(t.get(c2 + 1) == 5000000000ull);
  for (uint64_t lba = 0; lba < ScoreboardVersions::kChunk; ++lba)
    if (lba != 17 && lba != 18) REQUIRE(t.get(lba) == 1000000 + (lba ^ 3));
  CHECK(t.get(17) == ~0ull);
  CHECK(t.get(18) == 1000000 - 100);
  CHECK(t.chunks_allocated() == 3);
}

TEST_CASE("Scoreboard versions: random sets agree with a plain map, chunks only where written", "[scoreboard]") {
  ScoreboardVersions t(42);
  std::map<uint64_t, uint64_t> ref;
  std::mt19937_64 rng(3);
  for (int i = 0; i < 200000; ++i) {
    const uint64_t lba = (rng() % 4) * 1000000 + rng() % 20000;  // four sparse ranges
    const uint64_t r = rng() % 100;
    const uint64_t v = r < 90 ? rng() % 1000000 : r < 95 ? ~0ull : (1ull << 33) + rng() % 1000;
    t.set(lba, v);
    ref[lba] = v;
  }
  for (uint64_t lba = 0; lba < 4000000; lba += 7) {
    auto it = ref.find(lba);
    REQUIRE(t.get(lba) == (it == ref.end() ? 42 : it->second));
  }
  uint64_t chunks = 0;
  for (uint64_t c = 0; c < t.chunk_slots(); ++c) chunks += t.chunk_allocated(c);
  CHECK(chunks == t.chunks_allocated());
  CHECK(chunks <= 4 * (20000 / ScoreboardVersions::kChunk + 2));
}

namespace {
IoRecord record(uint64_t id, BlockOp op, uint64_t lba, uint32_t blocks, const SectorStamp* data) {
  IoRecord r;
  r.io_id = id;
  r.request.op = op;
  r.request.lba = lba;
  r.request.blocks = blocks;
  r.data = data;
  return r;
}
}  // namespace

TEST_CASE("Scoreboard: reads must return the last acknowledged write, large versions included", "[scoreboard]") {
  Scoreboard sb;
  sb.mark_preconditioned(0, 100);
  const uint64_t big = (1ull << 35) + 9;
  SectorStamp w[2] = {{10, 7}, {11, big}};
  sb.on_issue(record(1, BlockOp::Write, 10, 2, w));
  sb.on_complete(record(1, BlockOp::Write, 10, 2, w));
  // Correct data: the written versions, a preconditioned block as {lba, 0}, an unwritten block erased.
  SectorStamp good[4] = {{10, 7}, {11, big}, {12, 0}, {kNoLba, 0}};
  sb.on_issue(record(2, BlockOp::Read, 10, 3, nullptr));
  sb.on_complete(record(2, BlockOp::Read, 10, 3, good));
  sb.on_issue(record(3, BlockOp::Read, 5000, 1, nullptr));
  sb.on_complete(record(3, BlockOp::Read, 5000, 1, &good[3]));
  CHECK(sb.checked_blocks() == 4);
  CHECK(sb.mismatches() == 0);
  // Stale data (the version before the write, a truncated large version) is caught.
  SectorStamp stale[2] = {{10, 0}, {11, big & 0xFFFFFFFFull}};
  sb.on_issue(record(4, BlockOp::Read, 10, 2, nullptr));
  sb.on_complete(record(4, BlockOp::Read, 10, 2, stale));
  CHECK(sb.mismatches() == 2);
  // An unmapped block reads erased; its old data is a mismatch.
  sb.on_issue(record(5, BlockOp::Unmap, 10, 1, nullptr));
  sb.on_complete(record(5, BlockOp::Unmap, 10, 1, nullptr));
  SectorStamp erased{kNoLba, 0}, old{10, 7};
  sb.on_issue(record(6, BlockOp::Read, 10, 1, nullptr));
  sb.on_complete(record(6, BlockOp::Read, 10, 1, &erased));
  CHECK(sb.mismatches() == 2);
  sb.on_issue(record(7, BlockOp::Read, 10, 1, nullptr));
  sb.on_complete(record(7, BlockOp::Read, 10, 1, &old));
  CHECK(sb.mismatches() == 3);
  // Ranges to check after a power loss: the preconditioned range and the written chunk.
  const auto ranges = sb.tracked_ranges();
  REQUIRE(ranges.size() == 1);
  CHECK(ranges[0] == std::make_pair(uint64_t(0), uint64_t(4096)));
}

TEST_CASE("Scoreboard: entries reused after an I/O ends carry nothing of it", "[scoreboard]") {
  Scoreboard sb;
  // A write in flight on block 100 (version 5) ends, and a 4-block read ends: their entries
  // are kept for reuse.
  SectorStamp w5{100, 5};
  sb.on_issue(record(1, BlockOp::Write, 100, 1, &w5));
  sb.on_complete(record(1, BlockOp::Write, 100, 1, &w5));
  SectorStamp erased4[4] = {{kNoLba, 0}, {kNoLba, 0}, {kNoLba, 0}, {kNoLba, 0}};
  sb.on_issue(record(2, BlockOp::Read, 0, 4, nullptr));
  sb.on_complete(record(2, BlockOp::Read, 0, 4, erased4));
  CHECK(sb.mismatches() == 0);
  // A write of block 200 (version 6) in flight takes the first entry: a read of 200 now may
  // see it or the block erased, never the old entry's version 5.
  SectorStamp w6{200, 6};
  sb.on_issue(record(3, BlockOp::Write, 200, 1, &w6));
  SectorStamp got5{200, 5}, got6{200, 6};
  sb.on_issue(record(4, BlockOp::Read, 200, 1, nullptr));  // takes the read's entry (4 blocks before)
  sb.on_complete(record(4, BlockOp::Read, 200, 1, &got5));
  CHECK(sb.mismatches() == 1);
  sb.on_issue(record(5, BlockOp::Read, 200, 1, nullptr));
  sb.on_complete(record(5, BlockOp::Read, 200, 1, &got6));
  CHECK(sb.mismatches() == 1);
  sb.on_complete(record(3, BlockOp::Write, 200, 1, &w6));
  // Once the write ends, only version 6: erased is stale now.
  SectorStamp erased{kNoLba, 0};
  sb.on_issue(record(6, BlockOp::Read, 200, 1, nullptr));
  sb.on_complete(record(6, BlockOp::Read, 200, 1, &erased));
  CHECK(sb.mismatches() == 2);
  CHECK(sb.checked_blocks() == 7);
}

TEST_CASE("Scoreboard: durable versions after FUA and flush", "[scoreboard]") {
  Scoreboard sb;
  sb.track_durability();
  SectorStamp a{100000, 5}, b{100001, 6};
  IoRecord wa = record(1, BlockOp::Write, 100000, 1, &a);
  wa.request.fua = true;
  sb.on_issue(wa);
  sb.on_complete(wa);
  sb.on_issue(record(2, BlockOp::Write, 100001, 1, &b));
  sb.on_complete(record(2, BlockOp::Write, 100001, 1, &b));
  CHECK(sb.durable_blocks() == 1);
  CHECK(sb.durable_version(100000) == 5);
  CHECK(sb.survives(100001, SectorStamp{kNoLba, 0}));  // not yet durable: may be lost
  sb.on_issue(record(3, BlockOp::Flush, 0, 0, nullptr));
  sb.on_complete(record(3, BlockOp::Flush, 0, 0, nullptr));
  CHECK(sb.durable_blocks() == 2);
  CHECK(sb.durable_version(100001) == 6);
  bool lost = false;
  CHECK_FALSE(sb.survives(100001, SectorStamp{kNoLba, 0}, &lost));
  CHECK(lost);
  CHECK(sb.survives(100001, SectorStamp{100001, 6}));
  CHECK_FALSE(sb.survives(100000, SectorStamp{100000, 4}));
}
