// Where a program unit goes (ftl/placement.*): what the placement is asked and what it answers.
#pragma once
#include <cstdint>
#include "ftl/block_manager.h"

namespace ufs {

struct UnitPlace {
  WriteStream stream = WriteStream::Host;
  uint32_t die = 0;              // GC work: its die (asked); the die chosen (answered)
  bool gc_privilege = false;     // placement on `die` only, may use the die's last free block (GC work)
  uint32_t pool = ~0u;           // static mapping: the allocation pool its logical pages belong to
  uint32_t capacity = 0;         // slots (hybrid page size: more than a small page = the large-page pool)
  // The answer
  uint32_t block = BlockManager::kNoBlock;
  uint32_t page = 0;
  uint32_t open_slot = 0;        // open-block slot it was placed through (plane-first: the plane)
  WriteStream open_stream = WriteStream::Host;  // the write point's stream (host data may share GC's)
  bool slc = false;              // placed in a WriteBooster SLC block
};

class UnitPlacer {
 public:
  virtual ~UnitPlacer() = default;
  // Takes pages for the unit in an open block (block, page, die, open_slot, slc); false when
  // no die it may go to has room now.
  virtual bool place(UnitPlace& unit) = 0;
};

}  // namespace ufs
