#include "fcc/flash_dma.h"
#include "common/sim_time.h"

namespace ufs {

using sc_core::sc_time;

sc_time FlashDma::transfer(tlm::tlm_command cmd, uint64_t address, SectorStamp* stamps, uint32_t sectors,
                           const sc_time& at) {
  const sc_time now = sim_now();
  sc_time delay = at > now ? at - now : sc_core::SC_ZERO_TIME;
  const uint32_t bytes = uint32_t(sectors * kSectorBytes);
  payload_.set_command(cmd);
  payload_.set_address(address);
  payload_.set_data_ptr(reinterpret_cast<unsigned char*>(stamps));
  payload_.set_data_length(bytes);
  payload_.set_streaming_width(bytes);
  payload_.set_byte_enable_ptr(nullptr);
  payload_.set_dmi_allowed(false);
  payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  socket_->b_transport(payload_, delay);
  if (payload_.is_response_error())
    SC_REPORT_ERROR(owner_.c_str(), ("DMA to the data buffer failed: " + payload_.get_response_string()).c_str());
  return now + delay;
}

}  // namespace ufs
