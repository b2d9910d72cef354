// The firmware as firmware (issue 20, cpu.model=iss): firmware.elf, the target build of
// firmware/ for the controller's Arm core (firmware/target), executed instruction by
// instruction in the Unicorn CPU emulator. To the platform it is the firmware
// (FirmwareEvents): each event goes in as a fixed-layout record and runs its handler to
// completion on the emulated core; each HAL call the handler makes crosses the mailbox
// window (firmware/target/mailbox.h) and is served here by the same Hal the native
// firmware uses, so FirmwareCpu's TLM calls are unchanged. Plain C++ (no SystemC): the
// firmware unit tests' fake platform hosts it too.
//
// Cost: the handler's time is charged through Hal::charge_cycles at every crossing and at
// the handler's end, either as measured (executed Thumb instructions x cpi, plus
// mailbox_wait_cycles per crossing and sram_wait_cycles per heap access) or, with
// native_cost, as the firmware's own charge_cycles figures (the native mode's cost, so
// both modes run identically op by op: the differential test).
#pragma once
#include <array>
#include <deque>
#include <map>
#include <tuple>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include "firmware_params.h"
#include "hal/hal.h"
#include "stats_visitor.h"

struct uc_struct;

namespace ufs {

class IssGdb;

struct IssOptions {
  std::string elf;                 // firmware.elf
  uint32_t heap_mib = 256;         // SRAM for the firmware's heap
  bool native_cost = false;        // charge the firmware's charge_cycles, not the executed count
  double cpi = 1.0;                // core cycles per executed instruction
  uint32_t mailbox_wait_cycles = 0;  // per HAL call (the doorbell store on the peripheral bus)
  uint32_t sram_wait_cycles = 0;   // per heap (SRAM) access; code, data and stack sit in TCM (0)
  // Run the C library's byte loops (memcpy, memmove, memset) at host speed: the host does
  // what the loop's remaining iterations would do (same memory, registers and flags after)
  // and counts the instructions and heap accesses they would execute. Same run either way.
  bool fast_loops = true;
  // Guest stores to RAM above the code memory take the translated code's inline path instead
  // of Unicorn 2.0.1's store helper (iss_firmware.cpp says why that is safe); never with
  // sram_wait_cycles (memory hooks). Same run either way.
  bool inline_stores = true;
  // A GDB remote port on 127.0.0.1 (tlm/cpu/iss_gdb.h); 0: none. The core waits for the
  // debugger at its first entry (in the constructor).
  uint16_t gdb_port = 0;
  // Translated blocks add their instruction count themselves (measured cost), instead of
  // calling the block hook (Unicorn 2.0.1 only; iss_firmware.cpp says how). Same run either way.
  bool inline_count = true;
  // Grow the core's TLB after boot to kTlbBits entries (Unicorn 2.0.1 only; iss_firmware.cpp
  // says how): host speed only, same run either way.
  bool large_tlb = true;
};

// The TLB fills a core's runs made (Unicorn 2.0.1: seen where the library calls
// tlb_set_page_with_attrs), and the last one's CPU, attributes, MMU index and page size.
struct IssTlbFills {
  uint64_t count = 0;
  void* cpu = nullptr;
  uint32_t attrs = 0, page = 0;
  int mmu_idx = 0;
};

// Executed-instruction counting without a call per block (Unicorn 2.0.1: iss_firmware.cpp):
// what the translator needs to make a block add its instructions to the count itself.
struct IssInlineCount {
  uint64_t* counter = nullptr;      // the core's executed instructions
  const void* block_hook = nullptr;  // the block hook's callback that this replaces
  const uint8_t* code = nullptr;    // the code memory, from address 0
  uint32_t code_bytes = 0;
  uint32_t halt = 0, halt_bytes = 0;  // fw_halt: never counted
  std::array<uint32_t, 4> loops{};  // the byte loops' blocks: they keep the call (fast_loops)
  std::deque<uint64_t> slots;       // per block translated to count inline: its instructions
  uint32_t translating = 0;         // the block being translated
  uint64_t* slot = nullptr;         // its slot, once it counts inline
  uint64_t blocks = 0;              // translations that count inline
};

class IssFirmware : public FirmwareEvents {
  friend class IssRegionTrace;  // the PC's region on the timeline (tlm/cpu/iss_region_trace.h)
  friend class IssGdb;          // the core under a debugger (tlm/cpu/iss_gdb.h)

