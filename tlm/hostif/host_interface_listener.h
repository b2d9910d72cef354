// What the host interface tells the device's firmware CPU. Implemented by the CPU model
// (tlm/cpu) and by bench fakes. Every call carries the simulated time `at` at which the
// event happens, which may lie in the future (the interface is loosely timed): the
// listener queues it by time. data_in_done may be called from inside send_data_in.
#pragma once
#include <systemc>
#include <cstdint>
#include "hal/host_types.h"

namespace ufs {

class HostInterfaceListener {
 public:
  virtual ~HostInterfaceListener() = default;
  // A COMMAND UPIU was decoded and admitted to the device queue.
  virtual void command_arrived(const HostCommand& cmd, const sc_core::sc_time& at) = 0;
  // Every byte asked for by request_data_out(tag, ..., token) is in the data buffer.
  virtual void data_out_done(uint8_t tag, uint64_t token, const sc_core::sc_time& at) = 0;
  // The data of send_data_in(tag, ..., token) has left the data buffer and the device.
  virtual void data_in_done(uint8_t tag, uint64_t token, const sc_core::sc_time& at) = 0;
};

}  // namespace ufs
