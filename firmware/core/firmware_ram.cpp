#include "core/firmware_ram.h"
#include <algorithm>

namespace ufs {

uint64_t FirmwareRam::tables_bytes() const {
  uint64_t b = 0;
  for (const Table& t : tables) b += t.bytes;
  return b;
}

std::string FirmwareRam::describe() const {
  std::vector<Table> sorted = tables;
  std::stable_sort(sorted.begin(), sorted.end(), [](const Table& a, const Table& b) { return a.bytes > b.bytes; });
  std::string out;
  for (const Table& t : sorted) {
    if (!out.empty()) out += ", ";
    out += t.name;
    out += ' ';
    out += std::to_string((t.bytes + 1023) / 1024);
    out += " KiB";
  }
  return out;
}

}  // namespace ufs
