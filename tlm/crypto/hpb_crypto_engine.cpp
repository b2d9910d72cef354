#include "crypto/hpb_crypto_engine.h"
#include "common/sim_time.h"
#include <cmath>
#include <cstring>
#include <stdexcept>
#include "crypto/hpb_entry_codec.h"

namespace ufs {

using sc_core::sc_time;
using sc_core::SC_PS;
namespace reg = hpb_crypto_reg;

HpbCryptoEngine::HpbCryptoEngine(sc_core::sc_module_name name, const HpbCryptoParams& params)
    : sc_core::sc_module(name),
      regs("regs"),
      params_(params),
      batch_event_("batch", [this] { run_batch(); }),
      deliver_event_("deliver", [this] { deliver(); }) {
  const std::string error = params_.validate();
  if (!error.empty()) throw std::invalid_argument(std::string(this->name()) + ": " + error);
  period_ps_ = params_.period_ps();
  core_ = make_hpb_crypto_core(params_.model, params_.rounds_per_cycle);
  regs.register_b_transport(this, &HpbCryptoEngine::b_transport);
  regs.register_transport_dbg(this, &HpbCryptoEngine::transport_dbg);


  if (!params_.waves_file.empty() &&
      !enable_waves(params_.waves_file, sc_time(params_.waves_from_us, sc_core::SC_US),
                    sc_time(params_.waves_to_us, sc_core::SC_US)))
    throw std::runtime_error(std::string(this->name()) + ": cannot open waves file " +
                             params_.waves_file);
}

HpbCryptoEngine::~HpbCryptoEngine() { core_->close_waves(); }

sc_time HpbCryptoEngine::clock_period() const { return sc_time(double(period_ps_), SC_PS); }

uint64_t HpbCryptoEngine::to_ps(const sc_time& t) const {
  // Exact integer conversion from the kernel's time resolution (1 ps by default), worked
  // out once: the resolution is fixed before the first sc_time exists.
  if (!ps_mul_) {
    const double resolution_ps = sc_core::sc_get_time_resolution().to_seconds() * 1e12;
    if (resolution_ps >= 1.0) ps_mul_ = uint64_t(std::llround(resolution_ps)), ps_div_ = 1;
    else ps_mul_ = 1, ps_div_ = uint64_t(std::llround(1.0 / resolution_ps));
  }
  return ps_div_ == 1 ? uint64_t(t.value()) * ps_mul_ : uint64_t(t.value()) / ps_div_;
}

void HpbCryptoEngine::submit(const HpbCryptoJob& job, const sc_time& delay) {
  pending_.push_back(Pending{job, to_ps(sim_now() + delay)});
  batch_event_.notify(sc_core::SC_ZERO_TIME);  // collect this delta's jobs into one batch
}

void HpbCryptoEngine::submit_batch(const HpbSignBatch& batch, const sc_time& delay) {
  if (batch.count == 0) return;
  const uint64_t arrival = to_ps(sim_now() + delay);
  const uint64_t id = next_batch_++;
  batches_.push_back(Batch{id, batch.entries, batch.count, batch.count, batch.cookie, arrival, HpbCryptoStatus::Ok});
  for (uint32_t i = 0; i < batch.count; ++i) {
    HpbCryptoJob job;
    job.kind = HpbCryptoJob::Sign;
    job.lba = batch.items[i].lba;
    job.ppn = batch.items[i].ppn;
    job.lun = batch.lun;
    job.generation = batch.items[i].generation;
    job.cookie = batch.cookie;
    pending_.push_back(Pending{job, arrival, id, i});
  }
  batch_event_.notify(sc_core::SC_ZERO_TIME);
}

void HpbCryptoEngine::run_batch() {
  for (const Pending& p : pending_) {
    const HpbCoreResult r = core_->run(p.job, edge_at_or_after(p.arrival_ps));
    busy_cycles_ += r.done_cycle - r.accept_cycle;
    completions_.push_back(Completion{r.done_cycle * period_ps_, r.result, p.batch, p.index});
  }
  pending_.clear();
  schedule_delivery();
}

void HpbCryptoEngine::schedule_delivery() {
  if (completions_.empty()) return;
  const uint64_t now = to_ps(sim_now());
  const uint64_t due = completions_.front().done_ps;
  deliver_event_.notify(due > now ? sc_time(double(due - now), SC_PS) : sc_core::SC_ZERO_TIME);
}

void HpbCryptoEngine::deliver() {
  const uint64_t now = to_ps(sim_now());
  while (!completions_.empty() && completions_.front().done_ps <= now) {
    const Completion c = completions_.front();
    const HpbCryptoResult& result = c.result;
    completions_.pop_front();
    if (result.kind == HpbCryptoJob::Sign) ++signed_;
    else ++verified_;
    if (result.status == HpbCryptoStatus::TagMismatch) ++verify_failures_;
    if (result.status == HpbCryptoStatus::NoKey || result.status == HpbCryptoStatus::LbaRange)
      ++errors_;
    if (c.batch) batch_item_done(c);
    else if (listener_) listener_->crypto_done(result);
  }
  schedule_delivery();
}

// The DMA writes the item's entry; after the batch's last, its one result.
void HpbCryptoEngine::batch_item_done(const Completion& c) {
  auto it = batches_.begin();
  while (it != batches_.end() && it->id != c.batch) ++it;
  if (it == batches_.end()) return;
  const HpbCryptoResult& r = c.result;
  const uint64_t entry = r.status == HpbCryptoStatus::Ok ? r.entry : 0;
  for (int b = 0; b < 8; ++b) it->entries[size_t(c.index) * 8 + size_t(b)] = uint8_t(entry >> (56 - 8 * b));
  if (r.status != HpbCryptoStatus::Ok && it->status == HpbCryptoStatus::Ok) it->status = r.status;
  if (--it->remaining) return;
  HpbCryptoResult done;
  done.kind = HpbCryptoJob::Sign;
  done.status = it->status;
  done.valid = it->status == HpbCryptoStatus::Ok;
  done.cookie = it->cookie;
  done.batch = it->count;
  done.cycles = uint32_t(c.done_ps / period_ps_ - edge_at_or_after(it->arrival_ps));
  batches_.erase(it);
  if (listener_) listener_->crypto_done(done);
}

sc_time HpbCryptoEngine::write_register(uint32_t offset, uint32_t value, const sc_time& delay) {
  run_batch();  // jobs submitted before this access reach the unit first
  core_->write_reg(offset, value, edge_at_or_after(to_ps(sim_now() + delay)));
  return clock_period() * double(params_.reg_access_cycles);
}

sc_time HpbCryptoEngine::load_session_key(const AesKey& key, const sc_time& delay) {
  sc_time d = delay;
  for (int i = 0; i < 4; ++i) d += write_register(reg::kKey0 + 4 * uint32_t(i), key_word(key, i), d);
  d += write_register(reg::kCtrl, reg::kCtrlKeyCommit, d);
  return d - delay;
}

sc_time HpbCryptoEngine::zeroize_session_key(const sc_time& delay) {
  return write_register(reg::kCtrl, reg::kCtrlKeyZeroize, delay);
}

uint32_t HpbCryptoEngine::peek_register(uint32_t offset) {
  run_batch();
  return core_->read_reg(offset);
}

bool HpbCryptoEngine::enable_waves(const std::string& path, const sc_time& from,
                                   const sc_time& to) {
  return core_->open_waves(path, period_ps_, to_ps(from), to_ps(to));
}

void HpbCryptoEngine::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  const uint64_t offset = trans.get_address();
  if (trans.get_data_length() != 4 || trans.get_streaming_width() < 4 ||
      trans.get_byte_enable_ptr() != nullptr) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  if (offset >= reg::kSize || (offset & 3) != 0) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  uint32_t value = 0;
  if (trans.is_write()) {
    std::memcpy(&value, trans.get_data_ptr(), 4);
    delay += write_register(uint32_t(offset), value, delay);
  } else if (trans.is_read()) {
    run_batch();
    value = core_->read_reg(uint32_t(offset));
    std::memcpy(trans.get_data_ptr(), &value, 4);
    delay += clock_period() * double(params_.reg_access_cycles);
  } else {
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned int HpbCryptoEngine::transport_dbg(tlm::tlm_generic_payload& trans) {
  const uint64_t offset = trans.get_address();
  if (!trans.is_read() || trans.get_data_length() != 4 || offset >= reg::kSize || (offset & 3))
    return 0;
  const uint32_t value = peek_register(uint32_t(offset));
  std::memcpy(trans.get_data_ptr(), &value, 4);
  return 4;
}

AesKey hpb_session_key_from_seed(uint64_t seed) {
  AesKey key;
  uint64_t x = seed;
  for (size_t i = 0; i < 16; i += 8) {
    x += 0x9e3779b97f4a7c15ull;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    for (size_t b = 0; b < 8; ++b) key[i + b] = uint8_t(z >> (56 - 8 * b));
  }
  return key;
}

}  // namespace ufs
