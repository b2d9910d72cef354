#include "rwbs_decoder.h"

namespace ufs {

bool decode_rwbs(std::string_view rwbs, RwbsInfo& info) {
  info = RwbsInfo{};
  if (rwbs.empty()) return false;
  bool have_direction = false;
  bool no_data = false;
  for (char c : rwbs) {
    switch (c) {
      case 'F':
        if (have_direction) info.fua = true;
        else info.preflush = true;
        break;
      case 'R':
      case 'W':
      case 'D':
      case 'N':
        if (have_direction) return false;
        have_direction = true;
        info.op = c == 'R' ? BlockOp::Read : c == 'W' ? BlockOp::Write : BlockOp::Unmap;
        no_data = c == 'N';
        break;
      case 'A':
      case 'S':
      case 'M':
      case 'E':
        if (!have_direction) return false;
        break;
      default:
        return false;
    }
  }
  if (!have_direction && !info.preflush) return false;
  if (!have_direction || no_data) {
    info.kind = info.preflush ? RwbsInfo::Kind::FlushOnly : RwbsInfo::Kind::NoData;
    info.op = BlockOp::Flush;
    info.preflush = false;
  }
  return true;
}

}  // namespace ufs
