// C++ reference model of rtl/hpb_crypto_unit.v: bit- and cycle-exact with the
// RTL under the HpbCryptoCore calling discipline (fast mode, crypto.model=cpp).
#pragma once
#include "crypto/hpb_crypto_core.h"
#include "crypto/hpb_entry_codec.h"

namespace ufs {

class HpbCryptoRefCore : public HpbCryptoCore {
 public:
  explicit HpbCryptoRefCore(uint32_t rounds_per_cycle);
  const char* kind() const override { return "cpp"; }
  uint32_t rounds_per_cycle() const override { return rounds_; }
  uint64_t cycle() const override { return cycle_; }
  uint64_t write_reg(uint32_t offset, uint32_t value, uint64_t at_cycle) override;
  uint32_t read_reg(uint32_t offset) override;
  HpbCoreResult run(const HpbCryptoJob& job, uint64_t arrival_cycle) override;

 private:
  uint32_t rounds_;
  uint64_t cycle_ = 0;
  uint32_t key_stage_[4] = {0, 0, 0, 0};
  bool key_valid_ = false;
  HpbEntryCodec codec_;  // holds the session key (zero key when invalid, as the RTL)
  uint32_t sign_jobs_ = 0, verify_jobs_ = 0, verify_fails_ = 0, errors_ = 0;
};

}  // namespace ufs
