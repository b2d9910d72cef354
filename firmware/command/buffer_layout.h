// The data buffer as the firmware lays it out: 4 KiB sector slots from address 0 (the read
// area, then the write cache), and a 4 KiB control area per tag in the byte region
// (parameter lists in, descriptors and sense data out).
#pragma once
#include <cstdint>
#include "hal/flash_types.h"

namespace ufs {

inline uint64_t slot_address(uint32_t slot) { return uint64_t(slot) * kSectorBytes; }
inline uint64_t control_address(uint8_t tag) { return kByteRegionBase + uint64_t(tag) * 4096; }

// Host DMA tokens of control data (parameter lists, INQUIRY...): the top bit.
constexpr uint64_t kControlToken = 1ull << 63;

}  // namespace ufs
