// Data-integrity scoreboard: every read must return the last acknowledged write
// of each block (or, while writes to it overlap the read, one of those writes).
// Unwritten and unmapped blocks must read as erased (lba == kNoLba); blocks
// preconditioned by the firmware read as {lba, version 0}.
#pragma once
#include <cstdint>
#include <string>
#include <memory>
#include <unordered_map>
#include <vector>
#include "host_observer.h"

namespace ufs {

class Scoreboard : public HostObserver {
 public:
  void on_issue(const IoRecord& r) override;
  void on_complete(const IoRecord& r) override;

  // Blocks the device holds before the run ({lba, 0}).
  void mark_preconditioned(uint64_t first_lba, uint64_t blocks);

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

  // Acknowledged versions in chunks allocated on first write: 8 bytes per written block.
  std::unordered_map<uint64_t, std::unique_ptr<uint64_t[]>> acked_;
  // Writes and unmaps issued and not yet completed, only for blocks that have some.
  std::unordered_map<uint64_t, std::vector<uint64_t>> inflight_;
  std::vector<std::pair<uint64_t, uint64_t>> preconditioned_;
  std::unordered_map<uint64_t, ReadSnapshot> reads_;
  std::unordered_map<uint64_t, uint64_t> unmap_versions_;  // io_id -> pseudo version
  uint64_t max_version_ = 0;
  uint64_t unmap_counter_ = 1ull << 62;
  uint64_t checked_ = 0, mismatches_ = 0;
  std::string first_mismatch_;
};

}  // namespace ufs
