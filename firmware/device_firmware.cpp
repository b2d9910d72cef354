#include "device_firmware.h"

namespace ufs {

namespace {
// The data buffer's read area in 4 KiB slots (the write cache follows it).
uint32_t read_slots(const FirmwareParams& params) { return (params.data_buffer_kib - params.write_cache_kib) / 4; }

// (NAND sectors programmed) / (host sectors written): write amplification.
double write_amplification(const WritePath& write, const GarbageCollector& gc) {
  const uint64_t written = write.writes().stats().host_write_blocks;
  if (written == 0) return 0.0;
  return double(write.cache().stats().host_program_sectors + write.cache().stats().padding_sectors +
                gc.stats().moved_sectors) /
         double(written);
}
}  // namespace

// The parts are built in the order their flash clients attach (map store, write cache, page
// fill, map writer, read engine, GC, power-up recovery): a client's id is in every flash
// trace cookie. Write protection and the write path get the background work and the
// collector before they are built: they only keep the reference.
DeviceFirmware::DeviceFirmware(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry)
    : hal_(hal),
      params_(params),
      ftl_(hal, params_, geometry),
      table_(hal, params.cycles.response, params.cycles.transfer_setup, latency_),
      protection_(table_, ftl_.flash(), background_),
      write_(hal, params_, geometry, ftl_.map().logical_blocks(), read_slots(params),
             WritePathLinks{ftl_.blocks(), ftl_.map(), ftl_.map_store(), ftl_.flash(), table_, latency_, protection_,
                            gc_, gc_}),
      reads_(hal, params_, read_slots(params), table_, latency_, ftl_.map(), ftl_.blocks().layout(), ftl_.flash(),
             ftl_.map_store()),
      scsi_(table_, reads_, write_.writes(), protection_, params.max_transfer_blocks, ftl_.map().logical_blocks()),
      gc_(hal, params_, ftl_.blocks(), ftl_.flash(), write_.gc_units(), write_.map_writer(), write_, write_.shares()),
      wb_(params.writebooster.enabled
              ? std::make_unique<WriteBoosterFeature>(params_, geometry, ftl_.blocks(), gc_, query_)
              : nullptr),
      background_(hal, BackgroundWorkLinks{gc_, gc_, wb_ ? &wb_->flush() : nullptr, write_, ftl_.dies()}),
      recovery_(hal, params_, ftl_.blocks().layout().geometry(), ftl_.map().logical_blocks(), read_slots(params),
                ftl_.blocks(), ftl_.map(), ftl_.map_store(), ftl_.flash(), wb_ ? &wb_->buffer() : nullptr,
                background_) {
  table_.set_end_listener(&background_);
  reads_.set_next_waiters(&write_.writes());
  write_.writes().set_reads(&reads_);
  write_.set_gc(gc_.unit_events(), gc_.host_gate());  // GC units: the victim mover; host units at GC's pace
  ftl_.map_store().set_dirty_sink(write_.map_writer());
  if (wb_) write_.set_write_booster(&wb_->buffer());  // host data into the SLC buffer while it has room
  if (params.hpb.enabled)
    hpb_ = std::make_unique<HpbFeature>(
        hal, params.hpb, ftl_.map().logical_blocks(),
        HpbFeatureLinks{ftl_.map(), table_, reads_, ftl_.map_store(), latency_, query_});
  WriteBoosterFlush* flush = wb_ ? &wb_->flush() : nullptr;
  gc_.set_helpers(params.gc.bg_map_writeback ? &write_.map_writer() : nullptr, flush, flush);
}

void DeviceFirmware::visit_stats(StatsVisitor& v) const {
  const FirmwareStats& f = stats_;
  v.count("ftl.logical_blocks", ftl_.map().logical_blocks(), "blocks", "LBAs the device exports");
  write_.writes().visit_stats(v);
  reads_.visit_stats(v);
  write_.cache().visit_stats(v);
  gc_.visit_stats(v);
  ftl_.flash().visit_stats(v);
  v.count("ftl.bad_blocks", ftl_.blocks().bad_blocks(), "blocks", "blocks retired");
  v.figure("ftl.write_amplification", write_amplification(write_, gc_), "", "NAND sectors programmed per host sector written");
  table_.visit_stats(v);
  protection_.visit_stats(v);
  if (ftl_.map().whole())  // (with the map cache the map is in map pages and frames: ftl.map_cache.*)
    v.count("ftl.map_chunks_allocated", ftl_.map().whole_chunks_allocated(), "chunks", "L2P map chunks allocated");
  write_.fill().visit_stats(v);
  ftl_.map_store().visit_stats(v);
  write_.map_writer().visit_stats(v);
  v.count("crypto.session_keys_loaded", f.session_keys_loaded, "", "HPB session keys drawn at power-up");
  if (hpb_) hpb_->device().visit_stats(v);
  if (wb_) wb_->buffer().visit_stats(v);
}

FirmwareRam DeviceFirmware::ram() const {
  FirmwareRam r;
  const BlockManager& blocks = ftl_.blocks();
  const MapStore& map = ftl_.map_store();
  r.tables.push_back({"block table", blocks.table_bytes()});
  r.tables.push_back({"validity bitmaps", blocks.bitmap_bytes()});
  if (map.enabled()) {
    r.tables.push_back({"map directory", map.directory_bytes() + write_.map_writer().ram_bytes()});
    r.tables.push_back({"map write-back buffers", write_.map_writer().buffer_bytes() + map.buffer_bytes()});
  }
  r.tables.push_back({"write cache", write_.cache().units().ram_bytes()});
  if (hpb_) r.tables.push_back({"hpb regions", hpb_->device().regions().ram_bytes()});
  if (hpb_ && hpb_->device().params().response_entries)
    r.tables.push_back({"hpb updated entries", hpb_->device().freshness().ram_bytes()});
  r.map_cache_bytes = map.frame_bytes();
  r.map_shadow_bytes = ftl_.map().whole_map_bytes();
  r.recovery_bytes = PowerUpRecovery::ram_bytes(params_, blocks.layout().geometry(), blocks, ftl_.map().logical_blocks(), map);
  return r;
}

bool DeviceFirmware::idle() const {
  if (!table_.all_idle()) return false;
  if (write_.cache().units().busy()) return false;
  return gc_.idle();
}

// Every handler ends here: the HPB entries it programmed (hpb.response_entries) go to the
// crypto engine as one sign batch.
struct DeviceFirmware::EventEnd {
  DeviceFirmware& fw;
  ~EventEnd() {
    if (fw.hpb_) fw.hpb_->device().end_event();
  }
};

// ---------------------------------------------------------------- commands

void DeviceFirmware::on_command(const HostCommand& c) {
  const EventEnd end{*this};
  table_.count_command();
  background_.command_started();
  latency_.start(c.tag, hal_.now_ps());
  hal_.charge_cycles(params_.cycles.command_decode);
  if (table_.kind(c.tag) != CommandKind::Idle) { table_.reject_overlap(c); return; }  // the host broke the protocol
  if (recovery_.active()) { table_.fail(c, sense_key::kNotReady, asc::kNotReadyCause); return; }
  if (hpb_ && hpb_op::is_hpb_opcode(c.cdb[0])) { hpb_->device().on_command(c); return; }
  scsi_.dispatch(c);
}

// ---------------------------------------------------------------- reads

void DeviceFirmware::on_data_in_done(uint8_t tag, uint64_t token) {
  const EventEnd end{*this};
  hal_.charge_cycles(params_.cycles.transfer_done);
  if (token & kControlToken) { table_.control_data_sent(tag); return; }
  if (token & hpb_cookie::kToken) { hpb_->device().on_data_in_done(tag); return; }
  reads_.data_in_done(tag, token);
}

// ---------------------------------------------------------------- writes

void DeviceFirmware::on_data_out_done(uint8_t tag, uint64_t token) {
  const EventEnd end{*this};
  hal_.charge_cycles(params_.cycles.transfer_done);
  if (token & hpb_cookie::kToken) { hpb_->device().on_data_out_done(tag); return; }
  write_.writes().data_out_done(tag, token);
}

void DeviceFirmware::on_flash_complete(const FlashCompletion& c) {
  const EventEnd end{*this};
  hal_.charge_cycles(params_.cycles.flash_complete);
  ftl_.flash().complete(c);
  // Programs waiting for a block with nothing on the flash: no later event frees one.
  if (protection_.may_be_stuck() && !write_.preconditioning() && write_.programs_waiting())
    protection_.out_of_space();
}

void DeviceFirmware::on_timer(uint64_t cookie) {
  const EventEnd end{*this};
  background_.on_timer(cookie);
}

// Boot: a fresh HPB session key from the hardware RNG each power cycle, so entries
// handed out before a power cycle no longer verify (rtl/README.md). The key goes
// into the engine's write-only registers and is never kept in firmware memory.
void DeviceFirmware::on_power_up() {
  for (uint32_t word = 0; word < 4; word += 2) {
    const uint64_t r = hal_.random64();
    hal_.write_crypto_register(hpb_crypto_reg::kKey0 + 4 * word, uint32_t(r >> 32));
    hal_.write_crypto_register(hpb_crypto_reg::kKey0 + 4 * (word + 1), uint32_t(r));
  }
  hal_.write_crypto_register(hpb_crypto_reg::kCtrl, hpb_crypto_reg::kCtrlKeyCommit);
  ++stats_.session_keys_loaded;
  if (hpb_) hpb_->device().on_power_up();
  recovery_.power_up();
}

// HPB READ verification and READ BUFFER signing results go to the HPB device.
void DeviceFirmware::on_crypto_done(const HpbCryptoResult& result) {
  const EventEnd end{*this};
  ++stats_.crypto_results;
  if (!result.valid) ++stats_.crypto_rejected;
  if (hpb_) hpb_->device().on_crypto_done(result);
}

// ---------------------------------------------------------------- preconditioning

void DeviceFirmware::precondition(uint64_t first_lba, uint64_t count, FlashBackdoor& backdoor) {
  background_.hold(true);
  write_.precondition(first_lba, count, backdoor);
  background_.hold(false);
}

}  // namespace ufs
