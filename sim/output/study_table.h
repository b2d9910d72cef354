// A study's table, published figures beside the model's, as the CSV sim/plot.py draws
// (contract in sim/output/README.md). Labels are free text ("burst write, WB on"): every
// field goes through csv_field, so a comma, a quote or a line break never shifts a column.
#pragma once
#include <limits>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace ufs {

// Published value of a row the paper gives no figure for: printed as "-", empty in the CSV.
constexpr double kModelOnly = std::numeric_limits<double>::quiet_NaN();

struct ExperimentRow {
  std::string metric;
  std::string x;
  double published = 0;
  double model = 0;
  std::string unit;
  double tolerance = 0;  // relative band the project accepts (0 = shape only)
};

// How a study's rows are drawn: the metrics named here share one panel (titled `title`),
// one series each (labelled `series[i]`, or the metric's name when `series` is shorter),
// so compared configurations (HPB on vs off) sit side by side. `x_label` names the x axis.
struct PlotPanel {
  std::string title;
  std::string x_label;
  std::vector<std::string> metrics;
  std::vector<std::string> series;
};

// One CSV field (RFC 4180): quoted when it holds a comma, a quote, a line break or
// leading/trailing blanks; quotes doubled inside.
std::string csv_field(std::string_view text);

// A number as a CSV field: shortest form that reads back to the same double; NaN is empty.
std::string csv_number(double value);

// The study's CSV: a header, then one row per ExperimentRow:
//   study,metric,x,published,model,unit,tolerance,panel,series,x_label
// panel/series/x_label come from the panel naming the row's metric; a metric in no panel
// is its own panel (its name) with `x_label`.
void write_study_csv(std::ostream& out, const std::string& study, const std::vector<ExperimentRow>& rows,
                     const std::vector<PlotPanel>& panels, const std::string& x_label);

}  // namespace ufs
