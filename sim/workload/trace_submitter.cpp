#include "trace_submitter.h"

#include <cmath>

#include "spec_values.h"
#include "workload_error.h"

namespace ufs {

TraceSubmitter::TraceSubmitter(std::unique_ptr<TraceReader> reader, const TraceOptions& options,
                               uint64_t device_blocks)
    : reader_(std::move(reader)), options_(options), device_blocks_(device_blocks) {
  if (options_.fold == FoldMode::Modulo && device_blocks_ == 0)
    throw WorkloadError("fold=modulo: needs the device capacity");
  if (options_.fold == FoldMode::Remap) remapper_ = std::make_unique<BlockRemapper>();
  pending_.reserve(16);
}

std::string TraceSubmitter::stream_name(uint32_t stream) const {
  return stream < reader_->stream_count() ? reader_->stream_name(stream) : RequestSubmitter::stream_name(stream);
}

TraceCounters TraceSubmitter::counters() const {
  TraceCounters c = counters_;
  c.bad_lines = reader_->bad_lines();
  c.ignored = reader_->ignored();
  c.lines = reader_->line_number();
  c.remapped_chunks = remapper_ ? remapper_->size() : 0;
  return c;
}

bool TraceSubmitter::fetch(TraceRecord& record) {
  while (!done_) {
    if (options_.limit > 0 && counters_.replayed >= options_.limit) break;
    if (!reader_->next(record)) break;
    ++counters_.records;
    if (skipped_ < options_.skip) {
      ++skipped_;
      continue;
    }
    int64_t t = record.time_ps;
    if (have_last_ && t < last_time_) {
      if (counters_.time_reversals++ == 0) {
        first_reversal_line_ = reader_->line_number();
        first_reversal_ps_ = last_time_ - t;
      }
      t = last_time_;
    }
    have_last_ = true;
    last_time_ = t;
    if (!have_base_) {
      have_base_ = true;
      base_time_ = t;
    }
    const uint64_t since = static_cast<uint64_t>(t - base_time_);
    if (since < options_.start_ps) continue;
    if (options_.duration_ps > 0 && since - options_.start_ps >= options_.duration_ps) break;

    if (have_prev_) {
      uint64_t gap = static_cast<uint64_t>(t - prev_time_);
      if (options_.idle_compress_ps > 0 && gap > options_.idle_compress_ps) {
        gap = options_.idle_compress_ps;
        ++counters_.idle_compressed;
      }
      // Carry the fractional picoseconds so scaling does not drift over millions of gaps.
      const double scaled = static_cast<double>(gap) * options_.scale + arrival_frac_;
      const double whole = std::floor(scaled);
      arrival_frac_ = scaled - whole;
      // Simulated time is 64-bit picoseconds: refuse a replay that would run past it.
      if (whole >= static_cast<double>(kMaxSimulatedPs - arrival_ps_))
        throw WorkloadError(reader_->where() + ": the replayed arrival time passes " + format_duration_ps(kMaxSimulatedPs) +
                            " (scale=" + std::to_string(options_.scale) + "); use idle_compress or a smaller scale");
      arrival_ps_ += static_cast<uint64_t>(whole);
    }
    have_prev_ = true;
    prev_time_ = t;
    ++counters_.replayed;
    return true;
  }
  done_ = true;
  if (counters_.replayed == 0) {
    // A run without requests would report nothing as if it were a result.
    std::string why = counters_.records == 0 ? "it holds no request records"
                      : skipped_ >= counters_.records ? "skip=" + std::to_string(options_.skip) + " passes its " +
                                                            std::to_string(counters_.records) + " records"
                                                      : "no record falls within start/duration";
    throw WorkloadError(reader_->path() + ": no requests to replay: " + why + " (" +
                        std::to_string(reader_->line_number()) + " lines read)");
  }
  return false;
}

std::string TraceSubmitter::warning() const {
  if (counters_.time_reversals == 0) return "";
  return reader_->path() + ": " + std::to_string(counters_.time_reversals) +
         " timestamps went backwards (the first at line " + std::to_string(first_reversal_line_) + ", by " +
         format_duration_ps(static_cast<uint64_t>(first_reversal_ps_)) + "); each request was replayed at its "
         "predecessor's time";
}

void TraceSubmitter::push_folded(BlockRequest request, uint64_t first, uint64_t blocks) {
  switch (options_.fold) {
    case FoldMode::None:
      if (device_blocks_ > 0 && first + blocks > device_blocks_)
        throw WorkloadError(reader_->where() + ": request at 4 KiB block " + std::to_string(first) + " (+" +
                            std::to_string(blocks) + ") lies beyond the device's " +
                            format_bytes(device_blocks_ * kLogicalBlockBytes) + "; use fold=modulo or fold=remap");
      request.lba = first;
      request.blocks = static_cast<uint32_t>(blocks);
      pending_.push_back(request);
      return;
    case FoldMode::Modulo: {
      if (blocks > device_blocks_)
        throw WorkloadError(reader_->where() + ": request of " + std::to_string(blocks) +
                            " blocks is larger than the device");
      uint64_t lba = first % device_blocks_;
      if (lba + blocks > device_blocks_) lba = device_blocks_ - blocks;  // keep it contiguous, ending at the end
      if (lba != first) ++counters_.folded;
      request.lba = lba;
      request.blocks = static_cast<uint32_t>(blocks);
      pending_.push_back(request);
      return;
    }
    case FoldMode::Remap: {
      // Map block by block; start a new piece wherever the new addresses stop being contiguous.
      uint64_t run_start = 0, run_length = 0;
      for (uint64_t i = 0; i < blocks; ++i) {
        const uint64_t block = first + i;
        const uint64_t chunk = options_.remap_chunk_blocks;
        const uint64_t mapped = chunk == 1 ? remapper_->map(block) : remapper_->map(block / chunk) * chunk + block % chunk;
        if (device_blocks_ > 0 && mapped >= device_blocks_)
          throw WorkloadError(reader_->where() + ": fold=remap: the trace touches more distinct chunks than the device's " +
                              format_bytes(device_blocks_ * kLogicalBlockBytes) + " holds");
        if (run_length > 0 && mapped == run_start + run_length) {
          ++run_length;
          continue;
        }
        if (run_length > 0) {
          request.lba = run_start;
          request.blocks = static_cast<uint32_t>(run_length);
          pending_.push_back(request);
          ++counters_.split_pieces;
        }
        run_start = mapped;
        run_length = 1;
      }
      request.lba = run_start;
      request.blocks = static_cast<uint32_t>(run_length);
      pending_.push_back(request);
      return;
    }
  }
}

void TraceSubmitter::expand(const TraceRecord& record) {
  BlockRequest base;
  base.arrival_ps = options_.mode == TraceMode::Open ? arrival_ps_ : 0;
  base.stream = record.stream;
  if (record.preflush || record.op == BlockOp::Flush) {
    BlockRequest flush = base;
    flush.op = BlockOp::Flush;
    flush.blocks = 0;
    pending_.push_back(flush);
    if (record.op == BlockOp::Flush) return;
  }
  uint64_t end_byte = 0;
  if (__builtin_add_overflow(record.offset_bytes, record.length_bytes, &end_byte) || end_byte > UINT64_MAX - 4095)
    throw WorkloadError(reader_->where() + ": request end beyond 16 EiB");
  const uint64_t first = record.offset_bytes / kLogicalBlockBytes;
  const uint64_t end = (end_byte + kLogicalBlockBytes - 1) / kLogicalBlockBytes;
  if ((record.offset_bytes | record.length_bytes) % kLogicalBlockBytes != 0) ++counters_.widened;
  const uint64_t blocks = end - first;
  if (blocks > UINT32_MAX)
    throw WorkloadError(reader_->where() + ": request of " + std::to_string(blocks) + " blocks is too large");
  base.op = record.op;
  base.fua = (record.fua || options_.fua) && record.op == BlockOp::Write;
  push_folded(base, first, blocks);
}

bool TraceSubmitter::next(BlockRequest& out) {
  if (pending_pos_ >= pending_.size()) {
    pending_.clear();
    pending_pos_ = 0;
    TraceRecord record;
    if (!fetch(record)) return false;
    expand(record);
  }
  out = pending_[pending_pos_++];
  ++counters_.requests;
  return true;
}

}  // namespace ufs
