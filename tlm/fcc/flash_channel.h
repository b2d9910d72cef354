// One flash channel: the bus shared by the packages (ways) on it. Command and
// address cycles and data transfers occupy it; dies on it overlap their array
// times but serialise their bus use. The bus is a calendar of booked intervals
// rather than a single "free at": an op booked for later (e.g. a command waiting
// for its die) leaves the gap before it to transfers that fit, as the real bus would.
#pragma once
#include <systemc>
#include <cstdint>
#include <vector>
#include "common/busy_calendar.h"

namespace ufs {

class FlashChannel {
 public:
  // mt_s transfers per microsecond of width_bytes each; spare bytes travel pro rata.
  FlashChannel(uint32_t mt_s, uint32_t width_bytes);

  // Bus time of `bytes` of data: bytes / (MT/s x width), rounded to the time resolution.
  sc_core::sc_time transfer_time(uint64_t bytes) const {
    return sc_core::sc_time(double(bytes) * ps_per_byte_, sc_core::SC_PS);
  }
  // Books the bus for `duration` in the earliest free gap starting at or after
  // `earliest` (and not before now); returns the start.
  sc_core::sc_time reserve(const sc_core::sc_time& earliest, const sc_core::sc_time& duration) {
    return calendar_.reserve(earliest, duration);
  }

  // Statistics: bus time booked so far (commands + data), and bytes moved: all of them, and
  // those sent to the dies (program data-in; the rest came out of them). The ECC engine
  // encodes the bytes it sends and decodes those it receives (the energy model's split).
  const sc_core::sc_time& busy_time() const { return calendar_.busy_time(); }
  sc_core::sc_time busy_until(const sc_core::sc_time& t) const { return calendar_.busy_until(t); }
  uint64_t bytes_transferred() const { return bytes_; }
  uint64_t bytes_to_dies() const { return bytes_in_; }
  void count_bytes(uint64_t bytes) { bytes_ += bytes; }  // die -> controller
  void count_bytes_to_die(uint64_t bytes) {
    bytes_ += bytes;
    bytes_in_ += bytes;
  }

 private:
  double ps_per_byte_;
  BusyCalendar calendar_;
  uint64_t bytes_ = 0;
  uint64_t bytes_in_ = 0;
};

}  // namespace ufs
