#include "cpu/iss_firmware.h"
#include "cpu/iss_gdb.h"
#include <dlfcn.h>
#include <cxxabi.h>
#include <elf.h>
#include <sys/mman.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <unicorn/unicorn.h>
#include "target/mailbox.h"
#include "target/params_codec.h"

// ---- Unicorn 2.0.1's store path, made cheap (issue 20: ISS speed)
// Unicorn 2.0.1 (Debian 12's libunicorn) never marks RAM dirty, so every guest store takes
// QEMU's notdirty_write slow path (fixed upstream after 2.0.1: unicorn-engine/unicorn#1839,
// #1970, #2337). Two replacements, each a function libunicorn calls through its PLT (the
// executable's definitions come first), each only for the library this was checked against
// (2.0.1, at build and at run time; any other version gets the library's own behaviour):
//
// 1. page_collection_lock/unlock: in notdirty_write they build a GTree of the written page's
//    TBs (two mallocs) and free it again. On Arm the collection is never read: Unicorn
//    compiled out its page locks, and only targets with TARGET_HAS_PRECISE_SMC (x86, s390x)
//    use it; tb_invalidate_phys_page_fast finds and invalidates translated code on the
//    written page without it. Here they are the empty lock they are on Arm.
// 2. The slow path itself: tlb_set_page_with_attrs sets TLB_NOTDIRTY on every writable RAM
//    page it maps (RAM is "always clean"), so no guest store takes the generated code's
//    inline path: each calls the store helper, notdirty_write and
//    tb_invalidate_phys_page_fast (~730 host instructions a store). The flag exists for
//    pages holding translated code (a store there must invalidate it); upstream sets it
//    only for those since. Our core executes code from the ATCM alone, so once the library
//    has filled a TLB entry for a writable page above the ATCM, the flag is cleared with the
//    library's own tlb_set_dirty (it clears exactly TLB_NOTDIRTY in entries that have no
//    other flag: MMIO and the doorbell stay as they are): that page's stores then run
//    inline. Only while a core that asked for it runs (IssOptions::inline_stores, and never
//    with memory hooks, e.g. cpu.sram_wait_cycles: an inline store skips them). The
//    signatures are 2.0.1's arm target (32-bit target_ulong, 4-byte MemTxAttrs), checked
//    against the disassembly of Debian's libunicorn.so.2 (notes/20-s21-speed.md).
// 3. The TLB's size (IssOptions::large_tlb): QEMU's software TLB starts at 256 entries and
//    changes size only when it is flushed (doubled when over 70% of it was in use since the
//    last flush; halved towards the use when under 30% for 100 ms of wall time). Nothing
//    flushes it after boot, and the Cortex-R5's target pages are 1 KiB (an MPU core), so
//    the firmware ran on a 256 KiB TLB: about 7 refills a 4 KiB read on the bench job
//    (arm_cpu_tlb_fill, each a page walk and an iotlb set-up) and many more swaps with the
//    8-entry victim TLB. (The TLB is indexed by the address modulo its reach: the memory
//    map, firmware/target/mailbox.h, starts each region at its own offset in 16 MiB.) After
//    boot the core fills the TLB with the heap's
//    own pages (identity entries, as the core's MPU-off map has them) through the library's
//    tlb_set_page_with_attrs and flushes it, doubling it each time, to kTlbBits; the flush
//    drops those entries again, so the firmware's own accesses refill it as before. Only the
//    host's cost changes: which entries are cached never changes what a load or store does.
// 4. The executed-instruction count (IssOptions::inline_count): a block hook is one host
//    call per executed block (2.0.1 compiles a lone block hook into a direct call of its
//    callback: on_block, ~40 host instructions with the call, ~700 blocks a 4 KiB read).
//    tcg_gen_callN, which emits that call while a block is translated, and tb_gen_code,
//    which translates it, are replaced: a block of the core's code that needs nothing but
//    its count gets, where the call would be, four TCG ops instead (load the count, load
//    the block's own slot, add, store), and when its translation is done (tb_gen_code
//    returns the block: its size, a uint16_t at offset 12 of 2.0.1's TranslationBlock) its
//    slot gets its instructions, the same Thumb count on_block makes. The byte loops' blocks
//    and fw_halt keep the call. The count then grows at the same point of the block as
//    before (its start), by the same number. TCG opcodes and calls checked against the
//    disassembly of Debian's libunicorn.so.2 (ld_i64 73, st_i64 77, add_i64 78; ld_i32 13 is
//    what its translator emits for the exit check, add_i64 78 what tcg_gen_addi_i64 emits).
#if UC_API_MAJOR == 2 && UC_API_MINOR == 0 && UC_API_PATCH == 1
namespace {
using PageCollectionLock = void* (*)(uc_struct*, uint64_t, uint64_t);
using PageCollectionUnlock = void (*)(void*);
using TlbSetPage = void (*)(void* cpu, uint32_t vaddr, uint64_t paddr, uint32_t attrs, int prot, int mmu_idx,
                            uint32_t size);
using TlbSetDirty = void (*)(void* cpu, uint32_t vaddr);
using TlbFlush = void (*)(void* cpu);
using TbGenCode = void* (*)(void* cpu, uint32_t pc, uint32_t cs_base, uint32_t flags, int cflags);
using TcgGenCallN = void (*)(void* s, void* func, void* ret, int nargs, void** args);
using TcgConstI64 = intptr_t (*)(void* s, int64_t value);  // a TCGv_i64: the temp's offset from s
using TcgTempNew = void* (*)(void* s, int type, bool local);  // a TCGTemp*
using TcgTempFree = void (*)(void* s, void* temp);
using TcgGenOp3 = void (*)(void* s, int opc, uintptr_t a1, uintptr_t a2, uintptr_t a3);
constexpr int kTcgI64 = 1;  // TCG_TYPE_I64
constexpr int kOpLdI64 = 73, kOpStI64 = 77, kOpAddI64 = 78;
constexpr uint32_t kTbSizeAt = 12;  // TranslationBlock::size (uint16_t)
// Set once, by the first IssFirmware before any guest code runs (the only caller is the core).
bool shortcuts_looked_up = false;
bool unicorn_201 = false;  // the library running is 2.0.1
PageCollectionLock real_page_collection_lock = nullptr;
PageCollectionUnlock real_page_collection_unlock = nullptr;
TlbSetPage real_tlb_set_page = nullptr;
TlbSetDirty real_tlb_set_dirty = nullptr;
TlbFlush real_tlb_flush = nullptr;
TbGenCode real_tb_gen_code = nullptr;
TcgGenCallN real_tcg_gen_call = nullptr;
TcgConstI64 real_tcg_const_i64 = nullptr;
TcgTempNew real_tcg_temp_new = nullptr;
TcgTempFree real_tcg_temp_free = nullptr;
TcgGenOp3 real_tcg_gen_op3 = nullptr;
uint64_t empty_page_collection = 0;
// While a core that asked for inline stores runs on this thread: its writable pages at or
// above dirty_from (0: none) are made dirty, counted in *dirty_pages.
thread_local uint32_t dirty_from = 0;
thread_local uint64_t* dirty_pages = nullptr;
// While a core runs on this thread: its TLB fills (iss_firmware.h).
using ufs::IssTlbFills;
thread_local IssTlbFills* tlb_fills = nullptr;
// While a core that counts inline runs on this thread (4.).
using ufs::IssInlineCount;
thread_local IssInlineCount* inline_count = nullptr;
constexpr int kPageWrite = 2;  // QEMU's PAGE_WRITE
void init_store_shortcuts() {
  if (shortcuts_looked_up) return;
  shortcuts_looked_up = true;
  real_page_collection_lock = reinterpret_cast<PageCollectionLock>(dlsym(RTLD_NEXT, "page_collection_lock_arm"));
  real_page_collection_unlock = reinterpret_cast<PageCollectionUnlock>(dlsym(RTLD_NEXT, "page_collection_unlock_arm"));
  real_tlb_set_page = reinterpret_cast<TlbSetPage>(dlsym(RTLD_NEXT, "tlb_set_page_with_attrs_arm"));
  real_tlb_set_dirty = reinterpret_cast<TlbSetDirty>(dlsym(RTLD_NEXT, "tlb_set_dirty_arm"));
  real_tlb_flush = reinterpret_cast<TlbFlush>(dlsym(RTLD_NEXT, "tlb_flush_arm"));
  real_tb_gen_code = reinterpret_cast<TbGenCode>(dlsym(RTLD_NEXT, "tb_gen_code_arm"));
  real_tcg_gen_call = reinterpret_cast<TcgGenCallN>(dlsym(RTLD_NEXT, "tcg_gen_callN_arm"));
  real_tcg_const_i64 = reinterpret_cast<TcgConstI64>(dlsym(RTLD_NEXT, "tcg_const_i64_arm"));
  real_tcg_temp_new = reinterpret_cast<TcgTempNew>(dlsym(RTLD_NEXT, "tcg_temp_new_internal_arm"));
  real_tcg_temp_free = reinterpret_cast<TcgTempFree>(dlsym(RTLD_NEXT, "tcg_temp_free_internal_arm"));
  real_tcg_gen_op3 = reinterpret_cast<TcgGenOp3>(dlsym(RTLD_NEXT, "tcg_gen_op3_arm"));
  unsigned major = 0, minor = 0;
  const unsigned full = uc_version(&major, &minor);
  unicorn_201 = major == 2 && minor == 0 && ((full >> 8) & 0xff) == 1;
}
[[noreturn]] void missing(const char* name) {
  std::fprintf(stderr, "cpu.model=iss: libunicorn calls %s but its own definition cannot be found\n", name);
  std::abort();
}
}  // namespace
extern "C" {
void* page_collection_lock_arm(uc_struct* uc, uint64_t start, uint64_t end) {
  init_store_shortcuts();
  if (unicorn_201 || !real_page_collection_lock) return &empty_page_collection;
  return real_page_collection_lock(uc, start, end);
}
void page_collection_unlock_arm(void* set) {
  if (set != &empty_page_collection) real_page_collection_unlock(set);
}
void tlb_set_page_with_attrs_arm(void* cpu, uint32_t vaddr, uint64_t paddr, uint32_t attrs, int prot, int mmu_idx,
                                 uint32_t size) {
  init_store_shortcuts();
  if (!real_tlb_set_page) missing("tlb_set_page_with_attrs_arm");
  real_tlb_set_page(cpu, vaddr, paddr, attrs, prot, mmu_idx, size);
  if (IssTlbFills* f = tlb_fills) {
    ++f->count;
    f->cpu = cpu;
    f->attrs = attrs;
    f->page = size;
    f->mmu_idx = mmu_idx;
  }
  if (dirty_from && vaddr >= dirty_from && (prot & kPageWrite)) {
    real_tlb_set_dirty(cpu, vaddr);
    ++*dirty_pages;
  }
}
// 4.: the block being translated, and once it is, its slot's instructions.
void* tb_gen_code_arm(void* cpu, uint32_t pc, uint32_t cs_base, uint32_t flags, int cflags) {
  init_store_shortcuts();
  if (!real_tb_gen_code) missing("tb_gen_code_arm");
  IssInlineCount* c = inline_count;
  if (!c) return real_tb_gen_code(cpu, pc, cs_base, flags, cflags);
  c->translating = pc;
  c->slot = nullptr;
  void* tb = real_tb_gen_code(cpu, pc, cs_base, flags, cflags);
  if (c->slot) {
    uint16_t size = 0;
    std::memcpy(&size, static_cast<const char*>(tb) + kTbSizeAt, sizeof size);
    // (as on_block: a block reaching past the code memory is not counted)
    *c->slot = uint64_t(pc) + size <= c->code_bytes ? ufs::IssFirmware::thumb_instructions(c->code + pc, size) : 0;
    c->slot = nullptr;
    ++c->blocks;
  }
  return tb;
}
// 4.: the block hook's call, or in its place the block's inline count.
void tcg_gen_callN_arm(void* s, void* func, void* ret, int nargs, void** args) {
  init_store_shortcuts();
  if (!real_tcg_gen_call) missing("tcg_gen_callN_arm");
  IssInlineCount* c = inline_count;
  const uint32_t pc = c ? c->translating : 0;
  if (!c || func != c->block_hook || nargs != 4 || pc >= c->code_bytes || pc - c->halt < c->halt_bytes ||
      std::find(c->loops.begin(), c->loops.end(), pc) != c->loops.end())
    return real_tcg_gen_call(s, func, ret, nargs, args);
  c->slots.push_back(0);
  c->slot = &c->slots.back();
  auto temp = [s](intptr_t v) { return reinterpret_cast<uintptr_t>(static_cast<char*>(s) + v); };
  const uintptr_t counter = temp(real_tcg_const_i64(s, int64_t(reinterpret_cast<uintptr_t>(c->counter))));
  const uintptr_t slot = temp(real_tcg_const_i64(s, int64_t(reinterpret_cast<uintptr_t>(c->slot))));
  const auto count = reinterpret_cast<uintptr_t>(real_tcg_temp_new(s, kTcgI64, false));
  const auto add = reinterpret_cast<uintptr_t>(real_tcg_temp_new(s, kTcgI64, false));
  real_tcg_gen_op3(s, kOpLdI64, count, counter, 0);
  real_tcg_gen_op3(s, kOpLdI64, add, slot, 0);
  real_tcg_gen_op3(s, kOpAddI64, count, count, add);
  real_tcg_gen_op3(s, kOpStI64, count, counter, 0);
  for (const uintptr_t t : {add, count, slot, counter}) real_tcg_temp_free(s, reinterpret_cast<void*>(t));
}
}
namespace {
// Whether libunicorn's calls reach the definitions above (the executable exports them).
bool store_shortcut_in_use() {
  return unicorn_201 && real_page_collection_lock &&
         dlsym(RTLD_DEFAULT, "page_collection_lock_arm") == reinterpret_cast<void*>(&page_collection_lock_arm);
}
bool tlb_shortcut_in_use() {
  return unicorn_201 && real_tlb_set_page && real_tlb_set_dirty &&
         dlsym(RTLD_DEFAULT, "tlb_set_page_with_attrs_arm") == reinterpret_cast<void*>(&tlb_set_page_with_attrs_arm);
}
bool inline_count_in_use() {
  return unicorn_201 && real_tb_gen_code && real_tcg_gen_call && real_tcg_const_i64 && real_tcg_temp_new &&
         real_tcg_temp_free && real_tcg_gen_op3 &&
         dlsym(RTLD_DEFAULT, "tb_gen_code_arm") == reinterpret_cast<void*>(&tb_gen_code_arm) &&
         dlsym(RTLD_DEFAULT, "tcg_gen_callN_arm") == reinterpret_cast<void*>(&tcg_gen_callN_arm);
}
// While a core runs: its stores at or above `from` take the inline path (0: the library's),
// and its TLB fills are counted in *fills.
struct InlineStores {
  uint32_t saved_from;
  uint64_t* saved_pages;
  IssTlbFills* saved_fills;
  IssInlineCount* saved_count;
  InlineStores(uint32_t from, uint64_t* pages, IssTlbFills* fills, IssInlineCount* count)
      : saved_from(dirty_from), saved_pages(dirty_pages), saved_fills(tlb_fills), saved_count(inline_count) {
    static const bool usable = tlb_shortcut_in_use();  // (after the first core's init_store_shortcuts)
    static const bool counting = inline_count_in_use();
    dirty_from = usable ? from : 0;
    dirty_pages = pages;
    tlb_fills = fills;
    inline_count = counting ? count : nullptr;
  }
  ~InlineStores() {
    dirty_from = saved_from;
    dirty_pages = saved_pages;
    tlb_fills = saved_fills;
    inline_count = saved_count;
  }
};
// Grows the TLB of the core whose last fill `f` saw to 2^bits entries (see 3. above). Each
// round fills 2^(round + 10) distinct pages from `base` (at most 2^(bits - 1)) and flushes:
// a TLB of up to that many entries is then over 70% in use and doubles; one already larger
// stays (at least 50% in use: never under the 30% that shrinks it). The library's starts at
// 256 entries, at 64 when a slow process (valgrind) let boot's flushes shrink it; bits - 6
// rounds take either to 2^bits. About 1 ms.
bool grow_tlb(const IssTlbFills& f, uint32_t base, uint64_t bytes, int bits) {
  if (!tlb_shortcut_in_use() || !real_tlb_flush || !f.cpu || !f.page) return false;
  for (int round = 0; round < bits - 6; ++round) {
    const uint64_t n = std::min({uint64_t(1) << (round + 10), uint64_t(1) << (bits - 1), bytes / f.page});
    for (uint64_t i = 0; i < n; ++i) {
      const uint32_t at = base + uint32_t(i * f.page);
      real_tlb_set_page(f.cpu, at, at, f.attrs, kPageWrite | 1, f.mmu_idx, f.page);
    }
    real_tlb_flush(f.cpu);
  }
  return true;
}
}  // namespace
#else
namespace {
void init_store_shortcuts() {}
bool store_shortcut_in_use() { return false; }
bool tlb_shortcut_in_use() { return false; }
using ufs::IssInlineCount;
using ufs::IssTlbFills;
struct InlineStores {
  InlineStores(uint32_t, uint64_t*, IssTlbFills*, IssInlineCount*) {}
};
bool grow_tlb(const IssTlbFills&, uint32_t, uint64_t, int) { return false; }
}  // namespace
#endif

