// Helpers shared by the crypto tests: hex, deterministic random jobs.
#pragma once
#include <cstdint>
#include <string>
#include "crypto/aes128.h"
#include "hal/crypto_types.h"

namespace ufs::test {

inline AesBlock hex16(const std::string& hex) {
  AesBlock b{};
  for (std::size_t i = 0; i < 16; ++i) b[i] = uint8_t(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
  return b;
}

inline std::string to_hex(const AesBlock& b) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (uint8_t x : b) {
    s += digits[x >> 4];
    s += digits[x & 15];
  }
  return s;
}

// Published AES-128 known answers: FIPS-197 appendices B and C.1, NIST SP 800-38A F.1.1 (ECB).
struct AesVector {
  const char* key;
  const char* plaintext;
  const char* ciphertext;
};
inline constexpr AesVector kAesVectors[] = {
    {"2b7e151628aed2a6abf7158809cf4f3c", "3243f6a8885a308d313198a2e0370734",
     "3925841d02dc09fbdc118597196a0b32"},  // FIPS-197 appendix B
    {"000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff",
     "69c4e0d86a7b0430d8cdb78070b4c55a"},  // FIPS-197 appendix C.1
    {"2b7e151628aed2a6abf7158809cf4f3c", "6bc1bee22e409f96e93d7e117393172a",
     "3ad77bb40d7a3660a89ecaf32466ef97"},  // SP 800-38A F.1.1 block 1
    {"2b7e151628aed2a6abf7158809cf4f3c", "ae2d8a571e03ac9c9eb76fac45af8e51",
     "f5d3d58503b9699de785895a96fdbaaf"},  // block 2
    {"2b7e151628aed2a6abf7158809cf4f3c", "30c81c46a35ce411e5fbc1191a0a52ef",
     "43b1cd7f598ece23881b00e3ed030688"},  // block 3
    {"2b7e151628aed2a6abf7158809cf4f3c", "f69f2445df4f9b17ad2b417be66c3710",
     "7b0c785e27e8ad3f8223207104725dd4"},  // block 4
};

class Rng {  // SplitMix64: small, fast, reproducible
 public:
  explicit Rng(uint64_t seed) : x_(seed) {}
  uint64_t next() {
    uint64_t z = (x_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint64_t below(uint64_t n) { return next() % n; }
  AesKey key() {
    AesKey k;
    for (std::size_t i = 0; i < 16; i += 8) {
      const uint64_t v = next();
      for (std::size_t b = 0; b < 8; ++b) k[i + b] = uint8_t(v >> (8 * b));
    }
    return k;
  }

 private:
  uint64_t x_;
};

}  // namespace ufs::test
