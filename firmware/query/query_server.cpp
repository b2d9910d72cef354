#include "query/query_server.h"

namespace ufs {

QueryResponse QueryServer::query(const QueryRequest& q) {
  using namespace ufs_query;
  QueryResponse out;
  QueryHandler* h = nullptr;
  switch (q.opcode) {
    case kReadDescriptor: return read_descriptor(q);
    case kReadFlag:
    case kSetFlag:
    case kClearFlag: h = flags_[q.idn]; break;
    case kReadAttribute:
    case kWriteAttribute: h = attributes_[q.idn]; break;
    default: out.status = kInvalidOpcode; return out;
  }
  if (!h) { out.status = kInvalidIdn; return out; }
  return h->query(q);
}

// The descriptors' lengths as this device reports them; one logical unit.
QueryResponse QueryServer::read_descriptor(const QueryRequest& q) const {
  using namespace ufs_query;
  QueryResponse out;
  uint8_t length = 0;
  switch (q.idn) {
    case kDescDevice: length = 0x59; break;
    case kDescGeometry: length = 0x57; break;
    case kDescUnit: length = q.index == 0 ? 0x2D : 0; break;
    default: break;
  }
  if (!length) { out.status = kInvalidIdn; return out; }
  out.descriptor.assign(length, 0);
  out.descriptor[0] = length;
  out.descriptor[1] = q.idn;
  for (const QueryHandler* h : describers_) h->describe(q.idn, out.descriptor);
  return out;
}

}  // namespace ufs
