#include "nand/nand_block.h"

namespace ufs {

void NandBlock::program_next(const NandBlockShape& shape, const SectorStamp* stamps,
                             const PageOob& oob, bool failed) {
  const uint32_t spp = shape.sectors_per_page;
  if (!storage_) {
    storage_ = std::make_unique<Storage>();
    storage_->stamps.reset(new SectorStamp[size_t(shape.pages) * spp]);
    storage_->meta.reset(new PageMeta[shape.pages]);
  }
  const uint32_t page = next_page_++;
  PageMeta& meta = storage_->meta[page];
  meta.sequence = oob.sequence;
  meta.kind = oob.kind;
  meta.flags = failed ? kFailed : 0;
  SectorStamp* dst = &storage_->stamps[size_t(page) * spp];
  bool own_lba = false;
  for (uint32_t s = 0; s < spp; ++s) {
    dst[s] = stamps[s];
    // OOB LBAs usually repeat the sectors' own LBAs; keep them apart only when not.
    if (oob.lba[s] != uint32_t(stamps[s].lba)) own_lba = true;
  }
  if (own_lba) {
    if (!storage_->oob_lba) storage_->oob_lba.reset(new uint32_t[size_t(shape.pages) * spp]);
    for (uint32_t s = 0; s < spp; ++s) storage_->oob_lba[size_t(page) * spp + s] = oob.lba[s];
    meta.flags |= kOwnOobLba;
  }
  bool own_seq = false;
  for (uint32_t s = 0; s < spp; ++s) own_seq = own_seq || oob.data_seq[s] != 0;
  if (own_seq) {
    if (!storage_->data_seq) storage_->data_seq.reset(new uint64_t[size_t(shape.pages) * spp]);
    for (uint32_t s = 0; s < spp; ++s) storage_->data_seq[size_t(page) * spp + s] = oob.data_seq[s];
    meta.flags |= kOwnDataSeq;
  }
}

bool NandBlock::read(const NandBlockShape& shape, uint32_t page, uint32_t first, uint32_t count,
                     SectorStamp* out, PageOob* oob) const {
  const uint32_t spp = shape.sectors_per_page;
  if (page >= next_page_) {  // erased
    for (uint32_t s = 0; s < count; ++s) out[s] = SectorStamp{};
    if (oob) *oob = PageOob{};
    return true;
  }
  const PageMeta& meta = storage_->meta[page];
  const SectorStamp* src = &storage_->stamps[size_t(page) * spp];
  for (uint32_t s = 0; s < count; ++s) out[s] = src[first + s];
  if (oob) {
    *oob = PageOob{};
    oob->kind = meta.kind;
    oob->sequence = meta.sequence;
    for (uint32_t s = 0; s < spp; ++s)
      oob->lba[s] = (meta.flags & kOwnOobLba) ? storage_->oob_lba[size_t(page) * spp + s]
                                              : uint32_t(src[s].lba);
    if (meta.flags & kOwnDataSeq)
      for (uint32_t s = 0; s < spp; ++s) oob->data_seq[s] = storage_->data_seq[size_t(page) * spp + s];
  }
  return (meta.flags & kFailed) == 0;
}

}  // namespace ufs
