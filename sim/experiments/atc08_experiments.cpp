// Studies against Agrawal et al., "Design Tradeoffs for SSD Performance" (USENIX
// ATC'08, seed 004) and the validation suite of the same team's DiskSim SSD model
// (ssdmodel/valid/runvalid), on the preset agrawal-slc-2008.
//
// What is driven how:
// - package reads and the DiskSim workloads go through the whole host path
//   (`ufs-sim run` child processes, as every study);
// - a page copy between packages and an intra-plane copy-back are flash-controller
//   operations the host cannot ask for (the FTL issues copy-back only for GC, and a
//   host read + write crosses the host link): they run on the flash demux alone
//   (flash_pipeline_runner.h) in a forked process, with the preset's NAND and
//   channel parameters.
// - the DiskSim synthetic workloads are regenerated with DiskSim's synthgen rules
//   (see write_synthgen_trace) into DiskSim ASCII traces in the run folder and
//   replayed open loop with FUA writes (DiskSim's SSD has no write cache: a write
//   completes when programmed).
#include <sys/wait.h>
#include <unistd.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>
#include "config/config_tree.h"
#include "experiments/experiment.h"
#include "experiments/flash_pipeline_runner.h"

namespace ufs {

namespace {

constexpr const char* kPreset = "agrawal-slc-2008";

std::vector<std::string> preset_args(std::vector<std::string> sets) {
  std::vector<std::string> a = {"--preset", kPreset};
  for (auto& s : sets) {
    a.push_back("--set");
    a.push_back(std::move(s));
  }
  return a;
}

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& more) {
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

// ---------------------------------------------------------------------------
// The preset's NAND and channel parameters, for the demux-only scenarios.

struct FlashSetup {
  FlashControllerParams fcc;
  NandParams nand;
};

// Reads the preset through the config tree, so the demux-only runs use exactly
// the parameters `ufs-sim run --preset agrawal-slc-2008` would.
FlashSetup preset_flash(const std::vector<std::pair<std::string, std::string>>& sets) {
  ConfigTree tree;
  tree.load(kPreset);
  for (const auto& kv : sets) tree.set(kv.first, kv.second);
  FlashSetup s;
  tree.bind_section("fcc", s.fcc);
  tree.bind_section("nand", s.nand);
  return s;
}

// Runs the scenario in a child process (SystemC elaborates once per process) and
// returns its result through a pipe.
FlashPipelineResult run_pipeline_in_child(const std::string& name, const FlashPipelineSpec& spec) {
  std::fprintf(stderr, "  running %s (flash demux alone) ...\n", name.c_str());
  int fd[2];
  if (pipe(fd) != 0) throw std::runtime_error("experiment: cannot create a pipe");
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("experiment: cannot start a simulation process");
  if (pid == 0) {
    close(fd[0]);
    const FlashPipelineResult r = run_flash_pipeline(spec);
    const ssize_t n = write(fd[1], &r, sizeof r);
    _exit(n == ssize_t(sizeof r) ? 0 : 1);
  }
  close(fd[1]);
  FlashPipelineResult r;
  const ssize_t n = read(fd[0], &r, sizeof r);
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (n != ssize_t(sizeof r) || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("experiment: flash scenario '" + name + "' failed");
  return r;
}

// ---------------------------------------------------------------------------
// 1. One package, page reads (seed: 8000 pages/s = 32 MB/s without interleaving,
//    10000 pages/s = 40 MB/s with the two dies interleaved on the package's bus).

// The paper's MB/s are 4 KB pages x pages/s / 1000.
double pages_to_mb(double pages_per_s) { return pages_per_s * 4.0 / 1000.0; }

std::vector<ExperimentRow> package_reads(ExperimentContext& ctx) {
  // One package on its own bus; 4 KiB sequential reads at QD32 over data written beforehand
  // (the firmware stripes consecutive pages over the package's dies).
  // Without interleaving only one operation is in flight in the package at a time:
  // DiskSim's 'Number of parallel units = 1'. That is a package seen as a single die
  // (same 8 planes of 2048 blocks), multi-plane off (preset).
  const std::vector<std::string> work = {"--precondition-fill", "64m", "--workload",
                                         "rw=read,bs=4k,iodepth=32,size=64m,count=20000"};
  nlohmann::json serial, inter;
  ctx.submit("one_package_no_interleave",
             with(preset_args({"fcc.channels=1", "nand.dies_per_package=1", "nand.planes_per_die=8"}), work), serial);
  ctx.submit("one_package_interleaved", with(preset_args({"fcc.channels=1"}), work), inter);
  ctx.wait();
  const double s = op_value(serial, "read", "iops"), i = op_value(inter, "read", "iops");
  // Cross-check on the demux alone (no host path): the same two rates.
  FlashPipelineSpec spec;
  {
    const FlashSetup f = preset_flash({{"fcc.channels", "1"}, {"nand.dies_per_package", "1"},
                                       {"nand.planes_per_die", "8"}});
    spec.fcc = f.fcc;
    spec.nand = f.nand;
  }
  spec.kind = FlashPipelineKind::Read;
  spec.pages = 2000;
  const FlashPipelineResult ds = run_pipeline_in_child("demux_no_interleave", spec);
  {
    const FlashSetup f = preset_flash({{"fcc.channels", "1"}});
    spec.fcc = f.fcc;
    spec.nand = f.nand;
  }
  const FlashPipelineResult di = run_pipeline_in_child("demux_interleaved", spec);
  return {
      {"page reads, no interleaving", "host QD32", 8000, s, "pages/s", 0.10},
      {"page reads, dies interleaved", "host QD32", 10000, i, "pages/s", 0.10},
      {"read bandwidth, no interleaving", "host QD32", 32, pages_to_mb(s), "MB/s", 0.10},
      {"read bandwidth, interleaved", "host QD32", 40, pages_to_mb(i), "MB/s", 0.10},
      {"page reads, no interleaving", "demux only", 8000, 1e6 / ds.us_per_page, "pages/s", 0.10},
      {"page reads, dies interleaved", "demux only", 10000, 1e6 / di.us_per_page, "pages/s", 0.10},
  };
}

// ---------------------------------------------------------------------------
// 2. Page copy between two packages (seed: about 100 us per page with interleaving,
//    although one program alone takes 200 us); copy-back inside a plane skips the bus.

std::vector<ExperimentRow> page_copy(ExperimentContext&) {
  auto spec_for = [](FlashPipelineKind kind, const std::vector<std::pair<std::string, std::string>>& sets) {
    const FlashSetup f = preset_flash(sets);
    FlashPipelineSpec s;
    s.fcc = f.fcc;
    s.nand = f.nand;
    s.kind = kind;
    s.pages = 1024;
    s.in_flight = 8;
    return s;
  };
  const FlashPipelineResult inter =
      run_pipeline_in_child("copy_interleaved", spec_for(FlashPipelineKind::Copy, {{"fcc.channels", "2"}}));
  const FlashPipelineResult serial = run_pipeline_in_child(
      "copy_no_interleave", spec_for(FlashPipelineKind::Copy, {{"fcc.channels", "2"},
                                                               {"nand.dies_per_package", "1"},
                                                               {"nand.planes_per_die", "8"},
                                                               {"fcc.cache_program", "false"}}));
  const FlashPipelineResult cb =
      run_pipeline_in_child("copy_back_interleaved", spec_for(FlashPipelineKind::CopyBack, {{"fcc.channels", "1"}}));
  const FlashPipelineResult cb1 = run_pipeline_in_child(
      "copy_back_one_die", spec_for(FlashPipelineKind::CopyBack, {{"fcc.channels", "1"},
                                                                  {"nand.dies_per_package", "1"},
                                                                  {"nand.planes_per_die", "8"}}));
  // Rows without a published figure are shape only (published 0).
  return {
      {"copy between 2 packages", "interleaved", 100, inter.us_per_page, "us/page", 0.10},
      {"copy between 2 packages", "no interleave", kModelOnly, serial.us_per_page, "us/page", 0},
      {"copy-back in a plane", "2 dies", kModelOnly, cb.us_per_page, "us/page", 0},
      {"copy-back in a plane", "1 die", kModelOnly, cb1.us_per_page, "us/page", 0},
      {"copy-back bus bytes", "per page", kModelOnly, cb.channel_bytes / cb.ops_completed, "B", 0},
      {"inter-package copy bus bytes", "per page", kModelOnly, inter.channel_bytes / inter.ops_completed, "B", 0},
  };
}

// ---------------------------------------------------------------------------
// 3. DiskSim SSD validation (ssdmodel/valid/runvalid): 250K-request synthetic
//    workloads and the IOzone trace, mean SSD response time.

// drand48: the generator DiskSim's synthgen draws from (48-bit LCG).
class Drand48 {
 public:
  explicit Drand48(uint32_t seed) : x_((uint64_t(seed) << 16) | 0x330E) {}
  double next() {
    x_ = (0x5DEECE66DULL * x_ + 0xB) & ((1ULL << 48) - 1);
    return double(x_) / double(1ULL << 48);
  }

 private:
  uint64_t x_;
};

// The runvalid synthetic workloads (ssd-{sr,rr,sw,rw}250k.parv): one generator,
// 'Storage capacity per device = 7018904' sectors, 'Blocking factor = 8',
// inter-arrival uniform(0, 1) ms (general and sequential), sizes exponential with
// mean 8 sectors rounded up to the blocking factor (zero redrawn: 1 page with
// p = 1 - 1/e, 2 with p(1-p), ...), probability of sequential access 1 or 0.
// synthio_generatenextio: a sequential request starts where the previous ended and
// keeps its size; when it would run off the end a random request is drawn instead.
// Sizes of the sequential runs: DiskSim's stream keeps the first request's size and
// its published 0.132/0.310 ms are one 4 KiB page (25 + 102.4 us, 200 + 102.4 us
// plus transfers), so the sequential streams start with one page.
void write_synthgen_trace(const std::string& path, bool sequential, bool read, uint32_t requests, uint32_t seed) {
  constexpr int64_t kSectors = 7018904, kBlocking = 8;
  const int64_t blks = kSectors / kBlocking;  // 877363 pages
  Drand48 rng(seed);
  auto size_pages = [&] {
    for (;;) {
      const int64_t x = int64_t(-8.0 * std::log(rng.next()));
      const int64_t b = (x + kBlocking - 1) / kBlocking;
      if (b > 0) return b;
    }
  };
  auto random_request = [&](int64_t& blk, int64_t& cnt) {
    do {
      blk = int64_t(rng.next() * double(blks));
      cnt = size_pages();
    } while (blk + cnt >= blks);
  };
  std::ofstream out(path);
  if (!out) throw std::runtime_error("experiment: cannot write " + path);
  double t = 0;
  int64_t blk = 0, cnt = 1;
  random_request(blk, cnt);
  if (sequential) cnt = 1;
  char line[96];
  for (uint32_t i = 0; i < requests; ++i) {
    if (i > 0) {
      t += rng.next();  // uniform(0, 1) ms
      if (sequential && blk + 2 * cnt < blks) blk += cnt;
      else random_request(blk, cnt);
    }
    std::snprintf(line, sizeof line, "%.6f 0 %lld %lld %d\n", t, (long long)(blk * kBlocking),
                  (long long)(cnt * kBlocking), read ? 1 : 0);
    out << line;
  }
}

std::vector<ExperimentRow> disksim_validation(ExperimentContext& ctx) {
  const std::string iozone = require_traces({"ssd-iozone-aligned2-100K.trace"})[0];
  uint32_t requests = 250000;  // as runvalid; UFS_DISKSIM_REQUESTS shortens a trial run
  if (const char* env = std::getenv("UFS_DISKSIM_REQUESTS")) requests = uint32_t(std::max(1000L, std::atol(env)));
  // DiskSim's parv: 'Number of parallel units = 1' (one operation at a time per package:
  // a single-die view of the package, 8 planes of 2048 blocks) and no write cache
  // (FUA writes; no cache program either: DiskSim serialises transfer and program on an
  // element). The synthetic workloads span the first 7018904 sectors, written beforehand
  // (DiskSim starts with every logical page mapped).
  const std::vector<std::string> parv =
      preset_args({"nand.dies_per_package=1", "nand.planes_per_die=8", "fcc.cache_program=false"});
  struct Synth {
    const char* name;
    const char* label;
    bool sequential, read;
    double published_ms;
  };
  const Synth synth[] = {{"ssd-sr250k", "sequential read", true, true, 0.132},
                         {"ssd-rr250k", "random read", false, true, 0.136},
                         {"ssd-sw250k", "sequential write", true, false, 0.310},
                         {"ssd-rw250k", "random write", false, false, 0.329}};
  std::vector<ExperimentRow> rows;
  uint64_t exported_blocks = 0;
  // Step 1: the four synthetic workloads. Step 2 needs their device's exported size.
  for (const Synth& s : synth) {
    const std::string trace = ctx.out_dir() + "/" + s.name + ".trace";
    write_synthgen_trace(trace, s.sequential, s.read, requests, 42);
    ctx.submit(s.name, with(parv, {"--precondition-fill", "3593678848", "--workload",
                                   "trace:disksim:" + trace + ",fua=1,qd=256"}),
               [&rows, &exported_blocks, s, requests](const nlohmann::json& st) {
                 exported_blocks = st.at("ftl").at("logical_blocks").get<uint64_t>();
                 rows.push_back({s.label, std::to_string(requests / 1000) + "K synthgen", s.published_ms * 1000,
                                 op_value(st, s.read ? "read" : "write", "mean"), "us", 0.15});
               });
  }
  ctx.wait();
  // DiskSim starts with every logical page mapped: fill the whole exported space first.
  const auto io = ctx.run("ssd-iozone", with(parv, {"--precondition-fill", std::to_string(exported_blocks * 4096),
                                                     "--workload",
                                                     "trace:disksim:" + iozone + ",fua=1,qd=256"}));
  rows.push_back({"IOzone trace", "100K writes", 6.394276 * 1000, op_value(io, "write", "mean"), "us", 0.25});
  return rows;
}

// ---------------------------------------------------------------------------
// 4. Logical page size (seed, section 4.2): TPC-C at block-sized (256 KiB) logical pages
//    with unit depth (each logical page on one element) averages over 20 ms, two orders
//    of magnitude above 4 KiB logical pages (about 200 us). The load here is TPC-C's
//    shape, synthetic: 8 KiB random requests aligned to 8 KiB, two reads per write,
//    arriving at the trace's average rate per SSD (the seed: about 300 IOPS), on the
//    DiskSim view of the SSD (one operation at a time per package, first come first
//    served like DiskSim's element queues: no read-first; no write cache: FUA writes).
//    At 256 KiB every 8 KiB write reads the other 248 KiB of its logical
//    page and programs all 64 pages of it on one package; the rest is queueing.

//
//    What the seed says of the trace: about 300 IOPS per SSD on average (the trace spread over
//    six SSDs), and at 4 KiB pages about zero requests queued per package. It gives no mix,
//    sizes or burstiness: 8 KiB (SQL Server pages) and 2:1 reads are TPC-C's shape, and the
//    first model's arrivals were Poisson. What each write costs: DiskSim's public SSD model
//    charges a block-mapped write (its "simple" policy, ssdmodel/ssd_timing.c) one erase plus
//    a read and a program per page copied inside the chip, about 1.5 + 64 x 0.225 = 15.9 ms on
//    this package; the model's read-modify-write moves the rest of the logical page over the
//    40 MB/s bus twice (about 29 ms of package time), so the per-write cost is not what is
//    missing. Real disk traffic is bursty and self-similar, which Poisson arrivals miss
//    (Wang et al., ICDE 2002): the second set of runs draws the same requests' arrivals from
//    their b-model (arrival=bmodel:B), at three biases, as the TPC-C trace's own bias is not
//    published. At 4 KiB a package is about 1% busy and stays near zero queue either way;
//    at 256 KiB it is about a third busy, where bursts queue.

// One panel per figure of logical_page(), the two page sizes its series, arrivals on x.
std::vector<PlotPanel> logical_page_panels() {
  std::vector<PlotPanel> panels;
  for (const char* figure : {"mean I/O latency", "  reads (8 KiB)", "  writes (8 KiB)",
                             "  flash sectors read per write (RMW)", "  package busy (array + bus)"}) {
    const std::string f = figure;
    panels.push_back({f.substr(f.find_first_not_of(' ')), "arrivals", {f + ", 4 KiB pages", f + ", 256 KiB pages"},
                      {"4 KiB logical pages", "256 KiB logical pages"}});
  }
  return panels;
}

std::vector<ExperimentRow> logical_page(ExperimentContext& ctx) {
  const std::vector<std::string> base = {"nand.dies_per_package=1", "nand.planes_per_die=8",
                                         "fcc.cache_program=false", "fcc.read_first=false", "firmware.write_cache_kib=2048"};
  auto work = [](const std::string& arrival) {
    return std::vector<std::string>{
        "--precondition-fill", "4g", "--workload",
        "rw=randrw,rwmixread=67,bs=8k,align=8k,iodepth=64,size=4g,count=6000,fua=1,rate_iops=300,arrival=" + arrival +
            ",seed=7"};
  };
  struct Size {
    uint32_t kib;
    double published_us;
    const char* label;
  };
  const Size sizes[] = {{4, 200, "4 KiB pages"}, {256, 20000, "256 KiB pages"}};
  // Arrivals: Poisson (the first model) and the b-model at three biases.
  struct Arrival { const char* spec; const char* label; const char* run; };
  const Arrival arrivals[] = {{"poisson", "Poisson", ""},
                              {"bmodel:0.55", "b-model 0.55", "_b55"},
                              {"bmodel:0.6", "b-model 0.6", "_b60"},
                              {"bmodel:0.65", "b-model 0.65", "_b65"},
                              {"bmodel:0.7", "b-model 0.7", "_b70"},
                              {"bmodel:0.8", "b-model 0.8", "_b80"}};
  constexpr int kArrivals = int(std::size(arrivals));
  std::vector<ExperimentRow> rows;
  double mean[kArrivals][2] = {};
  // x: the arrivals; the logical page size is the series (metric "..., 4 KiB pages", one
  // panel per figure: logical_page_panels()).
  for (int a = 0; a < kArrivals; ++a)
    for (int i = 0; i < 2; ++i) {
      std::vector<std::string> sets = base;
      sets.push_back("firmware.logical_page_kib=" + std::to_string(sizes[i].kib));
      const std::string x = arrivals[a].label, size = std::string(", ") + sizes[i].label;
      ctx.submit("tpcc_like_lp" + std::to_string(sizes[i].kib) + arrivals[a].run, with(preset_args(sets), work(arrivals[a].spec)),
                 [&rows, &mean, &sizes, i, a, x, size](const nlohmann::json& st) {
        const double r = op_value(st, "read", "mean"), w = op_value(st, "write", "mean");
        const double nr = op_value(st, "read", "count"), nw = op_value(st, "write", "count");
        mean[a][i] = (r * nr + w * nw) / (nr + nw);
        // The seed gives 20 ms as a lower bound ("over 20 ms"): the row passes at or above it.
        // Bands for the first model's rows; the b-model rows are a sweep over an unpublished bias.
        rows.push_back({"mean I/O latency" + size, x, sizes[i].published_us, mean[a][i], "us", i == 0 && a == 0 ? 0.25 : 0});
        rows.push_back({"  reads (8 KiB)" + size, x, kModelOnly, r, "us", 0});
        rows.push_back({"  writes (8 KiB)" + size, x, kModelOnly, w, "us", 0});
        rows.push_back({"  flash sectors read per write (RMW)" + size, x, kModelOnly,
                        st.at("ftl").at("rmw_flash_sectors").get<double>() / nw, "", 0});
        // One die per package and one operation at a time: a package is busy while its die
        // works or its bus carries a transfer (the seed: at 256 KiB the SSD barely keeps up).
        const auto& u = st.at("utilisation");
        double busy = 0;
        for (const auto& d : u.at("die_busy")) busy += d.get<double>();
        for (const auto& c : u.at("channel_busy")) busy += c.get<double>();
        rows.push_back({"  package busy (array + bus)" + size, x, kModelOnly,
                        100.0 * busy / double(u.at("die_busy").size()), "%", 0});
      });
    }
  ctx.wait();
  for (int a = 0; a < kArrivals; ++a) {
    const std::string x = arrivals[a].label;
    rows.push_back({"256 KiB over 20 ms (yes=1)", x, 1, mean[a][1] > 20000 ? 1.0 : 0.0, "flag", a == 0 ? 0.01 : 0});
    rows.push_back({"ratio 256 KiB / 4 KiB (two orders of magnitude)", x, 100,
                    mean[a][0] > 0 ? mean[a][1] / mean[a][0] : 0, "x", a == 0 ? 0.5 : 0});
  }
  // The seed's two constraints bound the trace's burstiness: at 4 KiB about 200 us (requests
  // queue hardly at all), at 256 KiB over 20 ms. Which biases meet both?
  std::string per_bias, meeting;
  for (int a = 1; a < kArrivals; ++a) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s%s: %.1f ms (%.0fx; 4 KiB %.0f us)", per_bias.empty() ? "" : ", ",
                  arrivals[a].label + 8, mean[a][1] / 1000, mean[a][0] > 0 ? mean[a][1] / mean[a][0] : 0, mean[a][0]);
    per_bias += buf;
    if (mean[a][1] > 20000 && std::fabs(mean[a][0] / 200.0 - 1) <= 0.25)
      meeting += std::string(meeting.empty() ? "" : ", ") + (arrivals[a].label + 8);
  }
  std::printf("note: Poisson arrivals (the first model): %.1f ms at 256 KiB, %.0fx the 4 KiB case. The same requests "
              "with b-model arrivals (Wang et al., ICDE 2002), by bias: %s. The seed publishes no bias for its TPC-C "
              "trace; its two findings (4 KiB about 200 us, 256 KiB over 20 ms) hold together at bias %s. DiskSim's "
              "own block-mapped write (erase + in-chip copies, ~15.9 ms) costs less than this model's "
              "read-modify-write over the bus.\n\n",
              mean[0][1] / 1000, mean[0][0] > 0 ? mean[0][1] / mean[0][0] : 0, per_bias.c_str(),
              meeting.empty() ? "none of these" : meeting.c_str());
  return rows;
}

// ---------------------------------------------------------------------------
// 5. Copy-back in GC (seed, section 4.4): moving a victim's valid pages inside their
//    plane with copy-back instead of through the controller (read out over the bus, then
//    written back in) lowers TPC-C's cleaning cost by about 40% ("average cleaning time"
//    per block, the seed's table). TPC-C's shape as in study 4 (8 KiB random, 2:1
//    read:write, 300 IOPS Poisson, FUA, DiskSim view with first-come-first-served
//    element queues), 4 KiB logical pages, on a filled SSD with 256 blocks per plane
//    (4 GiB raw instead of 32 GiB, so GC reaches steady state in 300K requests; the
//    spare (15%) and the cleaning threshold (5% of each die's blocks) as the preset).
//    Uniform random overwrites leave greedy victims mostly valid: every moved page
//    costs one tR and one tPROG on the die either way; the buffered path adds two
//    page transfers on the bus (and waits for write-cache units), copy-back only reads
//    the page's spare bytes out for the LBAs.

std::vector<ExperimentRow> copy_back_gc(ExperimentContext& ctx) {
  const std::vector<std::string> work = {
      "--precondition-fill", "3480m", "--workload",
      "rw=randrw,rwmixread=67,bs=8k,align=8k,iodepth=64,size=3480m,count=300000,fua=1,rate_iops=300,arrival=poisson,"
      "seed=7"};
  double clean_us[2] = {0, 0};
  std::vector<ExperimentRow> rows;
  for (int cb = 0; cb < 2; ++cb) {
    const char* label = cb ? "copy-back" : "through the controller";
    ctx.submit(cb ? "tpcc_like_copy_back" : "tpcc_like_buffered",
               with(preset_args({"nand.dies_per_package=1", "nand.planes_per_die=8", "fcc.cache_program=false",
                                 "fcc.read_first=false", "nand.blocks_per_plane=256",
                                 "firmware.gc_start_free_blocks=102", "firmware.gc_stop_free_blocks=104",
                                 std::string("firmware.gc_copy_back=") + (cb ? "true" : "false")}),
                    work),
               [&rows, &clean_us, cb, label](const nlohmann::json& st) {
      const auto& f = st.at("ftl");
      const double victims = f.at("gc_cleaned").get<double>();
      clean_us[cb] = f.at("gc_clean_us_mean").get<double>();
      rows.push_back({"mean cleaning time per block", label, kModelOnly, clean_us[cb], "us", 0});
      rows.push_back({"  blocks cleaned", label, kModelOnly, victims, "", 0});
      rows.push_back({"  pages moved per block (of 64)", label, kModelOnly,
                      victims > 0 ? f.at("gc_moved_sectors").get<double>() / victims : 0.0, "", 0});
      rows.push_back({"  pages moved by copy-back", label, kModelOnly, f.at("gc_copy_backs").get<double>(), "", 0});
      rows.push_back({"  mean I/O latency", label, kModelOnly,
                      (op_value(st, "read", "mean") * op_value(st, "read", "count") +
                       op_value(st, "write", "mean") * op_value(st, "write", "count")) /
                          (op_value(st, "read", "count") + op_value(st, "write", "count")),
                      "us", 0});
      // What the host sees of each run (issue 14 item 3): the cleaning cost is compared at
      // these latencies, not at equal ones.
      rows.push_back({"  read latency mean", label, kModelOnly, op_value(st, "read", "mean"), "us", 0});
      rows.push_back({"  read latency p99", label, kModelOnly, op_value(st, "read", "p99"), "us", 0});
      rows.push_back({"  write latency mean", label, kModelOnly, op_value(st, "write", "mean"), "us", 0});
      rows.push_back({"  write latency p99", label, kModelOnly, op_value(st, "write", "p99"), "us", 0});
    });
  }
  ctx.wait();
  const double cut = clean_us[0] > 0 ? 100.0 * (1.0 - clean_us[1] / clean_us[0]) : 0.0;
  rows.push_back({"copy-back lowers the cleaning time", "yes=1", 1, clean_us[1] < clean_us[0] ? 1.0 : 0.0, "flag",
                  0.01});
  rows.push_back({"cleaning cost reduction", "TPC-C", 40, cut, "%", 0.5});
  return rows;
}

// ---------------------------------------------------------------------------
// 6. Ganging with shared control: synchronous (the gang is one wide package managed with
//    a gang_size x 4 KiB logical page, firmware.logical_page_kib=32) vs asynchronous (each package allocates and
//    cleans on its own; shared control lines cost only command cycles, 0.2% of a page
//    transfer here, so independent packages stand for it). Seed: synchronous ganging
//    performs worse overall, since its larger logical page limits the operations a
//    gang can run at once.

std::vector<ExperimentRow> ganging(ExperimentContext& ctx) {
  // The 8 packages as one 8-gang on one control bus.
  const std::vector<std::string> async = preset_args({});
  const std::vector<std::string> sync =
      preset_args({"fcc.channels=1", "fcc.ways_per_channel=8", "fcc.gang_mode=shared_control", "fcc.gang_size=8",
                   "firmware.logical_page_kib=32"});
  struct Load {
    const char* name;
    const char* label;
    const char* op;
    std::string workload;
    bool random_read;  // the ordering check: operations a gang can run at once
  };
  const Load loads[] = {
      {"rand_read_4k", "4K rand read QD8", "read", "rw=randread,bs=4k,iodepth=8,size=1g,count=20000", true},
      {"rand_read_4_64k", "4-64K rand read QD8", "read", "rw=randread,bsrange=4k-64k,iodepth=8,size=1g,count=10000",
       true},
      {"rand_write_4k", "4K rand write QD8", "write", "rw=randwrite,bs=4k,iodepth=8,size=1g,count=20000,fua=1", false},
      {"seq_read_256k", "256K seq read QD1", "read", "rw=read,bs=256k,iodepth=1,size=1g,count=2000", false},
  };
  std::vector<ExperimentRow> rows;
  bool reads_slower = true, writes_slower = true;
  double mean[std::size(loads)][2] = {};  // per load: async, sync
  for (size_t i = 0; i < std::size(loads); ++i) {
    const Load& l = loads[i];
    const std::vector<std::string> w = {"--precondition-fill", "1g", "--workload", l.workload};
    ctx.submit(std::string("async_") + l.name, with(async, w),
               [&mean, &l, i](const nlohmann::json& st) { mean[i][0] = op_value(st, l.op, "mean"); });
    ctx.submit(std::string("sync_") + l.name, with(sync, w),
               [&mean, &l, i](const nlohmann::json& st) { mean[i][1] = op_value(st, l.op, "mean"); });
  }
  ctx.wait();
  for (size_t i = 0; i < std::size(loads); ++i) {
    const Load& l = loads[i];
    const double a = mean[i][0], s = mean[i][1];
    rows.push_back({std::string("async gang (") + l.op + ")", l.label, kModelOnly, a, "us", 0});
    rows.push_back({std::string("sync gang (") + l.op + ")", l.label, kModelOnly, s, "us", 0});
    if (l.random_read && !(s > a)) reads_slower = false;
    if (std::string(l.op) == "write" && !(s > a)) writes_slower = false;
  }
  // The seed's ordering: synchronous ganging worse than asynchronous. On random reads the
  // gang is one unit against 16 independent dies. On writes the penalty is the gang-sized
  // logical page: a 4 KiB write reads the other 28 KiB of its gang page and programs all
  // of it (read-modify-write), one gang operation at a time.
  rows.push_back({"sync slower: random reads", "yes=1", 1, reads_slower ? 1.0 : 0.0, "flag", 0.01});
  rows.push_back({"sync slower: random writes", "yes=1", 1, writes_slower ? 1.0 : 0.0, "flag", 0.01});
  return rows;
}

}  // namespace

