// A die's programs up to their array phase: each op's page data comes from the data
// buffer over the DMA and goes in on the die's channel (a command/address sequence and
// the data per page), the group's tPROG is the longest of its ops'. Cache program
// (ONFI page cache program, 80h-15h): while the die programs, the next program's data
// goes into the cache register; its tPROG starts when both its data-in and the program
// in flight are done. Only when no read waits for the die (reads keep their
// precedence), one page group at a time, no multi-plane pairing of the cached op (a die
// with a suspended program runs only reads, so none is cached then).
// Owns per die the cached program and when its data-in ends.
#pragma once
#include <systemc>
#include <cstdint>
#include <vector>
#include "fcc/data_path_parts.h"

namespace ufs {

struct OpSlot;

class ProgramSequence {
 public:
  using Parts = DataPathParts;
  ProgramSequence(bool cache_program, const Parts& parts);

  // The data-in of the die's `group` from `start`; returns when the last ends, and the
  // group's tPROG in *t_prog.
  sc_core::sc_time data_in(uint32_t die, const std::vector<uint32_t>& group, const sc_core::sc_time& start,
                           sc_core::sc_time* t_prog);

  // Cache program: while the die programs (its array phase began at `array_start`), takes
  // its best arrived program into the cache register and books its data-in; returns the
  // op's slot, or -1 if none may go (cache program off, one cached already, a read first).
  long try_cache(uint32_t die, const sc_core::sc_time& array_start);
  bool cached(uint32_t die) const { return !dies_[die].cached.empty(); }
  // The program in flight is done: the cached one becomes the die's `group`; returns when
  // its data is in.
  const sc_core::sc_time& take_cached(uint32_t die, std::vector<uint32_t>& group);
  void drop(uint32_t die) { dies_[die].cached.clear(); }  // power cut
  const std::vector<uint32_t>& cached_ops(uint32_t die) const { return dies_[die].cached; }

 private:
  // One op's data-in from `start` on the die's channel; returns its end.
  sc_core::sc_time load(uint32_t die, OpSlot& slot, const sc_core::sc_time& start, const char* what);

  struct Die {
    std::vector<uint32_t> cached;  // the program in the cache register (0 or 1 op)
    sc_core::sc_time cached_ready; // its data-in ends then
  };
  bool cache_program_;
  Parts parts_;
  std::vector<Die> dies_;
};

}  // namespace ufs
