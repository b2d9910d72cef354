// The device's UFS host interface: the UPIU front end between the UniPro link and the
// firmware CPU / data buffer.
//
// Host -> device: COMMAND UPIUs are decoded into the device command queue (bQueueDepth;
// more wait here) and handed to the listener; DATA OUT UPIUs are DMA-written into the
// data buffer at the address the firmware gave with request_data_out, and the listener
// hears data_out_done once every byte of that request is in.
// Device -> host: the firmware asks for READY TO TRANSFER (request_data_out), DATA IN
// (send_data_in: DMA-read from the data buffer, then out on the link) and RESPONSE.
//
// Loosely timed: every call carries its time as an annotated delay, the
// listener's calls carry their (possibly future) time. The UPIUs of one command leave in
// order (a RESPONSE never overtakes its DATA IN). Transfers are cut into UPIUs of
// max_data_segment_bytes; each segment is DMA'd, then sent (store-and-forward per
// segment), and at most max_outstanding_rtt READY TO TRANSFERs are in flight per command.
// DATA IN goes through one DMA engine that serves transfers in the order the firmware
// asked for them, segment by segment, keeping data_in_segments_ahead segments queued on
// the link: the next segment is read and queued when the link starts on the last queued
// one (one wake-up), so RESPONSE and READY TO TRANSFER UPIUs interleave at UPIU granularity
// as on a real device instead of queueing behind whole transfers reserved far ahead in
// simulated time. While the link is not saturated a DATA IN costs no wake-up at all.
//
// DMA convention (data buffer): address = buffer byte address; below kByteRegionBase the
// data pointer is an array of SectorStamp (one per 4 KiB) and the length counts bytes;
// at and above it the data pointer is raw bytes. The DMA's annotated delay is waited for.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>
#include "common/direct_target_socket.h"
#include "common/upiu.h"
#include "common/event_wheel.h"
#include "common/sim_time.h"
#include "host/ring_queue.h"
#include "hostif/host_interface_listener.h"
#include "hostif/host_interface_params.h"

namespace ufs {

class TraceRecorder;

struct HostInterfaceCounters {
  uint64_t commands = 0;           // COMMAND UPIUs received
  uint64_t responses = 0;          // RESPONSE UPIUs sent
  uint64_t check_conditions = 0;   // of which status != GOOD
  uint64_t rtts = 0;               // READY TO TRANSFER UPIUs sent
  uint64_t data_in_upius = 0;      // DATA IN UPIUs sent
  uint64_t data_out_upius = 0;     // DATA OUT UPIUs received
  uint64_t data_in_bytes = 0;
  uint64_t data_out_bytes = 0;
  uint32_t max_active = 0;         // most commands admitted at once
  uint64_t max_waiting = 0;        // most commands waiting for a device queue slot
};

class HostInterface : public sc_core::sc_module {
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);

 public:
  DirectTargetSocket<HostInterface, &HostInterface::b_transport> from_link;  // host -> device UPIUs
  tlm_utils::simple_initiator_socket<HostInterface> to_link;   // device -> host UPIUs
  tlm_utils::simple_initiator_socket<HostInterface> dma;       // on-chip bus -> data buffer

  HostInterface(sc_core::sc_module_name name, const HostInterfaceParams& params = HostInterfaceParams());
  SC_HAS_PROCESS(HostInterface);

  const HostInterfaceParams& params() const { return params_; }
  void set_listener(HostInterfaceListener* listener) { listener_ = listener; }
  // Wake through the platform's event wheel (before the simulation starts).
  void attach(EventWheel* wheel) { engine_wake_.attach(wheel); }
  // Observability (nullptr = off): the device command queue (admitted commands, and
  // commands waiting for a slot) as waves and timeline counters.
  void set_trace(TraceRecorder* trace);

  // Called by the firmware CPU; delay = offset from sim_now() at which it asks.
  // Sends READY TO TRANSFER for `bytes` at `data_offset` of the command's transfer; the
  // data lands at buffer_address; data_out_done(tag, token) follows. Up to 32 per tag at once.
  void request_data_out(uint8_t tag, uint32_t data_offset, uint64_t buffer_address, uint32_t bytes,
                        uint64_t token, const sc_core::sc_time& delay);
  // DMA-reads `bytes` from buffer_address and sends them as DATA IN at data_offset;
  // data_in_done(tag, token) follows when the last of it has left the device (may be called
  // from inside this call). Transfers queue in request order; up to 32 per tag at once.
  void send_data_in(uint8_t tag, uint32_t data_offset, uint64_t buffer_address, uint32_t bytes,
                    uint64_t token, const sc_core::sc_time& delay);
  // RESPONSE UPIU (sense data when status != GOOD or an HPB alert); ends the command.
  void send_response(const CommandResponse& response, const sc_core::sc_time& delay);

