#include "device_firmware.h"
#include <algorithm>

namespace ufs {

namespace {
// The LBAs the device exports: what is left of the flash after the WriteBooster buffer's
// reserve and the over-provisioning.
uint64_t exported_blocks(const FirmwareParams& params, const FlashGeometry& geometry) {
  return static_cast<uint64_t>(double(geometry.total_sectors() - params.writebooster.reserved_sectors(geometry)) *
                               (1.0 - params.over_provisioning));
}
// The data buffer's read area in 4 KiB slots (the write cache follows it).
uint32_t read_slots(const FirmwareParams& params) { return (params.data_buffer_kib - params.write_cache_kib) / 4; }
}  // namespace

// The parts are built in the order their flash clients attach (map store, write cache, page
// fill, map writer, read engine, GC, power-up recovery): a client's id is in every flash
// trace cookie.
DeviceFirmware::DeviceFirmware(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry)
    : hal_(hal),
      params_(params),
      blocks_(geometry),
      map_(exported_blocks(params, geometry)),
      table_(hal, params.cycles_response, params.cycles_transfer_setup, latency_),
      flash_(hal, blocks_, params.cycles_flash_submit, params.writebooster.enabled),
      protection_(table_, flash_, *this),
      map_store_(hal, params_, geometry, map_.logical_blocks(), blocks_.layout(), flash_),
      write_(hal, params_, geometry, map_.logical_blocks(), read_slots(params),
             WritePathLinks{blocks_, map_, map_store_, flash_, table_, latency_, protection_, gc_, gc_}),
      reads_(hal, params_, read_slots(params), table_, latency_, map_, blocks_.layout(), flash_, map_store_),
      scsi_(table_, reads_, write_.writes(), protection_, params.max_transfer_blocks, map_.logical_blocks()),
      gc_(hal, params_, blocks_, flash_, write_.gc_units(), write_.map_writer(), write_, write_.shares()),
      wb_(params.writebooster.enabled ? std::make_unique<WriteBoosterFeature>(params_, geometry, blocks_, gc_, query_)
                                      : nullptr),
      recovery_(hal, params_, blocks_.layout().geometry(), map_.logical_blocks(), read_slots(params), blocks_, map_,
                map_store_, flash_, wb_ ? &wb_->buffer() : nullptr, *this) {
  table_.set_end_listener(this);
  reads_.set_next_waiters(&write_.writes());
  write_.writes().set_reads(&reads_);
  write_.set_gc(gc_.unit_events(), gc_.host_gate());  // GC units: the victim mover; host units at GC's pace
  map_store_.set_dirty_sink(write_.map_writer());
  if (wb_) write_.set_write_booster(&wb_->buffer());  // host data into the SLC buffer while it has room
  if (params.hpb.enabled)
    hpb_ = std::make_unique<HpbFeature>(hal, params.hpb, map_.logical_blocks(),
                                        HpbFeatureLinks{map_, table_, reads_, map_store_, latency_, query_});
  // Idle time: background GC first, then a WriteBooster flush (each at its own threshold).
  idle_.add(gc_);
  WriteBoosterFlush* flush = wb_ ? &wb_->flush() : nullptr;
  if (flush) idle_.add(*flush);
  gc_.set_helpers(params.bg_map_writeback ? &write_.map_writer() : nullptr, flush, flush);
}

double DeviceFirmware::write_amplification() const {
  const uint64_t written = write_.writes().stats().host_write_blocks;
  if (written == 0) return 0.0;
  return double(write_.cache().stats().host_program_sectors + write_.cache().stats().padding_sectors + gc_.stats().moved_sectors) /
         double(written);
}

void DeviceFirmware::visit_stats(StatsVisitor& v) const {
  const FirmwareStats& f = stats_;
  v.count("ftl.logical_blocks", map_.logical_blocks(), "blocks", "LBAs the device exports");
  write_.writes().visit_stats(v);
  reads_.visit_stats(v);
  write_.cache().visit_stats(v);
  gc_.visit_stats(v);
  flash_.visit_stats(v);
  v.count("ftl.bad_blocks", blocks_.bad_blocks(), "blocks", "blocks retired");
  v.figure("ftl.write_amplification", write_amplification(), "", "NAND sectors programmed per host sector written");
  table_.visit_stats(v);
  protection_.visit_stats(v);
  v.count("ftl.map_chunks_allocated", map_.chunks_allocated(), "chunks", "L2P map chunks allocated");
  write_.fill().visit_stats(v);
  map_store_.visit_stats(v);
  write_.map_writer().visit_stats(v);
  v.count("crypto.session_keys_loaded", f.session_keys_loaded, "", "HPB session keys drawn at power-up");
  if (hpb_) hpb_->device().visit_stats(v);
  if (wb_) wb_->buffer().visit_stats(v);
}

bool DeviceFirmware::idle() const {
  if (!table_.all_idle()) return false;
  if (write_.cache().units().busy()) return false;
  return gc_.idle();
}

std::string DeviceFirmware::debug_state() const {
  const FlashGeometry& geo = blocks_.layout().geometry();
  std::string out;
  uint32_t unit_states[4];
  write_.cache().units().count_states(unit_states);
  out += "units free/filling/sealed/programming " + std::to_string(unit_states[0]) + "/" +
         std::to_string(unit_states[1]) + "/" + std::to_string(unit_states[2]) + "/" +
         std::to_string(unit_states[3]) + "; waiting: reads " + std::to_string(reads_.waiting()) +
         ", writes " + std::to_string(write_.writes().waiting()) + ", units for a die " +
         std::to_string(write_.cache().waiting_for_die()) + ", GC for a unit " + std::to_string(gc_.mover().waiting_for_units()) + "\n";
  for (uint32_t d = 0; d < geo.dies(); ++d) {
    out += "die " + std::to_string(d) + ": free blocks " + std::to_string(blocks_.pools().free_blocks(d));
    if (geo.hybrid()) out += " (large-page pool: " + std::to_string(blocks_.pools().free_blocks(d, true)) + ")";
    uint32_t closed = 0, fewest = ~0u, fewest_large = ~0u, busy = 0, bad = 0, open = 0;
    const uint32_t per_die = geo.planes_per_die * geo.blocks_per_plane;
    for (uint32_t b = d * per_die; b < (d + 1) * per_die; ++b) {
      const BlockInfo& i = blocks_.info(b);
      bad += i.state == BlockState::Bad;
      open += i.state == BlockState::Open;
      if (i.state != BlockState::Closed) continue;
      ++closed;
      if (geo.hybrid() && i.large) fewest_large = std::min(fewest_large, i.valid);
      busy += i.programs_in_flight != 0;
      fewest = std::min(fewest, i.valid);
    }
    if (geo.hybrid()) out += ", fewest valid in a large-page block " + std::to_string(fewest_large);
    out += ", closed " + std::to_string(closed) + " (fewest valid " + std::to_string(fewest) + ", " +
           std::to_string(busy) + " with programs in flight), open " + std::to_string(open) + ", bad " +
           std::to_string(bad);
    out += gc_.debug_state(d) + "\n";
  }
  return out;
}

// ---------------------------------------------------------------- end of life

// Nothing on the flash and units still wait for a block: every die is out of free blocks and
// its GC cannot get one to move a victim into (grown bad blocks used up the spare). No later
// event frees a block, so the device becomes read-only instead of hanging.
void DeviceFirmware::reclaim_space() {
  for (uint32_t d = 0; d < blocks_.layout().geometry().dies(); ++d) gc_.free_space_changed(d);  // last chance: a victim GC can still clean
}

void DeviceFirmware::write_protect_entered() {
  gc_.stop();
  if (wb_) wb_->flush().stop();
  write_.writes().refuse_undurable();
}

// ---------------------------------------------------------------- commands

void DeviceFirmware::on_command(const HostCommand& c) {
  table_.count_command();
  idle_.command_started();
  latency_.start(c.tag, hal_.now_ps());
  hal_.charge_cycles(params_.cycles_command_decode);
  if (table_.kind(c.tag) != CommandKind::Idle) { table_.reject_overlap(c); return; }  // the host broke the protocol
  if (recovery_.active()) { table_.fail(c, sense_key::kNotReady, asc::kNotReadyCause); return; }
  if (hpb_ && hpb_op::is_hpb_opcode(c.cdb[0])) { hpb_->device().on_command(c); return; }
  scsi_.dispatch(c);
}

// ---------------------------------------------------------------- reads

void DeviceFirmware::on_data_in_done(uint8_t tag, uint64_t token) {
  hal_.charge_cycles(params_.cycles_transfer_done);
  if (token & kControlToken) { table_.control_data_sent(tag); return; }
  if (token & hpb_cookie::kToken) { hpb_->device().on_data_in_done(tag); return; }
  reads_.data_in_done(tag, token);
}

// ---------------------------------------------------------------- writes

void DeviceFirmware::on_data_out_done(uint8_t tag, uint64_t token) {
  hal_.charge_cycles(params_.cycles_transfer_done);
  if (token & hpb_cookie::kToken) { hpb_->device().on_data_out_done(tag); return; }
  write_.writes().data_out_done(tag, token);
}

void DeviceFirmware::on_flash_complete(const FlashCompletion& c) {
  hal_.charge_cycles(params_.cycles_flash_complete);
  flash_.complete(c);
  // Programs waiting for a block with nothing on the flash: no later event frees one.
  if (protection_.may_be_stuck() && !write_.preconditioning() && write_.programs_waiting())
    protection_.out_of_space();
}

void DeviceFirmware::on_timer(uint64_t cookie) {
  if (cookie == IdleScheduler::kTimerCookie) idle_.on_timer();
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

void DeviceFirmware::recovery_started() {
  idle_.pause(true);
  if (wb_) wb_->flush().hold(true);
}

void DeviceFirmware::recovery_finished(const std::vector<uint8_t>& replayed) {
  idle_.pause(false);
  if (wb_) wb_->flush().hold(false);
  write_.map_writer().write_back_pages(replayed);
  for (uint32_t die = 0; die < blocks_.layout().geometry().dies(); ++die) gc_.free_space_changed(die);
}

// HPB READ verification and READ BUFFER signing results go to the HPB device.
void DeviceFirmware::on_crypto_done(const HpbCryptoResult& result) {
  ++stats_.crypto_results;
  if (!result.valid) ++stats_.crypto_rejected;
  if (hpb_) hpb_->device().on_crypto_done(result);
}

// ---------------------------------------------------------------- preconditioning

void DeviceFirmware::precondition(uint64_t first_lba, uint64_t count, FlashBackdoor& backdoor) {
  gc_.hold(true);
  if (wb_) wb_->flush().hold(true);
  write_.precondition(first_lba, count, backdoor);
  gc_.hold(false);
  if (wb_) wb_->flush().hold(false);
}

}  // namespace ufs
