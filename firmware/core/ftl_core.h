// The FTL's core, built before every other part: the block manager, the L2P map (sized to
// the LBAs the device exports), the flash port and the map store. Every other part works
// on these four; the core itself has no events. The map store attaches to the flash port
// here, first, so it is flash client 0: a client's id is part of every flash trace cookie.
#pragma once
#include <cstdint>
#include "firmware_params.h"
#include "flash/flash_port.h"
#include "ftl/block_manager.h"
#include "ftl/l2p_map.h"
#include "hal/hal.h"
#include "map/map_store.h"

namespace ufs {

class FtlCore {
 public:
  // params: kept by the map store (it must outlive the core).
  FtlCore(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry);

  // The LBAs the device exports: what is left of the flash after the WriteBooster buffer's
  // reserve and the over-provisioning.
  static uint64_t exported_blocks(const FirmwareParams& params, const FlashGeometry& geometry);

  BlockManager& blocks() { return blocks_; }
  const BlockManager& blocks() const { return blocks_; }
  L2pMap& map() { return map_; }
  const L2pMap& map() const { return map_; }
  FlashPort& flash() { return flash_; }
  const FlashPort& flash() const { return flash_; }
  MapStore& map_store() { return map_store_; }
  const MapStore& map_store() const { return map_store_; }
  uint32_t dies() const { return blocks_.layout().geometry().dies(); }

 private:
  BlockManager blocks_;
  L2pMap map_;
  FlashPort flash_;
  MapStore map_store_;  // flash client 0
};

}  // namespace ufs
