// The per-tag command table: which command each task tag holds (read, write, control
// data, UNMAP, SYNCHRONIZE CACHE) and the way every command ends: a GOOD response, a
// CHECK CONDITION with sense data, or control data sent by DATA IN and then GOOD. Every
// response passes the response hook first (HPB adds its recommendations and updated
// entries); the end listener hears each command end (idle-time scheduling).
#pragma once
#include <cstdint>
#include <vector>
#include "ftl/latency_split.h"
#include "hal/hal.h"
#include "stats_visitor.h"

namespace ufs {

enum class CommandKind : uint8_t { Idle, Read, Write, Control, Unmap, Sync };

class ResponseHook {
 public:
  virtual ~ResponseHook() = default;
  virtual void on_response(CommandResponse& r) = 0;
};

class CommandEndListener {
 public:
  virtual ~CommandEndListener() = default;
  virtual void command_ended() = 0;
};

struct CommandStats {
  uint64_t commands = 0;
  uint64_t check_conditions = 0;
};

class CommandTable {
 public:
  static constexpr uint32_t kTags = 256;
  CommandTable(Hal& hal, uint32_t cycles_response, uint32_t cycles_transfer_setup, LatencySplit& latency)
      : hal_(hal), cycles_response_(cycles_response), cycles_transfer_setup_(cycles_transfer_setup),
        latency_(latency), tags_(kTags) {}
  void set_response_hook(ResponseHook* hook) { hook_ = hook; }
  void set_end_listener(CommandEndListener* listener) { end_ = listener; }

  CommandKind kind(uint8_t tag) const { return tags_[tag].kind; }
  uint8_t lun(uint8_t tag) const { return tags_[tag].lun; }
  bool all_idle() const;
  void claim(uint8_t tag, CommandKind kind, uint8_t lun) { tags_[tag] = Tag{kind, lun}; }
  void count_command() { ++stats_.commands; }

  // GOOD; the tag is free again.
  void respond(uint8_t tag, uint8_t lun);
  // CHECK CONDITION with sense key and additional sense code; the tag is free again.
  void fail(const HostCommand& c, uint8_t key, uint8_t asc_code);
  // A command on a tag still in use: the host broke the protocol. CHECK CONDITION for the
  // new command; the tag's command goes on.
  void reject_overlap(const HostCommand& c);
  // Control data by DATA IN (at most what the command and the host allow), then GOOD.
  void send_control_data(const HostCommand& c, const uint8_t* data, uint32_t len, uint32_t alloc);
  void control_data_sent(uint8_t tag) { respond(tag, tags_[tag].lun); }

  const CommandStats& stats() const { return stats_; }
  void visit_stats(StatsVisitor& v) const {
    v.count("ftl.check_conditions", stats_.check_conditions, "commands", "commands answered CHECK CONDITION");
  }

 private:
  struct Tag {
    CommandKind kind = CommandKind::Idle;
    uint8_t lun = 0;
  };
  void ended() { if (end_) end_->command_ended(); }
  Hal& hal_;
  uint32_t cycles_response_, cycles_transfer_setup_;
  LatencySplit& latency_;
  std::vector<Tag> tags_;
  ResponseHook* hook_ = nullptr;
  CommandEndListener* end_ = nullptr;
  CommandStats stats_;
};

}  // namespace ufs
