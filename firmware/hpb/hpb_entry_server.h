// READ BUFFER (0xF9, buffer id 0x01): publishes a sub-region (HpbRegions) and sends its
// entries, each signed by the crypto engine for (LU, LBA, PPA, generation), 4 KiB at a
// time through the byte region. It waits for the map pages the entries come from (the
// map store tells it after each load) and records which neighbouring entries are
// physically contiguous while it reads them. A chunk's 512 entries go to the engine as
// one sign batch (Hal::submit_sign_batch: the firmware lists (LBA, PPA, generation), the
// engine signs each and writes the entries where the chunk is sent from).
#pragma once
#include <cstdint>
#include <vector>
#include "hal/hal.h"
#include "hpb/hpb_ftl.h"
#include "hpb/hpb_params.h"
#include "hpb/hpb_regions.h"
#include "map/map_store.h"

namespace ufs {

struct HpbServerStats {
  uint64_t read_buffers = 0;           // READ BUFFER (map) commands served
  uint64_t entries_signed = 0;
  uint64_t read_buffer_map_loads = 0;  // map pages READ BUFFER had to load from NAND
};

class HpbEntryServer : public MapLoadListener {
 public:
  HpbEntryServer(Hal& hal, HpbFtl& ftl, const HpbDeviceParams& params, HpbRegions& regions);

  // READ BUFFER: 0 if accepted, else the ASC of the CHECK CONDITION the command gets.
  uint8_t start(const HostCommand& c);
  void on_map_page_loaded() override;            // a map page came in: commands waiting may go on
  void sign_done(const HpbCryptoResult& r);      // a chunk's sign batch is done (cookie hpb_cookie::kSign)
  void data_in_done(uint8_t tag);                // a chunk reached the host
  void end(uint8_t tag) { tags_[tag].step = Step::Idle; }  // the command's response went out

  const HpbServerStats& stats() const { return stats_; }

 private:
  enum class Step : uint8_t { Idle, Load, Sign, Send };
  struct Tag {
    Step step = Step::Idle;
    uint8_t lun = 0;
    uint32_t subregion = 0;
    uint32_t generation = 0;      // the publication's
    uint64_t lba = 0;             // first entry
    uint32_t entries = 0;         // entries to send
    uint32_t chunk = 0;           // current chunk (512 entries = 4 KiB)
    uint32_t prev_ppa = 0;        // PPA of the entry before (contiguity record)
    bool counted_loads = false;
    // The chunk's sign batch: what to sign, and the signed entries the engine writes (sized
    // for a whole chunk at first use, so they never move while a batch is out).
    std::vector<HpbSignItem> items;
    std::vector<uint8_t> data;
  };

  void pages_ready(uint8_t tag);
  void sign_chunk(uint8_t tag);

  Hal& hal_;
  HpbFtl& ftl_;
  const HpbDeviceParams& params_;
  HpbRegions& regions_;
  std::vector<Tag> tags_;
  std::vector<uint32_t> ppas_;  // a chunk's mappings, read from the map in one walk
  HpbServerStats stats_;
};

}  // namespace ufs
