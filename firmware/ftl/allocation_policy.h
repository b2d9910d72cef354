// Where the FTL puts written data (Agrawal et al., ATC'08, section 3.2: allocation
// pools). A pool is a die (or a plane of a die); the stripe order says which pool the
// next write unit goes to; static mapping ties each logical page to one pool by its
// number, dynamic mapping lets the rotor pick the next pool with room.
//
// Stripe orders as plug-ins (firmware.stripe_order names one): a StripeOrder lists the
// pools in the order write units go to them. Adding an order: one new file (a class
// deriving from StripeOrder and a make_ function), its line in kOrders
// (allocation_policy.cpp), and the key value users put in firmware.stripe_order.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include "hal/flash_types.h"

namespace ufs {

struct AllocationPool {
  static constexpr uint32_t kAnyPlane = ~0u;
  uint32_t die = 0;
  uint32_t plane = kAnyPlane;  // a plane of its own, or any plane of the die
};

class StripeOrder {
 public:
  virtual ~StripeOrder() = default;
  // The pools in stripe order; every die of the geometry appears (plane pools: each plane).
  virtual std::vector<AllocationPool> pools(const FlashGeometry& g) const = 0;
};

// The registered orders.
std::unique_ptr<StripeOrder> make_stripe_order(const std::string& name);
bool is_stripe_order(const std::string& name);
std::string stripe_order_names();  // "channel-first | die-first | plane-first", for messages and help

// The orders' factories (one file each).
std::unique_ptr<StripeOrder> make_channel_first_stripe();  // consecutive units on different channels
std::unique_ptr<StripeOrder> make_die_first_stripe();      // ... on the dies (CE, LUN) of one channel first
std::unique_ptr<StripeOrder> make_plane_first_stripe();    // ... on the planes of one die first

// The global die indices channel-first: die k of channel 0, of channel 1, ..., then die k+1
// (global die index = channel * dies per channel + die within the channel).
std::vector<uint32_t> channel_first_dies(const FlashGeometry& g);

class AllocationPolicy {
 public:
  static constexpr uint32_t kAnyPlane = AllocationPool::kAnyPlane;

  // order: a registered stripe order (validate() vouches for firmware.stripe_order).
  AllocationPolicy(const FlashGeometry& geometry, const std::string& order, bool static_mapping);

  uint32_t pools() const { return static_cast<uint32_t>(die_.size()); }
  // The k-th pool in stripe order: its die and plane (kAnyPlane: any plane of the die).
  uint32_t die(uint32_t pool) const { return die_[pool]; }
  uint32_t plane(uint32_t pool) const { return plane_[pool]; }
  bool per_plane() const { return per_plane_; }  // pools are planes (an open block per plane)
  bool static_mapping() const { return static_; }
  // Static mapping: the pool a logical page always goes to.
  uint32_t pool_of(uint64_t logical_page) const { return uint32_t(logical_page % die_.size()); }

 private:
  bool static_;
  bool per_plane_ = false;
  std::vector<uint32_t> die_, plane_;
};

}  // namespace ufs
