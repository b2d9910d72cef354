// What the HPB parts share: HpbFtl, what they need of the FTL and its command
// machinery (hpb/hpb_ftl_port implements it), and the cookie bits that route a crypto
// result or a host transfer back to the part that started it.
#pragma once
#include <cstdint>
#include "hal/hal.h"

namespace ufs {

class HpbFtl {
 public:
  virtual ~HpbFtl() = default;
  virtual uint64_t hpb_logical_blocks() const = 0;
  // The mapping of lba now: a physical sector address (PPA), or hpb_op::kNoPpn.
  virtual uint32_t hpb_mapping(uint64_t lba) const = 0;
  // The mappings of [first, first + count) into ppas, as hpb_mapping gives each, in one walk.
  virtual void hpb_mappings(uint64_t first, uint32_t count, uint32_t* ppas) const = 0;
  virtual void hpb_claim_tag(uint8_t tag, uint8_t lun) = 0;  // the command is in progress
  virtual void hpb_fail(const HostCommand& c, uint8_t key, uint8_t asc) = 0;  // CHECK CONDITION, tag freed
  virtual void hpb_respond(uint8_t tag, uint8_t lun) = 0;   // GOOD, tag freed
  // Start a read of [lba, lba + blocks); hpb = true: the PPAs come from the verified entries.
  virtual void hpb_start_read(const HostCommand& c, uint64_t lba, uint32_t blocks, bool hpb) = 0;
  // True if lba's map page is in the L2P SRAM; otherwise its load is started (or joined)
  // and the map store's MapLoadListener (the entry server) is told.
  virtual bool hpb_map_page_ready(uint64_t lba) = 0;
  virtual uint64_t hpb_map_page_entries() const = 0;  // LBAs one map page covers
  // An HPB READ's entries enter (begin) or leave the crypto engine: the latency split's part.
  virtual void hpb_verify_time(uint8_t tag, bool begin) = 0;
};

namespace hpb_cookie {
// Host transfers of HPB control data (the device routes them to on_data_in/out_done).
constexpr uint64_t kToken = 1ull << 62;
// Crypto jobs: which part asked. Verify and sign carry tag << 32 | index, update the LBA.
constexpr uint64_t kSign = 1ull << 62, kVerify = 1ull << 61, kUpdate = 1ull << 60;
// The 4 KiB of byte region a tag's control data goes through.
inline uint64_t control_address(uint8_t tag) { return kByteRegionBase + uint64_t(tag) * 4096; }
}  // namespace hpb_cookie

}  // namespace ufs
