#include "output/study_table.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace ufs {

std::string csv_field(std::string_view text) {
  const bool quote = text.find_first_of(",\"\r\n") != std::string_view::npos ||
                     (!text.empty() && (text.front() == ' ' || text.back() == ' '));
  if (!quote) return std::string(text);
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csv_number(double value) {
  if (std::isnan(value)) return "";
  char buf[40];
  // The fewest digits that read back exactly: a table a person reads, a value a script trusts.
  for (int digits = 6; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, value);
    if (std::strtod(buf, nullptr) == value) break;
  }
  return buf;
}

void write_study_csv(std::ostream& out, const std::string& study, const std::vector<ExperimentRow>& rows,
                     const std::vector<PlotPanel>& panels, const std::string& x_label) {
  out << "study,metric,x,published,model,unit,tolerance,panel,series,x_label\n";
  for (const auto& r : rows) {
    std::string panel = r.metric, series, axis = x_label;
    for (const auto& p : panels)
      for (size_t i = 0; i < p.metrics.size(); ++i)
        if (p.metrics[i] == r.metric) {
          panel = p.title;
          series = i < p.series.size() ? p.series[i] : r.metric;
          axis = p.x_label;
        }
    out << csv_field(study) << ',' << csv_field(r.metric) << ',' << csv_field(r.x) << ',' << csv_number(r.published)
        << ',' << csv_number(r.model) << ',' << csv_field(r.unit) << ',' << (r.tolerance > 0 ? csv_number(r.tolerance) : "")
        << ',' << csv_field(panel) << ',' << csv_field(series) << ',' << csv_field(axis) << '\n';
  }
}

}  // namespace ufs
