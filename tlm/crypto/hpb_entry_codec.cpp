#include "crypto/hpb_entry_codec.h"

namespace ufs {

AesBlock HpbEntryCodec::block(uint8_t domain, uint8_t lun, uint32_t generation, uint64_t lba,
                              uint32_t word) {
  AesBlock b{};
  b[0] = domain;
  b[1] = lun;
  for (int i = 0; i < 4; ++i) b[std::size_t(2 + i)] = uint8_t(generation >> (24 - 8 * i));
  for (int i = 0; i < 6; ++i) b[std::size_t(6 + i)] = uint8_t(lba >> (40 - 8 * i));
  for (int i = 0; i < 4; ++i) b[std::size_t(12 + i)] = uint8_t(word >> (24 - 8 * i));
  return b;
}

uint32_t HpbEntryCodec::prf32(const AesBlock& in) const {
  const AesBlock out = aes_.encrypt(in);
  return uint32_t(out[0]) << 24 | uint32_t(out[1]) << 16 | uint32_t(out[2]) << 8 | out[3];
}

uint64_t HpbEntryCodec::sign(uint8_t lun, uint32_t generation, uint64_t lba, uint32_t ppn) const {
  const uint32_t t = tag(lun, generation, lba, ppn);
  const uint32_t ks = keystream(lun, generation, lba, t);
  return uint64_t(ppn ^ ks) << 32 | t;
}

bool HpbEntryCodec::verify(uint8_t lun, uint32_t generation, uint64_t lba, uint64_t entry,
                           uint32_t* ppn) const {
  const uint32_t t = uint32_t(entry);
  const uint32_t p = uint32_t(entry >> 32) ^ keystream(lun, generation, lba, t);
  if (ppn) *ppn = p;
  return tag(lun, generation, lba, p) == t;
}

}  // namespace ufs
