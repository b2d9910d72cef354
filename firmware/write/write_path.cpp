#include "write/write_path.h"

namespace ufs {

WritePath::WritePath(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry, uint64_t logical_blocks,
                     uint32_t first_slot, const WritePathLinks& l)
    : shares_(geometry.hybrid() ? std::make_unique<HybridPoolShares>(geometry, params.over_provisioning) : nullptr),
      alloc_(geometry, params.stripe_order, params.lba_mapping == "static"),  // validated with the parameters
      placement_(hal, params, geometry, l.blocks, alloc_, l.space),
      cache_(hal, params, geometry, first_slot, l.blocks, l.map, l.store, l.flash, placement_, l.victims, l.space),
      gc_units_(cache_, l.map, l.store, l.blocks),
      fill_(hal, params, l.blocks.layout(), l.map, l.flash, cache_),
      preconditioner_(params, geometry, logical_blocks, l.blocks, l.map, l.store, l.flash, placement_, cache_, cache_,
                      alloc_, shares_.get()),
      writes_(hal, params, geometry, logical_blocks, l.table, l.latency, l.map, l.store, alloc_, shares_.get(), l.blocks,
              cache_, fill_, l.protection),
      map_writer_(hal, params, geometry, l.blocks, l.flash, l.store, placement_, cache_, l.space, l.map) {
  l.store.set_source(cache_);  // the map pages carry their entries
  if (params.map_verify) l.store.verify_with();
  cache_.set_durability_listener(&writes_);
  cache_.set_freed_listener(&writes_);
}

void WritePath::set_gc(GcUnitEvents& units, HostWriteGate& gate) {
  cache_.set_gc_units(&units);
  placement_.set_host_gate(&gate);
}

void WritePath::set_write_booster(WriteBooster* wb) {
  placement_.set_write_booster(wb);
  cache_.set_write_booster(wb);
}

void WritePath::space_returned(uint32_t) {
  cache_.retry_programs();
  map_writer_.retry_programs();
}

void WritePath::precondition(uint64_t first_lba, uint64_t blocks, FlashBackdoor& backdoor) {
  preconditioning_ = true;
  preconditioner_.fill(first_lba, blocks, backdoor);
  preconditioning_ = false;
}

}  // namespace ufs
