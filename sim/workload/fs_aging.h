// File-system aging for recorded phone sessions: where an aged file system would have put
// each app's data. A recorded session's LBAs show the layout of the phone it was recorded
// on; an app's files on a phone in daily use are fragmented and their fragments scattered,
// so its launch touches many more map pages (16 MiB of LBAs each) than the recorded layout.
//
// Measurements (Ji, Chang, Shi, Wu, Li, Xue, "An Empirical Study of File-System
// Fragmentation in Mobile Storage Systems", HotStorage 2016; extended in IEEE TMC 18(9),
// 2019): on a one-year-old Nexus 5 (ext4) files are either severely or barely fragmented,
// database files the most; Facebook's newsfeed db-journal was in fragments of 7 KB on
// average, dispersed over 1.5 GB of the storage. The TMC paper's UI-script aging reproduces
// such fragmentation within days, and Chrome launched 79% slower on the aged file system.
//
// The model: an app's recorded 4 KiB blocks are cut, in address order, into extents whose
// lengths are geometric with a mean of `mean_extent_kib` (7 KB: the measured fragment size)
// over the recorded address axis; an extent keeps its blocks' relative positions. A share
// `fragmented_share` of the extents is scattered (the severely fragmented files): each goes
// to a free place drawn uniformly in the app's dispersal window, `dispersal_bytes` (1.5 GB)
// placed at random in [0, device_bytes); the rest (barely fragmented files) stay where the
// recording had them (so do blocks the caller keeps, see keep()). A scattered extent takes
// the first free run from a uniform point of the window; when the window has none left it
// doubles (the allocator looks further for holes). The window is the measured dispersal or
// twice the app's scattered data, whichever is larger. Each app has its own window, so apps
// mix only where windows overlap.
// A block is placed once, by the first app that touches it (files apps share, such as
// system libraries, stay one copy); no two blocks share a destination.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "random_generator.h"

namespace ufs {

struct FsAgingParams {
  double mean_extent_kib = 7.0;             // Ji et al. 2016: mean fragment of a fragmented file
  uint64_t dispersal_bytes = 1536ull << 20; // Ji et al. 2016: a file's fragments over 1.5 GB
  double fragmented_share = 1.0;            // extents scattered (the rest keep the recorded place)
  uint64_t device_bytes = 0;                // LBA space the data may go to: [0, device_bytes)
  uint64_t seed = 1;
};

class AgedLayout {
 public:
  explicit AgedLayout(const FsAgingParams& params);

  // An app's touched 4 KiB blocks (any order, repeats allowed); those no earlier app placed
  // are placed now, in its window. Throws WorkloadError when the device cannot hold them.
  void place_app(const std::string& app, std::vector<uint64_t> blocks);
  // Blocks that keep their recorded place (files barely fragmented), reserved before any
  // place_app scatters data; blocks already placed are left as they are. Blocks beyond
  // device_bytes keep their place too (outside the range scattered data goes to).
  void keep(const std::vector<uint64_t>& blocks);
  // Where a recorded block went (a place_app or keep must have seen it).
  uint64_t map(uint64_t block) const { return to_.at(block); }
  // A recorded request [block, block + count) as runs of consecutive destination blocks.
  std::vector<std::pair<uint64_t, uint64_t>> map_range(uint64_t block, uint64_t count) const;

  struct AppStats {
    uint64_t blocks = 0;            // distinct blocks placed
    uint64_t extents = 0;           // extents cut
    uint64_t scattered_extents = 0;
    uint64_t window_start = 0, window_blocks = 0;
  };
  const AppStats& stats(const std::string& app) const { return apps_.at(app).stats; }

 private:
  struct App {
    AppStats stats;
  };
  uint64_t find_free_run(uint64_t window_start, uint64_t window_blocks, uint64_t length);

  FsAgingParams params_;
  RandomGenerator rng_;
  uint64_t device_blocks_;
  std::unordered_map<uint64_t, uint64_t> to_;  // recorded block -> destination block
  std::vector<uint64_t> used_;                  // destination blocks taken: a bit per block of the device
  bool used(uint64_t block) const { return (used_[block / 64] >> (block % 64)) & 1; }
  std::unordered_map<std::string, App> apps_;
};

}  // namespace ufs
