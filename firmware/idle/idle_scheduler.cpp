#include "idle/idle_scheduler.h"

namespace ufs {

void IdleScheduler::command_started() {
  ++outstanding_;
  for (Entry& e : tasks_) {
    e.idle = false;
    e.task->idle_ended();
  }
  last_activity_ps_ = hal_.now_ps();
}

void IdleScheduler::command_ended() {
  if (outstanding_) --outstanding_;
  last_activity_ps_ = hal_.now_ps();
  if (!delay_ps() || outstanding_ || armed_) return;
  armed_ = true;
  hal_.set_timer(delay_ps(), kTimerCookie);
}

uint64_t IdleScheduler::delay_ps() const {
  uint64_t d = 0;
  for (const Entry& e : tasks_) {
    const uint64_t t = e.task->idle_after_ps();
    if (t && (!d || t < d)) d = t;
  }
  return d;
}

void IdleScheduler::on_timer() {
  armed_ = false;
  if (outstanding_ || paused_) return;  // the next command's end arms it again
  const uint64_t quiet = hal_.now_ps() - last_activity_ps_;
  uint64_t next = 0;  // the nearest threshold not reached yet
  for (const Entry& e : tasks_) {
    const uint64_t t = e.task->idle_after_ps();
    if (t > quiet && (!next || t < next)) next = t;
  }
  if (next) {
    armed_ = true;
    hal_.set_timer(next - quiet, kTimerCookie);
  }
  for (Entry& e : tasks_) {
    const uint64_t t = e.task->idle_after_ps();
    if (t && quiet >= t && !e.idle) {
      e.idle = true;
      e.task->idle_began();
    }
  }
}

}  // namespace ufs
