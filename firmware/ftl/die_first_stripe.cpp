// Die-first striping: consecutive write units on the dies (CE, LUN) of one channel, then
// the next channel: global die order.
#include "ftl/allocation_policy.h"

namespace ufs {

namespace {
class DieFirstStripe : public StripeOrder {
 public:
  std::vector<AllocationPool> pools(const FlashGeometry& g) const override {
    std::vector<AllocationPool> out;
    for (uint32_t d = 0; d < g.dies(); ++d) out.push_back(AllocationPool{d, AllocationPool::kAnyPlane});
    return out;
  }
};
}  // namespace

std::unique_ptr<StripeOrder> make_die_first_stripe() { return std::make_unique<DieFirstStripe>(); }

}  // namespace ufs
