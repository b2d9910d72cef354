// The controller's data buffer SRAM. Sector region (addresses below
// kByteRegionBase): one SectorStamp per 4 KiB, the payload's data_ptr carries
// stamps and data_length counts the full 4 KiB per stamp. Byte region
// (kByteRegionBase and up): raw bytes (parameter lists, descriptors).
// A sector write whose data_ptr is null fills with erased/unmapped stamps.
#pragma once
#include <systemc>
#include <tlm>
#include <vector>
#include "common/direct_target_socket.h"
#include "hal/flash_types.h"
#include "memory/sram_params.h"

namespace ufs {

class DataBuffer : public sc_core::sc_module {
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);

 public:
  DirectTargetSocket<DataBuffer, &DataBuffer::b_transport> socket;
  DataBuffer(sc_core::sc_module_name name, uint64_t sector_bytes, uint64_t byte_region_bytes, const SramParams& params);

  uint64_t sector_bytes() const { return stamps_.size() * kSectorBytes; }
  uint64_t byte_region_bytes() const { return bytes_.size(); }
  // Bytes read and written through the socket (4 KiB per sector stamp): the energy model's SRAM traffic.
  uint64_t bytes_read() const { return read_bytes_; }
  uint64_t bytes_written() const { return written_bytes_; }
  // Direct access for tests and debugging (no timing).
  const SectorStamp& stamp_at(uint64_t address) const { return stamps_[address / kSectorBytes]; }

 private:
  std::vector<SectorStamp> stamps_;
  std::vector<uint8_t> bytes_;
  sc_core::sc_time latency_;
  uint64_t read_bytes_ = 0, written_bytes_ = 0;
};

}  // namespace ufs
