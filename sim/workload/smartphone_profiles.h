// Per-app I/O statistics of Zhou, Pan, Wang, Xie, "I/O Characteristics of
// Smartphone Applications and Their Implications for eMMC Design", IISWC'15
// (seed 002): the 18 individual traces of a Nexus 5 (Android 4.4, 32 GB eMMC 4.51).
// Table III (size) and Table IV (timing, locality) are copied row by row in
// smartphone_profiles.cpp; the few numbers the paper gives only as a range or in a
// figure are marked there as assumptions.
#pragma once
#include <string>
#include <vector>

namespace ufs {

struct SmartphoneAppProfile {
  std::string name;         // spec key, lower case ("booting", "cameravideo")
  std::string paper_name;   // as Tables III/IV spell it ("CameraVideo")
  // Table III: size-related statistics.
  double data_kb = 0;          // Data Size (KB)
  double requests = 0;         // Num. of Reqs.
  double max_kb = 0;           // Max. Size (KB)
  double ave_kb = 0;           // Ave. Size (KB)
  double ave_read_kb = 0;      // Ave. R Size (KB)
  double ave_write_kb = 0;     // Ave. W Size (KB)
  double write_req_pct = 0;    // Write Reqs. Percentage (%)
  double write_size_pct = 0;   // Write Size Percentage (%)
  // Table IV: timing-related statistics.
  double duration_s = 0;       // Record Duration (s)
  double arrival_rate = 0;     // Arrival Rate (reqs/s)
  double access_rate_kbs = 0;  // Access Rate (KB/s)
  double nowait_pct = 0;       // NoWait Req. Ratio (%): requests that met an idle device
  double mean_service_ms = 0;  // Mean Serv. (ms), on the Nexus 5 eMMC
  double mean_response_ms = 0; // Mean Resp. (ms), on the Nexus 5 eMMC
  double spatial_pct = 0;      // Spatial Locality (%): start = previous request's end
  double temporal_pct = 0;     // Temporal Locality (%): address re-accessed
  // Size shape (Section III-B, Fig. 4; not tabulated in the paper, see the .cpp).
  double single_page_pct = 0;  // requests of exactly 4 KiB
  double size_sigma = 0;       // log-normal shape of the sizes above 4 KiB
};

const std::vector<SmartphoneAppProfile>& smartphone_profiles();
// nullptr when unknown.
const SmartphoneAppProfile* find_smartphone_profile(const std::string& name);
// "idle, callin, ..." for error messages.
std::string smartphone_app_names();

}  // namespace ufs
