#include "workload_spec.h"

#include "option_list.h"
#include "spec_values.h"
#include "text_scan.h"
#include "workload_error.h"

namespace ufs {

namespace {

struct RwName {
  const char* name;
  RwPattern rw;
};
constexpr RwName kRwNames[] = {
    {"read", RwPattern::Read},         {"write", RwPattern::Write},       {"randread", RwPattern::RandRead},
    {"randwrite", RwPattern::RandWrite}, {"randrw", RwPattern::RandRw},   {"rw", RwPattern::SeqRw},
    {"readwrite", RwPattern::SeqRw},   {"trim", RwPattern::Trim},         {"randtrim", RwPattern::RandTrim},
};

[[noreturn]] void bad(const std::string& key, const std::string& value, const std::string& what) {
  throw WorkloadError(key + ": '" + value + "' " + what);
}

void require_block_multiple(const char* key, const std::string& text, uint64_t bytes) {
  if (bytes == 0 || bytes % kLogicalBlockBytes != 0) bad(key, text, "is not a multiple of 4 KiB");
}

// "50%" -> percent, otherwise a size.
void parse_size_or_percent(const char* key, const std::string& text, uint64_t& bytes, double& percent) {
  if (!text.empty() && text.back() == '%') {
    double p = parse_number(key, std::string_view(text).substr(0, text.size() - 1));
    if (!(p > 0 && p <= 100)) bad(key, text, "is not a percentage in (0, 100]");
    percent = p;
  } else {
    bytes = parse_size(key, text);
  }
}

uint32_t parse_u32_in(const char* key, const std::string& text, uint64_t lo, uint64_t hi) {
  uint64_t v = parse_count(key, text);
  if (v < lo || v > hi) bad(key, text, "is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return static_cast<uint32_t>(v);
}

}  // namespace

bool WorkloadSpec::is_random() const {
  return rw == RwPattern::RandRead || rw == RwPattern::RandWrite || rw == RwPattern::RandRw ||
         rw == RwPattern::RandTrim;
}

const char* rw_pattern_name(RwPattern rw) {
  for (const RwName& n : kRwNames)
    if (n.rw == rw) return n.name;
  return "?";
}

WorkloadSpec parse_workload_spec(const std::string& text) {
  // An empty spec would quietly run a default pass over the device.
  if (text::trim(text).empty()) throw WorkloadError("workload spec: empty (e.g. rw=randread,bs=4k,count=1000)");
  OptionList opts(text, "workload spec");
  WorkloadSpec spec;

  if (auto v = opts.take("rw", "readwrite_mode")) {
    bool found = false;
    for (const RwName& n : kRwNames)
      if (*v == n.name) {
        spec.rw = n.rw;
        found = true;
      }
    if (!found) bad("rw", *v, "is not one of read, write, randread, randwrite, randrw, rw, trim, randtrim");
  }
  if (auto v = opts.take("bs", "blocksize")) {
    spec.bs_min = spec.bs_max = parse_size("bs", *v);
    require_block_multiple("bs", *v, spec.bs_min);
  }
  if (auto v = opts.take("bsrange", "blocksize_range")) {
    if (opts.has("bs") || opts.has("blocksize")) throw WorkloadError("workload spec: give bs or bsrange, not both");
    size_t dash = v->find('-');
    if (dash == std::string::npos) bad("bsrange", *v, "is not a range LO-HI");
    spec.bs_min = parse_size("bsrange", std::string_view(*v).substr(0, dash));
    spec.bs_max = parse_size("bsrange", std::string_view(*v).substr(dash + 1));
    require_block_multiple("bsrange", *v, spec.bs_min);
    require_block_multiple("bsrange", *v, spec.bs_max);
    if (spec.bs_max < spec.bs_min) bad("bsrange", *v, "has its high end below its low end");
  }
  if (auto v = opts.take("iodepth")) spec.iodepth = parse_u32_in("iodepth", *v, 1, 65535);
  if (auto v = opts.take("numjobs")) spec.numjobs = parse_u32_in("numjobs", *v, 1, 65536);
  if (auto v = opts.take("size")) {
    spec.size_text = *v;
    parse_size_or_percent("size", *v, spec.size_bytes, spec.size_percent);
    if (spec.size_percent == 0) require_block_multiple("size", *v, spec.size_bytes);
  }
  if (auto v = opts.take("offset")) {
    spec.offset_text = *v;
    parse_size_or_percent("offset", *v, spec.offset_bytes, spec.offset_percent);
    if (spec.offset_bytes % kLogicalBlockBytes != 0) bad("offset", *v, "is not a multiple of 4 KiB");
  }
  if (auto v = opts.take("count", "number_ios")) {
    spec.count = parse_count("count", *v);
    if (spec.count == 0) bad("count", *v, "must be at least 1 (leave it out for one pass over size)");
  }
  if (auto v = opts.take("runtime")) {
    spec.runtime_ps = parse_duration_ps("runtime", *v, kPsPerSecond);
    if (spec.runtime_ps == 0) bad("runtime", *v, "must be above 0 (leave it out for no time limit)");
  }
  if (auto v = opts.take("rwmixread")) spec.rwmixread = parse_u32_in("rwmixread", *v, 0, 100);
  if (auto v = opts.take("rwmixwrite")) {
    if (opts.has("rwmixread")) throw WorkloadError("workload spec: give rwmixread or rwmixwrite, not both");
    spec.rwmixread = 100 - parse_u32_in("rwmixwrite", *v, 0, 100);
  }
  if (auto v = opts.take("seed", "randseed")) spec.seed = parse_count("seed", *v);
  if (auto v = opts.take("fua")) spec.fua = parse_flag("fua", *v);
  if (auto v = opts.take("align", "blockalign")) {
    spec.align_bytes = parse_size("align", *v);
    require_block_multiple("align", *v, spec.align_bytes);
  }
  if (auto v = opts.take("thinktime")) {
    spec.thinktime_ps = parse_duration_ps("thinktime", *v, kPsPerUs);
    if (spec.thinktime_ps > 3600 * kPsPerSecond) bad("thinktime", *v, "is out of range (at most an hour)");
  }
  if (auto v = opts.take("rate_iops")) {
    spec.rate_iops = parse_number("rate_iops", *v);
    // From one request a day to one a nanosecond.
    if (!(spec.rate_iops > 0)) bad("rate_iops", *v, "is not a positive rate");
    if (spec.rate_iops < 1.0 / 86400 || spec.rate_iops > 1e9)
      bad("rate_iops", *v, "is out of range [1/86400 (one a day), 1e9]");
  }
  if (auto v = opts.take("arrival")) {
    if (*v == "uniform") spec.arrival = ArrivalProcess::Uniform;
    else if (*v == "poisson") spec.arrival = ArrivalProcess::Poisson;
    else if (v->rfind("bmodel:", 0) == 0) {
      spec.arrival = ArrivalProcess::BModel;
      spec.bmodel_bias = parse_number("arrival", std::string_view(*v).substr(7));
      if (!(spec.bmodel_bias >= 0.5 && spec.bmodel_bias < 1)) bad("arrival", *v, "needs a b-model bias in [0.5, 1)");
    } else bad("arrival", *v, "is not uniform, poisson or bmodel:B");
    if (spec.rate_iops == 0) throw WorkloadError("arrival: needs rate_iops");
    if (spec.arrival == ArrivalProcess::BModel && spec.count == 0)
      throw WorkloadError("arrival: bmodel needs count (the b-model spreads a known number of requests)");
    // Every arrival is drawn up front (8 bytes each), over count / rate_iops seconds.
    if (spec.arrival == ArrivalProcess::BModel && spec.count > 100'000'000)
      throw WorkloadError("arrival: bmodel draws every arrival up front: count at most 100000000");
    if (spec.arrival == ArrivalProcess::BModel && double(spec.count) / spec.rate_iops > 100.0 * 86400)
      throw WorkloadError("arrival: bmodel spreads count / rate_iops seconds: at most 100 days");
  }
  if (auto v = opts.take("random_distribution")) {
    if (*v == "random") {
      spec.zipf_theta = 0;
    } else if (v->rfind("zipf:", 0) == 0) {
      spec.zipf_theta = parse_number("random_distribution", std::string_view(*v).substr(5));
      if (!(spec.zipf_theta > 0 && spec.zipf_theta <= 10)) bad("random_distribution", *v, "needs a zipf theta in (0, 10]");
    } else {
      bad("random_distribution", *v, "is not random or zipf:THETA");
    }
  }
  if (auto v = opts.take("fsync")) spec.fsync_every = parse_u32_in("fsync", *v, 0, UINT32_MAX);
  opts.finish();

  if (spec.align_bytes == 0) spec.align_bytes = spec.bs_min;
  return spec;
}

}  // namespace ufs
