// The firmware's bare-metal runtime on the controller's core: start-up, the heap, the
// one entry every event comes through, and what the C++ library needs without
// exceptions. The host (tlm/cpu, cpu.model=iss) loads the ELF, runs fw_start once, then
// fw_entry(Event::Boot) and fw_entry(event) for every event after; each returns to
// fw_halt, where the host stops the core (run to completion: nothing runs in between).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include "device_firmware.h"
#include "target/mailbox.h"
#include "target/params_codec.h"
#include "target/target_hal.h"

using namespace ufs;
using namespace ufs::mailbox;

extern "C" {
char* fw_heap_top = reinterpret_cast<char*>(kHeapBase);  // the heap's end so far (the host reads it)
// picolibc.ld's symbols (the image: .data's load address and place, .bss, TLS block).
extern char __data_source[], __data_start[], __data_size[], __bss_start[], __bss_size[], __tls_base[];
extern void (*__init_array_start[])(), (*__init_array_end[])();
void _set_tls(void* tls);
}

namespace {
TargetHal hal;
DeviceFirmware* firmware = nullptr;
char* heap_end = reinterpret_cast<char*>(kHeapBase);  // Boot sets the SRAM's size
uint32_t heap_mib = 0;

Mailbox& box() { return *reinterpret_cast<Mailbox*>(kMailboxBase); }
template <class R>
const R& event() { return *reinterpret_cast<const R*>(box().event); }

void boot() {
  const BootRecord& r = event<BootRecord>();
  heap_end = reinterpret_cast<char*>(kHeapBase) + r.heap_bytes;
  heap_mib = r.heap_bytes >> 20;
  FirmwareParams params;
  FlashGeometry geometry;
  const uint8_t* bytes = reinterpret_cast<const uint8_t*>(uintptr_t(r.params));
  if (!params_codec::decode(bytes, r.params_bytes, params, geometry))
    panic("boot: the parameter stream does not match this firmware's parameters (host and ELF from different sources?)");
  firmware = new DeviceFirmware(hal, params, geometry);
  BootedRecord& out = *reinterpret_cast<BootedRecord*>(box().call);
  out.logical_blocks = firmware->logical_blocks();
  out.params_check = params_codec::checksum(params_codec::encode(params, geometry));
  ring(Call::Booted);
}
// Every statistic out through the mailbox, one Stat call each.
struct MailboxStats : StatsVisitor {
  static uint32_t at(const void* p) { return uint32_t(reinterpret_cast<uintptr_t>(p)); }
  static void send(uint32_t kind, const char* key, const char* unit, const char* meaning, uint64_t value,
                   const std::string* text = nullptr) {
    StatRecord& r = *reinterpret_cast<StatRecord*>(box().call);
    r.kind = kind;
    r.key = at(key);
    r.unit = at(unit);
    r.meaning = at(meaning);
    r.text = text ? at(text->data()) : 0;
    r.text_bytes = text ? uint32_t(text->size()) : 0;
    r.value = value;
    ring(Call::Stat);
  }
  void count(const char* key, uint64_t value, const char* unit, const char* meaning) override {
    send(0, key, unit, meaning, value);
  }
  void figure(const char* key, double value, const char* unit, const char* meaning) override {
    uint64_t bits;
    std::memcpy(&bits, &value, 8);
    send(1, key, unit, meaning, bits);
  }
  void flag(const char* key, bool value, const char* meaning) override { send(2, key, nullptr, meaning, value); }
  void text(const char* key, const std::string& value, const char* meaning) override {
    send(3, key, nullptr, meaning, 0, &value);
  }
};
}  // namespace

