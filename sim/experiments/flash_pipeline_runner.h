// A small SystemC scenario on the flash demux alone (no host, no firmware): a
// controller process that keeps a few page operations in flight on one or two
// packages and measures the steady rate. Used by the atc08 studies for what the
// host path cannot drive (a page copy between packages, an intra-plane copy-back)
// and by testbench/systemc/atc08_bench.cpp. Header-only: the caller builds it in a
// process whose SystemC kernel has not started yet, runs it once, and reads the result.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include <cstdint>
#include <deque>
#include "fcc/flash_controller.h"

namespace ufs {

enum class FlashPipelineKind : uint8_t {
  Read,      // page reads on package 0 (dies in turn)
  Copy,      // read a page on package 0, then program it on package 1 (dies in turn on both)
  CopyBack,  // intra-plane copy-back on package 0 (dies in turn): the data never leaves the die
};

struct FlashPipelineSpec {
  FlashControllerParams fcc;
  NandParams nand;
  FlashPipelineKind kind = FlashPipelineKind::Read;
  uint32_t pages = 512;      // pages read / copied
  uint32_t in_flight = 8;    // page operations (or copies) the controller keeps outstanding
};

struct FlashPipelineResult {
  double us_per_page = 0;    // (time of the last completion) / pages
  double channel_bytes = 0;  // bytes moved on all channels
  double ops_completed = 0;
};

namespace detail {

// The data buffer stand-in: answers at once, keeps nothing (timing only).
struct NullBuffer : sc_core::sc_module {
  tlm_utils::simple_target_socket<NullBuffer> socket;
  explicit NullBuffer(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
    socket.register_b_transport(this, &NullBuffer::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time&) {
    if (p.is_read()) {
      auto* s = reinterpret_cast<SectorStamp*>(p.get_data_ptr());
      for (uint64_t i = 0; i < p.get_data_length() / kSectorBytes; ++i) s[i] = SectorStamp{};
    }
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

// Issues the scenario's ops from completion callbacks (no thread per op).
class PipelineController : public sc_core::sc_module, public FlashCompletionListener {
 public:
  SC_HAS_PROCESS(PipelineController);
  PipelineController(sc_core::sc_module_name n, const FlashPipelineSpec& spec)
      : sc_module(n), spec_(spec), fcc_("fcc", spec.fcc, spec.nand), buffer_("buffer") {
    fcc_.dma.bind(buffer_.socket);
    fcc_.set_listener(this);
    const FlashGeometry g = fcc_.geometry();
    dies_per_package_ = g.dies_per_way;
    pages_per_block_ = g.pages_per_block;
    SC_METHOD(start);
  }
  void flash_complete(const FlashCompletion& c) override {
    const uint32_t i = uint32_t(c.cookie >> 1);
    if (spec_.kind == FlashPipelineKind::Copy && (c.cookie & 1) == 0) {
      submit_program(i);  // the page is in the buffer: program it on the other package
      return;
    }
    ++done_;
    last_ = sc_core::sc_time_stamp();
    if (next_ < spec_.pages) issue(next_++);
  }
  FlashPipelineResult result() const {
    FlashPipelineResult r;
    r.us_per_page = last_.to_seconds() * 1e6 / double(spec_.pages);
    for (uint32_t c = 0; c < spec_.fcc.channels; ++c) r.channel_bytes += double(fcc_.channel_bytes(c));
    r.ops_completed = double(done_);
    return r;
  }

 private:
  void start() {
    for (; next_ < spec_.pages && next_ < spec_.in_flight; ++next_) issue(next_);
  }
  // Page i of a stream spread over the package's dies: die i % dies, consecutive
  // pages of plane 0, block 0, 1, ... of that die.
  FlashAddress place(uint32_t package, uint32_t i) const {
    FlashAddress a;
    a.die = package * dies_per_package_ + i % dies_per_package_;
    const uint32_t k = i / dies_per_package_;
    a.plane = 0;
    a.block = k / pages_per_block_;
    a.page = k % pages_per_block_;
    return a;
  }
  void issue(uint32_t i) {
    FlashOp op;
    op.cookie = uint64_t(i) << 1;
    op.buffer_address = uint64_t(i % 1024) * kSectorBytes * 8;
    if (spec_.kind == FlashPipelineKind::CopyBack) {
      op.opcode = FlashOpcode::CopyBack;
      op.address = place(0, i);
      op.dest = op.address;
      op.dest.block += 1024;  // a second block in the same plane
      op.cookie |= 1;
    } else {
      op.opcode = FlashOpcode::Read;
      op.address = place(0, i);
      if (spec_.kind == FlashPipelineKind::Read) op.cookie |= 1;
    }
    fcc_.submit(op, sc_core::SC_ZERO_TIME);
  }
  void submit_program(uint32_t i) {
    FlashOp op;
    op.opcode = FlashOpcode::Program;
    op.address = place(1, i);
    op.page_count = 1;
    op.cookie = (uint64_t(i) << 1) | 1;
    op.buffer_address = uint64_t(i % 1024) * kSectorBytes * 8;
    op.oob.resize(1);
    fcc_.submit(op, sc_core::SC_ZERO_TIME);
  }

  FlashPipelineSpec spec_;
  FlashController fcc_;
  NullBuffer buffer_;
  uint32_t dies_per_package_ = 1, pages_per_block_ = 1;
  uint32_t next_ = 0, done_ = 0;
  sc_core::sc_time last_;
};

}  // namespace detail

// Builds the scenario, runs the SystemC kernel to the end and returns the rate.
// Once per process: SystemC elaborates once.
inline FlashPipelineResult run_flash_pipeline(const FlashPipelineSpec& spec) {
  detail::PipelineController ctl("pipeline", spec);
  sc_core::sc_start();
  return ctl.result();
}

}  // namespace ufs