  const HostInterfaceCounters& counters() const { return counters_; }
  uint32_t active_commands() const { return active_; }

 private:
  // DATA OUT requests / DATA IN transfers per tag at once (e.g. one per NAND page of a big command).
  static constexpr int kTransfersPerTag = 32;
  struct Transfer {
    uint32_t data_offset = 0;
    uint32_t bytes = 0;
    uint32_t asked = 0;          // bytes covered by RTTs sent so far
    uint32_t received = 0;       // bytes of DATA OUT received
    uint32_t rtt_in_flight = 0;  // RTT UPIUs not yet answered
    uint64_t buffer_address = 0;
    uint64_t token = 0;
    sc_core::sc_time done_at;    // latest DMA completion so far
  };
  static constexpr int kMaxAhead = 8;
  // A DATA IN transfer asked for by the firmware, sent segment by segment.
  struct Stream {
    uint32_t data_offset = 0;
    uint32_t bytes = 0;
    uint32_t sent = 0;                 // bytes handed to the link so far
    uint64_t buffer_address = 0;
    uint64_t token = 0;
    sc_core::sc_time ready;            // when the firmware asked for it (+ UPIU build)
    sc_core::sc_time last_end;         // serialisation end of its last segment so far
  };
  struct StreamRef {
    uint8_t tag = 0;
    uint8_t stream = 0;
  };
  struct TagState {
    bool active = false;
    // Which streams / transfers are in use (bit i: streams[i] / transfers[i]): finding a
    // free slot or asking whether DATA IN is still streaming costs no scan of 32 slots.
    uint32_t stream_mask = 0;
    uint32_t transfer_mask = 0;
    Stream streams[kTransfersPerTag];
    bool response_pending = false;       // the firmware responded while DATA IN was still streaming
    CommandResponse pending_response;
    sc_core::sc_time pending_ready;
    HostCommand command;
    Transfer transfers[kTransfersPerTag];
    sc_core::sc_time last_tx_end;        // end of serialisation of this tag's last UPIU
    std::vector<SectorStamp> stamps;     // DATA IN staging (sector region)
    std::vector<uint8_t> bytes;          // DATA IN staging (byte region)
    Upiu upiu;                           // outgoing UPIU (the link forwards synchronously)
    tlm::tlm_generic_payload link_payload;
    tlm::tlm_generic_payload dma_payload;
  };

  void on_command(const Upiu& upiu, const sc_core::sc_time& at);
  void on_data_out(const Upiu& upiu, const sc_core::sc_time& at);
  void admit(const HostCommand& cmd, const sc_core::sc_time& at);
  void send_rtts(uint8_t tag, Transfer& tr, const sc_core::sc_time& ready);
  // Hands the tag's Upiu to the link no earlier than `ready` nor the tag's previous UPIU's
  // end; returns the absolute end of its serialisation.
  sc_core::sc_time send_upiu(TagState& t, const sc_core::sc_time& ready);
  // One DMA access starting at absolute `start`; returns its absolute completion.
  sc_core::sc_time dma_access(TagState& t, tlm::tlm_command cmd, uint64_t address, void* data,
                              uint32_t bytes, const sc_core::sc_time& start);
  HostInterfaceListener& listener();
  void run_data_in_engine();
  void send_segment(uint8_t tag, Stream& s);
  void finish_stream(uint8_t tag, Stream& s);
  void transmit_response(TagState& t, const CommandResponse& response, const sc_core::sc_time& ready);

  HostInterfaceParams params_;
  HostInterfaceListener* listener_ = nullptr;
  std::unique_ptr<TagState[]> tags_;  // indexed by task tag (0..255)
  uint32_t active_ = 0;
  RingQueue<std::pair<HostCommand, sc_core::sc_time>> waiting_;
  HostInterfaceCounters counters_;
  sc_core::sc_time decode_, build_;
  Upiu nop_in_;
  tlm::tlm_generic_payload nop_payload_;
  // DATA IN engine: transfers in request order, the serialisation ends of its last segments.
  RingQueue<StreamRef> data_in_queue_;
  sc_core::sc_time engine_ends_[kMaxAhead];
  uint64_t engine_segments_ = 0;
  sc_core::sc_time engine_dma_free_;
  TimedWake engine_wake_;
  TraceRecorder* trace_ = nullptr;
  int trace_active_ = -1, trace_waiting_ = -1;
};

}  // namespace ufs
