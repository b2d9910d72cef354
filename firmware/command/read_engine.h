// The read path: a READ (or an HPB READ whose entries verified) is staged in segments of
// up to read_segment_blocks in the read area of the data buffer, two per command at a
// time so NAND and link overlap on long reads. Each segment waits for the map pages its
// lookups need (map store), looks its blocks up (or takes HPB's verified PPAs), merges
// consecutive sectors of a page into one NAND read, copies blocks still in the write cache
// and zero-fills unwritten ones; segments leave by DATA IN in offset order. A read with no
// room waits in FIFO order until a segment's DATA IN frees its slots.
#pragma once
#include <cstdint>
#include <deque>
#include <vector>
#include "command/command_table.h"
#include "firmware_params.h"
#include "flash/flash_port.h"
#include "ftl/block_layout.h"
#include "ftl/l2p_map.h"
#include "ftl/latency_split.h"
#include "ftl/slot_allocator.h"
#include "hal/hal.h"
#include "stats_visitor.h"

namespace ufs {

// Told when a map page it waits for is in SRAM (token: what it gave when it started waiting).
class MapWaiter {
 public:
  virtual ~MapWaiter() = default;
  virtual void map_page_loaded(uint32_t token) = 0;
};

// What lookups need from the map store.
class MapLookups {
 public:
  virtual ~MapLookups() = default;
  // Map pages of [lba, lba + blocks) not in SRAM: their loads are started (or joined) and
  // `waiter` hears map_page_loaded(token) once per page. Returns how many it waits for.
  virtual uint32_t wait_for_lookups(uint64_t lba, uint32_t blocks, MapWaiter& waiter, uint32_t token) = 0;
};

// HPB READ: the PPAs the crypto engine vouched for, as long as the map did not change since.
class VerifiedEntries {
 public:
  virtual ~VerifiedEntries() = default;
  virtual bool still_fresh(uint8_t tag) const = 0;
  virtual uint32_t resolved_ppa(uint8_t tag, uint32_t block) const = 0;
};

// Someone waiting for buffer space: try again.
class BufferWaiters {
 public:
  virtual ~BufferWaiters() = default;
  virtual void retry_waiting() = 0;
};

struct ReadStats {
  uint64_t host_read_blocks = 0;
  uint64_t read_cache_hits = 0;  // blocks served from the write cache
  uint64_t read_unmapped = 0;    // blocks never written (zeros)
  uint64_t flash_reads = 0;      // host data page reads
};

class ReadEngine : public FlashClient, public MapWaiter, public BufferWaiters {
 public:
  ReadEngine(Hal& hal, const FirmwareParams& params, uint32_t read_slots, CommandTable& table, LatencySplit& latency,
             const L2pMap& map, const BlockLayout& layout, FlashPort& flash, MapLookups& lookups);
  // HPB on: reads may come with verified entries.
  void set_verified_entries(VerifiedEntries* entries) { entries_ = entries; }
  // Retried after this engine's own waiters whenever a segment's slots come free.
  void set_next_waiters(BufferWaiters* next) { next_ = next; }

  // READ of [lba, lba + blocks); verified: the PPAs come from the verified entries.
  void start(const HostCommand& c, uint64_t lba, uint32_t blocks, bool verified);
  // A segment's DATA IN left the buffer (token: the segment).
  void data_in_done(uint8_t tag, uint64_t token);
  void retry_waiting() override;  // reads waiting for room, in FIFO order

  uint32_t read_slots() const { return read_slots_; }
  size_t waiting() const { return waiters_.size(); }
  const ReadStats& stats() const { return stats_; }
  const uint64_t& cache_hits() const { return stats_.read_cache_hits; }  // (traced)
  void visit_stats(StatsVisitor& v) const;

 private:
  static constexpr uint32_t kNone = ~0u;
  struct Segment {
    uint8_t tag = 0;
    uint32_t first_block = 0;  // offset within the command, in blocks
    uint32_t blocks = 0;
    uint32_t slot = 0;
    uint32_t pending_reads = 0;
    bool ready = false;        // all data in the buffer
    bool sent = false;         // DATA IN issued
    uint32_t map_wait = 0;     // map page loads still to come before the lookups
  };
  struct Command {
    uint64_t lba = 0;
    uint32_t blocks = 0;
    uint32_t staged = 0;       // blocks assigned to segments
    uint32_t done = 0;         // blocks sent
    uint32_t segments = 0;     // segments in flight
    uint32_t segment_ids[2] = {kNone, kNone};
    uint32_t next_send = 0;    // block offset the next DATA IN must start at
    bool waiting = false;      // queued for buffer space
    bool verified = false;     // PPAs from verified HPB entries (no map lookup)
  };
  void stage(uint8_t tag);
  void look_up(uint32_t seg);
  void segment_ready(uint32_t seg);
  void send_ready(uint8_t tag);
  void map_page_loaded(uint32_t seg) override;
  void on_flash_done(uint64_t seg, const FlashCompletion& c) override;

  Hal& hal_;
  const FirmwareParams& params_;
  CommandTable& table_;
  LatencySplit& latency_;
  const L2pMap& map_;
  const BlockLayout& layout_;
  FlashPort& flash_;
  uint32_t client_;
  MapLookups& lookups_;
  VerifiedEntries* entries_ = nullptr;
  BufferWaiters* next_ = nullptr;
  uint32_t read_slots_;
  SlotAllocator area_;
  std::vector<Segment> segments_;
  std::vector<uint32_t> free_segments_;
  std::vector<Command> commands_;
  std::deque<uint8_t> waiters_;
  ReadStats stats_;
};

}  // namespace ufs
