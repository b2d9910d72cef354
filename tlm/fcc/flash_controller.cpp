#include "fcc/flash_controller.h"
#include "common/sim_time.h"

namespace ufs {

namespace {
// The parameters, once checked: a problem is reported before any part is built on them.
const FlashControllerParams& checked(const FlashControllerParams& params, const NandParams& nand,
                                     const char* module) {
  std::string err = params.validate();
  if (err.empty()) err = nand.validate();
  if (err.empty()) FlashTopology::geometry_for(params, nand, &err);
  if (!err.empty()) SC_REPORT_ERROR(module, err.c_str());
  return params;
}
}  // namespace

FlashController::FlashController(sc_core::sc_module_name name, const FlashControllerParams& params,
                                 const NandParams& nand)
    : sc_core::sc_module(name),
      dma("dma"),
      params_(checked(params, nand, this->name())),
      topology_(params_, nand),
      queues_(params_, topology_, pool_),
      budget_(params_.max_concurrent_programs),
      dma_port_(dma, this->name()),
      events_("events", FccDeliver{&scheduler_}),
      ledger_(topology_.dies()),
      poller_(params_, topology_, timeline_),
      sequencer_(params_, DieSequencer::Parts{topology_, pool_, queues_, budget_, dma_port_, timeline_, events_,
                                              ledger_, poller_}),
      suspend_(params_.suspend_for_read, topology_.dies(), sequencer_, this->name()),
      scheduler_(params_.cache_read, topology_.dies(),
                 DieScheduler::Parts{pool_, queues_, sequencer_, suspend_, events_}) {}

void FlashController::submit(const FlashOp& op, const sc_core::sc_time& delay, int trace_tag, uint64_t cmd) {
  if (op.address.die >= topology_.dies()) {
    SC_REPORT_ERROR(name(), ("submit: die " + std::to_string(op.address.die) + " beyond the device").c_str());
    return;
  }
  scheduler_.submit(op, sim_now() + delay, trace_tag, cmd);
}

uint64_t FlashController::power_cut() {
  uint64_t torn = 0;
  budget_.clear();
  for (uint32_t die = 0; die < topology_.dies(); ++die) {
    torn += sequencer_.cut_power(die);
    torn += suspend_.cut_power(die);
    queues_.clear(die);
  }
  return torn;
}

}  // namespace ufs
