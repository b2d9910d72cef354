#include "nand/nand_die.h"
#include <algorithm>
#include <sstream>

namespace ufs {

namespace {
uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
sc_core::sc_time us(double v) { return sc_core::sc_time(v, sc_core::SC_US); }
}  // namespace

NandDie::NandDie(const NandParams& params, uint32_t index)
    : params_(params), index_(index), bits_(params.operated_bits()) {
  shape_.pages = params.effective_pages_per_block();
  shape_.sectors_per_page = params.sectors_per_page();
  small_blocks_ = params.small_blocks_per_plane();
  large_shape_.pages = shape_.pages;
  large_shape_.sectors_per_page = params.hybrid() ? params.hybrid_large_page_bytes / uint32_t(kSectorBytes)
                                                  : shape_.sectors_per_page;
  planes_.resize(params.planes_per_die);
  for (NandPlane& p : planes_) p.blocks.resize(params.blocks_per_plane);

  if (params.slc_mode) {
    t_read_[0] = t_read_[1] = t_read_[2] = us(params.t_read_slc_us);
    t_prog_[0] = t_prog_[1] = t_prog_[2] = us(params.t_prog_slc_us);
  } else {
    auto or_base = [](double v, double base) { return v > 0 ? v : base; };
    t_read_[0] = us(params.t_read_us);
    t_read_[1] = us(or_base(params.t_read_csb_us, params.t_read_us));
    t_read_[2] = us(or_base(params.t_read_msb_us, params.t_read_us));
    t_prog_[0] = us(params.t_prog_us);
    t_prog_[1] = us(or_base(params.t_prog_csb_us, params.t_prog_us));
    t_prog_[2] = us(or_base(params.t_prog_msb_us, params.t_prog_us));
  }
  t_read_slc_ = us(params.t_read_slc_us);
  t_prog_slc_ = us(params.t_prog_slc_us);
  t_read_large_ = us(params.t_read_large_us);
  t_prog_large_ = us(params.t_prog_large_us);
  t_erase_ = us(params.t_erase_us);
  t_suspend_ = us(params.t_suspend_us);
  t_resume_ = us(params.t_resume_us);

  // Factory bad blocks: a per-die stream so placement does not depend on die count.
  uint64_t bad_rng = splitmix64(params.seed ^ (uint64_t(index) << 32) ^ 0xBADB10Cull);
  const uint64_t candidates = uint64_t(params.planes_per_die) * (params.blocks_per_plane - 1);
  uint64_t want = std::min<uint64_t>(params.factory_bad_blocks_per_die, candidates);
  while (want > 0) {
    bad_rng = splitmix64(bad_rng);
    const uint32_t plane = uint32_t(bad_rng % params.planes_per_die);
    const uint32_t block = 1 + uint32_t((bad_rng >> 16) % (params.blocks_per_plane - 1));
    NandBlock& b = planes_[plane].blocks[block];
    if (!b.bad()) {
      b.mark_bad();
      --want;
    }
  }
  if (!params.bad_block_list.empty()) {
    std::istringstream in(params.bad_block_list);
    std::string item;
    while (std::getline(in, item, ',')) {
      unsigned d = 0, p = 0, b = 0;
      char c1 = 0, c2 = 0;
      std::istringstream one(item);
      one >> d >> c1 >> p >> c2 >> b;
      if (d == index && p < params.planes_per_die && b < params.blocks_per_plane)
        planes_[p].blocks[b].mark_bad();
    }
  }
  rng_ = splitmix64(params.seed ^ (uint64_t(index) << 32));
}

double NandDie::uniform() {
  rng_ = splitmix64(rng_);
  return double(rng_ >> 11) * (1.0 / 9007199254740992.0);
}

sc_core::sc_time NandDie::program_time(uint32_t page, uint32_t count, bool slc) const {
  if (slc_op(slc)) return t_prog_slc_ * double(count ? count : 1);  // SLC: one page per tPROG
  if (bits_ > 1 && params_.program_one_shot) return t_prog_[0] * double(word_lines(page, count));
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  for (uint32_t i = 0; i < count; ++i) t += t_prog_[size_t(page_type(page + i))];
  return t;
}

sc_core::sc_time NandDie::program_time_large(uint32_t page, uint32_t count) const {
  if (bits_ > 1 && params_.program_one_shot) return t_prog_large_ * double(word_lines(page, count));
  return t_prog_large_ * double(count ? count : 1);
}

// One-shot programming: one tPROG per word line the pages touch.
uint32_t NandDie::word_lines(uint32_t page, uint32_t count) const {
  return (page + (count ? count : 1) - 1) / bits_ - page / bits_ + 1;
}

FlashStatus NandDie::read(const FlashAddress& a, uint32_t first, uint32_t count, SectorStamp* out,
                          PageOob* oob, bool slc, uint32_t* words, uint32_t words_per_page) {
  auto nothing = [&](uint64_t& violation) {
    ++violation;
    for (uint32_t s = 0; s < count && s < kMaxSectorsPerPage; ++s) out[s] = SectorStamp{};
    if (oob) *oob = PageOob{};
    return FlashStatus::Uncorrectable;
  };
  if (!valid_block(a) || a.page >= pages_per_block(slc) || first + count > shape(a.block).sectors_per_page)
    return nothing(violations_.address_out_of_range);
  const NandBlock& b = planes_[a.plane].blocks[a.block];
  // Sensing a block with the other mode's read levels yields garbage: a firmware bug.
  if (b.next_page() > 0 && !b.bad() && b.slc() != slc_op(slc)) return nothing(violations_.mode_mismatch);
  const bool ok = b.read(shape(a.block), a.page, first, count, out, oob);
  if (b.bad()) return FlashStatus::BadBlock;
  if (ok && words && a.page < b.next_page()) words_.load(PageWords::page_key(block_key(a), a.page), words, words_per_page);
  return ok ? FlashStatus::Ok : FlashStatus::Uncorrectable;
}

FlashStatus NandDie::program_rule(const FlashAddress& a, uint32_t count, bool slc,
                                  NandRuleViolations* v) const {
  const uint32_t pages = pages_per_block(slc);
  if (!valid_block(a) || count == 0 || a.page >= pages || count > pages - a.page) {
    if (v) ++v->address_out_of_range;
    return FlashStatus::ProgramFail;
  }
  const NandBlock& b = planes_[a.plane].blocks[a.block];
  if (b.bad()) return FlashStatus::BadBlock;
  if (b.next_page() > 0 && b.slc() != slc_op(slc)) {  // mode is fixed from erase to erase
    if (v) ++v->mode_mismatch;
    return FlashStatus::ProgramFail;
  }
  if (a.page < b.next_page()) {
    if (v) ++v->program_not_erased;
    return FlashStatus::ProgramFail;
  }
  if (a.page > b.next_page()) {
    if (v) ++v->program_out_of_order;
    return FlashStatus::ProgramFail;
  }
  if (bits_ > 1 && !slc_op(slc) && params_.program_one_shot && (a.page % bits_ != 0 || count % bits_ != 0)) {
    if (v) ++v->one_shot_misuse;
    return FlashStatus::ProgramFail;
  }
  return FlashStatus::Ok;
}

FlashStatus NandDie::check_program(const FlashAddress& a, uint32_t count, bool slc) const {
  return program_rule(a, count, slc, nullptr);
}

FlashStatus NandDie::program(const FlashAddress& a, uint32_t count, const SectorStamp* stamps,
                             const PageOob* oobs, size_t oob_count, bool slc, const uint32_t* words,
                             uint32_t words_per_page) {
  const FlashStatus rule = program_rule(a, count, slc, &violations_);
  if (rule != FlashStatus::Ok) return rule;
  const bool fail =
      params_.program_fail_probability > 0 && uniform() < params_.program_fail_probability;
  NandBlock& b = planes_[a.plane].blocks[a.block];
  if (b.next_page() == 0) b.set_slc(slc_op(slc));
  static const PageOob kDefaultOob{};
  const NandBlockShape& sh = shape(a.block);
  for (uint32_t i = 0; i < count; ++i)
    b.program_next(sh, stamps + size_t(i) * sh.sectors_per_page, i < oob_count ? oobs[i] : kDefaultOob, fail);
  if (words && !fail)
    for (uint32_t i = 0; i < count; ++i)
      words_.store(PageWords::page_key(block_key(a), a.page + i), words + size_t(i) * words_per_page, words_per_page);
  return fail ? FlashStatus::ProgramFail : FlashStatus::Ok;
}

void NandDie::tear(const FlashAddress& a, uint32_t count, bool slc) {
  if (program_rule(a, count, slc, nullptr) != FlashStatus::Ok) return;
  NandBlock& b = planes_[a.plane].blocks[a.block];
  if (b.next_page() == 0) b.set_slc(slc_op(slc));
  static const PageOob kTornOob{};
  const NandBlockShape& sh = shape(a.block);
  std::vector<SectorStamp> empty(sh.sectors_per_page);
  for (uint32_t i = 0; i < count; ++i) b.program_next(sh, empty.data(), kTornOob, true);
}

FlashStatus NandDie::erase(const FlashAddress& a) {
  if (!valid_block(a)) {
    ++violations_.address_out_of_range;
    return FlashStatus::EraseFail;
  }
  NandBlock& b = planes_[a.plane].blocks[a.block];
  if (b.bad()) return FlashStatus::BadBlock;
  if (params_.erase_fail_probability > 0 && uniform() < params_.erase_fail_probability) {
    return FlashStatus::EraseFail;  // the block keeps its pages; firmware should retire it
  }
  b.erase();
  words_.drop_block(block_key(a));
  return FlashStatus::Ok;
}

FlashStatus NandDie::copy_back(const FlashAddress& src, const FlashAddress& dst, uint32_t count, PageOob* src_oob,
                               bool slc, uint64_t sequence) {
  if (src.plane != dst.plane) {
    ++violations_.plane_mismatch;
    return FlashStatus::ProgramFail;
  }
  if (large_block(src.block) != large_block(dst.block)) {  // hybrid: no page-size conversion either
    ++violations_.mode_mismatch;
    return FlashStatus::ProgramFail;
  }
  if (!valid_block(src) || count == 0 || src.page >= pages_per_block(slc) ||
      count > pages_per_block(slc) - src.page) {
    ++violations_.address_out_of_range;
    return FlashStatus::ProgramFail;
  }
  const uint32_t spp = shape(src.block).sectors_per_page;
  scratch_.resize(size_t(count) * spp);
  scratch_oob_.resize(count);
  FlashStatus read_status = FlashStatus::Ok;
  for (uint32_t i = 0; i < count; ++i) {
    FlashAddress p = src;
    p.page = src.page + i;
    const FlashStatus s = read(p, 0, spp, &scratch_[size_t(i) * spp], &scratch_oob_[i], slc);
    if (s != FlashStatus::Ok) read_status = s;
  }
  if (src_oob) *src_oob = scratch_oob_[0];
  if (read_status != FlashStatus::Ok) return read_status;
  if (sequence) restamp(scratch_oob_.data(), count, sequence);
  const FlashStatus s = program(dst, count, scratch_.data(), scratch_oob_.data(), count, slc);
  if (s == FlashStatus::Ok)  // the page register carries the pages' words too
    for (uint32_t i = 0; i < count; ++i) copy_words(src, dst, i);
  return s;
}

void NandDie::copy_words(const FlashAddress& src, const FlashAddress& dst, uint32_t i) {
  const uint64_t from = PageWords::page_key(block_key(src), src.page + i);
  if (!words_.has(from)) return;
  std::vector<uint32_t> w(words_.words(from));
  words_.load(from, w.data(), uint32_t(w.size()));
  words_.store(PageWords::page_key(block_key(dst), dst.page + i), w.data(), uint32_t(w.size()));
}

uint64_t NandDie::allocated_blocks() const {
  uint64_t n = 0;
  for (const NandPlane& p : planes_)
    for (const NandBlock& b : p.blocks) n += b.allocated();
  return n;
}

uint64_t NandDie::bad_blocks() const {
  uint64_t n = 0;
  for (const NandPlane& p : planes_)
    for (const NandBlock& b : p.blocks) n += b.bad();
  return n;
}

}  // namespace ufs
