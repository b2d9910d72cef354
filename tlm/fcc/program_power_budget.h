// The program power budget (fcc.max_concurrent_programs): at most so many dies in a
// program's array phase at once, the NAND operation that draws the most VCC current.
// Owns the booked program windows; a program asks for the earliest start that keeps
// the limit and is booked there.
#pragma once
#include <systemc>
#include <cstdint>
#include <vector>

namespace ufs {

class ProgramPowerBudget {
 public:
  explicit ProgramPowerBudget(uint32_t limit) : limit_(limit) {}

  // The earliest start at or after `earliest` of a program array phase of `length` on
  // `die` that keeps at most `limit` in flight; books it. No limit: `earliest`.
  sc_core::sc_time book(uint32_t die, const sc_core::sc_time& earliest, const sc_core::sc_time& length);
  // The die's program stops drawing at `at` (suspended).
  void end(uint32_t die, const sc_core::sc_time& at);
  void clear() { windows_.clear(); }  // power cut

  // Programs whose array phase waited for a slot, and the time they waited in all.
  uint64_t delays() const { return delays_; }
  const sc_core::sc_time& wait() const { return wait_; }

 private:
  struct Window {
    sc_core::sc_time start, end;
    uint32_t die;
  };
  uint32_t limit_;
  std::vector<Window> windows_;  // booked program array phases (budget on)
  uint64_t delays_ = 0;
  sc_core::sc_time wait_;
};

}  // namespace ufs
