#include "crypto/hpb_crypto_rtl_core.h"
#include <verilated.h>
#include <verilated_vcd_c.h>
#include <algorithm>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include "Vhpb_crypto_unit_r1.h"
#include "Vhpb_crypto_unit_r10.h"
#include "Vhpb_crypto_unit_r2.h"
#include "Vhpb_crypto_unit_r5.h"
#include "Vhpb_crypto_unit_r10___024root.h"
#include "Vhpb_crypto_unit_r1___024root.h"
#include "Vhpb_crypto_unit_r2___024root.h"
#include "Vhpb_crypto_unit_r5___024root.h"

namespace ufs {
namespace {

// One evaluation per clock edge. The unit has no logic on the falling edge or in the
// clock-low half (every process is posedge clk / negedge rst_n, and the combinational
// logic from the inputs is settled again at the start of every evaluation), so the
// clock-low evaluation only serves the waves. Verilator 5 finds a rising edge by
// comparing clk with the value it sampled at the previous evaluation; setting that
// sample to 0 makes one evaluation with clk = 1 the rising edge, exactly as the
// 1 -> 0 -> 1 pair would. Where a Verilator version keeps no such sample (the member
// is detected at compile time), the pair of evaluations is used instead.
template <class Root, class = void>
struct HasClkSample : std::false_type {};
template <class Root>
struct HasClkSample<Root, std::void_t<decltype(std::declval<Root&>().__Vtrigrprev__TOP__clk)>>
    : std::true_type {};

template <class Model>
class HpbCryptoRtlCore : public HpbCryptoCore {
 public:
  HpbCryptoRtlCore(uint32_t rounds, bool job_per_evaluation)
      : rounds_(rounds), job_per_evaluation_(job_per_evaluation) {
    context_ = std::make_unique<VerilatedContext>();
    context_->traceEverOn(true);
    model_ = std::make_unique<Model>(context_.get(), "hpb_crypto_unit");
    Model& m = *model_;
    m.clk = 1;  // edges are taken as 1 -> 0 (inputs change) -> 1 (posedge)
    m.rst_n = 0;
    m.reg_we = 0;
    m.reg_addr = 0;
    m.reg_wdata = 0;
    m.in_valid = 0;
    m.out_ready = 1;  // results are always taken at once
    m.sim_run = 0;
    m.eval();
    m.rst_n = 1;
    m.eval();
  }
  ~HpbCryptoRtlCore() override {
    close_waves();
    model_->final();
  }

  const char* kind() const override { return "rtl"; }
  uint32_t rounds_per_cycle() const override { return rounds_; }
  uint64_t cycle() const override { return cycle_; }

  uint64_t write_reg(uint32_t offset, uint32_t value, uint64_t at_cycle) override {
    advance_idle_to(at_cycle);
    Model& m = *model_;
    m.reg_we = 1;
    m.reg_addr = uint8_t(offset & 0x3f);
    m.reg_wdata = value;
    const uint64_t edge = cycle_;
    tick();
    m.reg_we = 0;
    m.reg_wdata = 0;
    return edge;
  }

  uint32_t read_reg(uint32_t offset) override {
    if (offset >= hpb_crypto_reg::kSize || (offset & 3)) return 0;
    model_->reg_addr = uint8_t(offset);
    model_->eval();
    return model_->reg_rdata;
  }

  HpbCoreResult run(const HpbCryptoJob& job, uint64_t arrival_cycle) override {
    advance_idle_to(arrival_cycle);
    Model& m = *model_;
    m.in_valid = 1;
    m.in_verify = job.kind == HpbCryptoJob::Verify;
    m.in_lun = job.lun;
    m.in_lba = job.lba;
    m.in_gen = job.generation;
    m.in_ppn = job.ppn;
    m.in_entry = job.entry;
    m.in_id = uint8_t(++id_);
    HpbCoreResult out;
    if (job_per_evaluation_ && !vcd_) {
      // The model runs the job's edges in this one evaluation (SIM_RUN_JOBS, sim_run): the
      // same edges as below, sim_edges of them from cycle_ on.
      m.sim_run = 1;
      const uint64_t first = cycle_;
      tick();
      m.sim_run = 0;
      m.in_valid = 0;
      if (!m.out_valid || m.sim_edges <= m.sim_accept_edge)
        throw std::logic_error("hpb crypto rtl: the job did not finish");
      out.accept_cycle = first + m.sim_accept_edge;
      cycle_ = first + m.sim_edges;
    } else {
      // in_ready is combinational from state only (settled by the last edge), and the
      // inputs settle in the first tick's clock-low evaluation: no eval of its own.
      while (!m.in_ready) tick();
      out.accept_cycle = cycle_;
      tick();
      m.in_valid = 0;
      while (!m.out_valid) tick();
    }
    out.done_cycle = cycle_ - 1;
    if (m.out_id != uint8_t(id_)) throw std::logic_error("hpb crypto rtl: result out of order");
    HpbCryptoResult& r = out.result;
    r.kind = m.out_verify ? HpbCryptoJob::Verify : HpbCryptoJob::Sign;
    r.status = HpbCryptoStatus(m.out_status);
    r.valid = r.status == HpbCryptoStatus::Ok;
    r.ppn = m.out_ppn;
    r.entry = m.out_entry;
    r.cookie = job.cookie;
    r.cycles = uint32_t(out.done_cycle - arrival_cycle);
    return out;
  }

