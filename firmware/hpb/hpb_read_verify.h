// HPB READ (0xF8): the host's entry (or, HPB 2.0, one entry per block sent ahead by
// WRITE BUFFER 0x02 under a read id) goes to the crypto engine; the read uses the
// verified PPAs if the entries are authentic, their sub-regions still published under
// the same generation and unchanged, and a run from one entry physically contiguous.
// Anything else falls back to the normal lookup. The read engine asks, just before it
// looks the blocks up, whether the entries are still fresh (VerifiedEntries).
#pragma once
#include <array>
#include <cstdint>
#include <vector>
#include "command/read_engine.h"
#include "hal/hal.h"
#include "hpb/hpb_freshness.h"
#include "hpb/hpb_ftl.h"
#include "hpb/hpb_params.h"
#include "hpb/hpb_regions.h"

namespace ufs {

struct HpbReadStats {
  uint64_t hpb_reads = 0;              // HPB READ commands accepted
  uint64_t hpb_read_blocks = 0;
  uint64_t verified = 0;               // entries the crypto engine accepted and the read used
  uint64_t rejected_forged = 0;        // crypto says not issued for this (LU, LBA, generation): forged, moved, replayed
  uint64_t rejected_dirty = 0;         // sub-region changed since published (or never published)
  uint64_t rejected_no_ppn = 0;        // authentic entry of an LBA with no NAND copy at publication
  uint64_t rejected_not_contiguous = 0;// multi-block run not physically contiguous
  uint64_t rejected_stale_in_flight = 0; // map changed between verify and the NAND read
  uint64_t rejected_updated = 0;       // entry older than the device's tracked change (or block still in the write cache)
  uint64_t fallbacks = 0;              // HPB READs served by the normal lookup
  uint64_t write_buffer_prefetch = 0;  // WRITE BUFFER 0x02 received
};

class HpbReadVerify : public VerifiedEntries {
 public:
  HpbReadVerify(Hal& hal, HpbFtl& ftl, const HpbDeviceParams& params, const HpbRegions& regions,
                const HpbFreshness& freshness);

  // HPB READ: 0 if accepted, else the ASC of the CHECK CONDITION the command gets.
  uint8_t start(const HostCommand& c);
  void verify_done(const HpbCryptoResult& r);  // a verify job's result (cookie hpb_cookie::kVerify)
  // WRITE BUFFER 0x02 (HPB 2.0): 0 if accepted (its entries follow as DATA OUT), else the ASC.
  uint8_t start_prefetch(const HostCommand& c);
  void prefetch_received(uint8_t tag);  // the entries arrived: held for the HPB READ with this read id
  void end(uint8_t tag) { tags_[tag].step = Step::Idle; }  // the command's response went out

  // VerifiedEntries
  bool still_fresh(uint8_t tag) const override;
  uint32_t resolved_ppa(uint8_t tag, uint32_t block) const override {
    const Tag& t = tags_[tag];
    return t.ppas.empty() ? t.ppa + block : t.ppas[block];
  }

  const HpbReadStats& stats() const { return stats_; }

 private:
  enum class Step : uint8_t { Idle, Verify, Read, Prefetch };
  struct Tag {
    Step step = Step::Idle;
    HostCommand command;
    uint64_t lba = 0;
    uint32_t blocks = 0;
    uint32_t subregion = 0, last_subregion = 0;     // sub-regions of the first and last block
    uint32_t generation = 0, last_generation = 0;   // their generations when the command started
    uint32_t changes = 0, last_changes = 0;         // their tracked-change counts then (response_entries)
    uint32_t ppa = 0;             // verified PPA of the first block
    std::vector<uint32_t> ppas;   // verified PPA per block (multi-entry reads)
    uint32_t pending = 0;         // verify jobs outstanding
    uint32_t failed = 0;          // of which not valid
  };
  struct Prefetch {               // WRITE BUFFER 0x02 held for an HPB READ with this read id
    bool valid = false;
    uint64_t lba = 0;
    std::vector<uint64_t> entries;
  };

  void verify(const HostCommand& c, uint64_t lba, uint32_t generation, uint64_t entry, uint32_t index);
  void finish(uint8_t tag);
  bool entries_usable(const Tag& t);  // false: counted as the reason the read falls back
  void fallback(uint8_t tag);

  Hal& hal_;
  HpbFtl& ftl_;
  const HpbDeviceParams& params_;
  const HpbRegions& regions_;
  const HpbFreshness& freshness_;
  std::vector<Tag> tags_;
  std::array<Prefetch, 256> prefetch_{};
  HpbReadStats stats_;
};

}  // namespace ufs
