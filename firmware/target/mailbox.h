// The boundary between the firmware running on the controller's core (the target build,
// firmware/target) and the platform that hosts that core (tlm/cpu, cpu.model=iss): the
// core's memory map and the fixed-layout records that cross the mailbox window.
// Compiled on both sides (arm-none-eabi and the host), so the static asserts at the end
// pin one layout for both; any change that moves a field fails one of the two builds.
//
// How a crossing works (no interrupts, no polling):
//  - an event goes in: the host writes its record at Mailbox::event, then runs the core
//    from fw_entry(kind) until it returns (run to completion, one handler per event);
//  - a HAL call goes out: the target writes the call's record at Mailbox::call and
//    stores the call's code to the doorbell register (kDoorbell, MMIO). The store traps
//    into the host, which reads the record from the window, serves it with the same TLM
//    calls as the native mode and writes any result at Mailbox::result before the store
//    completes. Bulk data (flash op OOB, byte buffers, stamps) stays in target RAM: the
//    record carries its target address and the host reads or writes it there.
//  - an entry ends when the handler returns to fw_halt, whose doorbell store (Call::Halt)
//    stops the core; that is not a HAL call and not the firmware's time.
//  - charge_cycles is not a crossing: the target adds the cycles to
//    Mailbox::pending_cycles, which the host takes at the next crossing (native cost mode).
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include "hal/crypto_types.h"
#include "hal/flash_types.h"
#include "hal/host_types.h"

