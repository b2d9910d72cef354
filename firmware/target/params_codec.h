// The firmware's parameters and the flash geometry as a byte stream, for the boot record
// of the target build (mailbox.h): the host encodes, the target decodes into its own
// FirmwareParams. The walk is the parameters' own bind() (every key, in order), so a new
// key travels with no change here; the fields the platform sets rather than binds are
// listed in walk() by hand. Both sides checksum what they have, and the host refuses a
// boot whose checksums differ.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>
#include "firmware_params.h"
#include "hal/flash_types.h"

namespace ufs::params_codec {

// Visits every field of the parameters and the geometry with f(value&).
template <class F>
void walk(FirmwareParams& p, FlashGeometry& g, F&& f) {
  auto b = [&](const char*, auto& value, auto&&...) { f(value); };
  p.bind(b);
  p.hpb.bind(b);
  p.writebooster.bind(b);
  // Set by the platform (memory.*, link.hibernate_idle_us), not bound under firmware.*.
  f(p.data_buffer_kib);
  f(p.l2p_sram_kib);
  f(p.writebooster.hibernate_idle_us);
  for (uint32_t* v : {&g.channels, &g.ways_per_channel, &g.dies_per_way, &g.planes_per_die, &g.blocks_per_plane,
                      &g.pages_per_block, &g.page_bytes, &g.bits_per_cell, &g.large_page_bytes,
                      &g.small_blocks_per_plane})
    f(*v);
}

inline std::vector<uint8_t> encode(FirmwareParams p, FlashGeometry g) {
  std::vector<uint8_t> out;
  walk(p, g, [&](auto& v) {
    using T = std::decay_t<decltype(v)>;
    if constexpr (std::is_same_v<T, std::string>) {
      const uint32_t n = uint32_t(v.size());
      out.insert(out.end(), reinterpret_cast<const uint8_t*>(&n), reinterpret_cast<const uint8_t*>(&n) + 4);
      out.insert(out.end(), v.begin(), v.end());
    } else {
      static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T>, "params_codec: a parameter of an unknown type");
      out.insert(out.end(), reinterpret_cast<const uint8_t*>(&v), reinterpret_cast<const uint8_t*>(&v) + sizeof v);
    }
  });
  return out;
}

// false when the stream is shorter or longer than the walk.
inline bool decode(const uint8_t* data, uint32_t bytes, FirmwareParams& p, FlashGeometry& g) {
  uint32_t at = 0;
  bool ok = true;
  walk(p, g, [&](auto& v) {
    using T = std::decay_t<decltype(v)>;
    if constexpr (std::is_same_v<T, std::string>) {
      uint32_t n = 0;
      if (!ok || at + 4 > bytes) { ok = false; return; }
      std::memcpy(&n, data + at, 4);
      at += 4;
      if (n > bytes - at) { ok = false; return; }
      v.assign(reinterpret_cast<const char*>(data + at), n);
      at += n;
    } else {
      if (!ok || at + sizeof v > bytes) { ok = false; return; }
      std::memcpy(&v, data + at, sizeof v);
      at += uint32_t(sizeof v);
    }
  });
  return ok && at == bytes;
}

// FNV-1a of the encoding: the target sends its own back in the Booted record.
inline uint32_t checksum(const std::vector<uint8_t>& bytes) {
  uint32_t h = 2166136261u;
  for (uint8_t c : bytes) h = (h ^ c) * 16777619u;
  return h;
}

}  // namespace ufs::params_codec
