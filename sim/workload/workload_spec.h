// A synthetic workload described with fio's option names, e.g.
//   rw=randread,bs=4k,iodepth=32,numjobs=4,size=8g,count=500000,seed=7
// Keys (fio defaults unless noted):
//   rw         read|write|randread|randwrite|randrw|rw|readwrite|trim|randtrim (default read)
//   bs         block size, multiple of 4 KiB (default 4k); alias blocksize
//   bsrange    lo-hi: each request's size is a random multiple of lo in [lo, hi]
//   iodepth    outstanding requests per job (default 1)
//   numjobs    number of RequestSubmitters (default 1)
//   size       address range, bytes or N% of the device (default: device end - offset)
//   offset     start of the range, bytes or N% (default 0)
//   count      data requests in total across all jobs (0 = see below)
//   runtime    simulated time limit ("2s"); the host stops issuing after it
//   rwmixread / rwmixwrite   read percentage for randrw and rw (default 50)
//   seed       PRNG seed (default 1); alias randseed
//   fua        1 = writes carry FUA
//   align      alignment of random offsets (default: the smallest block size)
//   thinktime  gap between a job's arrivals in us (makes the job open loop)
//   rate_iops  arrivals per second per job (open loop); arrival=uniform|poisson|bmodel:B
//              (bmodel: bursty arrivals of Wang et al.'s b-model with bias B in [0.5, 1), over
//              the run's count / rate_iops seconds, 1 ms slots; needs count; bmodel_arrivals.h)
//   random_distribution  random | zipf:THETA
//   fsync      issue a Flush after every N writes of a job (0 = never)
// Termination: count if given; else runtime (jobs run until the host stops them);
// else one pass: `size` bytes in total across all jobs, as fio moves `size` bytes.
#pragma once
#include <cstdint>
#include <string>

namespace ufs {

enum class RwPattern : uint8_t { Read, Write, RandRead, RandWrite, RandRw, SeqRw, Trim, RandTrim };
enum class ArrivalProcess : uint8_t { Uniform, Poisson, BModel };

struct WorkloadSpec {
  RwPattern rw = RwPattern::Read;
  uint64_t bs_min = 4096;          // bytes; bs_min == bs_max unless bsrange
  uint64_t bs_max = 4096;
  uint32_t iodepth = 1;
  uint32_t numjobs = 1;
  uint64_t size_bytes = 0;         // 0 = to the end of the device
  double size_percent = 0;         // size=N% (resolved against the device)
  std::string size_text;           // as written, for messages
  uint64_t offset_bytes = 0;
  double offset_percent = 0;
  std::string offset_text;
  uint64_t count = 0;              // total data requests across jobs; 0 = unlimited/one pass
  uint64_t runtime_ps = 0;         // 0 = none
  uint32_t rwmixread = 50;
  uint64_t seed = 1;
  bool fua = false;
  uint64_t align_bytes = 0;        // 0 = bs_min
  uint64_t thinktime_ps = 0;
  double rate_iops = 0;            // per job; 0 = closed loop
  ArrivalProcess arrival = ArrivalProcess::Uniform;
  double bmodel_bias = 0;          // arrival=bmodel:B
  double zipf_theta = 0;           // 0 = uniform random offsets
  uint32_t fsync_every = 0;

  bool is_random() const;
  // Arrival times are generated (thinktime or rate_iops) rather than "as fast as iodepth allows".
  bool open_loop() const { return thinktime_ps > 0 || rate_iops > 0; }
};

// Parses the spec; throws WorkloadError naming the key ("workload spec: unknown key 'bsz'",
// "bs: '4q' is not a size", "bs: '6k' is not a multiple of 4 KiB").
WorkloadSpec parse_workload_spec(const std::string& text);

const char* rw_pattern_name(RwPattern rw);

}  // namespace ufs
