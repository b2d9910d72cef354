// The whole system of ARCHITECTURE.md, elaborated from one PlatformConfig:
// host driver -- UniPro link -- host interface, firmware CPU, interconnect,
// data buffer, L2P SRAM, flash demux with its NAND dies, and the firmware.
#pragma once
#include <memory>
#include <string>
#include <vector>
#include <systemc>
#include "bus/interconnect.h"
#include "common/trace_recorder.h"
#include "cpu/firmware_cpu.h"
#include "cpu/iss_firmware.h"
#include "cpu/iss_region_trace.h"
#include "crypto/hpb_crypto_engine.h"
#include "device_firmware.h"
#include "fcc/flash_controller.h"
#include "host/host_driver.h"
#include "hostif/host_interface.h"
#include "link/unipro_link.h"
#include "memory/data_buffer.h"
#include "memory/l2p_sram.h"
#include "platform/platform_config.h"

namespace ufs {

class UfsPlatform : public sc_core::sc_module, public FlashBackdoor {
 public:
  UfsPlatform(sc_core::sc_module_name name, const PlatformConfig& config);

  // Every model's wake-ups go through one event wheel (common/event_wheel.h); the ufs-sim
  // program lets it run ahead of the kernel (wheel.set_run_ahead(true)).
  EventWheel wheel;
  HostDriver host;
  UniproLink link;
  HostInterface hostif;
  Interconnect bus;
  DataBuffer data_buffer;
  L2pSram l2p_sram;
  FirmwareCpu cpu;
  FlashController fcc;
  HpbCryptoEngine crypto;

  // The native firmware. With cpu.model=iss it only answers the start-up QUERY probe (its
  // descriptors come from the parameters alone); events, statistics and preconditioning go
  // to the firmware on the core: use the calls below, which pick the running one.
  DeviceFirmware& firmware() { return *firmware_; }
  bool on_iss() const { return iss_ != nullptr; }
  const IssFirmware* iss() const { return iss_.get(); }
  void visit_firmware_stats(StatsVisitor& v) const;
  void precondition_firmware(uint64_t first_lba, uint64_t blocks);
  HpbHostCache* hpb_host() { return hpb_host_.get(); }  // null when HPB is off
  const PlatformConfig& config() const { return config_; }
  FlashGeometry geometry() const { return fcc.geometry(); }

  // Observability: waves and/or a timeline of this run (common/trace_recorder.h), owned by
  // the platform. Call before sc_start; throws std::runtime_error when a file cannot be
  // opened. stream_names name the host streams' timeline groups.
  void enable_trace(const TraceRecorderOptions& options, std::vector<std::string> stream_names = {});
  TraceRecorder* trace() { return trace_.get(); }
  // Writes what is left and closes the files; returns the problems met (empty: all well).
  std::vector<std::string> finish_trace();

  // FlashBackdoor: zero-time page fill used by DeviceFirmware::precondition.
  void preload_pages(const FlashAddress& address, uint32_t count, const SectorStamp* stamps,
                     const PageOob* oobs, const uint32_t* words, uint32_t words_per_page) override;

 private:
  PlatformConfig config_;
  void check_firmware_ram() const;
  std::unique_ptr<DeviceFirmware> firmware_;
  std::unique_ptr<IssFirmware> iss_;
  std::unique_ptr<IssRegionTrace> iss_regions_;  // cpu.model=iss with a timeline (after iss_: goes first)
  std::unique_ptr<HpbHostCache> hpb_host_;
  std::unique_ptr<TraceRecorder> trace_;
};

}  // namespace ufs
