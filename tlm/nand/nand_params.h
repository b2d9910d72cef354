// Parameters of one NAND die and its package: organisation, cell type, array
// timings, reliability. The flash demux (tlm/fcc) owns the channel-side ones.
#pragma once
#include <cstdint>
#include <sstream>
#include <utility>
#include <string>
#include "hal/flash_types.h"

namespace ufs {

struct NandParams {
  // --- organisation ---------------------------------------------------------
  uint32_t dies_per_package = 2;
  uint32_t planes_per_die = 2;
  uint32_t blocks_per_plane = 912;
  uint32_t pages_per_block = 1152;  // TLC pages (3 per word line); SLC mode uses a third
  uint32_t page_bytes = 16384;
  uint32_t spare_bytes_per_page = 2208;
  // Hybrid page size (IISWC'15 sec. VI): blocks [hybrid_small_blocks_per_plane,
  // blocks_per_plane) of each plane have hybrid_large_page_bytes pages (0 = off).
  uint32_t hybrid_small_blocks_per_plane = 0;
  uint32_t hybrid_large_page_bytes = 0;

  // --- cell type ------------------------------------------------------------
  std::string cell_type = "tlc";    // slc | mlc | tlc
  bool slc_mode = false;            // operate every block as SLC (1 bit per cell)
  bool program_one_shot = true;     // MLC/TLC: a program writes all pages of a word line at once

  // --- array timing (0 on a page-type override = same as the LSB value) -----
  double t_read_us = 50.0;
  double t_read_csb_us = 0.0;
  double t_read_msb_us = 0.0;
  double t_prog_us = 500.0;
  double t_prog_csb_us = 0.0;
  double t_prog_msb_us = 0.0;
  double t_erase_us = 3500.0;
  double t_read_slc_us = 30.0;
  double t_prog_slc_us = 160.0;
  double t_read_large_us = 0.0;     // hybrid: large-page blocks' read and program times
  double t_prog_large_us = 0.0;
  double t_suspend_us = 20.0;
  double t_resume_us = 20.0;

  // --- multi-plane pairing rules --------------------------------------------
  bool multi_plane_same_page = true;    // paired planes must address the same page index
  bool multi_plane_same_block = false;  // ... and the same block index

  // --- reliability ------------------------------------------------------------
  uint32_t factory_bad_blocks_per_die = 0;
  std::string bad_block_list;  // "die:plane:block,die:plane:block"
  double program_fail_probability = 0.0;
  double erase_fail_probability = 0.0;
  uint64_t seed = 1;

