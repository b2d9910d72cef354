// Synthetic smartphone traces from the per-app statistics of seed 002 (Zhou et al.,
// IISWC'15; smartphone_profiles.h):
//   smartphone:APP[+APP...][,count=N,seed=S,scale=X,qd=N,span=SIZE,offset=SIZE]
// One stream per app (named after it), open-loop arrivals. Several apps joined by
// '+' are an app-switch scenario: the apps run one after the other (count requests
// each, or each one's Table III number), each distinct app its own stream and its
// own span (app k at offset + k x span); an app that comes back continues where it
// left (same addresses, same recent history), as a relaunched app re-reads its
// files. Per request:
//  * op: write with Table III's write-request share; a sequential request keeps the
//    op of the one it continues (a file read or appended in order);
//  * size: RequestSizeSampler per op with Table III's mean read / write size, capped
//    at Table III's maximum, the single-page (4 KiB) share of Section III-B;
//  * address: with Table IV's spatial locality the request starts where the previous
//    one ended; with a re-access share it starts at the address of one of the last
//    1024 requests (calibrated on a pilot run of the same length and span so the
//    generated Table IV temporal locality matches); otherwise uniformly in
//    [offset, offset+span);
//  * arrival: a request either arrives in a burst, an exponential gap of mean 100 us
//    behind the previous one (block-layer bursts from one fsync or read-ahead: below
//    the 1 ms bucket where Fig. 6 puts most of Movie's gaps), or after an idle gap:
//    at least Table IV's mean service time (the app waited for its previous request:
//    synchronous I/O, which is how Booting keeps 58% NoWait at 76% utilisation) plus
//    an exponential whose mean makes the overall rate Table IV's arrival rate. The
//    burst share is calibrated (bisection on a pilot) so that a FIFO server taking
//    Table IV's mean service time per request sees Table IV's NoWait ratio: the
//    share of requests that met an idle eMMC.
// Options: count (default: Table III's number of requests, so the run lasts about
// Table IV's duration), seed (default 1), scale (multiplies every gap), qd
// (outstanding requests, default 32), span (default 4g) and offset (default 0): the
// address range.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "host/block_request.h"
#include "random_generator.h"
#include "request_size_sampler.h"
#include "smartphone_profiles.h"

namespace ufs {

struct SmartphoneSpec {
  std::vector<std::string> apps;
  uint64_t count = 0;  // 0 = Table III's number of requests
  uint64_t seed = 1;
  double scale = 1.0;
  uint32_t qd = 32;
  uint64_t span_bytes = 4ull << 30;
  uint64_t offset_bytes = 0;
  // The stream's reads as writes of the same extents, back to back, its writes left out: a
  // precondition that puts data wherever the stream will read (SSDsim pre-processes a trace so).
  bool prefill = false;
};

bool is_smartphone_spec(const std::string& spec);
// Throws WorkloadError: "smartphone: unknown app 'x' (idle, callin, ...)",
// "smartphone options: unknown key 'x'", "scale: 'abc' is not a number".
SmartphoneSpec parse_smartphone_spec(const std::string& spec);

// How one app's profile becomes generation parameters (for reports and tests).
struct SmartphoneAppModel {
  const SmartphoneAppProfile* profile = nullptr;
  double write_fraction = 0;       // Table III Write Reqs. %
  RequestSizeSampler read_sizes;   // Table III Ave. R Size, Max. Size; single-page share
  RequestSizeSampler write_sizes;  // Table III Ave. W Size, Max. Size; single-page share
  double burst_fraction = 0;       // calibrated for Table IV's NoWait ratio
  double burst_gap_ps = 0;         // mean gap inside a burst
  double idle_gap_ps = 0;          // mean gap before a request that opens a burst
  double idle_gap_floor_ps = 0;    // shortest such gap: Table IV Mean Serv.
  double sequential_fraction = 0;  // Table IV spatial locality
  double reaccess_fraction = 0;    // calibrated for Table IV temporal locality
  uint64_t default_count = 0;      // Table III Num. of Reqs.
};
// One inter-arrival gap of the model (before scale), in ps.
double smartphone_gap_ps(const SmartphoneAppModel& model, RandomGenerator& rng);
// Builds the model, including the re-access calibration: a pilot run of `count`
// requests (0 = Table III's; at most 100000) over `span_blocks`.
SmartphoneAppModel make_smartphone_app_model(const SmartphoneAppProfile& profile, uint64_t count,
                                             uint64_t span_blocks);

class SmartphoneWorkload : public RequestSubmitter {
 public:
  // device_blocks = 0: no capacity check (statistics).
  SmartphoneWorkload(const SmartphoneSpec& spec, uint64_t device_blocks);
  ~SmartphoneWorkload() override;

  bool next(BlockRequest& out) override;
  uint32_t max_outstanding() const override { return spec_.qd; }
  bool timed() const override { return true; }
  std::string stream_name(uint32_t stream) const override;

  const SmartphoneSpec& spec() const { return spec_; }
  const SmartphoneAppModel& model(uint32_t stream = 0) const;
  uint32_t stream_count() const { return static_cast<uint32_t>(streams_.size()); }
  uint64_t request_limit() const { return limit_; }

  class AppGenerator;

 private:
  bool generate(BlockRequest& out);  // the stream's next request as generated
  SmartphoneSpec spec_;
  std::vector<std::string> streams_;                        // distinct apps, by stream id
  std::vector<std::unique_ptr<SmartphoneAppModel>> models_;  // stable addresses: generators refer to them
  std::vector<std::unique_ptr<AppGenerator>> apps_;
  std::vector<uint32_t> visits_;        // the app sequence, as stream ids
  std::vector<uint64_t> visit_limits_;  // requests per visit
  size_t visit_ = 0;
  uint64_t in_visit_ = 0;
  uint64_t limit_ = 0;
  uint64_t issued_ = 0;
  uint64_t arrival_ps_ = 0;
  double frac_ps_ = 0;
};

}  // namespace ufs
