#include "platform/power_loss_recovery.h"
#include <algorithm>
#include <cstring>
#include "fcc/flash_controller.h"
#include "host/scsi_cdb.h"
#include "scoreboard.h"

namespace ufs {

PowerLossRecovery::PowerLossRecovery(FlashController& fcc, const PlatformConfig& config)
    : fcc_(fcc),
      config_(config),
      cycle_ps_(std::max<uint64_t>(1, uint64_t(1e6 / config.cpu.clock_mhz))),
      buffer_(uint64_t(config.memory.data_buffer_kib) / 4),
      bytes_(256 * 4096),
      die_free_at_(fcc.geometry().dies(), 0) {
  // One 4 KiB sector (with its spare bytes, roughly 1/16 more) over the channel.
  const double bytes_per_us = double(config.fcc.bus_mt_s) * config.fcc.bus_width_bits / 8.0;
  sector_transfer_ps_ = uint64_t(4096.0 * 17.0 / 16.0 / bytes_per_us * 1e6);
}

void PowerLossRecovery::run_events(const std::function<bool()>& stop) {
  while (!events_.empty() && !(stop && stop())) {
    Event e = events_.top();
    events_.pop();
    now_ = std::max(now_, e.at);
    charged_ = 0;
    e.fn();
    now_ += charged_ * cycle_ps_;  // the core was busy for what the handler charged
    charged_ = 0;
  }
}

void PowerLossRecovery::submit_flash(const FlashOp& op) {
  NandDie& die = fcc_.nand_die(op.address.die);
  const uint32_t spp = die.sectors_per_page(op.address);  // hybrid page size: the block's own page
  FlashCompletion c;
  c.cookie = op.cookie;
  c.opcode = op.opcode;
  c.address = op.address;
  uint64_t latency = 0;
  switch (op.opcode) {
    case FlashOpcode::Read: {
      const uint32_t n = op.sector_count ? op.sector_count : spp;
      std::vector<SectorStamp> data(spp);
      c.status = die.read(op.address, op.sector_offset, n, data.data(), &c.oob, op.slc, op.words, op.words_per_page);
      if (op.buffer_address < kL2pSramBase) std::copy_n(data.begin(), n, sector(op.buffer_address));
      latency = die.read_time(op.address, op.slc).value() + n * sector_transfer_ps_;
      break;
    }
    case FlashOpcode::Program: {
      const uint32_t pages = std::max(1u, op.page_count);
      std::vector<SectorStamp> data(size_t(pages) * spp);
      if (op.buffer_address < kL2pSramBase) std::copy_n(sector(op.buffer_address), data.size(), data.begin());
      c.status = die.program(op.address, pages, data.data(), op.oob.data(), op.oob.size(), op.slc, op.words,
                             op.words_per_page);
      latency = data.size() * sector_transfer_ps_ + die.program_time(op.address, pages, op.slc).value();
      break;
    }
    case FlashOpcode::Erase:
      c.status = die.erase(op.address);
      latency = die.erase_time().value();
      break;
    case FlashOpcode::CopyBack:
      c.status = die.copy_back(op.address, op.dest, std::max(1u, op.page_count), nullptr,
                               op.slc, op.oob.empty() ? 0 : op.oob[0].sequence);
      latency = die.read_time(op.address, op.slc).value() + die.program_time(op.dest, op.page_count, op.slc).value();
      break;
  }
  uint64_t& free_at = die_free_at_[op.address.die];
  free_at = std::max(free_at, now_ps()) + latency;
  post(free_at, [this, c] { firmware_->on_flash_complete(c); });
}

void PowerLossRecovery::request_data_out(uint8_t tag, uint32_t, uint64_t, uint32_t, uint64_t token) {
  post(now_ps(), [this, tag, token] { firmware_->on_data_out_done(tag, token); });  // not used: only reads
}

void PowerLossRecovery::send_data_in(uint8_t tag, uint32_t offset, uint64_t addr, uint32_t bytes, uint64_t token) {
  if (addr < kByteRegionBase) {
    const uint32_t first = offset / uint32_t(kSectorBytes), n = bytes / uint32_t(kSectorBytes);
    if (read_data_.size() < first + n) read_data_.resize(first + n);
    std::copy_n(sector(addr), n, read_data_.begin() + first);
  }
  post(now_ps(), [this, tag, token] { firmware_->on_data_in_done(tag, token); });
}

void PowerLossRecovery::send_response(const CommandResponse& response) {
  response_ = response;
  response_arrived_ = true;
}

void PowerLossRecovery::copy_buffer(uint64_t dst, uint64_t src, uint32_t bytes) {
  std::copy_n(sector(src), bytes / kSectorBytes, sector(dst));
}
void PowerLossRecovery::read_buffer_bytes(uint64_t address, void* dst, uint32_t bytes) {
  std::memcpy(dst, &bytes_[address - kByteRegionBase], bytes);
}
void PowerLossRecovery::write_buffer_bytes(uint64_t address, const void* src, uint32_t bytes) {
  std::memcpy(&bytes_[address - kByteRegionBase], src, bytes);
}
void PowerLossRecovery::zero_buffer(uint64_t address, uint32_t bytes) {
  std::fill_n(sector(address), bytes / kSectorBytes, SectorStamp{});
}
void PowerLossRecovery::set_timer(uint64_t delay_ps, uint64_t cookie) {
  post(now_ps() + delay_ps, [this, cookie] { firmware_->on_timer(cookie); });
}

PowerLossReport PowerLossRecovery::run(const Scoreboard* scoreboard) {
  PowerLossReport report;
  firmware_ = std::make_unique<DeviceFirmware>(*this, config_.firmware, fcc_.geometry());
  firmware_->recover_on_power_up();
  post(0, [this] { firmware_->on_power_up(); });
  run_events([this] { return firmware_->recovery().stats().recoveries > 0; });
  const RecoveryStats& st = firmware_->recovery().stats();
  report.recovery_ps = st.recovery_ps;
  report.recovery_page_reads = st.page_reads;
  report.recovered_lbas = st.recovered_lbas;
  report.scan_reads = st.scan_reads;
  report.replay_reads = st.replay_reads;
  report.map_loads = st.map_loads;
  report.check_reads = st.check_reads;
  report.replayed_map_pages = st.replayed_pages;
  report.gone_entries = st.gone_entries;
  report.no_entries = st.no_entries;
  report.torn_pages = st.torn_pages;
  if (!scoreboard) return report;

  // Read back every LBA the run touched, one command at a time.
  const uint64_t capacity = firmware_->logical_blocks();
  const uint32_t chunk = std::min<uint32_t>(32, config_.firmware.max_transfer_blocks);
  for (const auto& range : scoreboard->tracked_ranges()) {
    for (uint64_t lba = range.first; lba < std::min(range.second, capacity); lba += chunk) {
      const uint32_t n = uint32_t(std::min<uint64_t>(chunk, std::min(range.second, capacity) - lba));
      BlockRequest q;
      q.op = BlockOp::Read;
      q.lba = lba;
      q.blocks = n;
      HostCommand cmd;
      cmd.tag = 0;
      host_scsi::encode_block_request(q, cmd, nullptr);
      read_data_.assign(n, SectorStamp{});
      response_arrived_ = false;
      post(now_ps(), [this, cmd] { firmware_->on_command(cmd); });
      run_events([this] { return response_arrived_; });
      if (!response_arrived_ || response_.status != scsi_status::kGood) {
        report.wrong += n;
        if (report.first_problem.empty())
          report.first_problem = "read of lba " + std::to_string(lba) + " failed after recovery";
        continue;
      }
      for (uint32_t i = 0; i < n; ++i) {
        bool lost = false;
        ++report.checked_blocks;
        if (scoreboard->survives(lba + i, read_data_[i], &lost)) continue;
        ++(lost ? report.lost : report.wrong);
        if (report.first_problem.empty())
          report.first_problem = "lba " + std::to_string(lba + i) + (lost ? " lost" : " read back version " +
                                 std::to_string(read_data_[i].version) + " of lba " + std::to_string(read_data_[i].lba) +
                                 ", durable version " + std::to_string(scoreboard->durable_version(lba + i)));
      }
    }
  }
  report.durable_blocks = scoreboard->durable_blocks();
  const L2pMap& map = firmware_->ftl().map();
  if (map.verifying()) {
    report.map_verified = true;
    report.map_lookups = map.stats().verified_gets;
    report.map_lookup_mismatches = map.stats().get_mismatches;
    report.map_first_mismatch = map.first_mismatch();
  }
  return report;
}

}  // namespace ufs