namespace ufs::mailbox {

// ---- memory map of the core (addresses the linker script and the host agree on)
// The emulator's TLB (tlm/cpu/iss_firmware.cpp) maps 16 MiB of 1 KiB pages, indexed by the
// address modulo 16 MiB: the regions start at different offsets in that window (ATCM 0-4
// MiB, BTCM 4-5 MiB, the heap's first 8 MiB 8-16 MiB), so their hot first pages (the
// firmware's globals, its first heap objects) never evict each other. At 0x10000000 and
// 0x20000000 the BTCM, the heap and the mailbox's first pages shared one entry and took
// Unicorn's slow store path turn about (a third of the host's instructions per I/O on the
// bench job). Every base is an Arm modified immediate as before (the doorbell a movw/movt
// pair as before): the firmware executes the same instructions.
constexpr uint32_t kCodeBase = 0x00000000;   // ATCM: code and read-only data
constexpr uint32_t kCodeBytes = 4u << 20;
constexpr uint32_t kDataBase = 0x10400000;   // BTCM: data, bss, stack
constexpr uint32_t kDataBytes = 1u << 20;
constexpr uint32_t kHeapBase = 0x20800000;   // SRAM: the heap (its size comes with the boot record)
constexpr uint32_t kHeapMaxBytes = 0x60000000u;  // 1.5 GiB, below the mailbox
constexpr uint32_t kMailboxBase = 0x90000000;    // the mailbox window (plain RAM shared with the host)
constexpr uint32_t kMailboxBytes = 0x10000;
constexpr uint32_t kDoorbell = 0x90010000;       // MMIO: a 32-bit store of a Call code rings it
constexpr uint32_t kDoorbellBytes = 0x1000;
static_assert(kHeapBase + uint64_t(kHeapMaxBytes) <= kMailboxBase, "the heap at its largest ends below the mailbox");

// ---- events into the firmware (fw_entry's argument)
enum class Event : uint32_t {
  Boot = 1,           // BootRecord: build the firmware (parameters, geometry, heap size)
  Command,            // HostCommand
  FlashComplete,      // FlashCompletion
  DataOutDone,        // TransferDone
  DataInDone,         // TransferDone
  Timer,              // TimerRecord
  CryptoDone,         // HpbCryptoResult
  PowerUp,            // (none)
  RecoverOnPowerUp,   // (none): the next power-up follows a sudden power-off
  Precondition,       // PreconditionRecord: zero-time fill through the backdoor
  VisitStats,         // (none): walk every statistic out as Stat calls
};

// ---- HAL calls out of the firmware (the doorbell's value)
enum class Call : uint32_t {
  NowPs = 1,          // -> result
  SubmitFlash,        // FlashOpRecord
  RequestDataOut,     // TransferRecord
  SendDataIn,         // TransferRecord
  SendResponse,       // CommandResponse
  CopyBuffer,         // CopyRecord
  ReadBufferBytes,    // BytesRecord (host writes bytes at target address `data`)
  WriteBufferBytes,   // BytesRecord (host reads bytes from `data`)
  ZeroBuffer,         // CopyRecord (dst, bytes)
  L2pSramAccess,      // SramRecord
  SubmitCrypto,       // HpbCryptoJob
  WriteCryptoRegister,// RegisterRecord
  Random64,           // -> result
  SetTimer,           // TimerRecord
  PreloadPages,       // PreloadRecord (backdoor)
  Booted,             // BootedRecord: the firmware is built; its figures for the host
  Panic,              // BytesRecord: data/bytes = message; the firmware cannot go on
  Stat,               // StatRecord: one statistic of a VisitStats walk
  Halt,               // (none): fw_halt, where every entry returns; the host stops the core
  SubmitSignBatch,    // SignBatchRecord (items read, entries written in target RAM)
  PeekMapWords,       // PeekRecord (words written in target RAM) -> result 1: the page held words
};

struct TransferDone {
  uint8_t tag;
  uint8_t pad[7];
  uint64_t token;
};
struct TimerRecord {
  uint64_t delay_ps;  // SetTimer only
  uint64_t cookie;
};
struct PreconditionRecord {
  uint64_t first_lba;
  uint64_t blocks;
};
// Boot: the parameters travel as params_codec.h's byte stream in target RAM.
struct BootRecord {
  uint32_t params;        // target address of the encoded parameters
  uint32_t params_bytes;
  uint32_t heap_bytes;    // SRAM the heap may use (from kHeapBase)
  uint32_t pad;
};
struct BootedRecord {
  uint64_t logical_blocks;
  uint32_t params_check;  // params_codec's checksum of what the target decoded
  uint32_t pad;
};

struct FlashOpRecord {  // FlashOp without its vector: oob points into target RAM
  FlashAddress address;
  FlashAddress dest;
  uint32_t page_count;
  uint32_t sector_offset;
  uint32_t sector_count;
  uint8_t opcode;
  uint8_t priority;
  uint8_t slc;
  uint8_t read_oob;
  uint64_t buffer_address;
  uint64_t cookie;
  uint32_t oob;           // target address of oob_count PageOob
  uint32_t oob_count;
  uint32_t words;         // target address of the pages' words (map pages; 0: none)
  uint32_t words_per_page;
};
struct TransferRecord {
  uint8_t tag;
  uint8_t pad[3];
  uint32_t offset;
  uint64_t address;
  uint32_t bytes;
  uint32_t pad2;
  uint64_t token;
};
struct CopyRecord {
  uint64_t dst;
  uint64_t src;
  uint32_t bytes;
  uint32_t pad;
};
struct BytesRecord {
  uint64_t address;       // data buffer byte address (unused by Panic)
  uint32_t data;          // target address of the bytes
  uint32_t bytes;
};
struct SramRecord {
  uint32_t bytes;
  uint32_t write;
};
struct SignBatchRecord {  // HpbSignBatch: items and entries point into target RAM
  uint32_t items;         // target address of count HpbSignItem
  uint32_t entries;       // target address of count x 8 bytes
  uint32_t count;
  uint8_t lun;
  uint8_t pad[3];
  uint64_t cookie;
};
struct RegisterRecord {
  uint32_t offset;
  uint32_t value;
};
struct PreloadRecord {
  FlashAddress address;
  uint32_t count;
  uint32_t stamps;        // target address of count x sectors-per-page SectorStamp
  uint32_t oobs;          // target address of count PageOob
  uint32_t words;         // target address of count x words_per_page words (map pages; 0: none)
  uint32_t words_per_page;
  uint32_t pad;
};

struct PeekRecord {       // Hal::peek_map_words
  FlashAddress address;
  uint32_t out;           // target address of count words
  uint32_t count;
};

struct StatRecord {     // StatsVisitor's four calls; strings are NUL-terminated in target memory
  uint32_t kind;        // 0 count, 1 figure, 2 flag, 3 text
  uint32_t key;
  uint32_t unit;        // 0 for flag and text
  uint32_t meaning;
  uint32_t text;        // text: the value's bytes
  uint32_t text_bytes;
  uint64_t value;       // count: the value; figure: the double's bits; flag: 0/1
};

constexpr uint32_t kRecordBytes = 512;
struct Mailbox {
  uint64_t pending_cycles;  // charge_cycles since the last crossing (the host zeroes it)
  uint64_t result;          // NowPs / Random64 answer
  alignas(8) uint8_t event[kRecordBytes];
  alignas(8) uint8_t call[kRecordBytes];
};

// ---- the layout, pinned (the same numbers on the 32-bit target and the 64-bit host)
#define UFS_PIN(type, size) \
  static_assert(std::is_trivially_copyable_v<type> && sizeof(type) == (size), #type " layout changed")
UFS_PIN(SectorStamp, 16);
UFS_PIN(FlashAddress, 16);
UFS_PIN(PageOob, 112);
static_assert(offsetof(PageOob, sequence) == 8 && offsetof(PageOob, lba) == 16 && offsetof(PageOob, data_seq) == 48);
UFS_PIN(HostCommand, 24);
static_assert(offsetof(HostCommand, expected_length) == 4 && offsetof(HostCommand, cdb) == 8);
UFS_PIN(FlashCompletion, 144);
static_assert(offsetof(FlashCompletion, status) == 9 && offsetof(FlashCompletion, address) == 12 &&
              offsetof(FlashCompletion, oob) == 32);
UFS_PIN(HpbCryptoJob, 48);
static_assert(offsetof(HpbCryptoJob, lba) == 8 && offsetof(HpbCryptoJob, entry) == 32 && offsetof(HpbCryptoJob, cookie) == 40);
UFS_PIN(HpbCryptoResult, 32);
static_assert(offsetof(HpbCryptoResult, ppn) == 4 && offsetof(HpbCryptoResult, cookie) == 16 &&
              offsetof(HpbCryptoResult, cycles) == 24 && offsetof(HpbCryptoResult, batch) == 28);
UFS_PIN(HpbSignItem, 16);
static_assert(offsetof(HpbSignItem, ppn) == 8 && offsetof(HpbSignItem, generation) == 12);
UFS_PIN(SignBatchRecord, 24);
static_assert(offsetof(SignBatchRecord, lun) == 12 && offsetof(SignBatchRecord, cookie) == 16);
UFS_PIN(CommandResponse, 104);
static_assert(offsetof(CommandResponse, residual) == 8 && offsetof(CommandResponse, hpb_sense_descriptor) == 13 &&
              offsetof(CommandResponse, hpb_entry_count) == 33 && offsetof(CommandResponse, hpb_entries) == 40);
UFS_PIN(TransferDone, 16);
UFS_PIN(TimerRecord, 16);
UFS_PIN(PreconditionRecord, 16);
UFS_PIN(BootRecord, 16);
UFS_PIN(BootedRecord, 16);
UFS_PIN(FlashOpRecord, 80);
static_assert(offsetof(FlashOpRecord, opcode) == 44 && offsetof(FlashOpRecord, buffer_address) == 48 &&
              offsetof(FlashOpRecord, oob) == 64 && offsetof(FlashOpRecord, words) == 72);
UFS_PIN(TransferRecord, 32);
UFS_PIN(CopyRecord, 24);
UFS_PIN(BytesRecord, 16);
UFS_PIN(SramRecord, 8);
UFS_PIN(RegisterRecord, 8);
UFS_PIN(PreloadRecord, 40);
UFS_PIN(StatRecord, 32);
UFS_PIN(PeekRecord, 24);
static_assert(offsetof(PeekRecord, out) == 16 && offsetof(PeekRecord, count) == 20);
static_assert(offsetof(Mailbox, event) == 16 && offsetof(Mailbox, call) == 16 + kRecordBytes &&
              sizeof(Mailbox) <= kMailboxBytes);
#undef UFS_PIN

}  // namespace ufs::mailbox
