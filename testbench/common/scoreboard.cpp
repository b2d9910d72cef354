#include "scoreboard.h"
#include <algorithm>

namespace ufs {

namespace {
// The entry for `key`: the existing one, or a new one in a node an earlier erase kept
// (`reset` clears it, its vectors keep their storage). The in-flight writes' and reads'
// entries come and go with every I/O; so they cost no allocation once warmed up (three
// mallocs and frees per read before).
template <class Map, class Reset>
typename Map::mapped_type& entry(Map& map, std::vector<typename Map::node_type>& spare,
                                 const typename Map::key_type& key, Reset reset) {
  const auto it = map.find(key);
  if (it != map.end()) return it->second;
  if (spare.empty()) return map.emplace(key, typename Map::mapped_type()).first->second;
  typename Map::node_type node = std::move(spare.back());
  spare.pop_back();
  node.key() = key;
  reset(node.mapped());
  return map.insert(std::move(node)).position->second;
}
template <class Map>
void erase_keep(Map& map, typename Map::iterator it, std::vector<typename Map::node_type>& spare) {
  spare.push_back(map.extract(it));
}
void clear_versions(std::vector<uint64_t>& v) { v.clear(); }
}  // namespace

void Scoreboard::mark_preconditioned(uint64_t first_lba, uint64_t blocks) {
  preconditioned_.emplace_back(first_lba, first_lba + blocks);
}

uint64_t Scoreboard::acked(uint64_t lba) const {
  const uint64_t v = acked_.get(lba);
  if (v != kUnknown) return v;
  for (const auto& range : preconditioned_)
    if (lba >= range.first && lba < range.second) return 0;
  return kUnmappedVersion;
}

void Scoreboard::set_acked(uint64_t lba, uint64_t version) { acked_.set(lba, version); }

void Scoreboard::on_issue(const IoRecord& r) {
  const BlockRequest& q = r.request;
  switch (q.op) {
    case BlockOp::Write:
      for (uint32_t i = 0; i < q.blocks; ++i) {
        const uint64_t v = r.data ? r.data[i].version : 0;
        entry(inflight_, spare_inflight_, q.lba + i, clear_versions).push_back(v);
        max_version_ = std::max(max_version_, v);
      }
      break;
    case BlockOp::Unmap: {
      const uint64_t v = ++unmap_counter_;
      unmap_versions_[r.io_id] = v;
      for (uint32_t i = 0; i < q.blocks; ++i) entry(inflight_, spare_inflight_, q.lba + i, clear_versions).push_back(v);
      break;
    }
    case BlockOp::Read: {
      ReadSnapshot& snap = entry(reads_, spare_reads_, r.io_id, [](ReadSnapshot&) {});
      snap.version_counter = max_version_;
      // Blocks [0, q.blocks) are the read's; a reused snapshot may hold more (unused).
      if (snap.allowed.size() < q.blocks) snap.allowed.resize(q.blocks);
      for (uint32_t i = 0; i < q.blocks; ++i) {
        snap.allowed[i].assign(1, acked(q.lba + i));
        auto it = inflight_.find(q.lba + i);
        if (it != inflight_.end()) snap.allowed[i].insert(snap.allowed[i].end(), it->second.begin(), it->second.end());
        auto bad = indeterminate_.find(q.lba + i);
        if (bad != indeterminate_.end()) snap.allowed[i].insert(snap.allowed[i].end(), bad->second.begin(), bad->second.end());
      }
      break;
    }
    case BlockOp::Flush:
      if (durability_) flush_marks_[r.io_id] = write_acks_;
      break;
  }
}

bool Scoreboard::accepted(uint64_t lba, const SectorStamp& got, const ReadSnapshot& snap, uint32_t index) const {
  for (uint64_t v : snap.allowed[index]) {
    if (v >= (1ull << 62)) { if (got.lba == kNoLba) return true; continue; }  // unmapped / never written
    if (got.lba == lba && got.version == v) return true;
  }
  // A write issued after the read started may legitimately be seen.
  if (got.lba == lba && got.version > snap.version_counter) {
    if (acked(lba) == got.version) return true;
    auto it = inflight_.find(lba);
    if (it != inflight_.end())
      for (uint64_t v : it->second) if (v == got.version) return true;
  }
  if (got.lba == kNoLba) {  // an unmap issued after the read started
    auto it = inflight_.find(lba);
    if (it != inflight_.end())
      for (uint64_t v : it->second) if (v >= (1ull << 62)) return true;
    if (acked(lba) == kUnmappedVersion) return true;
  }
  return false;
}

void Scoreboard::on_complete(const IoRecord& r) {
  const BlockRequest& q = r.request;
  const bool good = r.status == 0;
  switch (q.op) {
    case BlockOp::Write:
    case BlockOp::Unmap: {
      uint64_t unmap_v = 0;
      if (q.op == BlockOp::Unmap) {
        unmap_v = unmap_versions_[r.io_id];
        unmap_versions_.erase(r.io_id);
      }
      for (uint32_t i = 0; i < q.blocks; ++i) {
        const uint64_t lba = q.lba + i;
        const uint64_t v = q.op == BlockOp::Write ? (r.data ? r.data[i].version : 0) : unmap_v;
        auto in = inflight_.find(lba);
        bool others = false;
        if (in != inflight_.end()) {
          auto it = std::find(in->second.begin(), in->second.end(), v);
          if (it != in->second.end()) in->second.erase(it);
          others = !in->second.empty();
          // Overlapping writes complete in any order; while another is still in flight the
          // block may end up with either, so it stays listed and is accepted too.
          if (good && others) in->second.push_back(v);
          if (in->second.empty()) erase_keep(inflight_, in, spare_inflight_);
        }
        if (good) {
          set_acked(lba, q.op == BlockOp::Write ? v : kUnmappedVersion);
          indeterminate_.erase(lba);
        } else if (q.op == BlockOp::Write) {
          indeterminate_[lba].push_back(v);
        }
        if (!good || !durability_) continue;
        if (q.op == BlockOp::Unmap) unmapped_[lba] = 1;
        else if (q.fua) set_durable(lba, v);
        else not_yet_durable_.push_back(PendingAck{lba, v, write_acks_});
      }
      if (good && q.op == BlockOp::Write) ++write_acks_;
      break;
    }
    case BlockOp::Read: {
      auto it = reads_.find(r.io_id);
      if (it == reads_.end()) break;
      if (good && r.data) {
        for (uint32_t i = 0; i < q.blocks; ++i) {
          ++checked_;
          if (!accepted(q.lba + i, r.data[i], it->second, i)) {
            if (++mismatches_ == 1)
              first_mismatch_ = "lba " + std::to_string(q.lba + i) + ": read {lba " +
                                (r.data[i].lba == kNoLba ? std::string("none") : std::to_string(r.data[i].lba)) +
                                ", version " + std::to_string(r.data[i].version) + "}, expected version " +
                                std::to_string(it->second.allowed[i].front());
          }
        }
      }
      erase_keep(reads_, it, spare_reads_);
      break;
    }
    case BlockOp::Flush: {
      auto it = flush_marks_.find(r.io_id);
      if (it == flush_marks_.end()) break;
      if (good)
        while (!not_yet_durable_.empty() && not_yet_durable_.front().ack < it->second) {
          set_durable(not_yet_durable_.front().lba, not_yet_durable_.front().version);
          not_yet_durable_.pop_front();
        }
      flush_marks_.erase(it);
      break;
    }
  }
}

void Scoreboard::set_durable(uint64_t lba, uint64_t version) {
  const uint64_t d = durable_.get(lba);
  if (d == kUnknown) {
    ++durable_count_;
    durable_.set(lba, version);
  } else if (version > d) {
    durable_.set(lba, version);
  }
}

uint64_t Scoreboard::durable(uint64_t lba) const {
  const uint64_t v = durable_.get(lba);
  if (v != kUnknown) return v;
  for (const auto& range : preconditioned_)
    if (lba >= range.first && lba < range.second) return 0;
  return kUnknown;
}

bool Scoreboard::survives(uint64_t lba, const SectorStamp& got, bool* lost) const {
  if (lost) *lost = false;
  const bool plausible = got.lba == lba && got.version <= max_version_;  // some write of this LBA
  if (unmapped_.count(lba)) return got.lba == kNoLba || plausible;
  const uint64_t d = durable(lba);
  if (d == kUnknown) return got.lba == kNoLba || plausible;
  if (got.lba == kNoLba) {
    if (lost) *lost = true;
    return false;
  }
  if (plausible && got.version >= d) return true;
  // Overlapping writes of the block reach the device in any order: each stays acceptable.
  auto it = inflight_.find(lba);
  return plausible && it != inflight_.end() &&
         std::find(it->second.begin(), it->second.end(), got.version) != it->second.end();
}

std::vector<std::pair<uint64_t, uint64_t>> Scoreboard::tracked_ranges() const {
  std::vector<std::pair<uint64_t, uint64_t>> r(preconditioned_.begin(), preconditioned_.end());
  for (uint64_t chunk = 0; chunk < acked_.chunk_slots(); ++chunk)
    if (acked_.chunk_allocated(chunk)) r.emplace_back(chunk * kChunk, (chunk + 1) * kChunk);
  std::sort(r.begin(), r.end());
  std::vector<std::pair<uint64_t, uint64_t>> merged;
  for (const auto& x : r) {
    if (!merged.empty() && x.first <= merged.back().second) merged.back().second = std::max(merged.back().second, x.second);
    else merged.push_back(x);
  }
  return merged;
}

}  // namespace ufs