namespace ufs {

using namespace mailbox;

// The core's memories, host side: Unicorn maps them onto these buffers, so the host reads
// records and bulk data in place. The heap is reserved, not committed: pages the
// firmware never touches cost nothing.
struct IssFirmware::Memory {
  std::vector<uint8_t> code = std::vector<uint8_t>(kCodeBytes);
  std::vector<uint8_t> data = std::vector<uint8_t>(kDataBytes);
  std::vector<uint8_t> window = std::vector<uint8_t>(kMailboxBytes);
  uint8_t* heap = nullptr;
  size_t heap_bytes = 0;
  ~Memory() {
    if (heap) munmap(heap, heap_bytes);
  }
  Mailbox& box() { return *reinterpret_cast<Mailbox*>(window.data()); }
};

namespace {
constexpr uint32_t kStackTop = kDataBase + kDataBytes;
constexpr uint32_t kParamsAt = kMailboxBase + 0x1000;  // the boot record's parameter stream
}  // namespace

uint32_t IssFirmware::thumb_instructions(const uint8_t* code, uint32_t bytes) {
  uint32_t n = 0;
  for (uint32_t at = 0; at + 1 < bytes; ++n) {
    const uint16_t hw = uint16_t(code[at] | code[at + 1] << 8);
    at += (hw & 0xf800) >= 0xe800 ? 4 : 2;
  }
  return n;
}

const char* IssFirmware::kind_name(size_t kind) {
  static const char* const names[kKinds] = {"reset",         "boot",     "command",     "flash_complete",
                                            "data_out_done", "data_in_done", "timer", "crypto_done",
                                            "power_up",   "recover",  "precondition", "visit_stats"};
  return kind < kKinds ? names[kind] : "event";
}

bool IssFirmware::store_shortcut() { return store_shortcut_in_use(); }

bool IssFirmware::inline_stores() { return tlb_shortcut_in_use(); }

void IssFirmware::fail(const std::string& what) const {
  throw std::runtime_error("cpu.model=iss: " + what);
}

IssFirmware::IssFirmware(Hal& hal, const FirmwareParams& params, const FlashGeometry& geometry,
                         const IssOptions& options)
    : hal_(hal), options_(options), geometry_(geometry), mem_(std::make_unique<Memory>()) {
  // ---- the ELF: its load segments at their load addresses, the runtime's symbols. Only
  // those parts are read: firmware.elf carries ~9 MB of debug info (built with -g for
  // gdb), which read whole took 10 MiB of peak memory for nothing.
  std::ifstream in(options.elf, std::ios::binary);
  if (!in) fail("cannot read the firmware ELF '" + options.elf + "' (cpu.elf; build it with the cross compiler)");
  in.seekg(0, std::ios::end);
  const uint64_t file_bytes = uint64_t(std::max<std::streamoff>(0, in.tellg()));
  auto read_at = [&](uint64_t off, uint64_t n, void* to) {
    if (off + n > file_bytes) fail(options.elf + ": truncated");
    in.seekg(std::streamoff(off));
    if (!in.read(static_cast<char*>(to), std::streamsize(n))) fail("cannot read the firmware ELF '" + options.elf + "'");
  };
  Elf32_Ehdr eh;
  if (file_bytes < sizeof eh) fail(options.elf + ": not an ELF file");
  read_at(0, sizeof eh, &eh);
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS32 || eh.e_machine != EM_ARM)
    fail(options.elf + ": not a 32-bit Arm ELF");
  std::vector<Elf32_Phdr> phs(eh.e_phnum);
  read_at(eh.e_phoff, uint64_t(eh.e_phnum) * sizeof(Elf32_Phdr), phs.data());
  for (const Elf32_Phdr& ph : phs) {
    if (ph.p_type != PT_LOAD || ph.p_filesz == 0) continue;
    // The image lives in the ATCM (code, and .data's initial values that start-up copies).
    if (ph.p_paddr < kCodeBase || ph.p_paddr + uint64_t(ph.p_filesz) > kCodeBase + uint64_t(kCodeBytes))
      fail(options.elf + ": a load segment outside the code memory (ATCM)");
    read_at(ph.p_offset, ph.p_filesz, mem_->code.data() + (ph.p_paddr - kCodeBase));
  }
  std::vector<Elf32_Shdr> shs(eh.e_shnum);
  read_at(eh.e_shoff, uint64_t(eh.e_shnum) * sizeof(Elf32_Shdr), shs.data());
  std::vector<std::pair<std::string, uint32_t>> functions;  // the C library's byte loops
  for (const Elf32_Shdr& sh : shs) {
    if (sh.sh_type != SHT_SYMTAB) continue;
    if (sh.sh_link >= shs.size()) fail(options.elf + ": truncated");
    const Elf32_Shdr& strtab = shs[sh.sh_link];
    std::vector<Elf32_Sym> syms(sh.sh_size / sizeof(Elf32_Sym));
    read_at(sh.sh_offset, syms.size() * sizeof(Elf32_Sym), syms.data());
    std::vector<char> names(strtab.sh_size + 1, '\0');  // (a name running past the end stops there)
    read_at(strtab.sh_offset, strtab.sh_size, names.data());
    for (const Elf32_Sym& sym : syms) {
      if (sym.st_name >= strtab.sh_size) continue;
      const char* name = names.data() + sym.st_name;
      const uint32_t thumbless = sym.st_value & ~1u;
      if (ELF32_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_size) functions_.push_back({thumbless, sym.st_size, name});
      if (!std::strcmp(name, "_ZN3ufs9TargetHal13charge_cyclesEy")) charge_at_ = thumbless;
      if (!std::strcmp(name, "memcpy") || !std::strcmp(name, "memmove") || !std::strcmp(name, "memset"))
        functions.emplace_back(name, thumbless);
      if (!std::strcmp(name, "fw_entry")) entry_ = thumbless;
      else if (!std::strcmp(name, "fw_halt")) {
        halt_ = thumbless;
        halt_bytes_ = sym.st_size ? sym.st_size : 2;
      }
      else if (!std::strcmp(name, "fw_start")) start_ = thumbless;
      else if (!std::strcmp(name, "fw_heap_top")) heap_top_symbol_ = sym.st_value;
    }
  }
  std::sort(functions_.begin(), functions_.end(), [](const Function& a, const Function& b) { return a.address < b.address; });
  if (!entry_ || !halt_ || !start_ || !heap_top_symbol_)
    fail(options.elf + ": fw_start, fw_entry, fw_halt or fw_heap_top missing (not built from firmware/target?)");
  // Entries return past fw_halt's leading nop when it has one (firmware/target/runtime.cpp).
  return_ = halt_ + 2 <= kCodeBytes && (mem_->code[halt_] | mem_->code[halt_ + 1] << 8) == 0xbf00 ? halt_ + 2 : halt_;

