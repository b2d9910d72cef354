#include "platform/ufs_platform.h"

namespace ufs {

namespace {
// The host driver's HPB probe (Linux ufshpb_get_dev_info / ufshpb_get_lu_info): the HPB
// fields of the device, geometry and unit descriptors and the HPB attribute, as QUERY
// returns them, read once at start.
HpbDeviceInfo probe_hpb(DeviceFirmware& device, uint64_t logical_blocks) {
  using namespace ufs_query;
  HpbDeviceInfo info;
  const QueryResponse dev = device.query({kReadDescriptor, kDescDevice});
  const QueryResponse geo = device.query({kReadDescriptor, kDescGeometry});
  const QueryResponse unit = device.query({kReadDescriptor, kDescUnit, 0});
  info.supported = (dev.descriptor.at(kDeviceUfsFeatures) & kFeatureHpb) != 0;
  info.version = get_be16(&dev.descriptor.at(kDeviceHpbVersion));
  info.host_control = dev.descriptor.at(kDeviceHpbControl) == 0x00;
  info.region_blocks = (512ull << geo.descriptor.at(kGeometryRegionSize)) / 4096;
  info.subregion_blocks = (512ull << geo.descriptor.at(kGeometrySubregionSize)) / 4096;
  info.max_active_regions = get_be16(&unit.descriptor.at(kUnitMaxActiveRegions));
  info.pinned_start = get_be16(&unit.descriptor.at(kUnitPinnedStart));
  info.pinned_count = get_be16(&unit.descriptor.at(kUnitPinnedCount));
  info.max_read_blocks = info.version == 0x100 ? 1 : device.query({kReadAttribute, kAttrMaxHpbSingleCmd}).value;
  info.logical_blocks = logical_blocks;
  return info;
}

constexpr unsigned kDataBufferPort = 0;
constexpr unsigned kL2pSramPort = 1;
constexpr unsigned kCryptoPort = 2;
}  // namespace

UfsPlatform::UfsPlatform(sc_core::sc_module_name name, const PlatformConfig& config)
    : sc_core::sc_module(name),
      wheel("wheel"),
      host("host", config.host),
      link("link", config.link),
      hostif("hostif", config.hostif),
      bus("bus", config.bus),
      data_buffer("data_buffer", uint64_t(config.memory.data_buffer_kib) * 1024, 256 * 4096, config.memory.sram),
      l2p_sram("l2p_sram", uint64_t(config.memory.l2p_sram_kib) * 1024, config.memory.sram),
      cpu("cpu", config.cpu),
      fcc("fcc", config.fcc, config.nand),
      crypto("crypto", config.crypto),
      config_(config) {
  config_.log.apply();
  // UPIUs: host <-> link <-> host interface
  host.to_link.bind(link.host_in);
  link.device_out.bind(hostif.from_link);
  hostif.to_link.bind(link.device_in);
  link.host_out.bind(host.from_link);
  // Initiators on the interconnect (binding order = port ids on targ)
  cpu.bus.bind(bus.targ);
  hostif.dma.bind(bus.targ);
  fcc.dma.bind(bus.targ);
  // Targets on the interconnect
  bus.init.bind(data_buffer.socket);
  bus.init.bind(l2p_sram.socket);
  bus.init.bind(crypto.regs);
  bus.map(0, data_buffer.sector_bytes(), kDataBufferPort);
  bus.map(kByteRegionBase, data_buffer.byte_region_bytes(), kDataBufferPort);
  bus.map(kL2pSramBase, l2p_sram.size_bytes(), kL2pSramPort, true);
  bus.map(FirmwareCpu::kCryptoBase, hpb_crypto_reg::kSize, kCryptoPort, true);

  // PlatformConfig::bind checked the flash-dependent parameters before elaboration; a
  // configuration built by hand (tests) is checked here.
  if (const std::string problem = config_.firmware.validate_for(fcc.geometry()); !problem.empty())
    throw ConfigError("firmware." + problem);
  if (const std::string problem = config_.firmware.writebooster.validate_for(
          fcc.geometry(), config_.firmware.write_unit_sectors(fcc.geometry()) / fcc.geometry().sectors_per_page());
      !problem.empty())
    throw ConfigError("writebooster." + problem);
  firmware_ = std::make_unique<DeviceFirmware>(cpu, config_.firmware, fcc.geometry());
  check_firmware_ram();
  if (config_.cpu.model == "iss") {
#ifdef UFS_HAVE_ISS
    IssOptions o;
    o.elf = config_.cpu.elf.empty() ? UFS_FIRMWARE_ELF : config_.cpu.elf;
    o.heap_mib = config_.cpu.iss_heap_mib;
    o.native_cost = config_.cpu.iss_cost == "native";
    o.cpi = config_.cpu.cpi;
    o.mailbox_wait_cycles = config_.cpu.mailbox_wait_cycles;
    o.sram_wait_cycles = config_.cpu.sram_wait_cycles;
    o.fast_loops = config_.cpu.iss_fast_loops;
    o.gdb_port = uint16_t(config_.cpu.gdb_port);
    try {
      iss_ = std::make_unique<IssFirmware>(cpu, config_.firmware, fcc.geometry(), o);
    } catch (const std::runtime_error& e) {
      throw ConfigError(e.what());
    }
    if (config_.host_memory.enabled)
      throw ConfigError("cpu.model: iss does not serve host_memory.enabled yet (its map-wait probe reads native state)");
    cpu.attach(iss_.get(), &hostif, &fcc, &crypto);
#else
    throw ConfigError("cpu.model: iss is not in this build (it needs arm-none-eabi-g++ and libunicorn-dev, "
                      "opt-in: make deps-iss, then build again)");
#endif
  } else {
    cpu.attach(firmware_.get(), &hostif, &fcc, &crypto);
  }
  crypto.set_listener(&cpu);
  if (firmware_->hpb()) {
    hpb_host_ = std::make_unique<HpbHostCache>(config_.hpb_host, probe_hpb(*firmware_, firmware_->logical_blocks()));
    host.set_hpb(hpb_host_.get());
  }
  hostif.set_listener(&cpu);
  fcc.set_listener(&cpu);
  host.attach(&wheel);
  hostif.attach(&wheel);
  cpu.attach(&wheel);
  fcc.attach(&wheel);
  crypto.attach(&wheel);
}

// The firmware's tables are sized for the whole device at start (core/firmware_ram.h): a
// controller whose SRAM cannot hold them cannot run this firmware.
void UfsPlatform::check_firmware_ram() const {
  const FirmwareRam ram = firmware_->ram();
  const uint64_t sram = uint64_t(config_.memory.firmware_sram_kib) * 1024;
  if (ram.tables_bytes() <= sram) return;
  throw ConfigError("memory.firmware_sram_kib: " + std::to_string(config_.memory.firmware_sram_kib) +
                    " KiB of SRAM cannot hold the firmware's tables: they need " +
                    std::to_string((ram.tables_bytes() + 1023) / 1024) + " KiB (" + ram.describe() + ")");
}

void UfsPlatform::enable_trace(const TraceRecorderOptions& options, std::vector<std::string> stream_names) {
  trace_ = std::make_unique<TraceRecorder>(options);
  TraceRecorder* t = trace_.get();
  host.set_trace(t, std::move(stream_names));
  link.set_trace(t);
  hostif.set_trace(t);
  fcc.set_trace(t);
  // Firmware statistics sampled after every firmware step: L2P map cache hits and misses,
  // map page loads, reads served from the write cache. Each changes a counter at the step's end.
  struct Sampled {
    int signal;
    const uint64_t* value;
    uint64_t last;
  };
  const std::string scope = std::string(name()) + ".firmware";
  std::vector<Sampled> sampled;
  auto add = [&](const char* signal, const uint64_t& field) {
    const int id = t->integer(scope, signal, "device");
    if (id >= 0) sampled.push_back(Sampled{id, &field, field});
  };
  const MapStore& map = firmware_->ftl().map_store();
  add("l2p_hits", map.counter(0));
  add("l2p_misses", map.counter(1));
  add("l2p_update_misses", map.counter(2));
  add("map_loads", map.counter(3));
  add("write_cache_hits", firmware_->reads().cache_hits());
  // On the core: which part of the firmware ran when, on a track of its own.
  IssRegionTrace* regions = nullptr;
#ifdef UFS_HAVE_ISS
  if (iss_ && t->timeline_on()) {
    iss_regions_ = std::make_unique<IssRegionTrace>(*iss_, cpu, 1e6 / config_.cpu.clock_mhz, *t,
                                                    t->track("device", "firmware code"));
    regions = iss_regions_.get();
  }
#endif
  cpu.set_trace(t, [t, sampled, regions](uint64_t at) mutable {
#ifdef UFS_HAVE_ISS  // (IssRegionTrace is compiled with the ISS only)
    if (regions) regions->step_end(at);
#endif
    for (Sampled& s : sampled)
      if (*s.value != s.last) {
        t->change(s.signal, at, int64_t(*s.value - s.last));
        s.last = *s.value;
      }
  });
}

std::vector<std::string> UfsPlatform::finish_trace() {
  if (!trace_) return {};
  // What is still in flight gets its slice too, up to now (commands) or its booked end (NAND).
  host.trace_in_flight();
  fcc.trace_in_flight();
  std::vector<std::string> problems = trace_->finish();
  if (trace_->late_changes())
    problems.push_back("waves: " + std::to_string(trace_->late_changes()) +
                       " value changes were recorded after their time had been written (moved later)");
  return problems;
}

// Without the opt-in ISS toolchain iss_ stays null and IssFirmware is not compiled, so
// its calls must not be either (a build with no Unicorn would not link).
void UfsPlatform::visit_firmware_stats(StatsVisitor& v) const {
#ifdef UFS_HAVE_ISS
  if (iss_) return iss_->visit_stats(v);
#endif
  firmware_->visit_stats(v);
}

void UfsPlatform::precondition_firmware(uint64_t first_lba, uint64_t blocks) {
#ifdef UFS_HAVE_ISS
  if (iss_) return iss_->precondition(first_lba, blocks, *this);
#endif
  firmware_->precondition(first_lba, blocks, *this);
}

void UfsPlatform::preload_pages(const FlashAddress& address, uint32_t count, const SectorStamp* stamps,
                                const PageOob* oobs, const uint32_t* words, uint32_t words_per_page) {
  const FlashStatus s =
      fcc.nand_die(address.die).program(address, count, stamps, oobs, count, false, words, words_per_page);
  if (s != FlashStatus::Ok) SC_REPORT_ERROR(name(), "precondition: the NAND refused a preload program");
}

}  // namespace ufs
