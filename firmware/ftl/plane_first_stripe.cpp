// Plane-first striping: consecutive write units on the planes of one die (each plane a
// pool with an open block of its own, so units pair into multi-plane programs), then
// channel-first over the dies.
#include "ftl/allocation_policy.h"

namespace ufs {

namespace {
class PlaneFirstStripe : public StripeOrder {
 public:
  std::vector<AllocationPool> pools(const FlashGeometry& g) const override {
    std::vector<AllocationPool> out;
    for (uint32_t d : channel_first_dies(g))
      for (uint32_t p = 0; p < g.planes_per_die; ++p) out.push_back(AllocationPool{d, p});
    return out;
  }
};
}  // namespace

std::unique_ptr<StripeOrder> make_plane_first_stripe() { return std::make_unique<PlaneFirstStripe>(); }

}  // namespace ufs
