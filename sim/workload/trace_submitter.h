// Replays a trace as a RequestSubmitter, streaming: records are read as the host
// pulls them (only fold=remap keeps a table, of the touched blocks).
// Per record, in this order: skip, time clamp (a timestamp that goes backwards is
// raised to the previous one, counted and reported by warning(): real traces merged from
// per-CPU buffers go back by microseconds now and then, so this is no error), start/duration
// window, limit, then
// 512 B -> 4 KiB conversion (start = floor(byte/4096), end = ceil; unaligned ones
// are widened and counted), folding, and retiming: arrival = sum of the gaps since
// the first replayed record, each gap first capped at idle_compress, then
// multiplied by scale. Closed mode sets arrival 0 and timed() false.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "block_remapper.h"
#include "host/block_request.h"
#include "trace_options.h"
#include "trace_reader.h"

namespace ufs {

struct TraceCounters {
  uint64_t records = 0;          // request records read from the file (incl. skipped ones)
  uint64_t replayed = 0;         // records turned into requests (what limit counts)
  uint64_t requests = 0;         // BlockRequests handed out (incl. preflushes and remap splits)
  uint64_t widened = 0;          // not 4 KiB aligned: widened to whole blocks
  uint64_t split_pieces = 0;     // extra requests from fold=remap splitting
  uint64_t folded = 0;           // requests moved by fold=modulo
  uint64_t time_reversals = 0;   // timestamps earlier than their predecessor (clamped)
  uint64_t idle_compressed = 0;  // gaps shortened by idle_compress
  uint64_t bad_lines = 0;        // malformed lines skipped (skip_bad=1)
  uint64_t ignored = 0;          // valid lines without block I/O (e.g. RWBS "N")
  uint64_t lines = 0;            // lines read
  uint64_t remapped_chunks = 0;  // distinct chunks (remap_chunk, default 4 KiB) in the fold=remap table
};

class TraceSubmitter : public RequestSubmitter {
 public:
  // device_blocks = 0: no capacity (no fold, no range check), for statistics.
  TraceSubmitter(std::unique_ptr<TraceReader> reader, const TraceOptions& options, uint64_t device_blocks);

  bool next(BlockRequest& out) override;
  uint32_t max_outstanding() const override { return options_.qd; }
  bool timed() const override { return options_.mode == TraceMode::Open; }
  std::string stream_name(uint32_t stream) const override;
  // Timestamps that went backwards: how many, where the first was and by how much.
  std::string warning() const override;

  uint32_t stream_count() const { return reader_->stream_count(); }
  TraceCounters counters() const;
  const TraceReader& reader() const { return *reader_; }
  const TraceOptions& options() const { return options_; }

 private:
  bool fetch(TraceRecord& record);
  void expand(const TraceRecord& record);
  void push_folded(BlockRequest request, uint64_t first_block, uint64_t blocks);

  std::unique_ptr<TraceReader> reader_;
  TraceOptions options_;
  uint64_t device_blocks_;
  std::unique_ptr<BlockRemapper> remapper_;
  std::vector<BlockRequest> pending_;  // requests of the current record (reused)
  size_t pending_pos_ = 0;
  TraceCounters counters_;
  bool done_ = false;
  uint64_t skipped_ = 0;
  bool have_last_ = false;
  int64_t last_time_ = 0;   // last (clamped) trace time
  bool have_base_ = false;
  int64_t base_time_ = 0;   // first record after skip: origin of start/duration
  bool have_prev_ = false;
  int64_t prev_time_ = 0;   // previous replayed record
  uint64_t arrival_ps_ = 0;
  double arrival_frac_ = 0;
  uint64_t first_reversal_line_ = 0;  // line of the first timestamp that went backwards
  int64_t first_reversal_ps_ = 0;    // ... and by how much
};

}  // namespace ufs
