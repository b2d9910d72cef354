// Every model's parameters for one run, bound from the configuration tree.
#pragma once
#include "bus/interconnect_params.h"
#include "common/log.h"
#include "config/config_tree.h"
#include "cpu/cpu_params.h"
#include "crypto/hpb_crypto_params.h"
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

  // Binds every section; throws ConfigError naming the key on any problem.
  void bind(ConfigTree& tree) {
    tree.bind_section("host", host);
    tree.bind_section("link", link);
    tree.bind_section("hostif", hostif);
    tree.bind_section("bus", bus);
    tree.bind_section("memory", memory);
    tree.bind_section("cpu", cpu);
    tree.bind_section("fcc", fcc);
    tree.bind_section("nand", nand);
    tree.bind_section("firmware", firmware);
    tree.bind_section("crypto", crypto);
    tree.bind_section("hpb", firmware.hpb);
    tree.bind_section("writebooster", firmware.writebooster);
    tree.bind_section("hpb.host", hpb_host);
    tree.bind_section("host_memory", host_memory);
    tree.bind_section("log", log);
    tree.bind_section("fault", fault);
    firmware.data_buffer_kib = memory.data_buffer_kib;
    // fWBBufferFlushDuringHibernate flushes while the link is in Hibern8: the link's auto-hibernate.
    firmware.writebooster.hibernate_idle_us = link.hibernate_idle_us;
    firmware.l2p_sram_kib = memory.l2p_sram_kib;
    std::string hpb_problem = firmware.hpb.validate();
    if (!hpb_problem.empty()) throw ConfigError("hpb." + hpb_problem);
    if (const std::string wb = firmware.writebooster.validate(); !wb.empty()) throw ConfigError("writebooster." + wb);
    if (const std::string m = host_memory.validate(); !m.empty()) throw ConfigError("host_memory." + m);
    hpb_problem = hpb_host.validate();
    if (!hpb_problem.empty()) throw ConfigError("hpb.host." + hpb_problem);
    const std::string problem = firmware.validate();
    if (!problem.empty()) throw ConfigError("firmware." + problem + " (memory.data_buffer_kib = " +
                                            std::to_string(memory.data_buffer_kib) + ")");
  }
};

}  // namespace ufs
