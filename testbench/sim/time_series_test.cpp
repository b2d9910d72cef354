// TimeSeries: completions land in the interval of their completion time; rates,
// MB/s and mean latencies per interval; CSV layout the plot script reads.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "output/time_series.h"

using ufs::TimeSeries;

namespace {
constexpr uint64_t kMs = 1'000'000'000ull;  // picoseconds
}

TEST_CASE("time series: bucketing by completion time", "[timeseries]") {
  TimeSeries ts(10 * kMs);
  ts.record(TimeSeries::OpClass::Read, 0, 4096, 100'000'000);           // t=0, 100 us
  ts.record(TimeSeries::OpClass::Read, 10 * kMs - 1, 4096, 300'000'000);  // still interval 0
  ts.record(TimeSeries::OpClass::Write, 10 * kMs + 1, 1'000'000, 2'000'000'000);  // interval 1
  ts.record(TimeSeries::OpClass::Read, 35 * kMs, 8192, 50'000'000);     // interval 3 (2 is empty)
  REQUIRE(ts.interval_count() == 4);
  const auto rows = ts.rows();
  REQUIRE(rows.size() == 4);
  CHECK(rows[0].time_s == Approx(0.010));
  CHECK(rows[0].reads == 2);
  CHECK(rows[0].read_iops == Approx(200.0));  // 2 per 10 ms
  CHECK(rows[0].read_mbps == Approx(8192 / 0.010 / 1e6));
  CHECK(rows[0].mean_read_lat_us == Approx(200.0));
  CHECK(rows[0].writes == 0);
  CHECK(rows[1].write_iops == Approx(100.0));
  CHECK(rows[1].write_mbps == Approx(100.0));  // 1 MB in 10 ms
  CHECK(rows[1].mean_write_lat_us == Approx(2000.0));
  CHECK(rows[2].reads == 0);
  CHECK(rows[2].read_iops == 0.0);
  CHECK(rows[3].time_s == Approx(0.040));
}

TEST_CASE("time series: a completion on a boundary closes the interval it ends", "[timeseries]") {
  TimeSeries ts(10 * kMs);
  ts.record(TimeSeries::OpClass::Read, 10 * kMs, 4096, 1);
  ts.record(TimeSeries::OpClass::Read, 20 * kMs, 4096, 1);
  REQUIRE(ts.interval_count() == 2);
  CHECK(ts.rows(20 * kMs)[1].time_s == Approx(0.020));
  CHECK(ts.rows(20 * kMs)[1].read_iops == Approx(100.0));
}

TEST_CASE("time series: a partial last interval uses its true length", "[timeseries]") {
  TimeSeries ts(10 * kMs);
  ts.record(TimeSeries::OpClass::Read, 12 * kMs, 4096, 1);
  const auto rows = ts.rows(15 * kMs);  // run ended 5 ms into interval 1
  REQUIRE(rows.size() == 2);
  CHECK(rows[1].time_s == Approx(0.015));
  CHECK(rows[1].read_iops == Approx(200.0));  // 1 per 5 ms
  CHECK(ts.rows(0)[1].read_iops == Approx(100.0));
}

TEST_CASE("time series: CSV header and empty latency cells", "[timeseries]") {
  TimeSeries ts(kMs);
  ts.record(TimeSeries::OpClass::Write, 0, 4096, 5'000'000);
  std::ostringstream out;
  ts.write_csv(out);
  std::istringstream in(out.str());
  std::string header, row, extra;
  std::getline(in, header);
  std::getline(in, row);
  CHECK(header == "time_s,read_iops,write_iops,read_mbps,write_mbps,mean_read_lat_us,mean_write_lat_us,power_mw");
  CHECK(row == "0.001,0,1000,0,4.096,,5,");  // no energy recorded: power_mw empty
  CHECK_FALSE(std::getline(in, extra));
  CHECK_THROWS(TimeSeries(0));
}

TEST_CASE("time series: a long idle gap costs two zero rows, not one per interval", "[timeseries]") {
  TimeSeries ts(10 * kMs);
  ts.record(TimeSeries::OpClass::Read, 5 * kMs, 4096, 1);              // interval 0
  ts.record(TimeSeries::OpClass::Read, 3600'000 * kMs + 5 * kMs, 4096, 1);  // an hour later
  ts.record(TimeSeries::OpClass::Write, 15 * kMs, 4096, 1);            // late arrival, interval 1
  REQUIRE(ts.interval_count() == 360'001);
  const auto rows = ts.rows();
  REQUIRE(rows.size() == 5);  // 0, 1, first empty (2), last empty (359'999), then 360'000
  CHECK(rows[1].writes == 1);
  CHECK(rows[2].time_s == Approx(0.030));
  CHECK(rows[2].reads + rows[2].writes == 0);
  CHECK(rows[3].time_s == Approx(3600.0));
  CHECK(rows[3].read_iops == 0.0);
  CHECK(rows[4].reads == 1);
  std::ostringstream out;
  ts.write_csv(out);
  CHECK(out.str().find("3600.01,100,0") != std::string::npos);
}

TEST_CASE("time series: power per interval from energy spans spread over their time", "[timeseries][energy]") {
  TimeSeries ts(10 * kMs);
  ts.record(TimeSeries::OpClass::Read, 5 * kMs, 4096, 1);   // interval 0
  ts.record(TimeSeries::OpClass::Read, 45 * kMs, 4096, 1);  // interval 4; 1..3 empty
  ts.record_energy(0, 10 * kMs, 100.0);                     // 10 mW
  ts.record_energy(10 * kMs, 30 * kMs, 400.0);              // 20 mW over two intervals
  ts.record_energy(30 * kMs, 50 * kMs, 100.0);              // 5 mW
  CHECK(ts.energy_uj(0, 50 * kMs) == Approx(600.0));
  CHECK(ts.energy_uj(5 * kMs, 15 * kMs) == Approx(50.0 + 100.0));
  const auto rows = ts.rows(50 * kMs);
  REQUIRE(rows.size() == 4);  // 0, first empty (1), last empty (3), 4
  CHECK(rows[0].power_mw == Approx(10.0));
  CHECK(rows[1].power_mw == Approx(20.0));
  CHECK(rows[2].power_mw == Approx(5.0));
  CHECK(rows[3].power_mw == Approx(5.0));
  // The mean power of the rows' intervals weighs back to the total energy.
  std::ostringstream out;
  ts.write_csv(out, 50 * kMs);
  CHECK(out.str().find(",10\n") != std::string::npos);
}