  template <class B>
  void bind(B& b) {
    // Defaults model a mobile TLC part: Samsung 5th-generation V-NAND (press release,
    // July 2018): 256 Gb TLC die, Toggle DDR 4.0 at 1400 MT/s, tR 50 us, tPROG 500 us.
    // Our choice: two 256 Gb dies per package; 2 ch x 4 ways x 2 dies = 512 GiB.
    b("dies_per_package", dies_per_package, "", "dies (LUNs) behind one chip enable");
    // Two planes per die: common for 256 Gb 3D TLC dies (not stated in the release).
    b("planes_per_die", planes_per_die, "", "planes per die");
    // 2 planes x 912 blocks x 1152 pages x 16 KiB = 256.07 Gib: a 256 Gb die with a
    // few spare blocks (the real spare count is not published).
    b("blocks_per_plane", blocks_per_plane, "", "erase blocks per plane");
    // 1152 = 384 word lines (96 layers x 4 strings, our assumption) x 3 bits.
    b("pages_per_block", pages_per_block, "", "pages per block in native (MLC/TLC) mode");
    b("page_bytes", page_bytes, "B", "user bytes per page, a multiple of 4096 (release: 16 KiB)");
    // 16384 + 2208 = 18592-byte page: a usual 16 KiB TLC layout (ONFI datasheets); Samsung
    // does not publish its spare size. Spare bytes cross the channel with their sectors.
    b("spare_bytes_per_page", spare_bytes_per_page, "B", "spare (ECC parity + OOB) bytes per page");
    b("hybrid_small_blocks_per_plane", hybrid_small_blocks_per_plane, "blocks",
      "hybrid page size: the first N blocks of each plane have page_bytes pages, the rest hybrid_large_page_bytes");
    b("hybrid_large_page_bytes", hybrid_large_page_bytes, "B",
      "hybrid page size: page size of a plane's last blocks, a multiple of page_bytes up to 32768 (0 = one page size)");
    b("cell_type", cell_type, "", "slc, mlc or tlc: bits per cell, page types LSB/CSB/MSB");
    b("slc_mode", slc_mode, "",
      "use every MLC/TLC block as SLC: pages_per_block / bits, SLC timings (per-block SLC: FlashOp::slc)");
    b("program_one_shot", program_one_shot, "",
      "MLC/TLC program writes a whole word line (page_count = bits per cell) in one tPROG");
    b("t_read_us", t_read_us, "us", "page read (array to page register), LSB page (release: 50 us)");
    b("t_read_csb_us", t_read_csb_us, "us", "CSB page read time, 0 = t_read_us");
    b("t_read_msb_us", t_read_msb_us, "us", "MSB page read time, 0 = t_read_us");
    b("t_prog_us", t_prog_us, "us",
      "program time: one word line when one-shot, else an LSB page (release: 500 us one-shot)");
    b("t_prog_csb_us", t_prog_csb_us, "us", "CSB page program time (not one-shot), 0 = t_prog_us");
    b("t_prog_msb_us", t_prog_msb_us, "us", "MSB page program time (not one-shot), 0 = t_prog_us");
    // Not in the release: 3.5 ms is a typical 3D TLC datasheet block erase time.
    b("t_erase_us", t_erase_us, "us", "block erase time (typical datasheet value)");
    // Not published: estimates for SLC mode on a 3D TLC die.
    b("t_read_slc_us", t_read_slc_us, "us", "page read time in SLC mode (estimate)");
    b("t_prog_slc_us", t_prog_slc_us, "us", "page program time in SLC mode (estimate)");
    b("t_read_large_us", t_read_large_us, "us",
      "hybrid page size: page read time in large-page blocks (every page type; small blocks use t_read_us)");
    b("t_prog_large_us", t_prog_large_us, "us",
      "hybrid page size: page program time in large-page blocks (every page type; erase is t_erase_us for both)");
    b("t_suspend_us", t_suspend_us, "us", "program/erase suspend latency (estimate)");
    b("t_resume_us", t_resume_us, "us", "program/erase resume overhead (estimate)");
    b("multi_plane_same_page", multi_plane_same_page, "",
      "multi-plane ops must use the same page index on every plane");
    b("multi_plane_same_block", multi_plane_same_block, "",
      "multi-plane ops must use the same block index on every plane");
    b("factory_bad_blocks_per_die", factory_bad_blocks_per_die, "",
      "factory bad blocks per die, placed at random (seeded); block 0 of a plane is always good");
    b("bad_block_list", bad_block_list, "", "extra factory bad blocks: die:plane:block,...");
    b("program_fail_probability", program_fail_probability, "",
      "chance that a program reports ProgramFail (seeded)");
    b("erase_fail_probability", erase_fail_probability, "",
      "chance that an erase reports EraseFail (seeded)");
    b("seed", seed, "", "seed of the bad-block placement and failure injection");
  }

  uint32_t bits_per_cell() const {
    return cell_type == "tlc" ? 3 : cell_type == "mlc" ? 2 : 1;
  }
  // Bits per cell as operated (1 in SLC mode).
  uint32_t operated_bits() const { return slc_mode ? 1 : bits_per_cell(); }
  uint32_t effective_pages_per_block() const {
    return slc_mode ? pages_per_block / bits_per_cell() : pages_per_block;
  }
  uint32_t sectors_per_page() const { return page_bytes / uint32_t(kSectorBytes); }
  bool hybrid() const { return hybrid_large_page_bytes != 0; }
  // Blocks of a plane with the small (page_bytes) page: all of them unless hybrid.
  uint32_t small_blocks_per_plane() const { return hybrid() ? hybrid_small_blocks_per_plane : blocks_per_plane; }