extern "C" {

// Where every entry returns: a store of Call::Halt to the doorbell, on which the host stops
// the core (it does not count these instructions). Not an exit address: Unicorn 2.0.1
// translates the block at an exit again after every run (twice per event: on read-heavy
// runs more host time than the handlers, and the translation cache grows by it).
// Entries return to fw_halt + 2, past a nop: a debugger (cpu.gdb_port) finds a return
// address's caller at the address before it, which is then fw_halt's own nop, not the end of
// whatever function the linker put before it (the nop fills fw_halt's alignment padding:
// nothing moves). Its unwind entry says it has no caller: a backtrace ends there.
static_assert(uint32_t(Call::Halt) == 19 && kDoorbell == 0x90010000u, "fw_halt's constants below");
[[gnu::naked, gnu::noinline]] void fw_halt() {
  asm volatile(
      ".cfi_undefined lr\n\t"
      "nop\n\t"
      "movs r0, #19\n\t"        // Call::Halt
      "movw r1, #0x0000\n\t"    // kDoorbell
      "movt r1, #0x9001\n\t"
      "str r0, [r1]\n\t"
      "1: b 1b");
}

// Reset: what picolibc's crt0 does (Thumb exceptions, VFP on, .data from its load
// image, .bss zeroed, the TLS block), then the static constructors.
void fw_start() {
  uint32_t sctlr;
  asm volatile("mrc p15, 0, %0, c1, c0, 0" : "=r"(sctlr));
  asm volatile("mcr p15, 0, %0, c1, c0, 0" ::"r"(sctlr | (1u << 30)));  // SCTLR.TE
  asm volatile("mcr p15, 0, %0, c1, c0, 2" ::"r"(0xf00000u));           // CPACR: cp10, cp11 full access
  asm volatile("isb");
  asm volatile("vmsr fpexc, %0" ::"r"(1u << 30));                       // FPEXC.EN
  std::memcpy(__data_start, __data_source, reinterpret_cast<size_t>(__data_size));
  std::memset(__bss_start, 0, reinterpret_cast<size_t>(__bss_size));
  _set_tls(__tls_base);
  for (auto* f = __init_array_start; f != __init_array_end; ++f) (*f)();
}

void fw_entry(uint32_t kind) {
  switch (Event(kind)) {
    case Event::Boot: boot(); return;
    default: break;
  }
  if (!firmware) panic("an event before Boot");
  switch (Event(kind)) {
    case Event::Command: firmware->on_command(event<HostCommand>()); break;
    case Event::FlashComplete: firmware->on_flash_complete(event<FlashCompletion>()); break;
    case Event::DataOutDone: firmware->on_data_out_done(event<TransferDone>().tag, event<TransferDone>().token); break;
    case Event::DataInDone: firmware->on_data_in_done(event<TransferDone>().tag, event<TransferDone>().token); break;
    case Event::Timer: firmware->on_timer(event<TimerRecord>().cookie); break;
    case Event::CryptoDone: firmware->on_crypto_done(event<HpbCryptoResult>()); break;
    case Event::PowerUp: firmware->on_power_up(); break;
    case Event::RecoverOnPowerUp: firmware->recover_on_power_up(); break;
    case Event::VisitStats: {
      MailboxStats v;
      firmware->visit_stats(v);
      break;
    }
    case Event::Precondition:
      firmware->precondition(event<PreconditionRecord>().first_lba, event<PreconditionRecord>().blocks, hal);
      break;
    default: panic("unknown event kind");
  }
}

// The heap: SRAM from kHeapBase, as much as the boot record says the controller has.
void* sbrk(ptrdiff_t increment) {
  if (increment > heap_end - fw_heap_top) return reinterpret_cast<void*>(-1);
  char* old = fw_heap_top;
  fw_heap_top += increment;
  return old;
}

void _exit(int) { panic("exit called"); }
void abort() { panic("abort called"); }
int __cxa_atexit(void (*)(void*), void*, void*) { return 0; }  // static destructors never run
void* __dso_handle = nullptr;
void __cxa_pure_virtual() { panic("pure virtual call"); }
}

// operator new without exceptions: out of memory is the end of the run, said clearly.
namespace {
[[noreturn]] void out_of_ram() {
  static char message[96];
  std::strcpy(message, "firmware RAM exhausted: the heap of ");
  char digits[12];
  int n = 0;
  uint32_t v = heap_mib;
  do digits[n++] = char('0' + v % 10); while (v /= 10);
  char* p = message + std::strlen(message);
  while (n) *p++ = digits[--n];
  std::strcpy(p, " MiB (cpu.iss_heap_mib) is full");
  panic(message);
}
void* allocate(size_t bytes) {
  if (void* p = std::malloc(bytes ? bytes : 1)) return p;
  out_of_ram();
}
}  // namespace
void* operator new(size_t bytes) { return allocate(bytes); }
void* operator new[](size_t bytes) { return allocate(bytes); }
void* operator new(size_t bytes, const std::nothrow_t&) noexcept { return std::malloc(bytes ? bytes : 1); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }

// The library's error paths (built with exceptions) end the run instead of throwing.
namespace std {
void __throw_bad_alloc() { out_of_ram(); }
void __throw_bad_array_new_length() { panic("bad array new length"); }
void __throw_length_error(const char* what) { panic(what); }
void __throw_out_of_range(const char* what) { panic(what); }
void __throw_out_of_range_fmt(const char* what, ...) { panic(what); }
void __throw_logic_error(const char* what) { panic(what); }
void __throw_invalid_argument(const char* what) { panic(what); }
void __throw_bad_function_call() { panic("bad function call"); }
}  // namespace std
