// Study CSVs (output/study_table): free-text labels with commas, quotes and line breaks
// keep their columns (issue 17: "burst write, WB on" shifted the published value into the
// model column), panels put compared metrics in one, NaN is an empty cell.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "output/study_table.h"

using ufs::csv_field;
using ufs::csv_number;
using ufs::ExperimentRow;
using ufs::PlotPanel;

namespace {

// RFC 4180 reader (what Python's csv module does), enough for these tables.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1);
  std::string field;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += text[++i];
      else if (c == '"') quoted = false;
      else field += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      rows.back().push_back(field);
      field.clear();
    } else if (c == '\n') {
      rows.back().push_back(field);
      field.clear();
      rows.emplace_back();
    } else {
      field += c;
    }
  }
  if (rows.back().empty()) rows.pop_back();
  return rows;
}

// A table like writebooster's and hotstorage17's: labels with commas, a compared pair.
std::vector<ExperimentRow> sample_rows() {
  return {{"burst write, WB on", "2GiB, 1MiB QD32", 1568, 1151.25, "MiB/s", 0},
          {"burst write, WB off", "2GiB, 1MiB QD32", 556, 391, "MiB/s", 0.15},
          {"sequential read gain", "128 KiB, 4 thr", ufs::kModelOnly, -0.1, "%", 0},
          {"  quoted \"label\"", "x", 1, 2, "", 0},
          {"random read gain", "1 threads", 63, 77.5, "%", 0.2},
          {"random read gain", "4 threads", 63, 78, "%", 0.2},
          {"random read gain", "16 threads", 63, 73, "%", 0.2}};
}

const std::vector<PlotPanel> kPanels = {
    {"burst write", "write, size and depth", {"burst write, WB on", "burst write, WB off"}, {"WB on", "WB off"}}};

std::string sample_csv() {
  std::ostringstream out;
  ufs::write_study_csv(out, "study, with comma", sample_rows(), kPanels, "threads");
  return out.str();
}

}  // namespace

TEST_CASE("csv_field quotes what would shift a column", "[study_table]") {
  CHECK(csv_field("plain") == "plain");
  CHECK(csv_field("") == "");
  CHECK(csv_field("a,b") == "\"a,b\"");
  CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csv_field("two\nlines") == "\"two\nlines\"");
  CHECK(csv_field("  indented") == "\"  indented\"");
}

TEST_CASE("csv_number reads back exactly and NaN is an empty cell", "[study_table]") {
  CHECK(csv_number(1568) == "1568");
  CHECK(csv_number(0.15) == "0.15");
  CHECK(csv_number(101523.4) == "101523.4");
  CHECK(std::strtod(csv_number(1.0 / 3).c_str(), nullptr) == 1.0 / 3);
  CHECK(csv_number(ufs::kModelOnly) == "");
}

TEST_CASE("study CSV keeps every column of labels with commas and quotes", "[study_table]") {
  const auto rows = parse_csv(sample_csv());
  REQUIRE(rows.size() == 8);
  const std::vector<std::string> header = {"study", "metric", "x",     "published", "model",
                                           "unit",  "tolerance", "panel", "series", "x_label"};
  CHECK(rows[0] == header);
  for (const auto& r : rows) REQUIRE(r.size() == header.size());
  CHECK(rows[1] == std::vector<std::string>{"study, with comma", "burst write, WB on", "2GiB, 1MiB QD32", "1568",
                                            "1151.25", "MiB/s", "", "burst write", "WB on", "write, size and depth"});
  CHECK(rows[2][6] == "0.15");
  CHECK(rows[2][8] == "WB off");
  // No published figure: an empty cell, not 0; a metric in no panel is its own, with the study's x label.
  CHECK(rows[3][3] == "");
  CHECK(rows[3][7] == "sequential read gain");
  CHECK(rows[3][8] == "");
  CHECK(rows[3][9] == "threads");
  CHECK(rows[4][1] == "  quoted \"label\"");
}

// Writes the sample table to $UFS_STUDY_CSV for testbench/cli/study_plot_test.py, which
// draws it with sim/plot.py (the C++ writer's output through the plot).
TEST_CASE("study CSV sample file", "[.study-csv-file]") {
  const char* path = std::getenv("UFS_STUDY_CSV");
  REQUIRE(path);
  std::ofstream(path) << sample_csv();
}
