#include "command/command_table.h"
#include <algorithm>
#include "command/buffer_layout.h"

namespace ufs {

bool CommandTable::all_idle() const {
  for (const Tag& t : tags_) if (t.kind != CommandKind::Idle) return false;
  return true;
}

void CommandTable::respond(uint8_t tag, uint8_t lun) {
  hal_.charge_cycles(cycles_response_);
  CommandResponse r;
  r.tag = tag;
  r.lun = lun;
  r.status = scsi_status::kGood;
  const CommandKind k = tags_[tag].kind;
  if (k == CommandKind::Read || k == CommandKind::Write) latency_.finish(tag, k == CommandKind::Write, hal_.now_ps());
  tags_[tag].kind = CommandKind::Idle;
  if (hook_) hook_->on_response(r);
  hal_.send_response(r);
  ended();
}

void CommandTable::fail(const HostCommand& c, uint8_t key, uint8_t asc_code) {
  ++stats_.check_conditions;
  hal_.charge_cycles(cycles_response_);
  CommandResponse r;
  r.tag = c.tag;
  r.lun = c.lun;
  r.status = scsi_status::kCheckCondition;
  r.sense_key = key;
  r.asc = asc_code;
  r.residual = c.expected_length;
  tags_[c.tag].kind = CommandKind::Idle;
  if (hook_) hook_->on_response(r);
  hal_.send_response(r);
  ended();
}

void CommandTable::reject_overlap(const HostCommand& c) {
  CommandResponse r;
  r.tag = c.tag;
  r.lun = c.lun;
  r.status = scsi_status::kCheckCondition;
  r.sense_key = sense_key::kIllegalRequest;
  r.asc = asc::kInvalidFieldInCdb;
  ++stats_.check_conditions;
  hal_.send_response(r);
  ended();
}

void CommandTable::send_control_data(const HostCommand& c, const uint8_t* data, uint32_t len, uint32_t alloc) {
  const uint32_t n = std::min({len, alloc, c.expected_length});
  claim(c.tag, CommandKind::Control, c.lun);
  if (n == 0) { respond(c.tag, c.lun); return; }
  hal_.write_buffer_bytes(control_address(c.tag), data, n);
  hal_.charge_cycles(cycles_transfer_setup_);
  hal_.send_data_in(c.tag, 0, control_address(c.tag), n, kControlToken);
}

}  // namespace ufs