  // ---- the core and its memory map
  init_store_shortcuts();
  if (uc_open(UC_ARCH_ARM, UC_MODE_ARM, &uc_.uc) != UC_ERR_OK) fail("Unicorn cannot open an Arm core");
  // Cortex-R5F: Unicorn's ARMv7-R core; the Cortex-R8 the firmware is built for runs the same
  // ARMv7-R instruction set (it differs in pipeline and caches, which the cost model covers).
  uc_ctl_set_cpu_model(uc_, UC_CPU_ARM_CORTEX_R5F);
  mem_->heap_bytes = size_t(options.heap_mib) << 20;
  if (options.heap_mib == 0 || mem_->heap_bytes > kHeapMaxBytes)
    fail("cpu.iss_heap_mib: must be within 1.." + std::to_string(kHeapMaxBytes >> 20));
  void* heap = mmap(nullptr, mem_->heap_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (heap == MAP_FAILED) fail("cannot reserve " + std::to_string(options.heap_mib) + " MiB for the firmware's heap");
  mem_->heap = static_cast<uint8_t*>(heap);
  if (uc_mem_map_ptr(uc_, kCodeBase, kCodeBytes, UC_PROT_ALL, mem_->code.data()) ||
      uc_mem_map_ptr(uc_, kDataBase, kDataBytes, UC_PROT_READ | UC_PROT_WRITE, mem_->data.data()) ||
      uc_mem_map_ptr(uc_, kHeapBase, mem_->heap_bytes, UC_PROT_READ | UC_PROT_WRITE, mem_->heap) ||
      uc_mem_map_ptr(uc_, kMailboxBase, kMailboxBytes, UC_PROT_READ | UC_PROT_WRITE, mem_->window.data()) ||
      uc_mmio_map(uc_, kDoorbell, kDoorbellBytes, &IssFirmware::on_doorbell_read, this, &IssFirmware::on_doorbell,
                  this))
    fail("Unicorn cannot map the core's memories");
  // Every entry ends at fw_halt, whose doorbell store (Call::Halt) stops the core. Exits
  // are enabled with none set: uc_emu_start's `until` would be one, and Unicorn
  // retranslates the blocks at every exit after each run.
  uc_ctl_exits_enable(uc_);
  uint64_t no_exit[1] = {0};
  if (uc_ctl_set_exits(uc_, no_exit, 0) != UC_ERR_OK) fail("Unicorn cannot clear the core's exits");
  // The debugger's hooks come first (a stop at an instruction runs none of the others there).
  if (options.gdb_port) gdb_ = std::make_unique<IssGdb>(*this, options.gdb_port, options.elf);
  // The executed-instruction count only matters for measured cost: no hooks otherwise
  // but on the byte loops' own blocks (a block hook bounded to them is only compiled into
  // those blocks).
  if (options.fast_loops) find_loops(functions);
  uc_hook h;
  if (!options.native_cost) {
    block_instructions_.assign(kCodeBytes / 2, 0);
    if (options.inline_count) {  // (4. at the top: only where the library and the block hook allow it)
      inline_count_.counter = &instructions_;
      inline_count_.block_hook = reinterpret_cast<const void*>(&IssFirmware::on_block);
      inline_count_.code = mem_->code.data();
      inline_count_.code_bytes = kCodeBytes;
      inline_count_.halt = halt_;
      inline_count_.halt_bytes = uint32_t(halt_bytes_);
      for (size_t i = 0; i < kLoops; ++i) inline_count_.loops[i] = loop_at_[i] ? loop_at_[i] : kCodeBytes;
    }
    uc_hook_add(uc_, &h, UC_HOOK_BLOCK, reinterpret_cast<void*>(&IssFirmware::on_block), this, 1, 0);
    if (options.sram_wait_cycles)
      uc_hook_add(uc_, &h, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, reinterpret_cast<void*>(&IssFirmware::on_sram), this,
                  kHeapBase, kHeapBase + mem_->heap_bytes - 1);
    // Charge sites: a hook on charge_cycles' first instruction only (compiled into that block alone).
    if (charge_at_)
      uc_hook_add(uc_, &h, UC_HOOK_CODE, reinterpret_cast<void*>(&IssFirmware::on_charge), this, charge_at_, charge_at_);
  } else {
    for (const uint32_t at : loop_at_)
      if (at) uc_hook_add(uc_, &h, UC_HOOK_BLOCK, reinterpret_cast<void*>(&IssFirmware::on_loop), this, at, at);
  }

  // ---- reset, then Boot with the parameters
  run(0);
  const std::vector<uint8_t> stream = params_codec::encode(params, geometry);
  if (stream.size() > kMailboxBytes - (kParamsAt - kMailboxBase)) fail("the parameters do not fit the mailbox window");
  std::memcpy(guest(kParamsAt, stream.size()), stream.data(), stream.size());
  BootRecord boot{};
  boot.params = kParamsAt;
  boot.params_bytes = uint32_t(stream.size());
  boot.heap_bytes = uint32_t(mem_->heap_bytes);
  std::memcpy(mem_->box().event, &boot, sizeof boot);
  run(uint32_t(Event::Boot));
  if (!logical_blocks_) fail("the firmware did not report its boot");
  // The TLB for the firmware's working set (3. at the top): boot's fills name the core.
  if (options.large_tlb) tlb_grown_ = grow_tlb(fills_, kHeapBase, mem_->heap_bytes, kTlbBits);
  if (const uint32_t expect = params_codec::checksum(stream); booted_check_ != expect)
    fail("the firmware decoded other parameters than were sent (ELF built from other sources than this simulator?)");
}

IssFirmware::Core::~Core() {
  if (uc) uc_close(uc);
}

IssFirmware::~IssFirmware() {
  gdb_.reset();
  // Before the memories Unicorn maps (mem_) go, as always.
  if (uc_.uc) uc_close(uc_.uc);
  uc_.uc = nullptr;
}

void* IssFirmware::guest(uint32_t address, uint64_t bytes) {
  auto inside = [&](uint32_t base, uint64_t size) { return address >= base && address - base + bytes <= size; };
  if (inside(kHeapBase, mem_->heap_bytes)) return mem_->heap + (address - kHeapBase);
  if (inside(kDataBase, kDataBytes)) return mem_->data.data() + (address - kDataBase);
  if (inside(kMailboxBase, kMailboxBytes)) return mem_->window.data() + (address - kMailboxBase);
  if (inside(kCodeBase, kCodeBytes)) return mem_->code.data() + (address - kCodeBase);
  fail("the firmware passed " + std::to_string(bytes) + " bytes at 0x" + [&] {
    char b[16];
    std::snprintf(b, sizeof b, "%08x", address);
    return std::string(b);
  }() + ", outside its memories");
}

uint64_t IssFirmware::heap_used_bytes() const {
  uint32_t top = 0;
  std::memcpy(&top, mem_->data.data() + (heap_top_symbol_ - kDataBase), 4);
  return top - kHeapBase;
}

// One entry: reset (kind 0: fw_start) or fw_entry(kind), run until it returns to fw_halt.
void IssFirmware::run(uint32_t kind) {
  instructions_ = sram_accesses_ = crossings_ = charged_ = native_ = 0;
  loop_instructions_ = memmove_instructions_ = 0;
  segment_site_ = nullptr;
  seg_instructions_ = seg_loops_ = seg_memmove_ = seg_crossings_ = seg_sram_ = 0;
  running_kind_ = kind;
  // Reset, boot and the zero-time precondition are not core time; with native cost the
  // firmware's own charges still go through, as in the native mode.
  charging_ = kind >= uint32_t(Event::Command) && kind <= uint32_t(Event::PowerUp);
  if (options_.native_cost && kind != uint32_t(Event::VisitStats)) charging_ = kind != 0;
  mem_->box().pending_cycles = 0;
  const uint32_t sp = kStackTop, lr = return_ | 1u;
  uc_reg_write(uc_, UC_ARM_REG_R0, &kind);
  uc_reg_write(uc_, UC_ARM_REG_SP, &sp);
  uc_reg_write(uc_, UC_ARM_REG_LR, &lr);
  const uint32_t begin = (kind ? entry_ : start_) | 1u;  // Thumb
  halted_ = false;
  // Memory hooks (heap wait states) keep every store on the library's path.
  const InlineStores stores_inline(options_.inline_stores && !options_.sram_wait_cycles ? kCodeBase + kCodeBytes : 0,
                                  &inline_store_pages_, &fills_, inline_count_.counter ? &inline_count_ : nullptr);
  const uc_err err = gdb_ ? uc_err(gdb_->run(begin)) : uc_emu_start(uc_, begin, 0, 0, 0);  // until fw_halt stops it
  if (!panic_.empty()) fail("firmware panic in " + std::string(kind_name(kind)) + ": " + panic_);
  if (!error_.empty()) throw std::runtime_error(error_);
  if (err != UC_ERR_OK) {
    uint32_t pc = 0;
    uc_reg_read(uc_, UC_ARM_REG_PC, &pc);
    char b[16];
    std::snprintf(b, sizeof b, "%08x", pc);
    fail(std::string("the core stopped in ") + kind_name(kind) + " at pc 0x" + b + ": " + uc_strerror(err));
  }
  if (!halted_) fail(std::string("the core stopped in ") + kind_name(kind) + " before the handler returned");
  settle();
  if (charging_ && !options_.native_cost) {
    if (!segment_site_) {  // an entry that charged nothing: its own site
      ChargeSite& s = sites_[{kind, 0, 0}];
      s.kind = kind;
      ++s.calls;
      segment_site_ = &s;
    }
    close_segment();
  }
  KindCounters& k = counters_[kind < kKinds ? kind : 0];
  ++k.entries;
  k.instructions += instructions_;
  k.max_instructions = std::max(k.max_instructions, instructions_);
  k.cycles += charged_;
  k.max_cycles = std::max(k.max_cycles, charged_);
  k.native_cycles += native_;
  k.crossings += crossings_;
  k.loop_instructions += loop_instructions_;
  k.memmove_instructions += memmove_instructions_;
}

// Charge the handler's cost so far: before every HAL call (so the call leaves at the
// right time) and at the handler's end.
void IssFirmware::settle() {
  Mailbox& box = mem_->box();
  const uint64_t pending = box.pending_cycles;
  box.pending_cycles = 0;
  native_ += pending;
  uint64_t total;
  if (options_.native_cost) total = native_;
  else
    total = uint64_t(std::llround(double(instructions_) * options_.cpi)) + crossings_ * options_.mailbox_wait_cycles +
            sram_accesses_ * options_.sram_wait_cycles;
  if (!charging_) return;
  if (total > charged_) {
    hal_.charge_cycles(total - charged_);
    charged_ = total;
  }
}

// A block's instructions are counted once and remembered by its start (the code never
// changes); decoding its halfwords on every execution cost more than the block itself.
void IssFirmware::on_block(uc_struct*, uint64_t address, uint32_t size, void* self) {
  auto* me = static_cast<IssFirmware*>(self);
  if (address + size > kCodeBytes || address - me->halt_ < me->halt_bytes_) return;  // (the return to the host)
  uint32_t& known = me->block_instructions_[address >> 1];
  if ((known >> 16) != size) known = size << 16 | thumb_instructions(me->mem_->code.data() + address, size);
  me->instructions_ += known & 0xffff;
  if (address == me->loop_at_[kCopy] || address == me->loop_at_[kSet] || address == me->loop_at_[kMoveUp] ||
      address == me->loop_at_[kMoveDown])
    if (address) me->fast_forward(uint32_t(address));
}

// charge_cycles(this, cycles): r0 the HAL, cycles in r2:r3 (AAPCS: a 64-bit argument takes
// an even register pair), lr the caller. The first call of an entry keeps the entry's start
// as its segment's start: the dispatch before it is that handler's work too.
void IssFirmware::on_charge(uc_struct* uc, uint64_t, uint32_t, void* self) {
  auto* me = static_cast<IssFirmware*>(self);
  if (!me->charging_) return;
  uint32_t lo = 0, hi = 0, lr = 0;
  uc_reg_read(uc, UC_ARM_REG_R2, &lo);
  uc_reg_read(uc, UC_ARM_REG_R3, &hi);
  uc_reg_read(uc, UC_ARM_REG_LR, &lr);
  const uint64_t cycles = uint64_t(hi) << 32 | lo;
  if (me->segment_site_) me->close_segment();
  ChargeSite& s = me->sites_[{me->running_kind_, lr & ~1u, cycles}];
  s.kind = me->running_kind_;
  s.caller = lr & ~1u;
  s.charged = cycles;
  ++s.calls;
  me->segment_site_ = &s;
}

void IssFirmware::close_segment() {
  ChargeSite& s = *segment_site_;
  s.instructions += instructions_ - seg_instructions_;
  s.loop_instructions += loop_instructions_ - seg_loops_;
  s.memmove_instructions += memmove_instructions_ - seg_memmove_;
  s.crossings += crossings_ - seg_crossings_;
  s.sram_accesses += sram_accesses_ - seg_sram_;
  seg_instructions_ = instructions_;
  seg_loops_ = loop_instructions_;
  seg_memmove_ = memmove_instructions_;
  seg_crossings_ = crossings_;
  seg_sram_ = sram_accesses_;
  segment_site_ = nullptr;
}

std::vector<IssFirmware::ChargeSite> IssFirmware::charge_sites() const {
  std::vector<ChargeSite> v;
  for (const auto& [key, site] : sites_) v.push_back(site);
  return v;
}

std::string IssFirmware::function_at(uint32_t address) const {
  auto it = std::upper_bound(functions_.begin(), functions_.end(), address,
                             [](uint32_t a, const Function& f) { return a < f.address; });
  if (it == functions_.begin()) return "";
  --it;
  if (address - it->address >= it->size) return "";
  int status = 0;
  char* d = abi::__cxa_demangle(it->name.c_str(), nullptr, nullptr, &status);
  std::string name = status == 0 && d ? d : it->name;
  std::free(d);
  return name;
}

void IssFirmware::on_loop(uc_struct*, uint64_t address, uint32_t, void* self) {
  static_cast<IssFirmware*>(self)->fast_forward(uint32_t(address));
}

// ---- the C library's byte loops at host speed (IssOptions::fast_loops)
// Debian's picolibc copies and fills a byte per iteration: 4-5 instructions and a guest
// store per byte, three quarters of all the instructions the firmware executes (its L2P map
// runs move with memmove). Each loop is recognised by its exact code (any other library
// keeps running on the core); when a block that starts an iteration is entered with k + 1
// iterations to go, the host does the first k of them at once and leaves the registers as
// those iterations leave them, and the block runs the last one. Memory, registers and
// flags afterwards are what the core would have produced; the skipped iterations'
// instructions and heap accesses are counted as if executed, so the modelled time is the
// same too.
namespace {
struct LoopCode {
  const char* function;
  uint32_t block;  // offset of the block that starts an iteration
  std::vector<uint16_t> code;
};
const LoopCode kLoopCode[] = {
    // memcpy: r1 source, r2 its end, r3 the last byte written; ldrb r4,[r1],#1; strb r4,[r3,#1]!; cmp r1,r2; bne
    {"memcpy", 0x0e,
     {0x440a, 0x4291, 0xf100, 0x33ff, 0xd100, 0x4770, 0xb510, 0xf811, 0x4b01, 0xf803, 0x4f01, 0x4291, 0xd1f9, 0xbd10}},
    // memmove upwards: r1 source, r4 its end, r3 the last byte written; ldrb r2,[r1],#1; strb r2,[r3,#1]!; b; cmp r1,r4; beq
    // memmove downwards: r3 source end, r2 destination end, r1 destination; ldrb r4,[r3,#-1]!; strb r4,[r2,#-1]!; b; cmp r2,r1; bne
    {"memmove", 0x16, {0x4288, 0xb510, 0xeb01, 0x0402, 0xd902, 0x4623, 0x4284, 0xd807, 0x1e43, 0x42a1, 0xd008,
                       0xf811, 0x2b01, 0xf803, 0x2f01, 0xe7f8, 0x4601, 0x4402, 0x428a, 0xd100, 0xbd10, 0xf813,
                       0x4d01, 0xf802, 0x4d01, 0xe7f7}},
    // memset: r1 the value, r2 the end, r3 the next byte; strb r1,[r3],#1; b; cmp r3,r2; bne
    {"memset", 0x0a, {0x4603, 0x4402, 0x4293, 0xd100, 0x4770, 0xf803, 0x1b01, 0xe7f9}},
};
constexpr uint32_t kMoveDownBlock = 0x2a;  // memmove's second loop

// Byte by byte upwards / downwards, as the loops do (differs from memmove only when the
// ranges overlap the other way).
void bytes_up(uint8_t* d, const uint8_t* s, uint32_t n) {
  if (d <= s || d >= s + n) std::memmove(d, s, n);
  else
    for (uint32_t i = 0; i < n; ++i) d[i] = s[i];
}
void bytes_down(uint8_t* d_end, const uint8_t* s_end, uint32_t n) {
  if (d_end >= s_end || d_end <= s_end - n) std::memmove(d_end - n, s_end - n, n);
  else
    for (uint32_t i = 1; i <= n; ++i) d_end[-int64_t(i)] = s_end[-int64_t(i)];
}
}  // namespace

void IssFirmware::find_loops(const std::vector<std::pair<std::string, uint32_t>>& functions) {
  for (const auto& [name, at] : functions)
    for (const LoopCode& l : kLoopCode) {
      if (name != l.function || at + l.code.size() * 2 > kCodeBytes) continue;
      bool same = true;
      for (size_t i = 0; i < l.code.size() && same; ++i)
        same = uint16_t(mem_->code[at + 2 * i] | mem_->code[at + 2 * i + 1] << 8) == l.code[i];
      if (!same) continue;
      if (name == "memcpy") loop_at_[kCopy] = at + l.block;
      if (name == "memset") loop_at_[kSet] = at + l.block;
      if (name == "memmove") {
        loop_at_[kMoveUp] = at + l.block;
        loop_at_[kMoveDown] = at + kMoveDownBlock;
      }
    }
}

int IssFirmware::fast_loops_found() const {
  int n = 0;
  for (const uint32_t at : loop_at_) n += at != 0;
  return n;
}

uint8_t* IssFirmware::ram(uint32_t address, uint64_t bytes, bool write) {
  auto inside = [&](uint32_t base, uint64_t size) { return address >= base && address - base + bytes <= size; };
  if (inside(kHeapBase, mem_->heap_bytes)) return mem_->heap + (address - kHeapBase);
  if (inside(kDataBase, kDataBytes)) return mem_->data.data() + (address - kDataBase);
  if (inside(kMailboxBase, kMailboxBytes)) return mem_->window.data() + (address - kMailboxBase);
  // Stores into the code stay on the core (its translated blocks must see them).
  if (!write && inside(kCodeBase, kCodeBytes)) return mem_->code.data() + (address - kCodeBase);
  return nullptr;
}

void IssFirmware::fast_forward(uint32_t address) {
  auto reg = [&](int r) {
    uint32_t v = 0;
    uc_reg_read(uc_, r, &v);
    return v;
  };
  auto set = [&](int r, uint32_t v) { uc_reg_write(uc_, r, &v); };
  auto in_heap = [&](uint32_t a) { return a >= kHeapBase && a - kHeapBase < mem_->heap_bytes; };
  uint32_t skip = 0, per = 0, heap = 0;  // iterations done here, instructions and heap accesses each
  if (address == loop_at_[kCopy] || address == loop_at_[kMoveUp]) {
    const bool copy = address == loop_at_[kCopy];
    const uint32_t src = reg(UC_ARM_REG_R1), end = reg(copy ? UC_ARM_REG_R2 : UC_ARM_REG_R4);
    const uint32_t dst = reg(UC_ARM_REG_R3) + 1;
    if (end - src < 2) return;
    skip = end - src - 1;
    const uint8_t* s = ram(src, skip, false);
    uint8_t* d = ram(dst, skip, true);
    if (!s || !d) return;
    bytes_up(d, s, skip);
    set(UC_ARM_REG_R1, src + skip);
    set(UC_ARM_REG_R3, dst - 1 + skip);
    per = copy ? 4 : 5;
    heap = in_heap(src) + in_heap(dst);
  } else if (address == loop_at_[kMoveDown]) {
    const uint32_t dst_start = reg(UC_ARM_REG_R1), dst_end = reg(UC_ARM_REG_R2), src_end = reg(UC_ARM_REG_R3);
    if (dst_end - dst_start < 2) return;
    skip = dst_end - dst_start - 1;
    uint8_t* d = ram(dst_end - skip, skip, true);
    const uint8_t* s = ram(src_end - skip, skip, false);
    if (!s || !d) return;
    bytes_down(d + skip, s + skip, skip);
    set(UC_ARM_REG_R2, dst_end - skip);
    set(UC_ARM_REG_R3, src_end - skip);
    per = 5;
    heap = in_heap(src_end - 1) + in_heap(dst_end - 1);
  } else if (address == loop_at_[kSet]) {
    const uint32_t next = reg(UC_ARM_REG_R3), end = reg(UC_ARM_REG_R2);
    if (end - next < 2) return;
    skip = end - next - 1;
    uint8_t* d = ram(next, skip, true);
    if (!d) return;
    std::memset(d, int(reg(UC_ARM_REG_R1) & 0xff), skip);
    set(UC_ARM_REG_R3, next + skip);
    per = 4;
    heap = in_heap(next);
  } else {
    return;
  }
  fast_forwarded_ += uint64_t(skip) * per;
  if (options_.native_cost) return;  // (nothing counted: the firmware's charge_cycles are the cost)
  instructions_ += uint64_t(skip) * per;
  loop_instructions_ += uint64_t(skip) * per;
  if (address == loop_at_[kMoveUp] || address == loop_at_[kMoveDown]) memmove_instructions_ += uint64_t(skip) * per;
  if (options_.sram_wait_cycles) sram_accesses_ += uint64_t(skip) * heap;
}

void IssFirmware::on_sram(uc_struct*, int, uint64_t, int, int64_t, void* self) {
  ++static_cast<IssFirmware*>(self)->sram_accesses_;
}

uint64_t IssFirmware::on_doorbell_read(uc_struct*, uint64_t, unsigned, void*) { return 0; }

void IssFirmware::on_doorbell(uc_struct* uc, uint64_t, unsigned, uint64_t value, void* self) {
  auto* me = static_cast<IssFirmware*>(self);
  if (uint32_t(value) == uint32_t(Call::Halt)) {  // the entry returned: not a HAL call
    me->halted_ = true;
    uc_emu_stop(uc);
    return;
  }
  try {
    me->serve(uint32_t(value));
  } catch (const std::exception& e) {  // never unwind through the emulator: stop it, report after
    if (me->error_.empty()) me->error_ = e.what();
    uc_emu_stop(uc);
  }
}

// One HAL call: the record at Mailbox::call, served through the Hal.
void IssFirmware::serve(uint32_t call) {
  ++crossings_;
  settle();
  Mailbox& box = mem_->box();
  const uint8_t* rec = box.call;
  auto record = [rec](auto& r) { std::memcpy(&r, rec, sizeof r); };
  switch (Call(call)) {
    case Call::NowPs: box.result = hal_.now_ps(); break;
    case Call::SubmitFlash: {
      FlashOpRecord r;
      record(r);
      FlashOp op;
      op.opcode = FlashOpcode(r.opcode);
      op.address = r.address;
      op.dest = r.dest;
      op.page_count = r.page_count;
      op.sector_offset = r.sector_offset;
      op.sector_count = r.sector_count;
      op.buffer_address = r.buffer_address;
      op.priority = r.priority;
      op.slc = r.slc;
      op.read_oob = r.read_oob;
      op.cookie = r.cookie;
      if (r.oob_count) {
        const auto* oob = static_cast<const PageOob*>(guest(r.oob, uint64_t(r.oob_count) * sizeof(PageOob)));
        op.oob.assign(oob, oob + r.oob_count);
      }
      if (r.words) {  // map pages' words: read and written in place in target RAM, as the DMA does
        const uint64_t pages = op.opcode == FlashOpcode::Program ? std::max(1u, r.page_count) : 1;
        op.words = static_cast<uint32_t*>(guest(r.words, pages * r.words_per_page * sizeof(uint32_t)));
        op.words_per_page = r.words_per_page;
      }
      hal_.submit_flash(op);
      break;
    }
    case Call::RequestDataOut:
    case Call::SendDataIn: {
      TransferRecord r;
      record(r);
      if (Call(call) == Call::RequestDataOut) hal_.request_data_out(r.tag, r.offset, r.address, r.bytes, r.token);
      else hal_.send_data_in(r.tag, r.offset, r.address, r.bytes, r.token);
      break;
    }
    case Call::SendResponse: {
      CommandResponse r;
      record(r);
      hal_.send_response(r);
      break;
    }
    case Call::CopyBuffer:
    case Call::ZeroBuffer: {
      CopyRecord r;
      record(r);
      if (Call(call) == Call::CopyBuffer) hal_.copy_buffer(r.dst, r.src, r.bytes);
      else hal_.zero_buffer(r.dst, r.bytes);
      break;
    }
    case Call::ReadBufferBytes:
    case Call::WriteBufferBytes: {
      BytesRecord r;
      record(r);
      void* data = guest(r.data, r.bytes);
      if (Call(call) == Call::ReadBufferBytes) hal_.read_buffer_bytes(r.address, data, r.bytes);
      else hal_.write_buffer_bytes(r.address, data, r.bytes);
      break;
    }
    case Call::L2pSramAccess: {
      SramRecord r;
      record(r);
      hal_.l2p_sram_access(r.bytes, r.write != 0);
      break;
    }
    case Call::SubmitCrypto: {
      HpbCryptoJob job;
      record(job);
      hal_.submit_crypto(job);
      break;
    }
    case Call::SubmitSignBatch: {  // the engine's DMA reads the items and writes the entries in target RAM
      SignBatchRecord r;
      record(r);
      if (r.count == 0) fail("a sign batch of no entries");
      HpbSignBatch b;
      b.items = static_cast<const HpbSignItem*>(guest(r.items, uint64_t(r.count) * sizeof(HpbSignItem)));
      b.entries = static_cast<uint8_t*>(guest(r.entries, uint64_t(r.count) * 8));
      b.count = r.count;
      b.lun = r.lun;
      b.cookie = r.cookie;
      hal_.submit_sign_batch(b);
      break;
    }
    case Call::WriteCryptoRegister: {
      RegisterRecord r;
      record(r);
      hal_.write_crypto_register(r.offset, r.value);
      break;
    }
    case Call::Random64: box.result = hal_.random64(); break;
    case Call::PeekMapWords: {  // the words land in target RAM, as a load's DMA would put them
      PeekRecord r;
      record(r);
      box.result = hal_.peek_map_words(r.address, static_cast<uint32_t*>(guest(r.out, uint64_t(r.count) * 4)), r.count);
      break;
    }
    case Call::SetTimer: {
      TimerRecord r;
      record(r);
      hal_.set_timer(r.delay_ps, r.cookie);
      break;
    }
    case Call::PreloadPages: {
      PreloadRecord r;
      record(r);
      if (!backdoor_) fail("the firmware used the precondition backdoor outside precondition");
      // A whole program unit: count pages of the block's own page size, one stamp per sector.
      const uint32_t spp = geometry_.large_block(r.address.block) ? geometry_.large_sectors_per_page()
                                                                   : geometry_.sectors_per_page();
      const auto* oobs = static_cast<const PageOob*>(guest(r.oobs, uint64_t(r.count) * sizeof(PageOob)));
      const auto* stamps = static_cast<const SectorStamp*>(guest(r.stamps, uint64_t(r.count) * spp * sizeof(SectorStamp)));
      const auto* words = r.words ? static_cast<const uint32_t*>(guest(
                                        r.words, uint64_t(r.count) * r.words_per_page * sizeof(uint32_t)))
                                  : nullptr;
      backdoor_->preload_pages(r.address, r.count, stamps, oobs, words, words ? r.words_per_page : 0);
      break;
    }
    case Call::Booted: {
      BootedRecord r;
      record(r);
      logical_blocks_ = r.logical_blocks;
      booted_check_ = r.params_check;
      break;
    }
    case Call::Stat: {
      StatRecord r;
      record(r);
      if (!visitor_) fail("the firmware sent a statistic outside visit_stats");
      const char* key = guest_string(r.key);
      const char* meaning = guest_string(r.meaning);
      switch (r.kind) {
        case 0: visitor_->count(key, r.value, guest_string(r.unit), meaning); break;
        case 1: {
          double v;
          std::memcpy(&v, &r.value, 8);
          visitor_->figure(key, v, guest_string(r.unit), meaning);
          break;
        }
        case 2: visitor_->flag(key, r.value != 0, meaning); break;
        case 3:
          visitor_->text(key, std::string(static_cast<const char*>(guest(r.text, r.text_bytes)), r.text_bytes), meaning);
          break;
        default: fail("a statistic of unknown kind " + std::to_string(r.kind));
      }
      break;
    }
    case Call::Panic: {
      BytesRecord r;
      record(r);
      const char* text = static_cast<const char*>(guest(r.data, r.bytes));
      panic_.assign(text, r.bytes);
      uc_emu_stop(uc_);
      break;
    }
    default: fail("unknown HAL call " + std::to_string(call) + " at the doorbell");
  }
}

// A NUL-terminated string in target memory (keys, units, meanings: literals in the ATCM).
const char* IssFirmware::guest_string(uint32_t address) {
  if (!address) return "";
  for (uint32_t n = 1; n <= 4096; ++n) {
    const char* p = static_cast<const char*>(guest(address, n));
    if (p[n - 1] == 0) return p;
  }
  fail("a string of the firmware's statistics is not terminated");
}

void IssFirmware::visit_stats(StatsVisitor& v) {
  visitor_ = &v;
  run(uint32_t(Event::VisitStats));
  visitor_ = nullptr;
}

// ---- events
void IssFirmware::on_command(const HostCommand& command) {
  std::memcpy(mem_->box().event, &command, sizeof command);
  run(uint32_t(Event::Command));
}

void IssFirmware::on_flash_complete(const FlashCompletion& completion) {
  std::memcpy(mem_->box().event, &completion, sizeof completion);
  run(uint32_t(Event::FlashComplete));
}

void IssFirmware::on_data_out_done(uint8_t tag, uint64_t token) {
  TransferDone r{};
  r.tag = tag;
  r.token = token;
  std::memcpy(mem_->box().event, &r, sizeof r);
  run(uint32_t(Event::DataOutDone));
}

void IssFirmware::on_data_in_done(uint8_t tag, uint64_t token) {
  TransferDone r{};
  r.tag = tag;
  r.token = token;
  std::memcpy(mem_->box().event, &r, sizeof r);
  run(uint32_t(Event::DataInDone));
}

void IssFirmware::on_timer(uint64_t cookie) {
  TimerRecord r{};
  r.cookie = cookie;
  std::memcpy(mem_->box().event, &r, sizeof r);
  run(uint32_t(Event::Timer));
}

void IssFirmware::on_crypto_done(const HpbCryptoResult& result) {
  std::memcpy(mem_->box().event, &result, sizeof result);
  run(uint32_t(Event::CryptoDone));
}

void IssFirmware::on_power_up() { run(uint32_t(Event::PowerUp)); }

void IssFirmware::recover_on_power_up() { run(uint32_t(Event::RecoverOnPowerUp)); }

void IssFirmware::precondition(uint64_t first_lba, uint64_t blocks, FlashBackdoor& backdoor) {
  PreconditionRecord r{first_lba, blocks};
  std::memcpy(mem_->box().event, &r, sizeof r);
  backdoor_ = &backdoor;
  run(uint32_t(Event::Precondition));
  backdoor_ = nullptr;
}

}  // namespace ufs
