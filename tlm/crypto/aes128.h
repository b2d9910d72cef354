// AES-128 forward cipher (FIPS-197), the reference for the RTL datapath in
// rtl/hpb_aes128_*.v. Only encryption: the HPB scheme never needs the inverse.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

namespace ufs {

using AesBlock = std::array<uint8_t, 16>;  // FIPS-197 byte order: byte 0 first
using AesKey = std::array<uint8_t, 16>;

class Aes128 {
 public:
  Aes128() { set_key(AesKey{}); }
  explicit Aes128(const AesKey& key) { set_key(key); }
  void set_key(const AesKey& key);
  // AES-NI where the CPU has it (x86-64), the T-table rounds otherwise: the same cipher.
  AesBlock encrypt(const AesBlock& in) const;
  // The portable T-table rounds (the path the tests compare the instructions against).
  AesBlock encrypt_tables(const AesBlock& in) const;
  // Whether encrypt() uses the CPU's AES instructions.
  static bool hardware_aes();
  // Round key r (0..10), as the RTL's on-the-fly key schedule produces it.
  const AesBlock& round_key(int r) const { return round_keys_[size_t(r)]; }

 private:
  std::array<AesBlock, 11> round_keys_{};
  std::array<uint32_t, 44> rk_words_{};  // the same keys as big-endian words (T-table rounds)
};

}  // namespace ufs
