// Data-integrity scoreboard: every read must return the last acknowledged write
// of each block (or, while writes to it overlap the read, one of those writes; or a
// write of it that failed since, whose blocks SBC leaves indeterminate).
// Unwritten and unmapped blocks must read as erased (lba == kNoLba); blocks
// preconditioned by the firmware read as {lba, version 0}.
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <memory>
#include <unordered_map>
#include <vector>
#include "host_observer.h"
#include "scoreboard_versions.h"

namespace ufs {

class Scoreboard : public HostObserver {
 public:
  void on_issue(const IoRecord& r) override;
  void on_complete(const IoRecord& r) override;

  // Blocks the device holds before the run ({lba, 0}).
  void mark_preconditioned(uint64_t first_lba, uint64_t blocks);

  // Power loss: from now on, track what the device has acknowledged as durable: a write
  // with FUA when it completes, every write completed before a SYNCHRONIZE CACHE was
  // issued when that completes. (UNMAPs are not durable across a power loss.)
  void track_durability() { durability_ = true; }
  // After a sudden power-off and recovery: may `lba` read back as `got`? Its durable
  // version or a newer write of it; never erased or older once something was durable.
  // `lost` tells the two failures apart (read erased although something was durable).
  bool survives(uint64_t lba, const SectorStamp& got, bool* lost = nullptr) const;
  // LBA ranges worth checking after a power loss: preconditioned ones and the 4096-block
  // chunks that saw writes, sorted and merged.
  std::vector<std::pair<uint64_t, uint64_t>> tracked_ranges() const;
  uint64_t durable_blocks() const { return durable_count_; }
  // The version guaranteed for lba (0 preconditioned, ~0 - 1 nothing durable).
  uint64_t durable_version(uint64_t lba) const { return durable(lba); }

  uint64_t checked_blocks() const { return checked_; }
  uint64_t mismatches() const { return mismatches_; }
  const std::string& first_mismatch() const { return first_mismatch_; }

 private:
  static constexpr uint64_t kUnmappedVersion = ~0ull;  // "reads as erased"
  static constexpr uint64_t kUnknown = ~0ull - 1;        // not recorded: never written, or preconditioned
  static constexpr uint64_t kChunk = 4096;
  struct ReadSnapshot {
    uint64_t version_counter = 0;           // writes issued before the read
    std::vector<std::vector<uint64_t>> allowed;
  };
  // What a quiet read of `lba` must return (a version, or kUnmappedVersion).
  uint64_t acked(uint64_t lba) const;
  void set_acked(uint64_t lba, uint64_t version);
  bool accepted(uint64_t lba, const SectorStamp& got, const ReadSnapshot& snap, uint32_t index) const;

  // Acknowledged versions in chunks allocated on first write: 4 bytes per written block
  // (kUnknown where nothing is recorded).
  ScoreboardVersions acked_{kUnknown};
  // Writes and unmaps issued and not yet completed, only for blocks that have some.
  std::unordered_map<uint64_t, std::vector<uint64_t>> inflight_;
  // Writes that ended in CHECK CONDITION: SBC leaves their blocks indeterminate (some of the
  // data may have reached the device), so their versions stay possible until a write of the
  // block succeeds.
  std::unordered_map<uint64_t, std::vector<uint64_t>> indeterminate_;
  std::vector<std::pair<uint64_t, uint64_t>> preconditioned_;
  std::unordered_map<uint64_t, ReadSnapshot> reads_;
  // Nodes erased from inflight_ and reads_, kept for their next entries (no malloc per I/O).
  std::vector<std::unordered_map<uint64_t, std::vector<uint64_t>>::node_type> spare_inflight_;
  std::vector<std::unordered_map<uint64_t, ReadSnapshot>::node_type> spare_reads_;
  std::unordered_map<uint64_t, uint64_t> unmap_versions_;  // io_id -> pseudo version
  uint64_t max_version_ = 0;
  uint64_t unmap_counter_ = 1ull << 62;
  uint64_t checked_ = 0, mismatches_ = 0;
  // Durability (track_durability)
  void set_durable(uint64_t lba, uint64_t version);
  uint64_t durable(uint64_t lba) const;   // kUnknown: nothing durable recorded
  bool durability_ = false;
  ScoreboardVersions durable_{kUnknown};
  struct PendingAck { uint64_t lba, version, ack; };
  std::deque<PendingAck> not_yet_durable_;           // acknowledged writes, in ack order
  std::unordered_map<uint64_t, uint64_t> flush_marks_;  // Flush io_id -> write acks before it
  std::unordered_map<uint64_t, uint8_t> unmapped_;   // LBAs unmapped since tracking began
  uint64_t write_acks_ = 0, durable_count_ = 0;
  std::string first_mismatch_;
};

}  // namespace ufs
