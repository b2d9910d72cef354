// Decodes the Linux block layer's RWBS string (blktrace/blkparse, and the mobile
// traces' rw_flag): an optional leading F (preflush), then the direction R, W,
// D (discard) or N (no data), then modifiers F (FUA), A (readahead), S (sync),
// M (metadata), E (secure erase, with D). E.g. "R", "WS", "FWFS", "DS", "FN".
#pragma once
#include <string_view>

#include "host/block_request.h"

namespace ufs {

struct RwbsInfo {
  enum class Kind { Data, FlushOnly, NoData } kind = Kind::Data;
  BlockOp op = BlockOp::Read;  // Read, Write or Unmap for Data; Flush for FlushOnly
  bool fua = false;
  bool preflush = false;
};

// False if the string is not RWBS.
bool decode_rwbs(std::string_view rwbs, RwbsInfo& info);

}  // namespace ufs
