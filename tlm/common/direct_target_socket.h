// A TLM-2.0 target socket that is its own forward interface and calls its module's
// blocking transport, a member function fixed at compile time. An initiator's
// b_transport through it is one virtual call into the module, where
// tlm_utils::simple_target_socket adds its fw_process and a member-function-pointer call
// (and multi_passthrough_target_socket a callback binder too): on the hot paths (link,
// host interface, bus, data buffer) those thunks cost ~30 instructions per hop.
//
// Same structure as before: it binds like any tlm_target_socket (N bindings, the
// initiators' backward paths kept), so tracing, waves and other configurations see no
// difference. Loosely timed only, as every target here: nb_transport_fw completes at once
// through b_transport (the base protocol's early completion, phase BEGIN_RESP), no DMI,
// no debug transport (0 bytes), as simple_target_socket without those registered.
#pragma once
#include <systemc>
#include <tlm>

namespace ufs {

template <class Module, void (Module::*Transport)(tlm::tlm_generic_payload&, sc_core::sc_time&), int N = 1,
          sc_core::sc_port_policy POL = sc_core::SC_ONE_OR_MORE_BOUND>
class DirectTargetSocket : public tlm::tlm_target_socket<32, tlm::tlm_base_protocol_types, N, POL>,
                           private tlm::tlm_fw_transport_if<> {
 public:
  DirectTargetSocket(const char* name, Module* module)
      : tlm::tlm_target_socket<32, tlm::tlm_base_protocol_types, N, POL>(name), module_(module) {
    this->bind(static_cast<tlm::tlm_fw_transport_if<>&>(*this));
  }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override {
    (module_->*Transport)(trans, delay);
  }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override {
    if (phase != tlm::BEGIN_REQ) {
      SC_REPORT_ERROR(this->name(), "nb_transport_fw: only BEGIN_REQ (completed at once) is supported");
      trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
      return tlm::TLM_COMPLETED;
    }
    (module_->*Transport)(trans, delay);
    phase = tlm::BEGIN_RESP;
    return tlm::TLM_COMPLETED;
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }

  Module* module_;
};

}  // namespace ufs
