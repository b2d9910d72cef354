#include "nand/nand_block.h"
#include <algorithm>
#include <cstring>
#include <new>

namespace ufs {

// Page record layout (see nand_block.h). First byte:
//   bits 0-1 kind, bit 2 program failed, bit 3 CONT: the page continues the previous one
//   exactly (same sequence number, stamps {lba + s, version + s * step} going on where
//   the previous page's stopped, OOB LBAs those of the stamps, data sequences zero or
//   going on): nothing else follows.
//   Otherwise bits 4-5 stamp form (run, explicit, erased), bit 6 the run's version step
//   (0 or 1), bit 7 OOB LBAs of their own; then a byte with the data sequence form (bits
//   0-1: zero, run, explicit), bit 2 "same sequence number" and the own OOB LBAs' form
//   (bits 3-4: explicit, run, one value for all: a map page); then zigzag varints:
//   sequence delta, stamps, OOB LBAs, data sequences, each against the cursor's prediction.
namespace {
constexpr uint8_t kKindMask = 3, kFailedBit = 4, kCont = 8, kOwnOob = 0x80;
constexpr uint8_t kRun = 0, kExplicit = 1, kErasedStamps = 2;
constexpr uint8_t kDZero = 0, kDRun = 1, kDExplicit = 2, kSameSeq = 4;
constexpr uint8_t kOobExplicit = 0, kOobRun = 1, kOobSame = 2;  // h2 bits 3-4, own OOB LBAs only
constexpr uint32_t kMaxRecord = 2 + 10 + kMaxSectorsPerPage * (10 + 10 + 10 + 10) + 1;

inline uint64_t zz(uint64_t d) { return (d << 1) ^ uint64_t(int64_t(d) >> 63); }
inline uint64_t unzz(uint64_t z) { return (z >> 1) ^ (0 - (z & 1)); }
inline uint8_t* put(uint8_t* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = uint8_t(v) | 0x80;
    v >>= 7;
  }
  *p++ = uint8_t(v);
  return p;
}
inline uint64_t get(const uint8_t*& p) {
  uint64_t b = *p++;
  if (b < 0x80) return b;
  uint64_t v = b & 0x7f;
  for (int shift = 7;; shift += 7) {
    b = *p++;
    v |= (b & 0x7f) << shift;
    if (b < 0x80) return v;
  }
}

// Codes one page against the cursor and moves it past the page.
uint8_t* encode(uint8_t* p, NandBlock::Cursor& c, uint32_t spp, const SectorStamp* st, const PageOob& oob,
                bool failed) {
  uint8_t h = uint8_t(uint8_t(oob.kind) & kKindMask) | (failed ? kFailedBit : 0);
  bool erased = true, own_oob = false;
  for (uint32_t s = 0; s < spp; ++s) {
    erased = erased && st[s] == SectorStamp{};
    own_oob = own_oob || oob.lba[s] != uint32_t(st[s].lba);
  }
  uint8_t form = kRun, vstep = c.vstep;
  if (erased) {
    form = kErasedStamps;
  } else {
    if (spp > 1) {
      const uint64_t d = st[1].version - st[0].version;
      vstep = d <= 1 ? uint8_t(d) : 0;
      if (d > 1) form = kExplicit;
    }
    for (uint32_t s = 1; s < spp && form == kRun; ++s)
      if (st[s].lba != st[0].lba + s || st[s].version != st[0].version + s * vstep) form = kExplicit;
  }
  const uint64_t* ds = oob.data_seq;
  uint8_t dform = kDZero;
  for (uint32_t s = 0; s < spp; ++s)
    if (ds[s]) dform = kDRun;
  if (dform == kDRun)
    for (uint32_t s = 1; s < spp; ++s)
      if (ds[s] != ds[0] + s) dform = kDExplicit;
  const bool same_seq = oob.sequence == c.seq;
  if (form == kRun && !own_oob && same_seq && vstep == c.vstep && st[0].lba == c.lba && st[0].version == c.ver &&
      dform == c.dmode && (dform == kDZero || (dform == kDRun && ds[0] == c.dseq))) {
    *p++ = h | kCont;
    c.lba += spp;
    c.ver += uint64_t(spp) * vstep;
    if (dform == kDRun) c.dseq += spp;
    return p;
  }
  uint8_t oform = kOobExplicit;
  if (own_oob) {
    bool run = true, same = true;
    for (uint32_t s = 1; s < spp; ++s) {
      run = run && oob.lba[s] == oob.lba[0] + s;
      same = same && oob.lba[s] == oob.lba[0];
    }
    oform = same ? kOobSame : run ? kOobRun : kOobExplicit;
  }
  *p++ = h | uint8_t(form << 4) | uint8_t(vstep << 6) | (own_oob ? kOwnOob : 0);
  *p++ = dform | (same_seq ? kSameSeq : 0) | uint8_t(oform << 3);
  if (!same_seq) p = put(p, zz(oob.sequence - c.seq));
  c.seq = oob.sequence;
  if (form == kRun) {
    p = put(p, zz(st[0].lba - c.lba));
    p = put(p, zz(st[0].version - c.ver));
    c.lba = st[0].lba + spp;
    c.ver = st[0].version + uint64_t(spp) * vstep;
    c.vstep = vstep;
  } else if (form == kExplicit) {
    for (uint32_t s = 0; s < spp; ++s) {
      p = put(p, zz(st[s].lba - c.lba));
      p = put(p, zz(st[s].version - c.ver));
      c.lba = st[s].lba + 1;
      c.ver = st[s].version + 1;
    }
    c.vstep = 1;
  }
  if (own_oob && oform != kOobExplicit) {
    p = put(p, zz(uint64_t(oob.lba[0]) - c.oob));
    c.oob = uint64_t(oob.lba[0]) + (oform == kOobRun ? spp : 1);
  } else if (own_oob) {
    for (uint32_t s = 0; s < spp; ++s) {
      p = put(p, zz(uint64_t(oob.lba[s]) - c.oob));
      c.oob = uint64_t(oob.lba[s]) + 1;
    }
  }
  if (dform == kDRun) {
    p = put(p, zz(ds[0] - c.dseq));
    c.dseq = ds[0] + spp;
  } else if (dform == kDExplicit) {
    uint8_t mask = 0;
    for (uint32_t s = 0; s < spp; ++s) mask |= uint8_t((ds[s] != 0) << s);
    *p++ = mask;
    for (uint32_t s = 0; s < spp; ++s)
      if (ds[s]) {
        p = put(p, zz(ds[s] - c.dseq));
        c.dseq = ds[s] + 1;
      }
  }
  c.dmode = dform;
  return p;
}

// Decodes one page at p (the cursor just before it): sectors [first, first + count) into
// out, and when oob is given the whole OOB (sectors past the page as PageOob's defaults).
// Writes each output once, straight from the code; the cursor is left wherever (a read
// decodes one page). Returns false for a page whose program failed.
bool decode(const uint8_t* p, NandBlock::Cursor& c, uint32_t spp, uint32_t first, uint32_t count,
            SectorStamp* out, PageOob* oob) {
  const uint8_t h = *p++;
  const bool ok = (h & kFailedBit) == 0;
  if (oob) {
    oob->kind = PageKind(h & kKindMask);
    for (uint32_t s = spp; s < kMaxSectorsPerPage; ++s) {
      oob->lba[s] = kNoOobLba;
      oob->data_seq[s] = 0;
    }
  }
  if (h & kCont) {
    for (uint32_t s = 0; s < count; ++s) out[s] = SectorStamp{c.lba + first + s, c.ver + (first + s) * c.vstep};
    if (oob) {
      oob->sequence = c.seq;
      const bool run = c.dmode == kDRun;
      for (uint32_t s = 0; s < spp; ++s) {
        oob->lba[s] = uint32_t(c.lba + s);
        oob->data_seq[s] = run ? c.dseq + s : 0;
      }
    }
    return ok;
  }
  const uint8_t h2 = *p++;
  if (!(h2 & kSameSeq)) c.seq += unzz(get(p));
  const uint8_t form = (h >> 4) & 3;
  const bool own_oob = (h & kOwnOob) != 0;
  if (form == kRun) {
    const uint64_t vstep = (h >> 6) & 1;
    const uint64_t l = c.lba + unzz(get(p));
    const uint64_t v = c.ver + unzz(get(p));
    for (uint32_t s = 0; s < count; ++s) out[s] = SectorStamp{l + first + s, v + (first + s) * vstep};
    if (oob && !own_oob)
      for (uint32_t s = 0; s < spp; ++s) oob->lba[s] = uint32_t(l + s);
  } else if (form == kExplicit) {
    for (uint32_t s = 0; s < spp; ++s) {
      const uint64_t l = c.lba + unzz(get(p));
      const uint64_t v = c.ver + unzz(get(p));
      c.lba = l + 1;
      c.ver = v + 1;
      if (s - first < count) out[s - first] = SectorStamp{l, v};
      if (oob) oob->lba[s] = uint32_t(l);
    }
  } else {
    for (uint32_t s = 0; s < count; ++s) out[s] = SectorStamp{};
    if (oob && !own_oob)
      for (uint32_t s = 0; s < spp; ++s) oob->lba[s] = kNoOobLba;
  }
  if (!oob) return ok;  // the rest is OOB only
  oob->sequence = c.seq;
  const uint8_t oform = (h2 >> 3) & 3;
  if (own_oob && oform != kOobExplicit) {
    const uint64_t v = c.oob + unzz(get(p));
    for (uint32_t s = 0; s < spp; ++s) oob->lba[s] = uint32_t(oform == kOobRun ? v + s : v);
  } else if (own_oob) {
    for (uint32_t s = 0; s < spp; ++s) {
      const uint64_t v = c.oob + unzz(get(p));
      oob->lba[s] = uint32_t(v);
      c.oob = v + 1;
    }
  }
  const uint8_t dform = h2 & 3;
  if (dform == kDRun) {
    const uint64_t d = c.dseq + unzz(get(p));
    for (uint32_t s = 0; s < spp; ++s) oob->data_seq[s] = d + s;
  } else if (dform == kDExplicit) {
    const uint8_t mask = *p++;
    for (uint32_t s = 0; s < spp; ++s) {
      uint64_t d = 0;
      if (mask & (1u << s)) {
        d = c.dseq + unzz(get(p));
        c.dseq = d + 1;
      }
      oob->data_seq[s] = d;
    }
  } else {
    for (uint32_t s = 0; s < spp; ++s) oob->data_seq[s] = 0;
  }
  return ok;
}

// Moves the cursor past one page as decode() does, without producing the page: what a
// read does for the pages between its keyframe and its page.
inline const uint8_t* skip(const uint8_t* p, NandBlock::Cursor& c, uint32_t spp) {
  const uint8_t h = *p++;
  if (h & kCont) {
    c.lba += spp;
    c.ver += uint64_t(spp) * c.vstep;
    if (c.dmode == kDRun) c.dseq += spp;
    return p;
  }
  const uint8_t h2 = *p++;
  if (!(h2 & kSameSeq)) c.seq += unzz(get(p));
  const uint8_t form = (h >> 4) & 3;
  if (form == kRun) {
    const uint8_t vstep = (h >> 6) & 1;
    c.lba += unzz(get(p)) + spp;
    c.ver += unzz(get(p)) + uint64_t(spp) * vstep;
    c.vstep = vstep;
  } else if (form == kExplicit) {
    for (uint32_t s = 0; s < spp; ++s) {
      c.lba += unzz(get(p)) + 1;
      c.ver += unzz(get(p)) + 1;
    }
    c.vstep = 1;
  }
  if (h & kOwnOob) {
    const uint8_t oform = (h2 >> 3) & 3;
    if (oform != kOobExplicit) {
      c.oob += unzz(get(p)) + (oform == kOobRun ? spp : 1);
    } else {
      for (uint32_t s = 0; s < spp; ++s) c.oob += unzz(get(p)) + 1;
    }
  }
  const uint8_t dform = h2 & 3;
  if (dform == kDRun) {
    c.dseq += unzz(get(p)) + spp;
  } else if (dform == kDExplicit) {
    const uint8_t mask = *p++;
    for (uint32_t s = 0; s < spp; ++s)
      if (mask & (1u << s)) c.dseq += unzz(get(p)) + 1;
  }
  c.dmode = dform;
  return p;
}
}  // namespace