  bool open_waves(const std::string& path, uint64_t period_ps, uint64_t from_ps,
                  uint64_t to_ps) override {
    close_waves();
    vcd_ = std::make_unique<VerilatedVcdC>();
    model_->trace(vcd_.get(), 99);
    vcd_->set_time_unit("1ps");
    vcd_->set_time_resolution("1ps");
    vcd_->open(path.c_str());
    if (!vcd_->isOpen()) {
      vcd_.reset();
      return false;
    }
    period_ps_ = period_ps;
    from_ps_ = from_ps;
    to_ps_ = to_ps;
    last_dump_ps_ = 0;
    dumped_ = false;
    return true;
  }
  void close_waves() override {
    if (vcd_) {
      vcd_->close();
      vcd_.reset();
    }
  }

 private:
  // Bring the unit to edge `edge` when it is idle: jump. A result still on the output
  // drops on the next evaluated edge, as out_ready is always high; nothing else in the
  // unit depends on out_valid then, so only the waves need that edge where it was
  // (its own edge, so they show out_valid dropping), and it is evaluated only for them.
  void advance_idle_to(uint64_t edge) {
    if (edge <= cycle_) return;
    if (vcd_ && model_->out_valid) tick();
    cycle_ = std::max(cycle_, edge);
  }

  // One clock edge `cycle_`: clock low (inputs already set) half a period
  // before, then the rising edge at cycle_ * period.
  void tick() {
    Model& m = *model_;
    using Root = std::remove_pointer_t<decltype(m.rootp)>;
    if constexpr (HasClkSample<Root>::value) {
      if (!vcd_) {
        m.rootp->__Vtrigrprev__TOP__clk = 0;  // m.clk stays 1: this evaluation is the edge
        m.eval();
        ++cycle_;
        return;
      }
    }
    m.clk = 0;
    m.eval();
    if (vcd_) dump(cycle_ * period_ps_ - std::min(cycle_ * period_ps_, period_ps_ / 2));
    m.clk = 1;
    m.eval();
    if (vcd_) dump(cycle_ * period_ps_);
    ++cycle_;
  }
  void dump(uint64_t t_ps) {
    if (t_ps < from_ps_ || t_ps > to_ps_) return;
    if (dumped_ && t_ps <= last_dump_ps_) return;
    vcd_->dump(t_ps);
    last_dump_ps_ = t_ps;
    dumped_ = true;
  }

  uint32_t rounds_;
  bool job_per_evaluation_;
  uint64_t cycle_ = 0;
  uint32_t id_ = 0;
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Model> model_;
  std::unique_ptr<VerilatedVcdC> vcd_;
  uint64_t period_ps_ = 1, from_ps_ = 0, to_ps_ = 0, last_dump_ps_ = 0;
  bool dumped_ = false;
};

}  // namespace

std::unique_ptr<HpbCryptoCore> make_hpb_crypto_rtl_core(uint32_t rounds_per_cycle,
                                                        bool job_per_evaluation) {
  const bool j = job_per_evaluation;
  switch (rounds_per_cycle) {
    case 1: return std::make_unique<HpbCryptoRtlCore<Vhpb_crypto_unit_r1>>(1, j);
    case 2: return std::make_unique<HpbCryptoRtlCore<Vhpb_crypto_unit_r2>>(2, j);
    case 5: return std::make_unique<HpbCryptoRtlCore<Vhpb_crypto_unit_r5>>(5, j);
    case 10: return std::make_unique<HpbCryptoRtlCore<Vhpb_crypto_unit_r10>>(10, j);
    default: throw std::invalid_argument("hpb crypto: rounds_per_cycle must be 1, 2, 5 or 10");
  }
}

}  // namespace ufs
