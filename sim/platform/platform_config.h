// Every model's parameters for one run, bound from the configuration tree.
#pragma once
#include "bus/interconnect_params.h"
#include "common/log.h"
#include "config/config_tree.h"
#include "cpu/cpu_params.h"
#include "crypto/hpb_crypto_params.h"
#include "fcc/flash_controller.h"
#include "fcc/flash_controller_params.h"
#include "firmware_params.h"
#include "host/host_memory_model.h"
#include "host/host_params.h"
#include "host/hpb_host_params.h"
#include "hostif/host_interface_params.h"
#include "link/link_params.h"
#include "memory/memory_params.h"
#include "nand/nand_params.h"
#include "platform/fault_params.h"
#include "power/energy_model.h"

namespace ufs {

struct PlatformConfig {
  HostParams host;
  LinkParams link;
  HostInterfaceParams hostif;
  InterconnectParams bus;
  MemoryParams memory;
  CpuParams cpu;
  FlashControllerParams fcc;
  NandParams nand;
  FirmwareParams firmware;
  HpbCryptoParams crypto;
  HpbHostParams hpb_host;  // "hpb.host"; the device's HPB parameters are firmware.hpb ("hpb")
  HostMemoryParams host_memory;  // the phone's memory and apps (off unless host_memory.enabled)
  LogParams log;
  FaultParams fault;
  EnergyParams energy;  // "<block>.energy" and "power" sections (tlm/power/energy_params.h)

  // Binds every section; throws ConfigError naming the key on any problem. Everything that
  // can be checked is checked here, before elaboration builds the platform.
  void bind(ConfigTree& tree) {
    tree.bind_section("host", host);
    tree.bind_section("link", link);
    tree.bind_section("hostif", hostif);
    tree.bind_section("bus", bus);
    tree.bind_section("memory", memory);
    tree.bind_section("cpu", cpu);
    tree.bind_section("fcc", fcc);
    tree.bind_section("nand", nand);
    // Hardware sizes the firmware needs for its own checks: set before it is validated.
    firmware.data_buffer_kib = memory.data_buffer_kib;
    firmware.l2p_sram_kib = memory.l2p_sram_kib;
    tree.bind_section("firmware", firmware);
    tree.bind_section("crypto", crypto);
    tree.bind_section("hpb", firmware.hpb);
    tree.bind_section("writebooster", firmware.writebooster);
    tree.bind_section("hpb.host", hpb_host);
    tree.bind_section("host_memory", host_memory);
    tree.bind_section("log", log);
    tree.bind_section("fault", fault);
    tree.bind_section("nand.energy", energy.nand);
    tree.bind_section("fcc.energy", energy.channel);
    tree.bind_section("link.energy", energy.link);
    tree.bind_section("cpu.energy", energy.cpu);
    tree.bind_section("memory.energy", energy.sram);
    tree.bind_section("crypto.energy", energy.crypto);
    tree.bind_section("power", energy.power);
    // fWBBufferFlushDuringHibernate flushes while the link is in Hibern8: the link's auto-hibernate.
    firmware.writebooster.hibernate_idle_us = link.hibernate_idle_us;
    check_platform();
  }

  // Simulator memory a configuration needs before any data is written (NAND pages are
  // allocated as they are programmed): per-block state in the NAND model and the FTL, the
  // map directory, per-die queues, the SRAMs. Coefficients measured on this build (ufs-sim
  // peak RSS over blocks_per_plane, pages_per_block and die count; see README, "Bad input").
  static constexpr uint64_t kMaxFootprintBytes = 4ull << 30;
  uint64_t footprint_bytes(const FlashGeometry& g) const {
    const uint64_t map_pages = g.total_sectors() / 4096 + 1;
    return (16ull << 20) + g.total_blocks() * 96 + map_pages * 64 + uint64_t(g.dies()) * 4096 +
           uint64_t(memory.data_buffer_kib) * 1024 * 2 + uint64_t(memory.l2p_sram_kib) * 1024;
  }

 private:
  void check_platform() const {
    std::string problem;
    const FlashGeometry g = FlashController::geometry_for(fcc, nand, &problem);
    if (!problem.empty()) throw ConfigError(problem);
    const uint64_t bytes = footprint_bytes(g);
    if (bytes > kMaxFootprintBytes) {
      auto mib = [](uint64_t b) { return std::to_string(b >> 20) + " MiB"; };
      throw ConfigError("the flash organisation needs about " + mib(bytes) + " of simulator memory, more than " +
                        mib(kMaxFootprintBytes) + ": " + std::to_string(g.total_blocks()) + " blocks = fcc.channels " +
                        std::to_string(fcc.channels) + " x fcc.ways_per_channel " + std::to_string(fcc.ways_per_channel) +
                        " x nand.dies_per_package " + std::to_string(nand.dies_per_package) + " x nand.planes_per_die " +
                        std::to_string(nand.planes_per_die) + " x nand.blocks_per_plane " +
                        std::to_string(nand.blocks_per_plane) + "; lower one of them");
    }
    if (std::string m = firmware.validate_for(g); !m.empty()) {
      // A unit that fits the native block but not the SLC one: the user's nand.slc_mode is the cause.
      if (nand.slc_mode) {
        NandParams native = nand;
        native.slc_mode = false;
        std::string ignored;
        if (firmware.validate_for(FlashController::geometry_for(fcc, native, &ignored)).empty())
          throw ConfigError("nand.slc_mode: SLC blocks have " + std::to_string(g.pages_per_block) + " pages (" +
                            std::to_string(nand.pages_per_block) + " / " + std::to_string(nand.bits_per_cell()) +
                            "), and then firmware." + m);
      }
      throw ConfigError("firmware." + m);
    }
    if (const std::string m = firmware.writebooster.validate_for(g, firmware.write_unit_sectors(g) / g.sectors_per_page());
        !m.empty())
      throw ConfigError("writebooster." + m);
  }
};

}  // namespace ufs
