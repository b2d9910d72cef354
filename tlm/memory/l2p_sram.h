// The L2P SRAM: where the firmware keeps the map entries it has cached. The
// firmware's own data structures hold the entries' values; this model gives
// their accesses latency and bus traffic and counts them.
#pragma once
#include <systemc>
#include <tlm>
#include "common/direct_target_socket.h"
#include "memory/sram_params.h"

namespace ufs {

class L2pSram : public sc_core::sc_module {
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);

 public:
  DirectTargetSocket<L2pSram, &L2pSram::b_transport> socket;
  L2pSram(sc_core::sc_module_name name, uint64_t size_bytes, const SramParams& params);
  uint64_t size_bytes() const { return size_; }
  uint64_t reads() const { return reads_; }
  uint64_t writes() const { return writes_; }

 private:
  uint64_t size_;
  sc_core::sc_time latency_;
  uint64_t reads_ = 0, writes_ = 0;
};

}  // namespace ufs
