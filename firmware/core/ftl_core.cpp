#include "core/ftl_core.h"

namespace ufs {

FtlCore::FtlCore(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry)
    : blocks_(geometry),
      map_(exported_blocks(params, geometry)),
      flash_(hal, blocks_, params.cycles.flash_submit, params.writebooster.enabled),
      map_store_(hal, params, geometry, map_, blocks_.layout(), flash_) {}

uint64_t FtlCore::exported_blocks(const FirmwareParams& params, const FlashGeometry& geometry) {
  return static_cast<uint64_t>(double(geometry.total_sectors() - params.writebooster.reserved_sectors(geometry)) *
                               (1.0 - params.over_provisioning));
}

}  // namespace ufs
