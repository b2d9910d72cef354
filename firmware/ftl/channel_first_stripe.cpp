// Channel-first striping: consecutive write units on different channels, then the next
// die of each channel (spreads a burst over the channel buses first).
#include "ftl/allocation_policy.h"

namespace ufs {

namespace {
class ChannelFirstStripe : public StripeOrder {
 public:
  std::vector<AllocationPool> pools(const FlashGeometry& g) const override {
    std::vector<AllocationPool> out;
    for (uint32_t d : channel_first_dies(g)) out.push_back(AllocationPool{d, AllocationPool::kAnyPlane});
    return out;
  }
};
}  // namespace

std::unique_ptr<StripeOrder> make_channel_first_stripe() { return std::make_unique<ChannelFirstStripe>(); }

}  // namespace ufs
