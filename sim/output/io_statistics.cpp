#include "output/io_statistics.h"

#include <algorithm>

namespace ufs {

IoStatistics::IoStatistics(uint64_t interval_ps) : series_(interval_ps) {}

const char* IoStatistics::op_name(BlockOp op) {
  switch (op) {
    case BlockOp::Read: return "read";
    case BlockOp::Write: return "write";
    case BlockOp::Flush: return "flush";
    case BlockOp::Unmap: return "unmap";
  }
  return "other";
}

void IoStatistics::on_complete(const IoRecord& record) {
  ++completed_;
  last_complete_ps_ = std::max(last_complete_ps_, record.complete_ps);
  if (record.status != 0) {
    ++errors_;
    return;
  }
  const BlockOp op = record.request.op;
  const size_t k = index(op);
  const uint64_t latency = record.complete_ps >= record.issue_ps ? record.complete_ps - record.issue_ps : 0;
  const uint64_t start = std::min(record.arrival_ps, record.issue_ps);  // arrival 0 = "as soon as possible"
  const uint64_t e2e = record.complete_ps >= start ? record.complete_ps - start : 0;
  latency_[k].record(latency);
  e2e_latency_[k].record(record.arrival_ps == 0 ? latency : e2e);
  ++count_[k];
  // Unmap lengths are not data moved: only reads and writes count bytes.
  const uint64_t moved = (op == BlockOp::Read || op == BlockOp::Write)
                             ? static_cast<uint64_t>(record.request.blocks) * kLogicalBlockBytes
                             : 0;
  bytes_[k] += moved;
  if (op == BlockOp::Read || op == BlockOp::Write)
    series_.record(op == BlockOp::Read ? TimeSeries::OpClass::Read : TimeSeries::OpClass::Write, record.complete_ps,
                   moved, latency);
}

nlohmann::json IoStatistics::throughput_json(uint64_t end_ps) const {
  const double seconds = end_ps > 0 ? static_cast<double>(end_ps) * 1e-12 : 0.0;
  auto rate = [seconds](double v) { return seconds > 0 ? v / seconds : 0.0; };
  const auto r = index(BlockOp::Read), w = index(BlockOp::Write);
  return nlohmann::json{
      {"read_iops", rate(static_cast<double>(count_[r]))},
      {"write_iops", rate(static_cast<double>(count_[w]))},
      {"read_mbps", rate(static_cast<double>(bytes_[r])) / 1e6},
      {"write_mbps", rate(static_cast<double>(bytes_[w])) / 1e6},
      {"total_iops", rate(static_cast<double>(count_[r] + count_[w]))},
      {"total_mbps", rate(static_cast<double>(bytes_[r] + bytes_[w])) / 1e6},
  };
}

nlohmann::json IoStatistics::latency_json() const {
  nlohmann::json out = nlohmann::json::object();
  for (size_t k = 0; k < kOps; ++k)
    if (!latency_[k].empty()) out[op_name(static_cast<BlockOp>(k))] = latency_[k].summary_json(1e-6);
  return out;
}

nlohmann::json IoStatistics::e2e_latency_json() const {
  nlohmann::json out = nlohmann::json::object();
  for (size_t k = 0; k < kOps; ++k)
    if (!e2e_latency_[k].empty()) out[op_name(static_cast<BlockOp>(k))] = e2e_latency_[k].summary_json(1e-6);
  return out;
}

void IoStatistics::write_csvs(const RunFolder& folder, uint64_t end_ps) const {
  for (size_t k = 0; k < kOps; ++k)
    if (!latency_[k].empty()) folder.write_latency_cdf(op_name(static_cast<BlockOp>(k)), latency_[k], 1e-6);
  folder.write_time_series(series_, end_ps);
}

}  // namespace ufs
