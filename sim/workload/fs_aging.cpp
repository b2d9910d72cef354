#include "workload/fs_aging.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "workload/workload_error.h"

namespace ufs {

namespace {
constexpr uint64_t kBlockBytes = 4096;
}

AgedLayout::AgedLayout(const FsAgingParams& params)
    : params_(params), rng_(params.seed), device_blocks_(params.device_bytes / kBlockBytes),
      used_((device_blocks_ + 63) / 64, 0) {
  if (!(params_.mean_extent_kib >= 4.0)) throw WorkloadError("aging: mean extent must be at least 4 KiB");
  if (!(params_.fragmented_share >= 0 && params_.fragmented_share <= 1))
    throw WorkloadError("aging: fragmented share must be within [0, 1]");
  if (params_.dispersal_bytes < kBlockBytes) throw WorkloadError("aging: dispersal window below 4 KiB");
}

// First free run of `length` blocks from a uniform point of the window, wrapping inside it
// (an allocator taking the hole it finds in an aged free-space map).
uint64_t AgedLayout::find_free_run(uint64_t window_start, uint64_t window_blocks, uint64_t length) {
  uint64_t pos = rng_.below(window_blocks - length + 1);
  for (uint64_t tries = 0; tries <= window_blocks; ++tries) {
    bool free = true;
    for (uint64_t i = 0; i < length && free; ++i) free = !used(window_start + pos + i);
    if (free) return window_start + pos;
    pos = pos + 1 > window_blocks - length ? 0 : pos + 1;
  }
  return UINT64_MAX;
}

void AgedLayout::place_app(const std::string& app, std::vector<uint64_t> blocks) {
  if (apps_.count(app)) throw WorkloadError("aging: app '" + app + "' placed twice");
  App& a = apps_[app];
  std::sort(blocks.begin(), blocks.end());
  blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
  blocks.erase(std::remove_if(blocks.begin(), blocks.end(), [&](uint64_t b) { return to_.count(b) > 0; }), blocks.end());
  // The window: the measured dispersal, or twice the app's data when that is larger (so the
  // scattered data keeps finding holes), inside the device.
  const uint64_t window = std::max<uint64_t>(params_.dispersal_bytes / kBlockBytes, 2 * blocks.size());
  if (window > device_blocks_)
    throw WorkloadError("aging: app '" + app + "' needs a window of " + std::to_string(window * 4) +
                        " KiB, beyond the device's " + std::to_string(device_blocks_ * 4) + " KiB");
  a.stats.window_start = rng_.below(device_blocks_ - window + 1);
  a.stats.window_blocks = window;
  a.stats.blocks = blocks.size();
  // Geometric extent lengths over the recorded axis, mean m blocks: P(length = k) = p (1-p)^(k-1), p = 1/m.
  const double p = std::min(1.0, 4.0 / params_.mean_extent_kib);
  auto extent_length = [&] {
    if (p >= 1.0) return uint64_t(1);
    const double u = rng_.next_double();
    return uint64_t(std::floor(std::log1p(-u) / std::log1p(-p))) + 1;
  };
  size_t i = 0;
  while (i < blocks.size()) {
    const uint64_t first = blocks[i];
    const uint64_t length = extent_length();
    size_t end = i;
    while (end < blocks.size() && blocks[end] < first + length) ++end;
    // The extent spans [first, last] of the recorded axis; only its touched blocks need a place.
    const uint64_t span = blocks[end - 1] - first + 1;
    ++a.stats.extents;
    bool scatter = rng_.next_double() < params_.fragmented_share;
    if (!scatter) {
      for (size_t k = i; k < end && !scatter; ++k) scatter = blocks[k] >= device_blocks_ || used(blocks[k]);
    }
    uint64_t base = first;
    while (scatter && (base = find_free_run(a.stats.window_start, a.stats.window_blocks, span)) == UINT64_MAX) {
      // The window is full (kept data or other apps' fragments in it): twice as wide, as the
      // allocator looks further for holes.
      if (a.stats.window_blocks >= device_blocks_) throw WorkloadError("aging: no free place left on the device");
      const uint64_t wider = std::min(device_blocks_, 2 * a.stats.window_blocks);
      a.stats.window_start = std::min(a.stats.window_start, device_blocks_ - wider);
      a.stats.window_blocks = wider;
    }
    a.stats.scattered_extents += scatter;
    for (size_t k = i; k < end; ++k) {
      const uint64_t to = base + (blocks[k] - first);
      to_[blocks[k]] = to;
      used_[to / 64] |= uint64_t(1) << (to % 64);
    }
    i = end;
  }
}

void AgedLayout::keep(const std::vector<uint64_t>& blocks) {
  for (uint64_t b : blocks) {
    if (to_.count(b)) continue;
    to_[b] = b;
    if (b < device_blocks_) used_[b / 64] |= uint64_t(1) << (b % 64);  // beyond: outside the scatter range
  }
}

std::vector<std::pair<uint64_t, uint64_t>> AgedLayout::map_range(uint64_t block, uint64_t count) const {
  std::vector<std::pair<uint64_t, uint64_t>> runs;
  for (uint64_t b = block; b < block + count; ++b) {
    const uint64_t d = to_.at(b);
    if (!runs.empty() && runs.back().first + runs.back().second == d) ++runs.back().second;
    else runs.push_back({d, 1});
  }
  return runs;
}

}  // namespace ufs
