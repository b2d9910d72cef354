#include "crypto/hpb_crypto_ref_core.h"
#include "crypto/hpb_crypto_rtl_core.h"
#include <algorithm>
#include <stdexcept>

namespace ufs {

namespace reg = hpb_crypto_reg;

bool hpb_crypto_rounds_supported(uint32_t r) { return r == 1 || r == 2 || r == 5 || r == 10; }

uint64_t HpbCryptoCore::load_key(const uint8_t key[16], uint64_t at_cycle) {
  AesKey k;
  std::copy(key, key + 16, k.begin());
  uint64_t c = at_cycle;
  for (int i = 0; i < 4; ++i) c = write_reg(reg::kKey0 + 4 * uint32_t(i), key_word(k, i), c) + 1;
  return write_reg(reg::kCtrl, reg::kCtrlKeyCommit, c);
}

std::unique_ptr<HpbCryptoCore> make_hpb_crypto_core(const std::string& model,
                                                    uint32_t rounds_per_cycle) {
  if (!hpb_crypto_rounds_supported(rounds_per_cycle))
    throw std::invalid_argument("hpb crypto: rounds_per_cycle must be 1, 2, 5 or 10");
  if (model == "cpp") return std::make_unique<HpbCryptoRefCore>(rounds_per_cycle);
  if (model == "rtl") return make_hpb_crypto_rtl_core(rounds_per_cycle);
  throw std::invalid_argument("hpb crypto: model must be rtl or cpp, not '" + model + "'");
}

HpbCryptoRefCore::HpbCryptoRefCore(uint32_t rounds_per_cycle) : rounds_(rounds_per_cycle) {
  if (!hpb_crypto_rounds_supported(rounds_))
    throw std::invalid_argument("hpb crypto: rounds_per_cycle must be 1, 2, 5 or 10");
}

uint64_t HpbCryptoRefCore::write_reg(uint32_t offset, uint32_t value, uint64_t at_cycle) {
  const uint64_t edge = std::max(at_cycle, cycle_);
  cycle_ = edge + 1;
  if (offset >= reg::kKey0 && offset < reg::kKey0 + 16 && (offset & 3) == 0) {
    key_stage_[(offset - reg::kKey0) / 4] = value;
  } else if (offset == reg::kCtrl) {
    // The unit is idle between calls, so key operations apply on this edge.
    if (value & reg::kCtrlKeyZeroize) {
      for (auto& w : key_stage_) w = 0;
      key_valid_ = false;
      codec_.set_key(AesKey{});
    } else if (value & reg::kCtrlKeyCommit) {
      AesKey k;
      for (std::size_t i = 0; i < 16; ++i) k[i] = uint8_t(key_stage_[i / 4] >> (24 - 8 * (i % 4)));
      for (auto& w : key_stage_) w = 0;
      key_valid_ = true;
      codec_.set_key(k);
    }
    if (value & reg::kCtrlClearCounters) sign_jobs_ = verify_jobs_ = verify_fails_ = errors_ = 0;
  }
  return edge;
}

uint32_t HpbCryptoRefCore::read_reg(uint32_t offset) {
  switch (offset) {
    case reg::kId: return reg::kIdValue;
    case reg::kConfig: return 1u << 16 | latency_cycles() << 8 | rounds_;
    case reg::kStatus: return key_valid_ ? reg::kStatusKeyValid : 0u;
    case reg::kSignJobs: return sign_jobs_;
    case reg::kVerifyJobs: return verify_jobs_;
    case reg::kVerifyFails: return verify_fails_;
    case reg::kErrors: return errors_;
    default: return 0;  // CTRL and KEY0..3 are write-only
  }
}

HpbCoreResult HpbCryptoRefCore::run(const HpbCryptoJob& job, uint64_t arrival_cycle) {
  HpbCoreResult out;
  out.accept_cycle = std::max(arrival_cycle, cycle_);
  out.done_cycle = out.accept_cycle + latency_cycles();
  cycle_ = out.done_cycle + 1;

  HpbCryptoResult& r = out.result;
  r.kind = job.kind;
  r.cookie = job.cookie;
  r.cycles = uint32_t(out.done_cycle - arrival_cycle);
  HpbCryptoStatus error = HpbCryptoStatus::Ok;
  if (!key_valid_) error = HpbCryptoStatus::NoKey;
  else if (job.lba >> kHpbCryptoLbaBits) error = HpbCryptoStatus::LbaRange;

  if (job.kind == HpbCryptoJob::Sign) {
    ++sign_jobs_;
    r.status = error;
    r.ppn = job.ppn;
    r.entry = error == HpbCryptoStatus::Ok
                  ? codec_.sign(job.lun, job.generation, job.lba, job.ppn) : 0;
  } else {
    ++verify_jobs_;
    uint32_t ppn = 0;
    const bool match = codec_.verify(job.lun, job.generation, job.lba, job.entry, &ppn);
    r.status = error != HpbCryptoStatus::Ok ? error
               : match ? HpbCryptoStatus::Ok : HpbCryptoStatus::TagMismatch;
    if (r.status == HpbCryptoStatus::TagMismatch) ++verify_fails_;
    r.ppn = r.status == HpbCryptoStatus::Ok ? ppn : 0;
    r.entry = job.entry;
  }
  if (error != HpbCryptoStatus::Ok) ++errors_;
  r.valid = r.status == HpbCryptoStatus::Ok;
  return out;
}

}  // namespace ufs
