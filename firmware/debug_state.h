// Stall diagnostics: one line per die and queue saying what the FTL is waiting for, read
// from the parts' public state (the platform prints it when a run stops making progress).
#pragma once
#include <string>
#include "device_firmware.h"

namespace ufs {

std::string debug_state(const DeviceFirmware& fw);

}  // namespace ufs
