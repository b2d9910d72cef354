#include "memory/data_buffer.h"
#include <cstring>

namespace ufs {

DataBuffer::DataBuffer(sc_core::sc_module_name name, uint64_t sector_bytes, uint64_t byte_region_bytes,
                       const SramParams& params)
    : sc_core::sc_module(name), socket("socket", this), stamps_(sector_bytes / kSectorBytes), bytes_(byte_region_bytes),
      latency_(1e3 / params.clock_mhz * params.latency_cycles, sc_core::SC_NS) {
}

void DataBuffer::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const uint64_t a = gp.get_address();
  const uint64_t len = gp.get_data_length();
  const bool write = gp.is_write();
  delay += latency_;
  if (a >= kByteRegionBase) {
    const uint64_t off = a - kByteRegionBase;
    if (off + len > bytes_.size()) { gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE); return; }
    if (write) std::memcpy(&bytes_[off], gp.get_data_ptr(), len);
    else std::memcpy(gp.get_data_ptr(), &bytes_[off], len);
  } else {
    const uint64_t first = a / kSectorBytes;
    const uint64_t n = (len + kSectorBytes - 1) / kSectorBytes;
    if (a % kSectorBytes || first + n > stamps_.size()) {
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    auto* data = reinterpret_cast<SectorStamp*>(gp.get_data_ptr());
    if (write) {
      for (uint64_t i = 0; i < n; ++i) stamps_[first + i] = data ? data[i] : SectorStamp{};
    } else {
      for (uint64_t i = 0; i < n; ++i) data[i] = stamps_[first + i];
    }
  }
  (write ? written_bytes_ : read_bytes_) += len;
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace ufs
