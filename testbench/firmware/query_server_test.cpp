// The QUERY server alone: routing by identifier, descriptors filled by every feature.
#include <catch2/catch.hpp>
#include "query/query_server.h"

using namespace ufs;
using namespace ufs::ufs_query;

namespace {
struct Feature : QueryHandler {
  uint32_t seen = 0;
  uint8_t field_offset = 0, field_value = 0;
  QueryResponse query(const QueryRequest& q) override {
    ++seen;
    QueryResponse r;
    r.value = q.idn + 1000u;
    return r;
  }
  void describe(uint8_t idn, std::vector<uint8_t>& d) const override {
    if (idn == kDescDevice) d[field_offset] = field_value;
  }
};
}  // namespace

TEST_CASE("QUERY server: flags and attributes go to the feature that registered them, others are INVALID IDN",
          "[firmware][query]") {
  QueryServer s;
  Feature a, b;
  s.add_flag(0x0E, a);
  s.add_attribute(0x0E, b);  // the same identifier in the attribute space is another feature's
  CHECK(s.query({kReadFlag, 0x0E}).value == 1014);
  CHECK(s.query({kSetFlag, 0x0E}).status == kSuccess);
  CHECK(a.seen == 2);
  CHECK(s.query({kReadAttribute, 0x0E}).value == 1014);
  CHECK(s.query({kWriteAttribute, 0x0E, 0, 0, 7}).status == kSuccess);
  CHECK(b.seen == 2);
  CHECK(s.query({kReadFlag, 0x0F}).status == kInvalidIdn);
  CHECK(s.query({kClearFlag, 0x10}).status == kInvalidIdn);
  CHECK(s.query({kReadAttribute, 0x55}).status == kInvalidIdn);
  CHECK(s.query({0x42, 0x0E}).status == kInvalidOpcode);
  CHECK(a.seen + b.seen == 4);
}

TEST_CASE("QUERY server: a descriptor has its length and type, and each feature's fields", "[firmware][query]") {
  QueryServer s;
  QueryResponse d = s.query({kReadDescriptor, kDescDevice});
  REQUIRE(d.status == kSuccess);
  REQUIRE(d.descriptor.size() == 0x59);
  CHECK(d.descriptor[0] == 0x59);
  CHECK(d.descriptor[1] == kDescDevice);
  CHECK(d.descriptor[kDeviceUfsFeatures] == 0);
  Feature a, b;
  a.field_offset = 0x20; a.field_value = 7;
  b.field_offset = 0x30; b.field_value = 9;
  s.add_descriptor_fields(a);
  s.add_descriptor_fields(b);
  d = s.query({kReadDescriptor, kDescDevice});
  CHECK(d.descriptor[0x20] == 7);
  CHECK(d.descriptor[0x30] == 9);
  CHECK(s.query({kReadDescriptor, kDescGeometry}).descriptor.size() == 0x57);
  CHECK(s.query({kReadDescriptor, kDescUnit, 0}).descriptor.size() == 0x2D);
  CHECK(s.query({kReadDescriptor, kDescUnit, 1}).status == kInvalidIdn);  // one logical unit
  CHECK(s.query({kReadDescriptor, 0x33}).status == kInvalidIdn);
}
