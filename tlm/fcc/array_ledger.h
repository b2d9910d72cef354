// Array time booked on the dies (tR + tPROG + tBERS): per die, in all and before a
// moment (the die-busy statistics), and per kind of array operation summed over dies
// (the energy model's input: each kind draws its own current). An operation counts when
// its array phase is booked; a suspended program or erase gives back the time it did
// not run (its resume books it again, as no new operation). A multi-plane group counts
// once (one array phase); copy-back counts its tR as read, its tPROG as program. Plane
// time counts each plane of a group: a multi-plane read senses, and a multi-plane
// program or erase drives, the array of every plane in it.
// Owns only figures: the sequences tell it what they book.
#pragma once
#include <systemc>
#include <cstdint>
#include <vector>
#include "hal/flash_types.h"

namespace ufs {

class ArrayLedger {
 public:
  enum ArrayKind : int { kArrayRead, kArrayReadSlc, kArrayProgram, kArrayProgramSlc, kArrayErase, kArrayKinds };
  static const char* kind_name(int kind);  // stats.json's name of the kind
  static int kind_of(const FlashOp& op) {
    switch (op.opcode) {
      case FlashOpcode::Read: return op.slc ? kArrayReadSlc : kArrayRead;
      case FlashOpcode::Erase: return kArrayErase;
      default: return op.slc ? kArrayProgramSlc : kArrayProgram;
    }
  }

  explicit ArrayLedger(uint32_t dies) : dies_(dies) {}

  // The die's array phase ending at `end` holds `busy` of array time (inline: once per op).
  void book(uint32_t die, const sc_core::sc_time& end, const sc_core::sc_time& busy) {
    Die& d = dies_[die];
    d.busy += busy;
    d.to = end;
    d.from = end - busy;
  }
  void count(int kind, const sc_core::sc_time& t, uint64_t ops = 1, size_t planes = 1) {
    time_[size_t(kind)] += t;
    plane_time_[size_t(kind)] += t * double(planes);
    ops_[size_t(kind)] += ops;
  }
  // The die's phase of `kind` on `planes` planes is suspended at `now` with `left` of it not run.
  void give_back(uint32_t die, int kind, const sc_core::sc_time& now, const sc_core::sc_time& left, size_t planes);

  const sc_core::sc_time& busy_time(uint32_t die) const { return dies_[die].busy; }
  // The die's array time before `t` (t >= now): a phase is booked whole when it starts,
  // so the part of the one in flight that lies after t is not counted.
  sc_core::sc_time busy_until(uint32_t die, const sc_core::sc_time& t) const;
  const sc_core::sc_time& time(int kind) const { return time_[size_t(kind)]; }
  const sc_core::sc_time& plane_time(int kind) const { return plane_time_[size_t(kind)]; }
  uint64_t ops(int kind) const { return ops_[size_t(kind)]; }

 private:
  struct Die {
    sc_core::sc_time busy;
    sc_core::sc_time from, to;  // the latest array time added to busy (see busy_until)
  };
  std::vector<Die> dies_;
  sc_core::sc_time time_[kArrayKinds];
  sc_core::sc_time plane_time_[kArrayKinds];
  uint64_t ops_[kArrayKinds] = {};
};

}  // namespace ufs
