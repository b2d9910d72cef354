// One NAND die (LUN): planes of blocks of pages, its array timings by cell type
// and page type, the NAND rules (erase before program, in-order page program,
// one-shot word lines) with violation counters, factory bad blocks and injected
// program/erase failures. Passive: the flash demux decides when things happen and
// calls the functional operations at the end of their array time.
#pragma once
#include <systemc>
#include <cstdint>
#include <vector>
#include "hal/flash_types.h"
#include "nand/nand_params.h"
#include "nand/nand_plane.h"
#include "nand/page_words.h"

namespace ufs {

// NAND rule violations: a correct firmware causes none; tests assert zero.
struct NandRuleViolations {
  uint64_t program_not_erased = 0;    // program of a page that is not erased
  uint64_t program_out_of_order = 0;  // program that skips pages of the block
  uint64_t one_shot_misuse = 0;       // one-shot program not covering whole word lines
  uint64_t address_out_of_range = 0;  // plane/block/page/sector beyond the die
  uint64_t plane_mismatch = 0;        // copy-back across planes
  uint64_t mode_mismatch = 0;         // SLC access to a TLC-programmed block or the reverse
  uint64_t total() const {
    return program_not_erased + program_out_of_order + one_shot_misuse + address_out_of_range +
           plane_mismatch + mode_mismatch;
  }
};

enum class NandPageType : uint8_t { Lsb = 0, Csb = 1, Msb = 2 };

class NandDie {
 public:
  NandDie(const NandParams& params, uint32_t index);

  uint32_t index() const { return index_; }
  const NandParams& params() const { return params_; }
  uint32_t planes() const { return params_.planes_per_die; }
  uint32_t pages_per_block() const { return shape_.pages; }
  // Pages of a block operated in the given mode (per-op SLC on an MLC/TLC die: a 1/bits).
  uint32_t pages_per_block(bool slc) const { return slc_op(slc) ? shape_.pages / bits_ : shape_.pages; }
  uint32_t sectors_per_page() const { return shape_.sectors_per_page; }
  // Hybrid page size: blocks from nand.hybrid_small_blocks_per_plane on have the large page.
  bool large_block(uint32_t block) const { return block >= small_blocks_; }
  uint32_t sectors_per_page(const FlashAddress& a) const { return shape(a.block).sectors_per_page; }

  // --- timing -----------------------------------------------------------------
  // Page type from the page index: pages of a word line are LSB, (CSB,) MSB in turn
  // (the sequential page order of 3D NAND; 2D MLC shadow-page orders are not modelled).
  NandPageType page_type(uint32_t page) const {
    if (bits_ == 1) return NandPageType::Lsb;
    const uint32_t k = page % bits_;
    return k == 0 ? NandPageType::Lsb : k == bits_ - 1 ? NandPageType::Msb : NandPageType::Csb;
  }
  // slc: the op's per-block SLC flag (FlashOp::slc): SLC timings.
  const sc_core::sc_time& read_time(uint32_t page, bool slc = false) const {
    return slc_op(slc) ? t_read_slc_ : t_read_[size_t(page_type(page))];
  }
  sc_core::sc_time program_time(uint32_t page, uint32_t count, bool slc = false) const;
  // The same for a page of a given block (hybrid page size: large-page blocks have their own timing).
  const sc_core::sc_time& read_time(const FlashAddress& a, bool slc) const {
    return large_block(a.block) ? t_read_large_ : read_time(a.page, slc);
  }
  sc_core::sc_time program_time(const FlashAddress& a, uint32_t count, bool slc) const {
    return large_block(a.block) ? program_time_large(a.page, count) : program_time(a.page, count, slc);
  }
  const sc_core::sc_time& erase_time() const { return t_erase_; }
  const sc_core::sc_time& suspend_time() const { return t_suspend_; }
  const sc_core::sc_time& resume_time() const { return t_resume_; }

