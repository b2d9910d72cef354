// Idle time: counts the commands outstanding and, once none has been for a task's threshold,
// tells the task (background GC, a WriteBooster flush); a new command ends every task's
// idle period. One HAL timer, armed for the nearest threshold not reached yet.
#pragma once
#include <cstdint>
#include <vector>
#include "hal/hal.h"

namespace ufs {

class IdleTask {
 public:
  virtual ~IdleTask() = default;
  // Quiet time after which the task runs; 0: not now (it may change, e.g. by a QUERY flag).
  virtual uint64_t idle_after_ps() const = 0;
  virtual void idle_began() = 0;
  virtual void idle_ended() = 0;  // a command arrived
};

// An idle task that writes (background GC, the WriteBooster flush): held while another part
// owns the FTL (preconditioning, the power-loss recovery scan), stopped once the device is
// read-only.
class BackgroundWriter : public IdleTask {
 public:
  virtual void hold(bool on) = 0;
  virtual void stop() = 0;
};

class IdleScheduler {
 public:
  static constexpr uint64_t kTimerCookie = 1;  // the HAL timer's cookie
  explicit IdleScheduler(Hal& hal) : hal_(hal) {}

  // Tasks are told in the order they were added.
  void add(IdleTask& task) { tasks_.push_back(Entry{&task, false}); }
  void command_started();
  void command_ended();
  void on_timer();
  // While paused (power-loss recovery) the timer does not start tasks; the next command's
  // end arms it again.
  void pause(bool on) { paused_ = on; }
  uint32_t outstanding() const { return outstanding_; }

 private:
  struct Entry {
    IdleTask* task;
    bool idle;
  };
  uint64_t delay_ps() const;  // the shortest threshold set (0: none)
  Hal& hal_;
  std::vector<Entry> tasks_;
  uint32_t outstanding_ = 0;
  uint64_t last_activity_ps_ = 0;
  bool armed_ = false;
  bool paused_ = false;
};

}  // namespace ufs
