// The device's QUERY REQUEST server (JESD220E §14): flags, attributes and descriptors.
// Features register what they own: a flag or attribute identifier goes to the one
// handler that registered it; a descriptor is laid out here (length, type) and each
// registered feature fills its own fields. Unknown identifiers get INVALID IDN, unknown
// opcodes INVALID OPCODE, as a device answers them.
#pragma once
#include <array>
#include <cstdint>
#include <vector>
#include "protocol/ufs_protocol.h"

namespace ufs {

class QueryHandler {
 public:
  virtual ~QueryHandler() = default;
  // A read, set or clear of a flag, or a read or write of an attribute, this handler registered.
  virtual QueryResponse query(const QueryRequest& q) = 0;
  // Fills this feature's fields of descriptor `idn` (sized and headed by the server).
  virtual void describe(uint8_t /*idn*/, std::vector<uint8_t>& /*descriptor*/) const {}
};

class QueryServer {
 public:
  QueryServer() { flags_.fill(nullptr); attributes_.fill(nullptr); }
  void add_flag(uint8_t idn, QueryHandler& h) { flags_[idn] = &h; }
  void add_attribute(uint8_t idn, QueryHandler& h) { attributes_[idn] = &h; }
  void add_descriptor_fields(QueryHandler& h) { describers_.push_back(&h); }

  QueryResponse query(const QueryRequest& q);

 private:
  QueryResponse read_descriptor(const QueryRequest& q) const;
  std::array<QueryHandler*, 256> flags_, attributes_;
  std::vector<QueryHandler*> describers_;
};

}  // namespace ufs
