#include "target/target_hal.h"
#include <cstring>

namespace ufs {

using namespace mailbox;

namespace {
Mailbox& box() { return *reinterpret_cast<Mailbox*>(kMailboxBase); }
template <class R>
R& record() {
  static_assert(sizeof(R) <= kRecordBytes);
  return *reinterpret_cast<R*>(box().call);
}
uint32_t address_of(const void* p) { return uint32_t(reinterpret_cast<uintptr_t>(p)); }
}  // namespace

void ring(Call call) {
  // The record's stores must reach the window before the doorbell, and the host's answer
  // must be read after it: the compiler may not move memory accesses across either.
  asm volatile("" ::: "memory");
  *reinterpret_cast<volatile uint32_t*>(kDoorbell) = uint32_t(call);
  asm volatile("" ::: "memory");
}

void panic(const char* message) {
  BytesRecord& r = record<BytesRecord>();
  r.address = 0;
  r.data = address_of(message);
  r.bytes = uint32_t(std::strlen(message));
  ring(Call::Panic);
  for (;;) asm volatile("udf #0");  // the host never lets the core past a panic
}

uint64_t TargetHal::now_ps() const {
  ring(Call::NowPs);
  return box().result;
}

void TargetHal::charge_cycles(uint64_t cycles) { box().pending_cycles += cycles; }

void TargetHal::submit_flash(const FlashOp& op) {
  FlashOpRecord& r = record<FlashOpRecord>();
  r.address = op.address;
  r.dest = op.dest;
  r.page_count = op.page_count;
  r.sector_offset = op.sector_offset;
  r.sector_count = op.sector_count;
  r.opcode = uint8_t(op.opcode);
  r.priority = op.priority;
  r.slc = op.slc;
  r.read_oob = op.read_oob;
  r.buffer_address = op.buffer_address;
  r.cookie = op.cookie;
  r.oob = address_of(op.oob.data());
  r.oob_count = uint32_t(op.oob.size());
  r.words = op.words ? address_of(op.words) : 0;
  r.words_per_page = op.words_per_page;
  ring(Call::SubmitFlash);
}

namespace {
void transfer(Call call, uint8_t tag, uint32_t offset, uint64_t addr, uint32_t bytes, uint64_t token) {
  TransferRecord& r = record<TransferRecord>();
  r.tag = tag;
  r.offset = offset;
  r.address = addr;
  r.bytes = bytes;
  r.token = token;
  ring(call);
}
}  // namespace

void TargetHal::request_data_out(uint8_t tag, uint32_t offset, uint64_t addr, uint32_t bytes, uint64_t token) {
  transfer(Call::RequestDataOut, tag, offset, addr, bytes, token);
}

void TargetHal::send_data_in(uint8_t tag, uint32_t offset, uint64_t addr, uint32_t bytes, uint64_t token) {
  transfer(Call::SendDataIn, tag, offset, addr, bytes, token);
}

void TargetHal::send_response(const CommandResponse& response) {
  record<CommandResponse>() = response;
  ring(Call::SendResponse);
}

void TargetHal::copy_buffer(uint64_t dst, uint64_t src, uint32_t bytes) {
  CopyRecord& r = record<CopyRecord>();
  r.dst = dst;
  r.src = src;
  r.bytes = bytes;
  ring(Call::CopyBuffer);
}

void TargetHal::read_buffer_bytes(uint64_t address, void* dst, uint32_t bytes) {
  BytesRecord& r = record<BytesRecord>();
  r.address = address;
  r.data = address_of(dst);
  r.bytes = bytes;
  ring(Call::ReadBufferBytes);
}

void TargetHal::write_buffer_bytes(uint64_t address, const void* src, uint32_t bytes) {
  BytesRecord& r = record<BytesRecord>();
  r.address = address;
  r.data = address_of(src);
  r.bytes = bytes;
  ring(Call::WriteBufferBytes);
}

void TargetHal::zero_buffer(uint64_t address, uint32_t bytes) {
  CopyRecord& r = record<CopyRecord>();
  r.dst = address;
  r.src = 0;
  r.bytes = bytes;
  ring(Call::ZeroBuffer);
}

void TargetHal::l2p_sram_access(uint32_t bytes, bool write) {
  SramRecord& r = record<SramRecord>();
  r.bytes = bytes;
  r.write = write;
  ring(Call::L2pSramAccess);
}

void TargetHal::submit_crypto(const HpbCryptoJob& job) {
  record<HpbCryptoJob>() = job;
  ring(Call::SubmitCrypto);
}

void TargetHal::submit_sign_batch(const HpbSignBatch& batch) {
  SignBatchRecord& r = record<SignBatchRecord>();
  r.items = address_of(batch.items);
  r.entries = address_of(batch.entries);
  r.count = batch.count;
  r.lun = batch.lun;
  r.cookie = batch.cookie;
  ring(Call::SubmitSignBatch);
}

void TargetHal::write_crypto_register(uint32_t offset, uint32_t value) {
  RegisterRecord& r = record<RegisterRecord>();
  r.offset = offset;
  r.value = value;
  ring(Call::WriteCryptoRegister);
}

uint64_t TargetHal::random64() {
  ring(Call::Random64);
  return box().result;
}

bool TargetHal::peek_map_words(const FlashAddress& address, uint32_t* out, uint32_t count) {
  PeekRecord& r = record<PeekRecord>();
  r.address = address;
  r.out = address_of(out);
  r.count = count;
  ring(Call::PeekMapWords);
  return box().result != 0;
}

void TargetHal::set_timer(uint64_t delay_ps, uint64_t cookie) {
  TimerRecord& r = record<TimerRecord>();
  r.delay_ps = delay_ps;
  r.cookie = cookie;
  ring(Call::SetTimer);
}

void TargetHal::preload_pages(const FlashAddress& address, uint32_t count, const SectorStamp* stamps,
                              const PageOob* oobs, const uint32_t* words, uint32_t words_per_page) {
  PreloadRecord& r = record<PreloadRecord>();
  r.address = address;
  r.count = count;
  r.stamps = address_of(stamps);
  r.oobs = address_of(oobs);
  r.words = words ? address_of(words) : 0;
  r.words_per_page = words_per_page;
  ring(Call::PreloadPages);
}

}  // namespace ufs
