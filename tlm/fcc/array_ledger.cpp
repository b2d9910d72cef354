#include "fcc/array_ledger.h"

namespace ufs {

const char* ArrayLedger::kind_name(int kind) {
  static const char* const kNames[kArrayKinds] = {"read", "read_slc", "program", "program_slc", "erase"};
  return kind >= 0 && kind < kArrayKinds ? kNames[kind] : "?";
}

void ArrayLedger::give_back(uint32_t die, int kind, const sc_core::sc_time& now, const sc_core::sc_time& left,
                            size_t planes) {
  dies_[die].busy -= left;
  dies_[die].to = now;
  time_[size_t(kind)] -= left;
  plane_time_[size_t(kind)] -= left * double(planes);
}

sc_core::sc_time ArrayLedger::busy_until(uint32_t die, const sc_core::sc_time& t) const {
  const Die& d = dies_[die];
  const sc_core::sc_time from = d.from > t ? d.from : t;
  return d.to > from ? d.busy - (d.to - from) : d.busy;
}

}  // namespace ufs
