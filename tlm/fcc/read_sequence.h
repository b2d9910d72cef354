// A die's reads: the command/address cycles of each plane's read (column address: only
// the requested sectors will cross the bus), the group's tR, and once tR is over the
// data-out of each op, its ECC decode and its DMA into the data buffer. Cache read: the
// page moves to the cache register, so the die's next read runs its tR while this data
// goes out. Without cache read the die takes its next command only after this data-out;
// when a read waits for the die, that command's bus slot is booked with the last
// data-out, so other dies' bursts that become ready meanwhile do not push it back
// (their tR would otherwise never overlap another die's transfer).
// Owns per die the command slot so booked and when the page register is free again.
#pragma once
#include <systemc>
#include <cstdint>
#include <vector>
#include "fcc/data_path_parts.h"
#include "fcc/flash_controller_params.h"

namespace ufs {


class ReadSequence {
 public:
  using Parts = DataPathParts;
  ReadSequence(const FlashControllerParams& params, const Parts& parts);

  // Books the commands of the die's `group` from `start` and sets the sectors each op
  // moves; returns when the array phase starts, its length (the longest tR) in *t_r.
  sc_core::sc_time commands(uint32_t die, const std::vector<uint32_t>& group, const sc_core::sc_time& start,
                            sc_core::sc_time* t_r);

  // The group's tR is over (now): each op's result and data come from the NAND, go out
  // after the cache register frees (`cache_free_at`), are decoded and land in the buffer
  // at landed[k] (group[k]'s). Returns when the cache register frees again and when the
  // die may take its next command.
  struct DataOut {
    sc_core::sc_time cache_free_at, free_at;
  };
  DataOut data_out(uint32_t die, const std::vector<uint32_t>& group, const sc_core::sc_time& cache_free_at,
                   std::vector<sc_core::sc_time>& landed);

 private:
  struct Die {
    bool cmd_slot = false;          // a command slot is booked right after the last data-out
    sc_core::sc_time cmd_slot_at;   // its start
    sc_core::sc_time register_free_at;  // page register copied to the cache register (cache read)
  };
  bool cache_read_, ecc_pipelined_;
  sc_core::sc_time t_ecc_, t_cache_;
  Parts parts_;
  std::vector<Die> dies_;
};

}  // namespace ufs
