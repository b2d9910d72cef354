// One request as a trace reader sees it, still in bytes and trace time: the
// TraceSubmitter converts to 4 KiB blocks, folds and retimes, the same way for
// every format.
#pragma once
#include <cstdint>

#include "host/block_request.h"

namespace ufs {

struct TraceRecord {
  BlockOp op = BlockOp::Read;
  uint64_t offset_bytes = 0;
  uint64_t length_bytes = 0;  // 0 for Flush
  int64_t time_ps = 0;        // relative to the file's first record; may go backwards
  uint32_t stream = 0;        // id in the reader's StreamTable
  bool fua = false;
  bool preflush = false;      // a Flush precedes this request (blktrace "F" before the direction)
};

}  // namespace ufs
