// The controller's DMA to the data buffer over the on-chip bus: page data moves
// between an op's sector stamps and the buffer. Loosely timed: the data moves at once,
// annotated with the time it moves; the target must answer b_transport without wait()
// (the controller calls it from a method process).
#pragma once
#include <systemc>
#include <tlm>
#include <cstdint>
#include <string>
#include "hal/flash_types.h"

namespace ufs {

class FlashDma {
 public:
  // `owner`: the module named in an error.
  FlashDma(tlm::tlm_initiator_socket<>& socket, std::string owner) : socket_(socket), owner_(std::move(owner)) {}

  // Moves `sectors` sectors at `at` (not before now); returns when they are there.
  sc_core::sc_time transfer(tlm::tlm_command cmd, uint64_t address, SectorStamp* stamps, uint32_t sectors,
                            const sc_core::sc_time& at);

 private:
  tlm::tlm_initiator_socket<>& socket_;
  std::string owner_;
  tlm::tlm_generic_payload payload_;  // reused: one transfer at a time
};

}  // namespace ufs
