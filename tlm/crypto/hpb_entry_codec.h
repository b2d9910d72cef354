// The HPB entry scheme as plain functions of the session key: the bit-exact
// reference for what rtl/hpb_crypto_unit.v computes (see rtl/README.md).
//
//   N     = (LU, generation, LBA[47:0])
//   tag   = AES_K(0x01 || LU || gen || LBA48 || PPN)[0..3]    (first 4 bytes, big-endian)
//   ks    = AES_K(0x02 || LU || gen || LBA48 || tag)[0..3]
//   entry = (uint64(PPN ^ ks) << 32) | tag
#pragma once
#include <cstdint>
#include "crypto/aes128.h"
#include "hal/crypto_types.h"

namespace ufs {

class HpbEntryCodec {
 public:
  static constexpr uint8_t kDomainMac = 0x01;
  static constexpr uint8_t kDomainKeystream = 0x02;

  HpbEntryCodec() = default;
  explicit HpbEntryCodec(const AesKey& key) : aes_(key) {}
  void set_key(const AesKey& key) { aes_.set_key(key); }

  // The AES input block: domain || LU || generation (BE32) || LBA[47:0] (BE48) || word (BE32).
  static AesBlock block(uint8_t domain, uint8_t lun, uint32_t generation, uint64_t lba,
                        uint32_t word);
  // First 32 bits (bytes 0..3, big-endian) of AES_K(block).
  uint32_t prf32(const AesBlock& in) const;

  uint32_t tag(uint8_t lun, uint32_t generation, uint64_t lba, uint32_t ppn) const {
    return prf32(block(kDomainMac, lun, generation, lba, ppn));
  }
  uint32_t keystream(uint8_t lun, uint32_t generation, uint64_t lba, uint32_t tag) const {
    return prf32(block(kDomainKeystream, lun, generation, lba, tag));
  }
  uint64_t sign(uint8_t lun, uint32_t generation, uint64_t lba, uint32_t ppn) const;
  // True if `entry` was signed for (lun, generation, lba) under this key; *ppn gets the PPN.
  bool verify(uint8_t lun, uint32_t generation, uint64_t lba, uint64_t entry,
              uint32_t* ppn) const;

 private:
  Aes128 aes_;
};

// Session key <-> the four 32-bit KEY registers (KEY0 holds key bytes 0..3, byte 0 in [31:24]).
inline uint32_t key_word(const AesKey& key, int i) {
  const std::size_t b = std::size_t(4 * i);
  return uint32_t(key[b]) << 24 | uint32_t(key[b + 1]) << 16 | uint32_t(key[b + 2]) << 8 |
         uint32_t(key[b + 3]);
}

}  // namespace ufs