 public:
  // Loads the ELF, runs its start-up and boots the firmware with these parameters. Throws
  // std::runtime_error (one line) when the ELF cannot be used or the boot fails.
  IssFirmware(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry, const IssOptions& options);
  ~IssFirmware() override;
  IssFirmware(const IssFirmware&) = delete;
  IssFirmware& operator=(const IssFirmware&) = delete;

  // FirmwareEvents
  void on_command(const HostCommand& command) override;
  void on_flash_complete(const FlashCompletion& completion) override;
  void on_data_out_done(uint8_t tag, uint64_t token) override;
  void on_data_in_done(uint8_t tag, uint64_t token) override;
  void on_timer(uint64_t cookie) override;
  void on_crypto_done(const HpbCryptoResult& result) override;
  void on_power_up() override;
  // DeviceFirmware's: the next power-up recovers from the NAND; zero-time fill.
  void recover_on_power_up();
  void precondition(uint64_t first_lba, uint64_t blocks, FlashBackdoor& backdoor);

  uint64_t logical_blocks() const { return logical_blocks_; }
  // Every statistic of the firmware on the core (DeviceFirmware::visit_stats, run there).
  void visit_stats(StatsVisitor& v);

  // What the core did, per event kind (index: mailbox::Event).
  struct KindCounters {
    uint64_t entries = 0;
    uint64_t instructions = 0, max_instructions = 0;
    uint64_t cycles = 0, max_cycles = 0;      // charged (measured or native)
    uint64_t native_cycles = 0;               // what the firmware's charge_cycles said
    uint64_t crossings = 0;                   // HAL calls through the mailbox
    // Of `instructions`, those of the C library's byte loops done by the host (fast_loops;
    // 0 with it off): all of them, and memmove's alone (std::vector's insert and erase:
    // the L2P map's runs), so a study can tell the library's share of a handler.
    uint64_t loop_instructions = 0, memmove_instructions = 0;
  };
  static constexpr size_t kKinds = 12;
  const std::array<KindCounters, kKinds>& counters() const { return counters_; }
  static const char* kind_name(size_t kind);
  uint64_t heap_used_bytes() const;

  // Measured cost by charge site (the firmware-cost study derives the native table from it):
  // an entry's instructions from one charge_cycles call to the next (the first segment from
  // the entry's start) go to the first call's site, named by its caller (the return address)
  // and the cycles it charged. The segments of an entry add up to its instructions.
  struct ChargeSite {
    uint32_t kind = 0;        // event kind (mailbox::Event)
    uint32_t caller = 0;      // return address of the charge_cycles call; 0: the entry charged nothing
    uint64_t charged = 0;     // the cycles the call charged (its native figure)
    uint64_t calls = 0;
    uint64_t instructions = 0, loop_instructions = 0, memmove_instructions = 0;
    uint64_t crossings = 0, sram_accesses = 0;  // HAL calls and heap accesses in the segments
  };
  // Measured cost only (empty with native cost); ordered by kind, caller, charge.
  std::vector<ChargeSite> charge_sites() const;
  // The firmware function holding `address` (demangled), or "" outside every function.
  std::string function_at(uint32_t address) const;
  // Whether guest stores skip Unicorn 2.0.1's per-store page collection in this process
  // (iss_firmware.cpp says why that is safe on Arm); false with any other Unicorn.
  static bool store_shortcut();
  // Whether guest stores above the code memory can take the inline path in this process
  // (Unicorn 2.0.1 only), and how many TLB entries this core's runs made dirty for it.
  static bool inline_stores();
  // Thumb-2 instructions in `bytes` of code (a 32-bit one starts with a halfword whose top
  // five bits are 11101, 11110 or 11111; everything else is one 16-bit instruction).
  static uint32_t thumb_instructions(const uint8_t* code, uint32_t bytes);
  uint64_t inline_store_pages() const { return inline_store_pages_; }
  // The TLB (IssOptions::large_tlb): whether it was grown after boot to 2^kTlbBits entries
  // (16 MiB of 1 KiB target pages), and how many TLB fills this core's runs made (0 where
  // the fills cannot be seen: not Unicorn 2.0.1).
  static constexpr int kTlbBits = 14;
  bool tlb_grown() const { return tlb_grown_; }
  uint64_t tlb_fills() const { return fills_.count; }
  // Blocks translated to count their instructions inline (IssOptions::inline_count; 0 with
  // any other Unicorn than 2.0.1, with native cost, or while a timeline adds a block hook).
  uint64_t inline_count_blocks() const { return inline_count_.blocks; }
  // Instructions the byte loops would have executed that the host did instead (fast_loops),
  // and how many of the library's loops it recognised in the ELF (of 4).
  uint64_t fast_forwarded_instructions() const { return fast_forwarded_; }
  int fast_loops_found() const;