std::vector<Experiment> make_atc08_experiments() {
  const std::string paper = "Agrawal et al., Design Tradeoffs for SSD Performance, USENIX ATC'08 (seed 004)";
  return {
      Experiment{"atc08-package-reads", paper,
                 "one SLC package (2 dies on one 40 MB/s bus): 4 KiB page reads without and with die interleaving",
                 package_reads,
                 "where the reads come from",
                 {{"page reads", "where the reads come from",
                   {"page reads, no interleaving", "page reads, dies interleaved"}, {"no interleaving", "dies interleaved"}},
                  {"read bandwidth", "where the reads come from",
                   {"read bandwidth, no interleaving", "read bandwidth, interleaved"}, {"no interleaving", "interleaved"}}}},
      Experiment{"atc08-page-copy", paper,
                 "page copy between two packages (read on one, program on the other) with and without die "
                 "interleaving; intra-plane copy-back, which keeps the data off the serial bus",
                 page_copy,
                 "setup"},
      Experiment{"disksim-validation",
                 "DiskSim 4.0 SSD model validation suite (ssdmodel/valid/runvalid, same authors): mean SSD "
                 "response times",
                 "the four 250K-request synthgen workloads and the IOzone trace on the ssd-iozone.parv SSD",
                 disksim_validation,
                 "workload"},
      Experiment{"atc08-logical-page", paper,
                 "TPC-C-like load (8 KiB random, 2:1 read:write, 300 IOPS) at 4 KiB vs 256 KiB logical pages "
                 "with unit depth: read-modify-write of block-sized logical pages; Poisson arrivals and the b-model's "
                 "bursty ones (Wang et al., ICDE 2002) at biases 0.55..0.8",
                 logical_page,
                 "arrivals",
                 logical_page_panels(),
                 "with Poisson arrivals the 256 KiB logical page gives 13.3 ms, short of the published >20 ms "
                 "(b-model arrivals at bias 0.6-0.7 meet it)"},
      Experiment{"atc08-copyback-gc", paper,
                 "GC moving valid pages by copy-back inside their plane vs through the controller, TPC-C-like "
                 "load on a filled SSD: mean cleaning time per block (the seed: about 40% lower)",
                 copy_back_gc,
                 "GC path"},
      Experiment{"atc08-ganging", paper,
                 "8 packages ganged with shared control: synchronous (32 KiB gang page) vs asynchronous "
                 "(independent packages); the seed says synchronous is worse overall",
                 ganging,
                 "workload",
                 {
                     {"mean read latency", "workload", {"async gang (read)", "sync gang (read)"}, {"asynchronous", "synchronous"}},
                     {"mean write latency", "workload", {"async gang (write)", "sync gang (write)"}, {"asynchronous", "synchronous"}}
                 }},
  };
}

}  // namespace ufs
