#include "bus/interconnect.h"
#include "common/sim_time.h"

namespace ufs {

using sc_core::sc_time;

Interconnect::Interconnect(sc_core::sc_module_name name, const InterconnectParams& params)
    : sc_core::sc_module(name), targ("targ", this), init("init"), params_(params),
      cycle_(1e3 / params.clock_mhz, sc_core::SC_NS) {}

void Interconnect::map(uint64_t base, uint64_t size, unsigned port, bool relative) {
  routes_.push_back(Route{base, size, port, relative});
  if (ports_.size() <= port) ports_.resize(port + 1);
}

void Interconnect::b_transport(tlm::tlm_generic_payload& gp, sc_time& delay) {
  const uint64_t a = gp.get_address();
  const Route* route = nullptr;
  for (const Route& r : routes_)
    if (a >= r.base && a - r.base < r.size) { route = &r; break; }
  if (!route) { gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE); return; }
  const sc_time now = sim_now();
  const uint64_t beats = (gp.get_data_length() + params_.width_bytes - 1) / params_.width_bytes;
  // Integer product: what sc_time * double gives (exact below 2^53 ps) without its double round trip.
  const sc_time busy = time_of_value(cycle_.value() * (params_.arbitration_cycles + beats));
  const sc_time start = ports_[route->port].reserve(now + delay, busy);
  bytes_ += gp.get_data_length();
  ++transactions_;
  delay = start + busy - now;
  if (route->relative) gp.set_address(a - route->base);
  init[route->port]->b_transport(gp, delay);
  gp.set_address(a);
}

}  // namespace ufs
