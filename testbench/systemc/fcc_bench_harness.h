// The harness of the FlashController benches (fcc_timing_bench, fcc_features_bench):
// a data buffer stand-in, a completion recorder, a scripted driver thread, round-number
// parameters and op builders. Each bench is its own program and includes it once (inline:
// a bench need not use every builder).
#pragma once
#include <catch2/catch.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include <functional>
#include <map>
#include <vector>
#include "fcc/flash_controller.h"

using namespace ufs;
using sc_core::sc_time;
using sc_core::SC_NS;
using sc_core::SC_US;

// The data buffer stand-in: one SectorStamp per 4 KiB, a fixed access latency.
struct FakeBuffer : sc_core::sc_module {
  tlm_utils::simple_target_socket<FakeBuffer> socket;
  std::map<uint64_t, SectorStamp> sectors;  // by sector index (address / 4096)
  sc_time latency;
  uint64_t writes = 0, reads = 0;
  FakeBuffer(sc_core::sc_module_name n, sc_time lat) : sc_module(n), socket("socket"), latency(lat) {
    socket.register_b_transport(this, &FakeBuffer::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& p, sc_time& delay) {
    auto* s = reinterpret_cast<SectorStamp*>(p.get_data_ptr());
    const uint64_t n = p.get_data_length() / kSectorBytes;
    const uint64_t first = p.get_address() / kSectorBytes;
    for (uint64_t i = 0; i < n; ++i) {
      if (p.is_write()) sectors[first + i] = s[i];
      else s[i] = sectors.count(first + i) ? sectors[first + i] : SectorStamp{};
    }
    (p.is_write() ? writes : reads) += 1;
    delay += latency;
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

struct Recorder : FlashCompletionListener {
  struct Done {
    FlashCompletion c;
    sc_time t;
  };
  std::vector<Done> done;
  void flash_complete(const FlashCompletion& c) override { done.push_back({c, sc_core::sc_time_stamp()}); }
  const Done& of(uint64_t cookie) const {
    for (const Done& d : done)
      if (d.c.cookie == cookie) return d;
    FAIL("no completion for cookie " << cookie);
    return done.front();
  }
};

// Runs a script in a thread so it can submit at chosen times.
struct Driver : sc_core::sc_module {
  std::function<void()> script;
  SC_HAS_PROCESS(Driver);
  Driver(sc_core::sc_module_name n, std::function<void()> s) : sc_module(n), script(std::move(s)) {
    SC_THREAD(run);
  }
  void run() { script(); }
};

// Round numbers: 1000 MT/s x 8 bit = 1 ns per byte (4 KiB = 4096 ns), 100 ns per
// command sequence, 500 ns ECC, 10 ns buffer access, no spare bytes.
inline FlashControllerParams test_fcc() {
  FlashControllerParams f;
  f.channels = 2;
  f.ways_per_channel = 2;
  f.bus_mt_s = 1000;
  f.bus_width_bits = 8;
  f.t_cmd_addr_ns = 100;
  f.ecc_decode_ns = 500;
  f.ecc_pipelined = true;
  f.read_first = true;
  f.multi_plane = false;
  return f;
}
inline NandParams test_nand() {
  NandParams n;
  n.dies_per_package = 1;
  n.planes_per_die = 2;
  n.blocks_per_plane = 8;
  n.pages_per_block = 12;
  n.page_bytes = 16384;
  n.spare_bytes_per_page = 0;
  return n;  // tR 50 us, tPROG 500 us, tBERS 3500 us
}
inline const sc_time kLat(10, SC_NS);

struct Bench {
  FakeBuffer buf;
  FlashController fcc;
  Recorder rec;
  Bench(const FlashControllerParams& f = test_fcc(), const NandParams& n = test_nand())
      : buf("buf", kLat), fcc("fcc", f, n) {
    fcc.dma.bind(buf.socket);
    fcc.set_listener(&rec);
  }
};

inline FlashOp read_op(uint32_t die, uint32_t plane, uint32_t block, uint32_t page, uint64_t cookie,
                uint32_t sectors = 1, uint32_t offset = 0, uint64_t buffer = 0) {
  FlashOp op;
  op.opcode = FlashOpcode::Read;
  op.address = FlashAddress{die, plane, block, page};
  op.sector_offset = offset;
  op.sector_count = sectors;
  op.buffer_address = buffer;
  op.cookie = cookie;
  return op;
}
inline FlashOp program_op(uint32_t die, uint32_t plane, uint32_t block, uint32_t page, uint64_t cookie,
                   uint64_t buffer = 0, uint32_t pages = 3) {
  FlashOp op;
  op.opcode = FlashOpcode::Program;
  op.address = FlashAddress{die, plane, block, page};
  op.page_count = pages;
  op.buffer_address = buffer;
  op.cookie = cookie;
  op.oob.resize(pages);
  for (uint32_t p = 0; p < pages; ++p) {
    op.oob[p].kind = PageKind::UserData;
    op.oob[p].sequence = cookie * 10 + p;
    for (uint32_t s = 0; s < 4; ++s) op.oob[p].lba[s] = uint32_t(cookie * 100 + p * 4 + s);
  }
  return op;
}
inline FlashOp erase_op(uint32_t die, uint32_t plane, uint32_t block, uint64_t cookie) {
  FlashOp op;
  op.opcode = FlashOpcode::Erase;
  op.address = FlashAddress{die, plane, block, 0};
  op.cookie = cookie;
  return op;
}
// Die 0, plane 0: block 0's first word line (3 pages) to block 1.
inline FlashOp copy_back_op(uint64_t cookie) {
  FlashOp op;
  op.opcode = FlashOpcode::CopyBack;
  op.address = FlashAddress{0, 0, 0, 0};
  op.dest = FlashAddress{0, 0, 1, 0};
  op.page_count = 3;
  op.cookie = cookie;
  return op;
}
inline sc_time ns(double v) { return sc_time(v, SC_NS); }