  // --- functional operations ----------------------------------------------------
  // `slc` (FlashOp::slc): operate the block as SLC. An erased block takes the mode of its
  // first program and keeps it until the next erase; an access in the other mode is a
  // mode_mismatch violation (reads come back Uncorrectable, programs ProgramFail).
  // Sectors [first, first + count) of one page into out[], and the page's OOB.
  // `words` (optional, words_per_page of them): the page's words (page_words.h) when it is read
  // Ok and holds some; untouched otherwise.
  FlashStatus read(const FlashAddress& a, uint32_t first, uint32_t count, SectorStamp* out,
                   PageOob* oob, bool slc = false, uint32_t* words = nullptr, uint32_t words_per_page = 0);
  // `count` pages from a.page on; stamps holds count x sectors_per_page, oobs one per
  // page (fewer: the rest get a default OOB). `words` (optional): count x words_per_page
  // words the pages hold besides their stamps (a map page's L2P entries).
  FlashStatus program(const FlashAddress& a, uint32_t count, const SectorStamp* stamps,
                      const PageOob* oobs, size_t oob_count, bool slc = false, const uint32_t* words = nullptr,
                      uint32_t words_per_page = 0);
  FlashStatus erase(const FlashAddress& a);
  // Power was cut during the array phase of a program of `count` pages from a.page:
  // the pages are used up and read back uncorrectable (no-op if they are not next in order).
  void tear(const FlashAddress& a, uint32_t count, bool slc = false);
  // Intra-plane copy of `count` pages from src to dst through the page register.
  // `src_oob` (optional): the first source page's OOB, as the controller reads it out.
  // Source and destination are in the same mode (`slc`): copy-back has no mode conversion.
  // `sequence` (not 0): the controller's new program sequence, written into the copies' spare
  // area between the copy-back read and program (each sector keeps its data's age, data_seq).
  FlashStatus copy_back(const FlashAddress& src, const FlashAddress& dst, uint32_t count, PageOob* src_oob = nullptr,
                        bool slc = false, uint64_t sequence = 0);
  // Rule check only (no state change): what program() would return, minus injected failures.
  FlashStatus check_program(const FlashAddress& a, uint32_t count, bool slc = false) const;

  // --- inspection -----------------------------------------------------------------
  const NandBlock& block(uint32_t plane, uint32_t block) const {
    return planes_[plane].blocks[block];
  }
  void mark_bad(uint32_t plane, uint32_t block) { planes_[plane].blocks[block].mark_bad(); }
  const NandRuleViolations& violations() const { return violations_; }
  uint64_t allocated_blocks() const;
  const PageWords& words() const { return words_; }
  // Zero-time: the words page `a` holds (the firmware's map peek, hal/hal.h); false (out
  // untouched) when it holds none or the address is not a block of this die.
  bool peek_words(const FlashAddress& a, uint32_t* out, uint32_t count) const {
    return valid_block(a) && words_.load(PageWords::page_key(block_key(a), a.page), out, count);
  }
  uint64_t bad_blocks() const;

 private:
  const NandBlockShape& shape(uint32_t block) const { return large_block(block) ? large_shape_ : shape_; }
  sc_core::sc_time program_time_large(uint32_t page, uint32_t count) const;
  uint32_t word_lines(uint32_t page, uint32_t count) const;
  bool valid_block(const FlashAddress& a) const {
    return a.plane < params_.planes_per_die && a.block < params_.blocks_per_plane;
  }
  // The program rules; counts a violation into *v when v is given.
  FlashStatus program_rule(const FlashAddress& a, uint32_t count, bool slc, NandRuleViolations* v) const;
  // A per-op SLC flag changes something only on an MLC/TLC die not already all-SLC.
  bool slc_op(bool slc) const { return slc && bits_ > 1; }
  double uniform();  // [0, 1), from the die's own seeded generator

  NandParams params_;
  uint32_t index_;
  uint32_t bits_;  // bits per cell as operated
  NandBlockShape shape_;
  NandBlockShape large_shape_;  // hybrid page size: blocks [small_blocks_, blocks_per_plane)
  uint32_t small_blocks_;       // blocks_per_plane when not hybrid
  std::vector<NandPlane> planes_;
  sc_core::sc_time t_read_[3];
  sc_core::sc_time t_prog_[3];
  sc_core::sc_time t_read_slc_, t_prog_slc_;  // per-block SLC mode
  sc_core::sc_time t_read_large_, t_prog_large_;  // hybrid page size: large-page blocks
  sc_core::sc_time t_erase_, t_suspend_, t_resume_;
  NandRuleViolations violations_;
  uint64_t rng_;
  void copy_words(const FlashAddress& src, const FlashAddress& dst, uint32_t i);  // copy-back: page i's words
  uint64_t block_key(const FlashAddress& a) const { return uint64_t(a.plane) * params_.blocks_per_plane + a.block; }
  PageWords words_;                   // pages' words beyond their stamps (map pages)
  std::vector<SectorStamp> scratch_;  // copy-back page register
  std::vector<PageOob> scratch_oob_;
};

}  // namespace ufs
