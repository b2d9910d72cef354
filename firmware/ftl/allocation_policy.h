// Where the FTL puts written data (Agrawal et al., ATC'08, section 3.2: allocation
// pools). A pool is a die (or a plane of a die, plane-first); the stripe order says
// which pool the next write unit goes to; static mapping ties each logical page to
// one pool by its number, dynamic mapping lets the rotor pick the next pool with room.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "hal/flash_types.h"

namespace ufs {

class AllocationPolicy {
 public:
  enum class Order : uint8_t {
    ChannelFirst,  // consecutive units on different channels, then the dies of a channel
    DieFirst,      // consecutive units on the dies (CE, LUN) of one channel, then the next channel
    PlaneFirst,    // consecutive units on the planes of one die, then channel-first over dies
  };
  static constexpr uint32_t kAnyPlane = ~0u;

  AllocationPolicy(const FlashGeometry& geometry, Order order, bool static_mapping);

  // "channel-first" | "die-first" | "plane-first"; false for anything else.
  static bool parse_order(const std::string& name, Order& out);

  uint32_t pools() const { return static_cast<uint32_t>(die_.size()); }
  // The k-th pool in stripe order: its die and plane (kAnyPlane unless plane-first).
  uint32_t die(uint32_t pool) const { return die_[pool]; }
  uint32_t plane(uint32_t pool) const { return plane_[pool]; }
  bool per_plane() const { return order_ == Order::PlaneFirst; }
  bool static_mapping() const { return static_; }
  // Static mapping: the pool a logical page always goes to.
  uint32_t pool_of(uint64_t logical_page) const { return uint32_t(logical_page % die_.size()); }

 private:
  Order order_;
  bool static_;
  std::vector<uint32_t> die_, plane_;
};

}  // namespace ufs
