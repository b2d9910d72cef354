#include "hpb/hpb_device.h"
#include "scsi/scsi_command.h"

namespace ufs {

HpbDevice::HpbDevice(Hal& hal, HpbFtl& ftl, const HpbDeviceParams& params)
    : hal_(hal), ftl_(ftl), params_(params), enabled_(params.enabled),
      regions_(hal, params_, ftl.hpb_logical_blocks()),
      freshness_(hal, params_, regions_),
      reads_(hal, ftl, params_, regions_, freshness_),
      server_(hal, ftl, params_, regions_) {
  regions_.set_changes(&freshness_);
}

void HpbDevice::on_power_up() {
  regions_.power_up();
  freshness_.power_up();
}

void HpbDevice::fail(const HostCommand& c, uint8_t asc_code) {
  ++check_conditions_;
  ftl_.hpb_fail(c, sense_key::kIllegalRequest, asc_code);
}

void HpbDevice::on_command(const HostCommand& c) {
  if (!enabled_) { fail(c, asc::kInvalidOpcode); return; }  // fHPBEn cleared: no HPB commands
  uint8_t asc_code = 0;
  switch (c.cdb[0]) {
    case hpb_op::kHpbRead:
      asc_code = reads_.start(c);
      break;
    case hpb_op::kReadBuffer:
      asc_code = server_.start(c);
      if (!asc_code) freshness_.set_publish_lun(c.lun);  // the LU whose entries the host fetches
      break;
    default:
      start_write_buffer(c);
      return;
  }
  if (asc_code) fail(c, asc_code);
}

// Each result goes back to the part whose job it was.
void HpbDevice::on_crypto_done(const HpbCryptoResult& r) {
  if (r.cookie & hpb_cookie::kUpdate) freshness_.update_signed(r);
  else if (r.cookie & hpb_cookie::kVerify) reads_.verify_done(r);
  else if (r.cookie & hpb_cookie::kSign) server_.sign_done(r);
}

void HpbDevice::start_write_buffer(const HostCommand& c) {
  hal_.charge_cycles(params_.cycles_hpb_read);
  const uint8_t* cdb = c.cdb.data();
  switch (cdb[1]) {
    case hpb_op::kWriteBufferInactivate: {
      const uint32_t region = get_be16(cdb + 2);
      if (region >= regions_.regions()) { fail(c, asc::kInvalidFieldInCdb); return; }
      ++write_buffer_inactivate_;
      regions_.inactivate(region);
      ftl_.hpb_respond(c.tag, c.lun);
      return;
    }
    case hpb_op::kWriteBufferInactivateAll:
      if (params_.hpb_1_0()) { fail(c, asc::kInvalidFieldInCdb); return; }
      ++write_buffer_inactivate_all_;
      regions_.inactivate_all(false);
      ftl_.hpb_respond(c.tag, c.lun);
      return;
    case hpb_op::kWriteBufferPrefetch:
      if (params_.hpb_1_0()) { fail(c, asc::kInvalidFieldInCdb); return; }
      if (const uint8_t asc_code = reads_.start_prefetch(c)) fail(c, asc_code);
      return;
    default:
      fail(c, asc::kInvalidFieldInCdb);
      return;
  }
}

void HpbDevice::on_response(CommandResponse& r) {
  reads_.end(r.tag);
  server_.end(r.tag);
  if (r.status != scsi_status::kGood) return;
  freshness_.add_updates(r);
  regions_.add_recommendations(r);
}

HpbStats HpbDevice::stats() const {
  HpbStats s;
  static_cast<HpbReadStats&>(s) = reads_.stats();
  static_cast<HpbServerStats&>(s) = server_.stats();
  static_cast<HpbRegionStats&>(s) = regions_.stats();
  static_cast<HpbFreshnessStats&>(s) = freshness_.stats();
  s.check_conditions = check_conditions_;
  s.write_buffer_inactivate = write_buffer_inactivate_;
  s.write_buffer_inactivate_all = write_buffer_inactivate_all_;
  s.resets = resets_;
  s.queries = queries_;
  s.entries_signed = server_.stats().entries_signed + freshness_.stats().entries_signed;
  return s;
}

void HpbDevice::visit_stats(StatsVisitor& v) const {
  const HpbStats h = stats();
  v.count("hpb.version", params_.version, "", "wHPBVersion");
  v.text("hpb.control_mode", params_.control_mode, "bHPBControl: device or host control mode");
  v.count("hpb.device.hpb_reads", h.hpb_reads, "commands", "HPB READ commands accepted");
  v.count("hpb.device.hpb_read_blocks", h.hpb_read_blocks, "blocks", "blocks HPB READs asked for");
  v.count("hpb.device.verified", h.verified, "entries", "entries the crypto engine accepted and the read used");
  v.count("hpb.device.rejected_forged", h.rejected_forged, "commands", "entries not issued for this LBA and generation");
  v.count("hpb.device.rejected_dirty", h.rejected_dirty, "commands", "sub-region changed since published");
  v.count("hpb.device.rejected_no_ppn", h.rejected_no_ppn, "commands", "authentic entry of an LBA with no NAND copy");
  v.count("hpb.device.rejected_not_contiguous", h.rejected_not_contiguous, "commands", "run not physically contiguous");
  v.count("hpb.device.rejected_stale_in_flight", h.rejected_stale_in_flight, "commands", "map changed between verify and read");
  v.count("hpb.device.fallbacks", h.fallbacks, "commands", "HPB READs served by the normal lookup");
  v.count("hpb.device.check_conditions", h.check_conditions, "commands", "malformed HPB CDBs or parameters");
  v.count("hpb.device.read_buffers", h.read_buffers, "commands", "READ BUFFER (map) commands served");
  v.count("hpb.device.entries_signed", h.entries_signed, "entries", "entries signed for the host");
  v.count("hpb.device.read_buffer_map_loads", h.read_buffer_map_loads, "pages", "map pages READ BUFFER loaded from NAND");
  v.count("hpb.device.write_buffer_inactivate", h.write_buffer_inactivate, "commands", "WRITE BUFFER 0x01");
  v.count("hpb.device.write_buffer_prefetch", h.write_buffer_prefetch, "commands", "WRITE BUFFER 0x02");
  v.count("hpb.device.write_buffer_inactivate_all", h.write_buffer_inactivate_all, "commands", "WRITE BUFFER 0x03");
  v.count("hpb.device.dirty_marks", h.dirty_marks, "sub-regions", "clean published sub-regions made dirty");
  v.count("hpb.device.activate_recommendations", h.activate_recommendations, "", "activations recommended in responses");
  v.count("hpb.device.inactivate_recommendations", h.inactivate_recommendations, "", "inactivations recommended");
  v.count("hpb.device.responses_with_hpb_sense", h.responses_with_hpb_sense, "responses", "responses carrying HPB sense data");
  v.count("hpb.device.active_regions", regions_.active_regions(), "regions", "regions the host holds (device's view)");
  if (!params_.response_entries) return;
  v.count("hpb.device.delta_changes", h.delta_changes, "entries", "map changes tracked entry by entry");
  v.count("hpb.device.delta_overflows", h.delta_overflows, "entries", "changes that dirtied the sub-region: tracking full");
  v.count("hpb.device.delta_peak", h.delta_peak, "entries", "most changed entries tracked at once");
  v.count("hpb.device.response_entries_sent", h.response_entries_sent, "entries", "updated entries sent in responses");
  v.count("hpb.device.rejected_updated", h.rejected_updated, "commands", "entries older than a tracked change");
}

// ---------------------------------------------------------------- QUERY

void HpbDevice::register_queries(QueryServer& server) {
  using namespace ufs_query;
  server.add_flag(kFlagHpbEnable, *this);
  server.add_flag(kFlagHpbReset, *this);
  server.add_attribute(kAttrMaxHpbSingleCmd, *this);
  server.add_descriptor_fields(*this);
}

void HpbDevice::describe(uint8_t idn, std::vector<uint8_t>& d) const {
  using namespace ufs_query;
  if (idn == kDescDevice) {
    d[kDeviceUfsFeatures] |= kFeatureHpb;
    put_be16(&d[kDeviceHpbVersion], params_.version);
    d[kDeviceHpbControl] = params_.host_control() ? 0x00 : 0x01;
  } else if (idn == kDescGeometry) {
    d[kGeometryRegionSize] = uint8_t(params_.region_size_exp);
    d[kGeometryNumberLu] = 1;
    d[kGeometrySubregionSize] = uint8_t(params_.subregion_size_exp);
    put_be16(&d[kGeometryMaxActiveRegions], params_.max_active_regions);
  } else if (idn == kDescUnit) {
    d[kUnitLuEnable] = 0x02;  // enabled for HPB
    put_be16(&d[kUnitMaxActiveRegions], params_.max_active_regions);
    put_be16(&d[kUnitPinnedStart], params_.pinned_start_region);
    put_be16(&d[kUnitPinnedCount], params_.pinned_regions);
  }
}

QueryResponse HpbDevice::query(const QueryRequest& q) {
  ++queries_;
  QueryResponse out;
  using namespace ufs_query;
  switch (q.opcode) {
    case kReadAttribute:  // bMAX_DATA_SIZE_FOR_HPB_SINGLE_CMD
      out.value = params_.max_read_blocks();
      return out;
    case kWriteAttribute:
      out.status = kReadOnly;
      return out;
    case kReadFlag:
      out.value = q.idn == kFlagHpbEnable ? enabled_ : 0;  // fHPBReset: the reset completes at once
      return out;
    default: {  // set or clear
      const bool set = q.opcode == kSetFlag;
      if (q.idn == kFlagHpbEnable) {
        enabled_ = set;
        if (!set) regions_.inactivate_all(true);
      } else if (set) {  // fHPBReset: every region inactive, every entry dead; the host is told to reset
        ++resets_;
        regions_.reset();
      }
      return out;
    }
  }
}

}  // namespace ufs