uint8_t* NandBlock::Bytes::grow(uint32_t n) {
  if (size + n > cap) {
    const uint32_t want = std::max(size + n, cap + cap / 4 + 256);
    void* more = std::realloc(data, want);
    if (!more) throw std::bad_alloc();
    data = static_cast<uint8_t*>(more);
    cap = want;
  }
  return data + size;
}

void NandBlock::Bytes::trim() {
  if (size == cap || size == 0) return;
  if (void* less = std::realloc(data, size)) {
    data = static_cast<uint8_t*>(less);
    cap = size;
  }
}

void NandBlock::program_next(const NandBlockShape& shape, const SectorStamp* stamps, const PageOob& oob,
                             bool failed) {
  if (!storage_) {
    storage_ = std::make_unique<Storage>();
    storage_->key_count = (shape.pages + kKeyPages - 1) / kKeyPages;
    storage_->keys.reset(new uint32_t[storage_->key_count]);
  }
  Storage& st = *storage_;
  const uint32_t page = next_page_++;
  if (page == 0) st.seq_base = oob.sequence;
  if (page % kKeyPages == 0) {  // a keyframe: the coder starts afresh
    st.keys[page / kKeyPages] = st.bytes.size;
    st.tail = Cursor{};
    st.tail.seq = st.seq_base;
  }
  uint8_t* p = st.bytes.grow(kMaxRecord);
  uint8_t* end = encode(p, st.tail, shape.sectors_per_page, stamps, oob, failed);
  st.bytes.size += uint32_t(end - p);
  if (next_page_ == shape.pages) st.bytes.trim();  // full: no more growth until the erase
}

bool NandBlock::read(const NandBlockShape& shape, uint32_t page, uint32_t first, uint32_t count,
                     SectorStamp* out, PageOob* oob) const {
  const uint32_t spp = shape.sectors_per_page;
  if (page >= next_page_) {  // erased
    for (uint32_t s = 0; s < count; ++s) out[s] = SectorStamp{};
    if (oob) *oob = PageOob{};
    return true;
  }
  const Storage& st = *storage_;
  const uint8_t* p = st.bytes.data + st.keys[page / kKeyPages];
  Cursor c;
  c.seq = st.seq_base;
  for (uint32_t q = page - page % kKeyPages; q < page; ++q) p = skip(p, c, spp);
  return decode(p, c, spp, first, count, out, oob);
}

size_t NandBlock::storage_bytes() const {
  if (!storage_) return 0;
  return sizeof(Storage) + storage_->key_count * sizeof(uint32_t) + storage_->bytes.cap;
}

}  // namespace ufs
