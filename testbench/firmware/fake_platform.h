// A plain C++ stand-in for the hardware, for firmware unit tests without the
// SystemC kernel: a discrete-event clock, a flash array with fixed latencies,
// a data buffer of stamps and a host that records what the device sends.
#pragma once
#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <map>
#include <queue>
#include <stdexcept>
#include <string>
#include <vector>
#include "crypto/hpb_entry_codec.h"
#include "device_firmware.h"
#include "hal/hal.h"

namespace ufs::test {

class FakePlatform : public Hal, public FlashBackdoor {
 public:
  struct Completed {
    CommandResponse response;
    std::vector<uint8_t> bytes;          // control data received
  };

  FakePlatform(const FlashGeometry& geo, uint32_t buffer_slots) : geo_(geo), buffer_(buffer_slots) {}
  void attach(FirmwareEvents* fw) { fw_ = fw; }

  // ---- Hal
  uint64_t now_ps() const override { return now_ + charged_ * 1000; }
  void charge_cycles(uint64_t c) override { charged_ += c; cycles_ += c; }
  void submit_flash(const FlashOp& op) override {
    ++flash_ops_;
    FlashCompletion c;
    c.cookie = op.cookie;
    c.opcode = op.opcode;
    c.address = op.address;
    uint64_t latency = 0;
    const uint32_t spp = spp_of(op.address);  // hybrid page size: the block's own page
    if (op.opcode != FlashOpcode::Erase) ++(spp == geo_.sectors_per_page() ? small_page_ops_ : large_page_ops_);
    if (op.opcode == FlashOpcode::Read && op.sector_offset + (op.sector_count ? op.sector_count : spp) > spp)
      ++violations_;
    // Per-block SLC mode (FlashOp::slc), as the NAND die checks it: fixed by the first
    // program after an erase; an access in the other mode or past an SLC block's pages
    // is a violation.
    if (op.opcode != FlashOpcode::Erase) {
      const uint64_t blk = key(op.address, 0);
      auto mode = block_slc_.find(blk);
      if (mode != block_slc_.end() && mode->second != op.slc) ++mode_violations_;
      else if (op.opcode != FlashOpcode::Read && mode == block_slc_.end()) block_slc_[blk] = op.slc;
      if (op.slc && op.address.page + std::max(1u, op.page_count) > geo_.slc_pages_per_block()) ++mode_violations_;
      if (op.opcode == FlashOpcode::CopyBack && op.slc) block_slc_[key(op.dest, 0)] = true;
      slc_ops_ += op.slc;
      if (op.slc && op.opcode == FlashOpcode::Program) ++slc_programs_by_plane_[op.address.plane];
    }
    switch (op.opcode) {
      case FlashOpcode::Read: {
        latency = 50'000'000;
        auto it = pages_.find(key(op.address, op.address.page));
        const uint32_t n = op.sector_count ? op.sector_count : spp;
        ++(op.buffer_address >= kL2pSramBase ? map_reads_ : data_reads_);
        for (uint32_t i = 0; i < n && op.buffer_address < kL2pSramBase; ++i)
          buffer_[op.buffer_address / kSectorBytes + i] =
              it == pages_.end() ? SectorStamp{} : it->second.stamps[op.sector_offset + i];
        if (it != pages_.end()) c.oob = it->second.oob;
        if (it != pages_.end() && op.words && !it->second.words.empty() && !it->second.torn)
          std::copy_n(it->second.words.begin(), std::min<size_t>(op.words_per_page, it->second.words.size()), op.words);
        if (it != pages_.end() && it->second.torn) { c.status = FlashStatus::Uncorrectable; c.oob = PageOob{}; }
        break;
      }
      case FlashOpcode::Program:
        latency = 500'000'000;
        for (uint32_t p = 0; p < op.page_count; ++p) {
          Page& pg = pages_[key(op.address, op.address.page + p)];
          if (pg.programmed) ++violations_;
          pg.programmed = true;
          pg.torn = false;
          programs_in_flight_.push_back({now_ps() + latency, key(op.address, op.address.page + p)});
          if (op.buffer_address >= kL2pSramBase) pg.stamps.assign(spp, SectorStamp{});  // a map page from the L2P SRAM
          else
            pg.stamps.assign(buffer_.begin() + op.buffer_address / kSectorBytes + p * spp,
                             buffer_.begin() + op.buffer_address / kSectorBytes + (p + 1) * spp);
          pg.oob = op.oob[p];
          if (op.words) pg.words.assign(op.words + size_t(p) * op.words_per_page, op.words + size_t(p + 1) * op.words_per_page);
          else pg.words.clear();
          if (fail_next_program_) { fail_next_program_ = false; c.status = FlashStatus::ProgramFail; }
        }
        break;
      case FlashOpcode::Erase: {
        latency = 3'000'000'000;
        ++erases_;
        large_erases_ += geo_.large_block(op.address.block);
        for (uint32_t p = 0; p < geo_.pages_per_block; ++p) pages_.erase(key(op.address, p));
        block_slc_.erase(key(op.address, 0));
        break;
      }
      case FlashOpcode::CopyBack: {  // inside one plane: the source pages to dest, data off the bus
        latency = 550'000'000;
        ++copy_backs_;
        if (op.dest.die != op.address.die || op.dest.plane != op.address.plane) ++violations_;
        for (uint32_t p = 0; p < std::max(1u, op.page_count); ++p) {
          auto src = pages_.find(key(op.address, op.address.page + p));
          const Page from = src == pages_.end() ? Page{} : src->second;
          if (p == 0 && op.read_oob) c.oob = from.oob;
          if (from.torn) { c.status = FlashStatus::Uncorrectable; c.oob = PageOob{}; break; }
          Page& pg = pages_[key(op.dest, op.dest.page + p)];
          if (pg.programmed) ++violations_;
          pg = from;
          if (!op.oob.empty() && op.oob[0].sequence) restamp(&pg.oob, 1, op.oob[0].sequence);
          pg.programmed = true;
          pg.torn = false;
          if (pg.stamps.empty()) pg.stamps.assign(spp, SectorStamp{});
          programs_in_flight_.push_back({now_ps() + latency, key(op.dest, op.dest.page + p)});
          if (fail_next_copy_back_) { fail_next_copy_back_ = false; c.status = FlashStatus::ProgramFail; }
        }
        break;
      }
    }
    post(now_ps() + latency, [this, c] { fw_->on_flash_complete(c); });
  }
  void request_data_out(uint8_t tag, uint32_t offset, uint64_t addr, uint32_t bytes, uint64_t token) override {
    if (!in_flight_[tag] || direction_[tag] != DataDirection::Write) ++protocol_violations_;
    if (addr >= kByteRegionBase) {
      std::memcpy(&bytes_[addr - kByteRegionBase], host_out_bytes_[tag].data() + offset, bytes);
    } else {
      for (uint32_t i = 0; i < bytes / kSectorBytes; ++i)
        buffer_[addr / kSectorBytes + i] = host_out_[tag][offset / kSectorBytes + i];
    }
    post(now_ps() + 2'000'000, [this, tag, token] { fw_->on_data_out_done(tag, token); });
  }
  void send_data_in(uint8_t tag, uint32_t offset, uint64_t addr, uint32_t bytes, uint64_t token) override {
    if (!in_flight_[tag] || direction_[tag] != DataDirection::Read) ++protocol_violations_;
    if (addr >= kByteRegionBase) {
      auto& v = done_bytes_[tag];  // a new command's data starts at offset 0
      if (offset == 0) v.clear();
      if (v.size() < size_t(offset) + bytes) v.resize(size_t(offset) + bytes);
      std::copy(bytes_.begin() + (addr - kByteRegionBase), bytes_.begin() + (addr - kByteRegionBase) + bytes,
                v.begin() + offset);
    } else {
      auto& v = host_in_[tag];
      for (uint32_t i = 0; i < bytes / kSectorBytes; ++i) v[offset / kSectorBytes + i] = buffer_[addr / kSectorBytes + i];
    }
    post(now_ps() + 2'000'000, [this, tag, token] { fw_->on_data_in_done(tag, token); });
  }
  void send_response(const CommandResponse& r) override {
    // Exactly one RESPONSE per COMMAND: none for a tag with no command in flight.
    if (!in_flight_[r.tag]) ++protocol_violations_;
    in_flight_[r.tag] = false;
    responses_.push_back(r);
    if (on_response) on_response(r);
  }
  void copy_buffer(uint64_t dst, uint64_t src, uint32_t bytes) override {
    for (uint32_t i = 0; i < bytes / kSectorBytes; ++i) buffer_[dst / kSectorBytes + i] = buffer_[src / kSectorBytes + i];
  }
  void read_buffer_bytes(uint64_t a, void* dst, uint32_t n) override { std::memcpy(dst, &bytes_[a - kByteRegionBase], n); }
  void write_buffer_bytes(uint64_t a, const void* src, uint32_t n) override { std::memcpy(&bytes_[a - kByteRegionBase], src, n); }
  void zero_buffer(uint64_t a, uint32_t bytes) override {
    for (uint32_t i = 0; i < bytes / kSectorBytes; ++i) buffer_[a / kSectorBytes + i] = SectorStamp{};
  }
  void l2p_sram_access(uint32_t, bool) override {}
  // Crypto jobs are recorded; with crypto_on they are also answered by the reference
  // codec (rtl/README.md's scheme) under the key the firmware committed, 100 ns later.
  void submit_crypto(const HpbCryptoJob& job) override {
    if (!crypto_on) { crypto_jobs_.push_back(job); return; }
    ++crypto_job_count_;
    HpbCryptoResult r;
    r.kind = job.kind;
    r.cookie = job.cookie;
    r.entry = job.entry;
    if (!key_valid_) r.status = HpbCryptoStatus::NoKey;
    else if (job.lba >> kHpbCryptoLbaBits) r.status = HpbCryptoStatus::LbaRange;
    else if (job.kind == HpbCryptoJob::Sign) {
      r.entry = codec_.sign(job.lun, job.generation, job.lba, job.ppn);
      r.ppn = job.ppn;
      r.status = HpbCryptoStatus::Ok;
    } else {
      uint32_t ppn = 0;
      r.status = codec_.verify(job.lun, job.generation, job.lba, job.entry, &ppn) ? HpbCryptoStatus::Ok
                                                                                 : HpbCryptoStatus::TagMismatch;
      r.ppn = r.status == HpbCryptoStatus::Ok ? ppn : 0;
    }
    r.valid = r.status == HpbCryptoStatus::Ok;
    post(now_ps() + 100'000, [this, r] { fw_->on_crypto_done(r); });
  }
  // A sign batch: recorded with its items; with crypto_on each item is signed as a job
  // (counted in crypto_job_count_) and the entries written, one result 100 ns + 10 ns an
  // item later (nothing written if a power cut drops it first).
  void submit_sign_batch(const HpbSignBatch& b) override {
    ++sign_batches_;
    if (!crypto_on) {
      sign_batch_list_.push_back(b);
      sign_batch_items_.emplace_back(b.items, b.items + b.count);
      return;
    }
    crypto_job_count_ += b.count;
    std::vector<uint64_t> entries(b.count, 0);
    HpbCryptoResult r;
    r.kind = HpbCryptoJob::Sign;
    r.cookie = b.cookie;
    r.batch = b.count;
    r.status = HpbCryptoStatus::Ok;
    for (uint32_t i = 0; i < b.count; ++i) {
      HpbCryptoStatus st = HpbCryptoStatus::Ok;
      if (!key_valid_) st = HpbCryptoStatus::NoKey;
      else if (b.items[i].lba >> kHpbCryptoLbaBits) st = HpbCryptoStatus::LbaRange;
      else entries[i] = codec_.sign(b.lun, b.items[i].generation, b.items[i].lba, b.items[i].ppn);
      if (st != HpbCryptoStatus::Ok && r.status == HpbCryptoStatus::Ok) r.status = st;
    }
    r.valid = r.status == HpbCryptoStatus::Ok;
    uint8_t* out = b.entries;
    post(now_ps() + 100'000 + 10'000 * uint64_t(b.count), [this, r, out, entries] {
      for (size_t i = 0; i < entries.size(); ++i) put_be64(out + 8 * i, entries[i]);
      fw_->on_crypto_done(r);
    });
  }
  // A recorded batch's result (crypto_on false): entries[i] = entry(item i), then the result.
  template <class Entry>
  HpbCryptoResult finish_sign_batch(size_t k, Entry entry) {
    const HpbSignBatch& b = sign_batch_list_.at(k);
    HpbCryptoResult r;
    r.kind = HpbCryptoJob::Sign;
    r.cookie = b.cookie;
    r.batch = b.count;
    r.valid = true;
    r.status = HpbCryptoStatus::Ok;
    for (uint32_t i = 0; i < b.count; ++i) put_be64(b.entries + 8 * i, entry(sign_batch_items_.at(k)[i]));
    return r;
  }
  void write_crypto_register(uint32_t offset, uint32_t value) override {
    crypto_regs_.emplace_back(offset, value);
    if (offset >= hpb_crypto_reg::kKey0 && offset < hpb_crypto_reg::kKey0 + 16) {
      const uint32_t w = (offset - hpb_crypto_reg::kKey0) / 4;
      for (uint32_t b = 0; b < 4; ++b) key_stage_[4 * w + b] = uint8_t(value >> (24 - 8 * b));
    }
    if (offset == hpb_crypto_reg::kCtrl && (value & hpb_crypto_reg::kCtrlKeyCommit)) {
      codec_.set_key(key_stage_);
      key_valid_ = true;
    }
  }
  bool peek_map_words(const FlashAddress& a, uint32_t* out, uint32_t count) override {
    ++map_peeks_;
    const auto it = pages_.find(key(a, a.page));
    if (it == pages_.end() || it->second.words.empty() || it->second.torn) return false;
    std::copy_n(it->second.words.begin(), std::min<size_t>(count, it->second.words.size()), out);
    return true;
  }
  uint64_t map_peeks() const { return map_peeks_; }
  uint64_t random64() override { return rng_state_ = rng_state_ * 6364136223846793005ull + 1442695040888963407ull; }
  void set_timer(uint64_t delay, uint64_t cookie) override {
    post(now_ps() + delay, [this, cookie] { fw_->on_timer(cookie); });
  }

  // ---- FlashBackdoor
  void preload_pages(const FlashAddress& a, uint32_t count, const SectorStamp* stamps, const PageOob* oobs,
                     const uint32_t* words = nullptr, uint32_t words_per_page = 0) override {
    const uint32_t spp = spp_of(a);
    for (uint32_t p = 0; p < count; ++p) {
      Page& pg = pages_[key(a, a.page + p)];
      pg.programmed = true;
      pg.stamps.assign(stamps + p * spp, stamps + (p + 1) * spp);
      pg.oob = oobs[p];
      if (words) pg.words.assign(words + size_t(p) * words_per_page, words + size_t(p + 1) * words_per_page);
      else pg.words.clear();
    }
  }
  // The words a page holds (map pages' entries, FlashOp::words); empty: none.
  std::vector<uint32_t> page_words(const FlashAddress& a) const {
    const auto it = pages_.find(key(a, a.page));
    return it == pages_.end() ? std::vector<uint32_t>{} : it->second.words;
  }
  // A page's spare area as programmed (erased: a default PageOob).
  PageOob page_oob(const FlashAddress& a) const {
    const auto it = pages_.find(key(a, a.page));
    return it == pages_.end() ? PageOob{} : it->second.oob;
  }

  // A page whose program a power cut interrupted: it reads back uncorrectable.
  void tear_page(const FlashAddress& a) {
    Page& pg = pages_[key(a, a.page)];
    pg.programmed = true;
    pg.torn = true;
    pg.stamps.resize(spp_of(a));
  }

  // ---- sudden power-off: every pending event is dropped (the firmware and SRAM contents
  // are gone), pages whose program had not finished read back uncorrectable.
  void power_cut() {
    const uint64_t t = now_ps();
    for (const auto& [done_at, page] : programs_in_flight_) {
      auto it = pages_.find(page);
      if (done_at > t && it != pages_.end()) { it->second.torn = true; ++torn_pages_; }
    }
    programs_in_flight_.clear();
    while (!events_.empty()) events_.pop();
    std::fill(buffer_.begin(), buffer_.end(), SectorStamp{});
    now_ = t;
    charged_ = 0;
  }
  uint64_t torn_pages_ = 0;

  // ---- test driving
  void command(const HostCommand& c, std::vector<SectorStamp> write_data = {}, std::vector<uint8_t> out_bytes = {}) {
    host_out_[c.tag] = std::move(write_data);
    host_out_bytes_[c.tag] = std::move(out_bytes);
    host_in_[c.tag].assign(c.expected_length / kSectorBytes + 1, SectorStamp{});
    post(now_ps(), [this, c] {
      in_flight_[c.tag] = true;
      direction_[c.tag] = c.direction;
      fw_->on_command(c);
    });
  }
  // Run events until none is left or `until` returns true.
  void run(const std::function<bool()>& until = nullptr) {
    while (!events_.empty()) {
      if (until && until()) return;
      auto e = events_.top();
      events_.pop();
      now_ = std::max(now_, e.at);
      charged_ = 0;
      e.fn();
      now_ += charged_ * 1000;  // 1 GHz: the CPU is busy for what was charged
      charged_ = 0;
      if (programs_in_flight_.size() > 4096) {  // forget programs long finished
        const uint64_t t = now_;
        programs_in_flight_.erase(std::remove_if(programs_in_flight_.begin(), programs_in_flight_.end(),
                                                 [t](const auto& p) { return p.first <= t; }),
                                  programs_in_flight_.end());
      }
    }
  }
  // Run the events due at or before t_ps; the clock then reads t_ps.
  void run_until(uint64_t t_ps) {
    run([&] { return events_.top().at > t_ps; });
    now_ = std::max(now_, t_ps);
  }
  void post(uint64_t at, std::function<void()> fn) { events_.push(Event{at, seq_++, std::move(fn)}); }

  std::function<void(const CommandResponse&)> on_response;
  // Host-side protocol check: a RESPONSE for a tag with no command in flight, DATA IN for a
  // command that does not read, a DATA OUT request for one that does not write.
  uint64_t protocol_violations_ = 0;
  std::vector<CommandResponse> responses_;
  std::map<uint8_t, std::vector<SectorStamp>> host_in_;
  std::map<uint8_t, std::vector<uint8_t>> done_bytes_;
  uint64_t mode_violations_ = 0, slc_ops_ = 0;
  uint64_t small_page_ops_ = 0, large_page_ops_ = 0;  // hybrid page size: reads/programs by the block's page size
  uint64_t large_erases_ = 0;                           // ... and erases of large-page blocks
  uint32_t spp_of(const FlashAddress& a) const {
    return geo_.large_block(a.block) ? geo_.large_sectors_per_page() : geo_.sectors_per_page();
  }
  std::map<uint32_t, uint64_t> slc_programs_by_plane_;  // SLC programs per plane index
  uint64_t flash_ops_ = 0, erases_ = 0, copy_backs_ = 0, violations_ = 0, cycles_ = 0, map_reads_ = 0, data_reads_ = 0;
  bool fail_next_program_ = false;
  bool fail_next_copy_back_ = false;
  std::vector<HpbCryptoJob> crypto_jobs_;
  uint64_t sign_batches_ = 0;                             // submit_sign_batch calls
  std::vector<HpbSignBatch> sign_batch_list_;             // crypto_on false: the batches, to finish by hand
  std::vector<std::vector<HpbSignItem>> sign_batch_items_;  // ... and their items as submitted
  std::vector<std::pair<uint32_t, uint32_t>> crypto_regs_;
  uint64_t rng_state_ = 1;
  uint64_t map_peeks_ = 0;
  bool crypto_on = false;
  uint64_t crypto_job_count_ = 0;
  uint64_t now() const { return now_; }

 private:
  struct Page {
    bool programmed = false;
    bool torn = false;
    std::vector<SectorStamp> stamps;
    PageOob oob;
    std::vector<uint32_t> words;  // a map page's entries (FlashOp::words)
  };
  std::vector<std::pair<uint64_t, uint64_t>> programs_in_flight_;  // (completion time, page key)
  struct Event {
    uint64_t at, seq;
    std::function<void()> fn;
    bool operator>(const Event& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  uint64_t key(const FlashAddress& a, uint32_t page) const {
    return ((uint64_t(a.die) * geo_.planes_per_die + a.plane) * geo_.blocks_per_plane + a.block) * geo_.pages_per_block + page;
  }
  FlashGeometry geo_;
  FirmwareEvents* fw_ = nullptr;
  std::vector<SectorStamp> buffer_;
  std::vector<uint8_t> bytes_ = std::vector<uint8_t>(256 * 4096);
  std::map<uint64_t, Page> pages_;
  std::map<uint64_t, bool> block_slc_;  // by key(block, 0): mode of a programmed block
  std::map<uint8_t, std::vector<SectorStamp>> host_out_;
  std::map<uint8_t, std::vector<uint8_t>> host_out_bytes_;
  std::array<bool, 256> in_flight_{};
  std::array<DataDirection, 256> direction_{};
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
  AesKey key_stage_{};
  HpbEntryCodec codec_;
  bool key_valid_ = false;
  uint64_t now_ = 0, charged_ = 0, seq_ = 0;
};

// For tests of firmware parts on their own: the platform's events go to whatever the test
// wires up (a flash port's completions, a part's handlers) instead of a whole DeviceFirmware.
struct PartEvents : FirmwareEvents {
  FlashPort* port = nullptr;
  std::function<void(const HostCommand&)> command;
  std::function<void(uint8_t, uint64_t)> data_out, data_in;
  std::function<void(uint64_t)> timer;
  void on_command(const HostCommand& c) override { if (command) command(c); }
  void on_flash_complete(const FlashCompletion& c) override { if (port) port->complete(c); }
  void on_data_out_done(uint8_t tag, uint64_t token) override { if (data_out) data_out(tag, token); }
  void on_data_in_done(uint8_t tag, uint64_t token) override { if (data_in) data_in(tag, token); }
  void on_timer(uint64_t cookie) override { if (timer) timer(cookie); }
  void on_crypto_done(const HpbCryptoResult&) override {}
  void on_power_up() override {}
};

// A firmware statistic by its stats.json key ("ftl.map_cache.page_writes"), as the parts report
// it (DeviceFirmware::visit_stats, or one part's): tests need not know which part keeps it.
struct FindStat : StatsVisitor {
  const std::string& key;
  bool counted = false, figured = false;  // found as a count, as a figure
  uint64_t count_value = 0;
  double figure_value = 0;
  explicit FindStat(const std::string& k) : key(k) {}
  void count(const char* k, uint64_t v, const char*, const char*) override { if (key == k) { count_value = v; counted = true; } }
  void figure(const char* k, double v, const char*, const char*) override { if (key == k) { figure_value = v; figured = true; } }
  void flag(const char*, bool, const char*) override {}
  void text(const char*, const std::string&, const char*) override {}
};
template <class Part>
uint64_t fw_count(const Part& fw, const std::string& key) {
  FindStat find(key);
  fw.visit_stats(find);
  if (!find.counted) throw std::logic_error("no firmware counter " + key);
  return find.count_value;
}
template <class Part>
double fw_figure(const Part& fw, const std::string& key) {
  FindStat find(key);
  fw.visit_stats(find);
  if (!find.figured) throw std::logic_error("no firmware figure " + key);
  return find.figure_value;
}

inline HostCommand make_rw(uint8_t tag, bool write, uint64_t lba, uint32_t blocks, bool fua = false) {
  HostCommand c;
  c.tag = tag;
  c.direction = write ? DataDirection::Write : DataDirection::Read;
  c.expected_length = blocks * uint32_t(kSectorBytes);
  c.cdb[0] = write ? 0x8A : 0x88;
  c.cdb[1] = fua ? 0x08 : 0;
  for (int i = 0; i < 8; ++i) c.cdb[2 + i] = uint8_t(lba >> (56 - 8 * i));
  for (int i = 0; i < 4; ++i) c.cdb[10 + i] = uint8_t(blocks >> (24 - 8 * i));
  return c;
}

// An HPB READ of n blocks at lba carrying the host's cached entry.
inline HostCommand make_hpb_read(uint8_t tag, uint64_t lba, uint64_t entry, uint32_t n, uint8_t read_id = 0,
                                 uint8_t lun = 0) {
  HostCommand c;
  c.tag = tag;
  c.lun = lun;
  c.direction = DataDirection::Read;
  c.expected_length = n * uint32_t(kSectorBytes);
  c.cdb[0] = hpb_op::kHpbRead;
  put_be32(&c.cdb[2], uint32_t(lba));
  put_be64(&c.cdb[6], entry);
  c.cdb[14] = uint8_t(n);
  c.cdb[15] = read_id;
  return c;
}

}  // namespace ufs::test
