#include "crypto/aes128.h"
#include <cstddef>
#if defined(__x86_64__) && defined(__GNUC__)
#include <wmmintrin.h>
#define UFS_AES_NI 1
#endif

namespace ufs {
namespace {

constexpr uint8_t kSbox[256] = {
    0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5, 0x30, 0x01, 0x67, 0x2b, 0xfe, 0xd7, 0xab, 0x76,
    0xca, 0x82, 0xc9, 0x7d, 0xfa, 0x59, 0x47, 0xf0, 0xad, 0xd4, 0xa2, 0xaf, 0x9c, 0xa4, 0x72, 0xc0,
    0xb7, 0xfd, 0x93, 0x26, 0x36, 0x3f, 0xf7, 0xcc, 0x34, 0xa5, 0xe5, 0xf1, 0x71, 0xd8, 0x31, 0x15,
    0x04, 0xc7, 0x23, 0xc3, 0x18, 0x96, 0x05, 0x9a, 0x07, 0x12, 0x80, 0xe2, 0xeb, 0x27, 0xb2, 0x75,
    0x09, 0x83, 0x2c, 0x1a, 0x1b, 0x6e, 0x5a, 0xa0, 0x52, 0x3b, 0xd6, 0xb3, 0x29, 0xe3, 0x2f, 0x84,
    0x53, 0xd1, 0x00, 0xed, 0x20, 0xfc, 0xb1, 0x5b, 0x6a, 0xcb, 0xbe, 0x39, 0x4a, 0x4c, 0x58, 0xcf,
    0xd0, 0xef, 0xaa, 0xfb, 0x43, 0x4d, 0x33, 0x85, 0x45, 0xf9, 0x02, 0x7f, 0x50, 0x3c, 0x9f, 0xa8,
    0x51, 0xa3, 0x40, 0x8f, 0x92, 0x9d, 0x38, 0xf5, 0xbc, 0xb6, 0xda, 0x21, 0x10, 0xff, 0xf3, 0xd2,
    0xcd, 0x0c, 0x13, 0xec, 0x5f, 0x97, 0x44, 0x17, 0xc4, 0xa7, 0x7e, 0x3d, 0x64, 0x5d, 0x19, 0x73,
    0x60, 0x81, 0x4f, 0xdc, 0x22, 0x2a, 0x90, 0x88, 0x46, 0xee, 0xb8, 0x14, 0xde, 0x5e, 0x0b, 0xdb,
    0xe0, 0x32, 0x3a, 0x0a, 0x49, 0x06, 0x24, 0x5c, 0xc2, 0xd3, 0xac, 0x62, 0x91, 0x95, 0xe4, 0x79,
    0xe7, 0xc8, 0x37, 0x6d, 0x8d, 0xd5, 0x4e, 0xa9, 0x6c, 0x56, 0xf4, 0xea, 0x65, 0x7a, 0xae, 0x08,
    0xba, 0x78, 0x25, 0x2e, 0x1c, 0xa6, 0xb4, 0xc6, 0xe8, 0xdd, 0x74, 0x1f, 0x4b, 0xbd, 0x8b, 0x8a,
    0x70, 0x3e, 0xb5, 0x66, 0x48, 0x03, 0xf6, 0x0e, 0x61, 0x35, 0x57, 0xb9, 0x86, 0xc1, 0x1d, 0x9e,
    0xe1, 0xf8, 0x98, 0x11, 0x69, 0xd9, 0x8e, 0x94, 0x9b, 0x1e, 0x87, 0xe9, 0xce, 0x55, 0x28, 0xdf,
    0x8c, 0xa1, 0x89, 0x0d, 0xbf, 0xe6, 0x42, 0x68, 0x41, 0x99, 0x2d, 0x0f, 0xb0, 0x54, 0xbb, 0x16,
};

constexpr uint8_t kRcon[11] = {0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36};

constexpr uint8_t xtime(uint8_t a) { return uint8_t((a << 1) ^ ((a & 0x80) ? 0x1b : 0x00)); }

// T-tables: Te0[x] = (2S[x], S[x], S[x], 3S[x]) as a big-endian word, TeN = Te0 rotated right 8N.
// One table lookup does SubBytes + MixColumns for one byte (the usual software AES).
struct TeTables {
  uint32_t t[4][256];
  constexpr TeTables() : t{} {
    for (int x = 0; x < 256; ++x) {
      const uint8_t s = kSbox[x];
      const uint8_t s2 = xtime(s);
      const uint8_t s3 = uint8_t(s2 ^ s);
      const uint32_t w = uint32_t(s2) << 24 | uint32_t(s) << 16 | uint32_t(s) << 8 | s3;
      t[0][x] = w;
      t[1][x] = w >> 8 | w << 24;
      t[2][x] = w >> 16 | w << 16;
      t[3][x] = w >> 24 | w << 8;
    }
  }
};
constexpr TeTables kTe{};

inline uint32_t load_be(const uint8_t* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
}
inline void store_be(uint8_t* p, uint32_t v) {
  p[0] = uint8_t(v >> 24);
  p[1] = uint8_t(v >> 16);
  p[2] = uint8_t(v >> 8);
  p[3] = uint8_t(v);
}

}  // namespace

void Aes128::set_key(const AesKey& key) {
  round_keys_[0] = key;
  for (int r = 1; r <= 10; ++r) {
    const AesBlock& p = round_keys_[std::size_t(r - 1)];
    AesBlock& k = round_keys_[std::size_t(r)];
    // temp = SubWord(RotWord(w3)) ^ Rcon
    uint8_t t[4] = {kSbox[p[13]], kSbox[p[14]], kSbox[p[15]], kSbox[p[12]]};
    t[0] ^= kRcon[r];
    for (int i = 0; i < 4; ++i) k[std::size_t(i)] = uint8_t(p[std::size_t(i)] ^ t[i]);
    for (int i = 4; i < 16; ++i) k[std::size_t(i)] = uint8_t(p[std::size_t(i)] ^ k[std::size_t(i - 4)]);
  }
  for (std::size_t r = 0; r < 11; ++r)
    for (std::size_t w = 0; w < 4; ++w) rk_words_[4 * r + w] = load_be(&round_keys_[r][4 * w]);
}

#ifdef UFS_AES_NI
namespace {
// One AESENC per round (AddRoundKey 0 is the XOR before): the ten rounds in about 20
// instructions instead of ~600 for the table rounds. The round keys are the FIPS-197
// byte strings, which is the byte order the instructions take.
__attribute__((target("aes,sse2"))) AesBlock encrypt_ni(const AesBlock* keys, const AesBlock& in) {
  auto load = [](const AesBlock& b) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.data())); };
  __m128i s = _mm_xor_si128(load(in), load(keys[0]));
  for (int r = 1; r < 10; ++r) s = _mm_aesenc_si128(s, load(keys[r]));
  s = _mm_aesenclast_si128(s, load(keys[10]));
  AesBlock out;
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out.data()), s);
  return out;
}
const bool kHardwareAes = __builtin_cpu_supports("aes");
}  // namespace
bool Aes128::hardware_aes() { return kHardwareAes; }
#else
bool Aes128::hardware_aes() { return false; }
#endif

