#include "ftl/allocation_policy.h"

namespace ufs {

bool AllocationPolicy::parse_order(const std::string& name, Order& out) {
  if (name == "channel-first") out = Order::ChannelFirst;
  else if (name == "die-first") out = Order::DieFirst;
  else if (name == "plane-first") out = Order::PlaneFirst;
  else return false;
  return true;
}

AllocationPolicy::AllocationPolicy(const FlashGeometry& g, Order order, bool static_mapping)
    : order_(order), static_(static_mapping) {
  // Global die index = channel * (dies per channel) + die within the channel.
  const uint32_t per_channel = g.ways_per_channel * g.dies_per_way;
  std::vector<uint32_t> dies;
  if (order == Order::DieFirst) {
    for (uint32_t d = 0; d < g.dies(); ++d) dies.push_back(d);
  } else {
    for (uint32_t k = 0; k < per_channel; ++k)
      for (uint32_t c = 0; c < g.channels; ++c) dies.push_back(c * per_channel + k);
  }
  for (uint32_t d : dies) {
    if (order == Order::PlaneFirst) {
      for (uint32_t p = 0; p < g.planes_per_die; ++p) { die_.push_back(d); plane_.push_back(p); }
    } else {
      die_.push_back(d);
      plane_.push_back(kAnyPlane);
    }
  }
}

}  // namespace ufs
