#include "output/time_series.h"

#include <algorithm>
#include <iomanip>
#include <stdexcept>

namespace ufs {

TimeSeries::TimeSeries(uint64_t interval_ps) : interval_ps_(interval_ps) {
  if (interval_ps_ == 0) throw std::invalid_argument("TimeSeries: interval must be > 0");
}

void TimeSeries::record(OpClass op, uint64_t complete_ps, uint64_t bytes, uint64_t latency_ps) {
  // Intervals are (start, end]: a completion exactly at 10 ms counts in the row labelled 0.010 s,
  // so a run ending on an interval boundary gets no empty trailing interval.
  const uint64_t index = complete_ps == 0 ? 0 : (complete_ps - 1) / interval_ps_;
  // Completions arrive nearly in time order: the newest interval is the usual case.
  if (bins_.empty() || bins_.back().index < index) {
    bins_.emplace_back();
    bins_.back().index = index;
  }
  auto it = bins_.end() - 1;
  if (it->index != index) {
    it = std::lower_bound(bins_.begin(), bins_.end(), index,
                          [](const Bin& b, uint64_t i) { return b.index < i; });
    if (it->index != index) {
      it = bins_.insert(it, Bin{});
      it->index = index;
    }
  }
  Bin& bin = *it;
  const int k = op == OpClass::Read ? 0 : 1;
  ++bin.count[k];
  bin.bytes[k] += bytes;
  bin.latency_ps[k] += static_cast<long double>(latency_ps);
}

void TimeSeries::record_energy(uint64_t from_ps, uint64_t to_ps, double uj) {
  if (to_ps <= from_ps) return;
  if (!spans_.empty() && from_ps < spans_.back().to_ps) from_ps = spans_.back().to_ps;  // keep them apart
  if (to_ps <= from_ps) return;
  spans_.push_back(Span{from_ps, to_ps, uj});
}

double TimeSeries::energy_uj(uint64_t from_ps, uint64_t to_ps) const {
  double uj = 0;
  auto it = std::lower_bound(spans_.begin(), spans_.end(), from_ps,
                             [](const Span& s, uint64_t t) { return s.to_ps <= t; });
  for (; it != spans_.end() && it->from_ps < to_ps; ++it) {
    const uint64_t a = std::max(from_ps, it->from_ps), b = std::min(to_ps, it->to_ps);
    if (b > a) uj += it->uj * double(b - a) / double(it->to_ps - it->from_ps);
  }
  return uj;
}

std::vector<TimeSeries::Row> TimeSeries::rows(uint64_t end_ps) const {
  std::vector<Row> out;
  out.reserve(bins_.size() * 3);
  // Mean power of [start, end): mW = uJ / s / 1000.
  const auto power = [&](uint64_t start, uint64_t end) {
    return end > start ? energy_uj(start, end) * 1e-3 / (double(end - start) * 1e-12) : 0.0;
  };
  const auto empty_row = [&](uint64_t i) {
    Row r;
    r.time_s = static_cast<double>((i + 1) * interval_ps_) * 1e-12;
    r.power_mw = power(i * interval_ps_, (i + 1) * interval_ps_);
    out.push_back(r);
  };
  uint64_t next = 0;  // first interval not yet written
  for (size_t k = 0; k < bins_.size(); ++k) {
    const Bin& b = bins_[k];
    const uint64_t i = b.index;
    if (i > next) {  // a run of empty intervals [next, i)
      empty_row(next);
      if (i - 1 > next) empty_row(i - 1);
    }
    next = i + 1;
    const uint64_t start = i * interval_ps_;
    uint64_t end = start + interval_ps_;
    if (k + 1 == bins_.size() && end_ps > start && end_ps < end) end = end_ps;  // partial last interval
    const double seconds = static_cast<double>(end - start) * 1e-12;
    Row r;
    r.time_s = static_cast<double>(end) * 1e-12;
    r.reads = b.count[0];
    r.writes = b.count[1];
    r.read_iops = static_cast<double>(b.count[0]) / seconds;
    r.write_iops = static_cast<double>(b.count[1]) / seconds;
    r.read_mbps = static_cast<double>(b.bytes[0]) / seconds / 1e6;
    r.write_mbps = static_cast<double>(b.bytes[1]) / seconds / 1e6;
    r.mean_read_lat_us = b.count[0] ? static_cast<double>(b.latency_ps[0] / b.count[0]) * 1e-6 : 0.0;
    r.mean_write_lat_us = b.count[1] ? static_cast<double>(b.latency_ps[1] / b.count[1]) * 1e-6 : 0.0;
    r.power_mw = power(start, end);
    out.push_back(r);
  }
  return out;
}

void TimeSeries::write_csv(std::ostream& out, uint64_t end_ps) const {
  out << kCsvHeader << '\n';
  const auto old_precision = out.precision();
  out << std::setprecision(9);
  for (const Row& r : rows(end_ps)) {
    out << r.time_s << ',' << r.read_iops << ',' << r.write_iops << ',' << r.read_mbps << ',' << r.write_mbps << ',';
    if (r.reads) out << r.mean_read_lat_us;
    out << ',';
    if (r.writes) out << r.mean_write_lat_us;
    out << ',';
    if (has_energy()) out << r.power_mw;
    out << '\n';
  }
  out.precision(old_precision);
}

}  // namespace ufs
