#include "memory/l2p_sram.h"

namespace ufs {

L2pSram::L2pSram(sc_core::sc_module_name name, uint64_t size_bytes, const SramParams& params)
    : sc_core::sc_module(name), socket("socket", this), size_(size_bytes),
      latency_(1e3 / params.clock_mhz * params.latency_cycles, sc_core::SC_NS) {
}

void L2pSram::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  delay += latency_;
  if (gp.is_write()) ++writes_; else ++reads_;
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace ufs