 private:
  struct Memory;
  void run(uint32_t kind);
  void serve(uint32_t call);
  void settle();  // charge what the core did since the last settle
  void* guest(uint32_t address, uint64_t bytes);
  [[noreturn]] void fail(const std::string& what) const;
  static void on_doorbell(uc_struct* uc, uint64_t offset, unsigned size, uint64_t value, void* self);
  static uint64_t on_doorbell_read(uc_struct* uc, uint64_t offset, unsigned size, void* self);
  static void on_block(uc_struct* uc, uint64_t address, uint32_t size, void* self);
  static void on_sram(uc_struct* uc, int type, uint64_t address, int size, int64_t value, void* self);
  static void on_loop(uc_struct* uc, uint64_t address, uint32_t size, void* self);
  static void on_charge(uc_struct* uc, uint64_t address, uint32_t size, void* self);
  void close_segment();

  // Charge sites (measured cost): the open segment's site and where it started.
  uint32_t charge_at_ = 0;             // TargetHal::charge_cycles
  std::map<std::tuple<uint32_t, uint32_t, uint64_t>, ChargeSite> sites_;
  ChargeSite* segment_site_ = nullptr;
  uint64_t seg_instructions_ = 0, seg_loops_ = 0, seg_memmove_ = 0, seg_crossings_ = 0, seg_sram_ = 0;
  uint32_t running_kind_ = 0;
  struct Function {
    uint32_t address, size;
    std::string name;
  };
  std::vector<Function> functions_;    // sorted by address

  // The C library's byte loops (picolibc's memcpy, memmove both ways, memset), found in the
  // ELF by their exact code: each is the block starting a loop iteration.
  enum Loop { kCopy, kMoveUp, kMoveDown, kSet, kLoops };
  std::array<uint32_t, kLoops> loop_at_{};  // block address; 0 = not found (runs on the core)
  void find_loops(const std::vector<std::pair<std::string, uint32_t>>& functions);
  void fast_forward(uint32_t address);
  uint8_t* ram(uint32_t address, uint64_t bytes, bool write);  // nullptr unless wholly in one RAM
  uint64_t fast_forwarded_ = 0;
  uint64_t inline_store_pages_ = 0;
  bool tlb_grown_ = false;

  Hal& hal_;
  IssOptions options_;
  FlashGeometry geometry_;
  // The Unicorn core, closed when it goes, also when the constructor fails after opening it
  // (a bad ELF, a failed boot: the sanitizer run found the core leaked then).
  struct Core {
    uc_struct* uc = nullptr;
    Core() = default;
    Core(const Core&) = delete;
    Core& operator=(const Core&) = delete;
    ~Core();
    operator uc_struct*() const { return uc; }
  };
  Core uc_;
  std::unique_ptr<Memory> mem_;
  std::unique_ptr<IssGdb> gdb_;        // cpu.gdb_port: every entry runs under the debugger
  IssTlbFills fills_;
  IssInlineCount inline_count_;
  uint32_t entry_ = 0, halt_ = 0, start_ = 0, heap_top_symbol_ = 0;
  uint64_t halt_bytes_ = 0;            // fw_halt's code: not counted
  uint32_t return_ = 0;                // where entries return: fw_halt, past its leading nop
  bool halted_ = false;                // the running entry reached fw_halt
  uint64_t logical_blocks_ = 0;
  FlashBackdoor* backdoor_ = nullptr;  // during precondition
  StatsVisitor* visitor_ = nullptr;    // during visit_stats
  const char* guest_string(uint32_t address);
  std::string panic_;                  // the firmware's own panic message
  std::string error_;                  // a host-side error while serving a call
  uint32_t booted_check_ = 0;
  bool charging_ = false;
  // Cost of the running handler
  uint64_t instructions_ = 0;          // executed in this handler (block hook)
  std::vector<uint32_t> block_instructions_;  // per block start (halfword): size << 16 | instructions
  uint64_t sram_accesses_ = 0, crossings_ = 0;
  uint64_t loop_instructions_ = 0, memmove_instructions_ = 0;  // of instructions_: byte loops done by the host
  uint64_t charged_ = 0;               // cycles charged for this handler so far
  uint64_t native_ = 0;
  std::array<KindCounters, kKinds> counters_{};
};

}  // namespace ufs