  std::string validate() const {
    if (cell_type != "slc" && cell_type != "mlc" && cell_type != "tlc")
      return "cell_type: must be slc, mlc or tlc, not '" + cell_type + "'";
    // Upper bounds from real parts with room to spare: packages stack up to 16 dies, dies
    // have up to 6 planes, a plane a few thousand blocks, a block a few thousand pages.
    if (dies_per_package == 0 || dies_per_package > 16) return "dies_per_package: must be within 1..16";
    if (planes_per_die == 0 || planes_per_die > 16) return "planes_per_die: must be within 1..16";
    if (blocks_per_plane == 0 || blocks_per_plane > 65536) return "blocks_per_plane: must be within 1..65536";
    if (pages_per_block == 0 || pages_per_block > 8192) return "pages_per_block: must be within 1..8192";
    if (spare_bytes_per_page > page_bytes) return "spare_bytes_per_page: must not exceed page_bytes";
    if (pages_per_block % bits_per_cell() != 0)
      return "pages_per_block: must be a multiple of the bits per cell";
    if (page_bytes == 0 || page_bytes % kSectorBytes != 0 ||
        page_bytes / kSectorBytes > kMaxSectorsPerPage)
      return "page_bytes: must be a multiple of 4096 up to 32768";
    if (t_read_us <= 0) return "t_read_us: must be positive";
    if (t_prog_us <= 0) return "t_prog_us: must be positive";
    if (t_erase_us <= 0) return "t_erase_us: must be positive";
    // No NAND array operation takes a second (datasheets: tR ~ 50 us, tPROG ~ 2 ms, tBERS ~ 10 ms).
    for (const auto& [name, t] : {std::pair<const char*, double>{"t_read_us", t_read_us}, {"t_read_csb_us", t_read_csb_us},
                                  {"t_read_msb_us", t_read_msb_us}, {"t_prog_us", t_prog_us}, {"t_prog_csb_us", t_prog_csb_us},
                                  {"t_prog_msb_us", t_prog_msb_us}, {"t_erase_us", t_erase_us}, {"t_read_slc_us", t_read_slc_us},
                                  {"t_prog_slc_us", t_prog_slc_us}, {"t_read_large_us", t_read_large_us},
                                  {"t_prog_large_us", t_prog_large_us}, {"t_suspend_us", t_suspend_us}, {"t_resume_us", t_resume_us}})
      if (t > 1e6) return std::string(name) + ": must be at most 1000000 us (1 s; no NAND operation takes that long)";
    if (t_read_csb_us < 0 || t_read_msb_us < 0) return "t_read_csb_us: must not be negative";
    if (t_prog_csb_us < 0 || t_prog_msb_us < 0) return "t_prog_csb_us: must not be negative";
    if ((slc_mode || bits_per_cell() > 1) && (t_read_slc_us <= 0 || t_prog_slc_us <= 0))
      return "t_read_slc_us: SLC mode (global or per block) needs positive SLC timings";
    if (t_suspend_us < 0 || t_resume_us < 0) return "t_suspend_us: must not be negative";
    if (const std::string h = validate_hybrid(); !h.empty()) return h;
    if (factory_bad_blocks_per_die >= uint64_t(planes_per_die) * blocks_per_plane)
      return "factory_bad_blocks_per_die: must leave good blocks";
    if (program_fail_probability < 0 || program_fail_probability > 1)
      return "program_fail_probability: must be within [0, 1]";
    if (erase_fail_probability < 0 || erase_fail_probability > 1)
      return "erase_fail_probability: must be within [0, 1]";
    if (!bad_block_list.empty()) {
      std::istringstream in(bad_block_list);
      std::string item;
      while (std::getline(in, item, ',')) {
        unsigned d, p, b;
        char c1, c2;
        std::istringstream one(item);
        if (!(one >> d >> c1 >> p >> c2 >> b) || c1 != ':' || c2 != ':')
          return "bad_block_list: '" + item + "' is not die:plane:block";
        if (p >= planes_per_die || b >= blocks_per_plane)
          return "bad_block_list: '" + item + "' is outside the die";
      }
    }
    return "";
  }

  std::string validate_hybrid() const {
    if (!hybrid()) {
      if (hybrid_small_blocks_per_plane) return "hybrid_small_blocks_per_plane: needs hybrid_large_page_bytes above 0";
      if (t_read_large_us || t_prog_large_us) return "t_read_large_us: large-page timings need hybrid_large_page_bytes above 0";
      return "";
    }
    if (hybrid_large_page_bytes <= page_bytes || hybrid_large_page_bytes % page_bytes != 0 ||
        hybrid_large_page_bytes / kSectorBytes > kMaxSectorsPerPage)
      return "hybrid_large_page_bytes: must be a multiple of page_bytes (" + std::to_string(page_bytes) +
             "), above it, up to 32768";
    if (hybrid_small_blocks_per_plane == 0 || hybrid_small_blocks_per_plane >= blocks_per_plane)
      return "hybrid_small_blocks_per_plane: must be within 1..blocks_per_plane - 1 (" +
             std::to_string(blocks_per_plane - 1) + ")";
    if (t_read_large_us <= 0) return "t_read_large_us: must be positive with hybrid_large_page_bytes";
    if (t_prog_large_us <= 0) return "t_prog_large_us: must be positive with hybrid_large_page_bytes";
    if (slc_mode) return "slc_mode: not with hybrid_large_page_bytes (one page size per mode)";
    return "";
  }
};

}  // namespace ufs
