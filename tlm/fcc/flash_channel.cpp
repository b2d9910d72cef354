#include "fcc/flash_channel.h"

namespace ufs {

FlashChannel::FlashChannel(uint32_t mt_s, uint32_t width_bytes)
    : ps_per_byte_(1e6 / (double(mt_s) * double(width_bytes))) {}

}  // namespace ufs
