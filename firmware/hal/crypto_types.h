// HPB entry crypto engine: the jobs the firmware submits and the results it gets
// back (see rtl/README.md for the scheme and the hardware). Plain C++: no
// simulator headers, so the firmware can be built for an embedded core.
#pragma once
#include <cstdint>

namespace ufs {

// An HPB entry binds (LU, LBA, PPN, generation) under the per-power-cycle session
// key. LBAs are 4 KiB logical blocks and must fit in kHpbCryptoLbaBits bits.
constexpr uint32_t kHpbCryptoLbaBits = 48;

struct HpbCryptoJob {
  enum Kind : uint8_t { Sign = 0, Verify = 1 };
  Kind kind = Sign;
  uint64_t lba = 0;          // logical block the entry is for
  uint32_t ppn = 0;          // Sign: the physical page number to hide in the entry
  uint8_t lun = 0;           // logical unit
  uint32_t generation = 0;   // freshness: the sub-region's current generation
  uint64_t entry = 0;        // Verify: the 8-byte entry the host sent (HPB READ CDB)
  uint64_t cookie = 0;       // firmware's own identifier, returned in the result
};

enum class HpbCryptoStatus : uint8_t {
  Ok = 0,          // Sign: entry produced; Verify: entry authentic, ppn is valid
  TagMismatch = 1, // Verify: forged, moved, stale or from another power cycle
  NoKey = 2,       // no session key loaded (or zeroized)
  LbaRange = 3,    // lba does not fit in kHpbCryptoLbaBits
};

struct HpbCryptoResult {
  HpbCryptoJob::Kind kind = HpbCryptoJob::Sign;
  bool valid = false;        // status == Ok
  HpbCryptoStatus status = HpbCryptoStatus::NoKey;
  uint32_t ppn = 0;          // Verify: the decrypted PPN when valid (0 otherwise); Sign: echo
  uint64_t entry = 0;        // Sign: the entry to publish (0 on error); Verify: echo
  uint64_t cookie = 0;
  uint32_t cycles = 0;       // unit clock cycles from the job's arrival to its result
  uint32_t batch = 0;        // a sign batch's result: its entries (0: a single job's)
};

// A batch of sign jobs under one descriptor: the firmware lays each entry's (LBA, PPN,
// generation) out in its RAM and hands the list to the engine in one HAL call, as a
// controller hands a sub-region's entries to its crypto engine's DMA. The engine signs
// every item as a job of its own (in order, the unit's time per job, as submit_crypto's)
// and writes each signed entry to `entries` (8 bytes, big-endian: the form READ BUFFER
// sends the host; 0 for an item it could not sign); when the last is written it posts
// one HpbCryptoResult for the batch: kind Sign, batch = count, valid when every item was
// signed (status: the first failure's), cycles from the batch's arrival to its last
// result, cookie the batch's. The firmware keeps items and entries in place until then.
struct HpbSignItem {
  uint64_t lba = 0;
  uint32_t ppn = 0;
  uint32_t generation = 0;   // the sub-region's current generation
};

struct HpbSignBatch {
  const HpbSignItem* items = nullptr;  // count items
  uint8_t* entries = nullptr;          // count x 8 bytes, written by the engine
  uint32_t count = 0;                  // at least 1
  uint8_t lun = 0;
  uint64_t cookie = 0;                 // firmware's own identifier, returned in the batch's result
};

// Register map of the engine (byte offsets from its base on the interconnect;
// 32-bit accesses). Key registers are write-only: nothing reads a key back.
namespace hpb_crypto_reg {
constexpr uint32_t kId = 0x00;           // RO 0x48504243 "HPBC"
constexpr uint32_t kConfig = 0x04;       // RO [7:0] rounds/cycle, [15:8] cycles/job, [23:16] version
constexpr uint32_t kCtrl = 0x08;         // WO bits below
constexpr uint32_t kStatus = 0x0C;       // RO bit0 key valid, bit1 busy, bit2 key op pending
constexpr uint32_t kKey0 = 0x10;         // WO KEY0..KEY3 at 0x10..0x1C, KEY0 = key bytes 0..3 (byte 0 in [31:24])
constexpr uint32_t kSignJobs = 0x20;     // RO
constexpr uint32_t kVerifyJobs = 0x24;   // RO
constexpr uint32_t kVerifyFails = 0x28;  // RO
constexpr uint32_t kErrors = 0x2C;       // RO
constexpr uint32_t kSize = 0x40;         // bytes of register space
constexpr uint32_t kIdValue = 0x48504243;
constexpr uint32_t kCtrlKeyCommit = 1u << 0;     // staged key -> session key (when idle)
constexpr uint32_t kCtrlKeyZeroize = 1u << 1;    // clear the session key
constexpr uint32_t kCtrlClearCounters = 1u << 2;
constexpr uint32_t kStatusKeyValid = 1u << 0;
constexpr uint32_t kStatusBusy = 1u << 1;
constexpr uint32_t kStatusKeyPending = 1u << 2;
}  // namespace hpb_crypto_reg

}  // namespace ufs
