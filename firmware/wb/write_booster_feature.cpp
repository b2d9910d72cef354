#include "wb/write_booster_feature.h"

namespace ufs {

WriteBoosterFeature::WriteBoosterFeature(const FirmwareParams& params, const FlashGeometry& geometry,
                                         BlockManager& blocks, GarbageCollector& gc, QueryServer& query)
    : buffer_(params.writebooster, geometry), flush_(params, geometry, blocks, gc, buffer_) {
  blocks.reserve_slc(buffer_.slc_blocks_per_die());
  buffer_.register_queries(query);
}

}  // namespace ufs
