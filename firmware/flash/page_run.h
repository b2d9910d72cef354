// The run of sectors of one physical page that one NAND read brings into consecutive buffer
// slots: the read path and read-modify-write feed it sector by sector and submit each run
// it closes.
#pragma once
#include <cstdint>
#include "ftl/block_layout.h"
#include "hal/flash_types.h"

namespace ufs {

struct PageRun {
  FlashAddress at;             // the page
  uint32_t first_sector = 0;
  uint32_t count = 0;          // 0: no run open
  uint64_t buffer = 0;         // where the first sector lands
  uint32_t last_ppa = 0;

  // Sector `ppa` into the buffer at `dst`: it extends the open run (the next sector of the
  // page, into the next slot), or the open run is submitted (submit(run)) and a new one opens.
  template <class Submit>
  void add(const BlockLayout& layout, uint32_t ppa, uint64_t dst, Submit&& submit) {
    if (count && ppa == last_ppa + 1 && layout.sector_of(ppa) != 0 && buffer + uint64_t(count) * kSectorBytes == dst) {
      ++count;
      last_ppa = ppa;
      return;
    }
    if (count) submit(*this);
    at = layout.address_of(layout.block_of(ppa), layout.page_of(ppa));
    first_sector = layout.sector_of(ppa);
    count = 1;
    buffer = dst;
    last_ppa = ppa;
  }
  // The open run, if any, is submitted; none is open after.
  template <class Submit>
  void close(Submit&& submit) {
    if (count) submit(*this);
    count = 0;
  }
};

}  // namespace ufs