AesBlock Aes128::encrypt(const AesBlock& in) const {
#ifdef UFS_AES_NI
  if (kHardwareAes) return encrypt_ni(round_keys_.data(), in);
#endif
  return encrypt_tables(in);
}

AesBlock Aes128::encrypt_tables(const AesBlock& in) const {
  const uint32_t* rk = rk_words_.data();
  uint32_t s0 = load_be(&in[0]) ^ rk[0], s1 = load_be(&in[4]) ^ rk[1];
  uint32_t s2 = load_be(&in[8]) ^ rk[2], s3 = load_be(&in[12]) ^ rk[3];
  const auto& T = kTe.t;
  for (int r = 1; r < 10; ++r) {
    rk += 4;
    const uint32_t t0 = T[0][s0 >> 24] ^ T[1][(s1 >> 16) & 0xff] ^ T[2][(s2 >> 8) & 0xff] ^ T[3][s3 & 0xff] ^ rk[0];
    const uint32_t t1 = T[0][s1 >> 24] ^ T[1][(s2 >> 16) & 0xff] ^ T[2][(s3 >> 8) & 0xff] ^ T[3][s0 & 0xff] ^ rk[1];
    const uint32_t t2 = T[0][s2 >> 24] ^ T[1][(s3 >> 16) & 0xff] ^ T[2][(s0 >> 8) & 0xff] ^ T[3][s1 & 0xff] ^ rk[2];
    const uint32_t t3 = T[0][s3 >> 24] ^ T[1][(s0 >> 16) & 0xff] ^ T[2][(s1 >> 8) & 0xff] ^ T[3][s2 & 0xff] ^ rk[3];
    s0 = t0;
    s1 = t1;
    s2 = t2;
    s3 = t3;
  }
  rk += 4;  // round 10: SubBytes + ShiftRows + AddRoundKey, no MixColumns
  auto last = [](uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
    return uint32_t(kSbox[a >> 24]) << 24 | uint32_t(kSbox[(b >> 16) & 0xff]) << 16 |
           uint32_t(kSbox[(c >> 8) & 0xff]) << 8 | kSbox[d & 0xff];
  };
  AesBlock out;
  store_be(&out[0], last(s0, s1, s2, s3) ^ rk[0]);
  store_be(&out[4], last(s1, s2, s3, s0) ^ rk[1]);
  store_be(&out[8], last(s2, s3, s0, s1) ^ rk[2]);
  store_be(&out[12], last(s3, s0, s1, s2) ^ rk[3]);
  return out;
}

}  // namespace ufs
