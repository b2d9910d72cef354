#include "ftl/allocation_policy.h"
#include "policy_registry.h"

namespace ufs {

namespace {
// The registry (firmware.stripe_order): a new stripe order is one line here.
const PolicyEntry<std::unique_ptr<StripeOrder> (*)()> kOrders[] = {
    {"channel-first", make_channel_first_stripe},
    {"die-first", make_die_first_stripe},
    {"plane-first", make_plane_first_stripe},
};
}  // namespace

std::unique_ptr<StripeOrder> make_stripe_order(const std::string& name) {
  const auto make = find_policy(kOrders, name);
  return make ? make() : nullptr;
}

bool is_stripe_order(const std::string& name) { return find_policy(kOrders, name) != nullptr; }

std::string stripe_order_names() { return policy_names(kOrders); }

std::vector<uint32_t> channel_first_dies(const FlashGeometry& g) {
  const uint32_t per_channel = g.ways_per_channel * g.dies_per_way;
  std::vector<uint32_t> dies;
  for (uint32_t k = 0; k < per_channel; ++k)
    for (uint32_t c = 0; c < g.channels; ++c) dies.push_back(c * per_channel + k);
  return dies;
}

AllocationPolicy::AllocationPolicy(const FlashGeometry& g, const std::string& order, bool static_mapping)
    : static_(static_mapping) {
  // validate() refuses other names with a message; the firmware throws nothing (its target
  // build has no exceptions), so a name that got past it here means die-first, the default.
  std::unique_ptr<StripeOrder> stripe = make_stripe_order(order);
  if (!stripe) stripe = make_stripe_order("die-first");
  for (const AllocationPool& p : stripe->pools(g)) {
    die_.push_back(p.die);
    plane_.push_back(p.plane);
    per_plane_ = per_plane_ || p.plane != kAnyPlane;
  }
}

}  // namespace ufs
