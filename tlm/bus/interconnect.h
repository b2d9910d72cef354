// On-chip interconnect: initiators (CPU, host interface DMA, flash demux DMA,
// crypto) reach targets (data buffer, L2P SRAM) by address. Loosely timed:
// each transaction adds arbitration + beats at the bus clock to the annotated
// delay, in the target port's first free gap at or after it is ready (contention emerges).
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <vector>
#include "bus/interconnect_params.h"
#include "common/busy_calendar.h"
#include "common/direct_target_socket.h"

namespace ufs {

class Interconnect : public sc_core::sc_module {
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);

 public:
  // Initiators bind here, any number (their backward paths kept per binding).
  DirectTargetSocket<Interconnect, &Interconnect::b_transport, 0, sc_core::SC_ZERO_OR_MORE_BOUND> targ;
  tlm_utils::multi_passthrough_initiator_socket<Interconnect> init; // bound to targets

  Interconnect(sc_core::sc_module_name name, const InterconnectParams& params);

  // Route [base, base + size) to the target bound at init port `port` (binding order).
  // `relative`: the target sees offsets from base (register blocks); otherwise full addresses.
  void map(uint64_t base, uint64_t size, unsigned port, bool relative = false);

  sc_core::sc_time port_busy_time(unsigned port) const { return ports_[port].busy_time(); }
  uint64_t bytes_moved() const { return bytes_; }
  uint64_t transactions() const { return transactions_; }

 private:
  struct Route { uint64_t base, size; unsigned port; bool relative; };
  InterconnectParams params_;
  sc_core::sc_time cycle_;
  std::vector<Route> routes_;
  std::vector<BusyCalendar> ports_;  // one per target port: transfers to different targets overlap
  uint64_t bytes_ = 0, transactions_ = 0;
};

}  // namespace ufs
