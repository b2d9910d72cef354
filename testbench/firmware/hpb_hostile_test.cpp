// A hostile host against the HPB device on the fake platform (crypto answered by the
// reference codec): forged, moved, stale, replayed, pre-power-cycle, other-LU and
// out-of-range entries, malformed HPB READ / READ BUFFER / WRITE BUFFER commands,
// mixed with writes (GC runs) and honest HPB traffic. A scoreboard checks every
// block read back; every malformed command must get the right CHECK CONDITION.
#include <catch2/catch.hpp>
#include "hpb_hostile.h"

using namespace ufs;
using namespace ufs::test;
using namespace ufs::test::hostile;

TEST_CASE("A hostile host: over a million forged, moved, stale, replayed and malformed HPB commands, 0 mismatches",
          "[firmware][hpb][hostile]") {
  Hostile h;
  run_million(h);
  CHECK(h.fw->native()->hpb()->stats().resets == 0);
}

// hpb.response_entries (HotStorage'17's updated entries in RESPONSEs): host writes keep their
// sub-region clean, so the device must catch every entry older than a tracked change (the
// hostile host replays its old entries after writing and takes only half the updates).
TEST_CASE("A hostile host with updated entries in responses: stale entries of rewritten blocks are caught, 0 mismatches",
          "[firmware][hpb][hostile]") {
  Hostile h(4);
  run_updated_entries(h);
}
