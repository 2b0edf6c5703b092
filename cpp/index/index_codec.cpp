#include "index/index_codec.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace earl {

void IndexWriter::u64(std::uint64_t v) {
  for (int i = 0; i < 8; ++i) bytes_.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

void IndexWriter::f64(double v) {
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  u64(bits);
}

void IndexWriter::text(const std::string& v) {
  u64(v.size());
  bytes_ += v;
}

void IndexWriter::words(const std::vector<std::uint64_t>& v) {
  u64(v.size());
  for (std::uint64_t w : v) u64(w);
}

void IndexReader::need(std::size_t n) {
  if (static_cast<std::size_t>(end_ - at_) < n) throw IndexDamaged{"it ends too early"};
}

std::uint8_t IndexReader::u8() {
  need(1);
  return static_cast<std::uint8_t>(*at_++);
}

std::uint64_t IndexReader::u64() {
  need(8);
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= std::uint64_t(static_cast<unsigned char>(at_[i])) << (8 * i);
  at_ += 8;
  return v;
}

double IndexReader::f64() {
  std::uint64_t bits = u64();
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

std::uint64_t IndexReader::count(std::size_t min_item_bytes) {
  std::uint64_t n = u64();
  if (min_item_bytes > 0 && n > static_cast<std::uint64_t>(end_ - at_) / min_item_bytes)
    throw IndexDamaged{"a count exceeds its data"};
  return n;
}

std::string IndexReader::text() {
  std::uint64_t n = count(1);
  std::string v(at_, static_cast<std::size_t>(n));
  at_ += n;
  return v;
}

std::vector<std::uint64_t> IndexReader::words() {
  std::uint64_t n = count(8);
  std::vector<std::uint64_t> v;
  v.reserve(n);
  for (std::uint64_t i = 0; i < n; ++i) v.push_back(u64());
  return v;
}

void write_identity(IndexWriter& out, const TraceIdentity& identity) {
  out.u64(identity.files.size());
  for (const FileIdentity& file : identity.files) {
    out.text(file.path);
    out.u64(file.size);
    out.i64(file.mtime_ns);
    out.u64(file.head_tail);
  }
}

TraceIdentity read_identity(IndexReader& in) {
  TraceIdentity identity;
  std::uint64_t n = in.count(32);
  for (std::uint64_t i = 0; i < n; ++i) {
    FileIdentity file;
    file.path = in.text();
    file.size = in.u64();
    file.mtime_ns = in.i64();
    file.head_tail = in.u64();
    identity.files.push_back(std::move(file));
  }
  return identity;
}

namespace {

void write_names(IndexWriter& out, const SymbolTable& table) {
  out.u64(table.size());
  for (const std::string& name : table.names()) out.text(name);
}

// Interning the names in order gives the same ids; a repeated name would not.
void read_names(IndexReader& in, SymbolTable& table, std::size_t already) {
  std::uint64_t n = in.count(8);
  if (n < already) throw IndexDamaged{"a name table is shorter than the built-in one"};
  for (std::uint64_t i = 0; i < n; ++i) {
    std::string name = in.text();
    if (i < already) {
      if (table.name(static_cast<SymbolId>(i)) != name) throw IndexDamaged{"a built-in name differs"};
      continue;
    }
    if (table.intern(name) != i) throw IndexDamaged{"a name table repeats a name"};
  }
}

void write_value(IndexWriter& out, const Value& v) {
  out.u8(static_cast<std::uint8_t>(v.kind));
  out.u64(v.unsigned_integer);  // the union's bits, whichever member is active
}

Value read_value(IndexReader& in) {
  Value v;
  std::uint8_t kind = in.u8();
  if (kind > static_cast<std::uint8_t>(Value::Kind::String)) throw IndexDamaged{"a value kind is unknown"};
  v.kind = static_cast<Value::Kind>(kind);
  v.unsigned_integer = in.u64();
  return v;
}

constexpr std::size_t kEventBytes = 8 * 9 + 2 + 2 * 9;  // as write_event writes it

void write_event(IndexWriter& out, const Event& e) {
  out.u64(e.pos);
  out.f64(e.time);
  out.u64(e.enterptr);
  out.u64(e.sendptr);
  out.i64(e.tag);
  out.i64(e.com);
  out.u64(e.len);
  out.u64(static_cast<std::uint32_t>(e.loc) | std::uint64_t(static_cast<std::uint32_t>(e.peer)) << 32);
  out.u64(e.type | std::uint64_t(e.region) << 32);
  out.u8(static_cast<std::uint8_t>(e.kind));
  out.u8(e.flags);
  write_value(out, e.data1);
  write_value(out, e.data2);
}

Event read_event(IndexReader& in) {
  Event e;
  e.pos = in.u64();
  e.time = in.f64();
  e.enterptr = in.u64();
  e.sendptr = in.u64();
  e.tag = in.i64();
  e.com = in.i64();
  e.len = in.u64();
  std::uint64_t locs = in.u64();
  e.loc = static_cast<Location>(static_cast<std::uint32_t>(locs));
  e.peer = static_cast<Location>(static_cast<std::uint32_t>(locs >> 32));
  std::uint64_t ids = in.u64();
  e.type = static_cast<SymbolId>(ids);
  e.region = static_cast<SymbolId>(ids >> 32);
  std::uint8_t kind = in.u8();
  if (kind > static_cast<std::uint8_t>(kLastEventKind)) throw IndexDamaged{"an event kind is unknown"};
  e.kind = static_cast<EventKind>(kind);
  e.flags = in.u8();
  e.data1 = read_value(in);
  e.data2 = read_value(in);
  if (e.loc < 0 || e.loc >= kMaxLocations) throw IndexDamaged{"an event's location is invalid"};
  return e;
}

void write_events(IndexWriter& out, const std::vector<Event>& events) {
  out.u64(events.size());
  for (const Event& e : events) write_event(out, e);
}

std::vector<Event> read_events(IndexReader& in) {
  std::uint64_t n = in.count(kEventBytes);
  std::vector<Event> events;
  events.reserve(n);
  for (std::uint64_t i = 0; i < n; ++i) events.push_back(read_event(in));
  return events;
}

void write_pointers(IndexWriter& out, const PointerState& p) {
  out.u64(p.open_transfers.size());
  for (const auto& t : p.open_transfers) {
    for (std::int64_t k : t.first) out.i64(k);
    out.u64(t.second);
  }
  out.u64(p.forks.size());
  for (const auto& f : p.forks) {
    out.i64(f.first);
    out.words(f.second);
  }
  out.u64(p.last_lock_event.size());
  for (const auto& l : p.last_lock_event) {
    out.i64(l.first);
    out.u64(l.second);
  }
}

PointerState read_pointers(IndexReader& in) {
  PointerState p;
  std::uint64_t n = in.count(32);
  for (std::uint64_t i = 0; i < n; ++i) {
    std::array<std::int64_t, 3> key;
    for (std::int64_t& k : key) k = in.i64();
    p.open_transfers.push_back({key, in.u64()});
  }
  n = in.count(16);
  for (std::uint64_t i = 0; i < n; ++i) {
    std::int64_t loc = in.i64();
    if (loc < 0 || loc >= kMaxLocations) throw IndexDamaged{"a fork's location is invalid"};
    p.forks.push_back({static_cast<Location>(loc), in.words()});
  }
  n = in.count(16);
  for (std::uint64_t i = 0; i < n; ++i) {
    std::int64_t lock = in.i64();
    p.last_lock_event.push_back({lock, in.u64()});
  }
  return p;
}

void write_kind(IndexWriter& out, const ProblemKind& kind) {
  out.u64(kind.count);
  out.words(kind.first);
}

ProblemKind read_kind(IndexReader& in) {
  ProblemKind kind;
  kind.count = in.u64();
  kind.first = in.words();
  return kind;
}

}  // namespace

void write_definitions(IndexWriter& out, const Definitions& d) {
  write_names(out, d.types);
  write_names(out, d.regions);
  write_names(out, d.groups);
  out.u64(d.region_group.size());
  for (SymbolId id : d.region_group) out.u64(id);
  write_names(out, d.strings);
  out.u64(d.location_names.size());
  for (const std::string& name : d.location_names) out.text(name);
  out.i64(d.location_count);
  out.f64(d.declared_begin);
  out.f64(d.declared_end);
  std::vector<std::pair<std::int64_t, std::uint32_t>> sizes(d.communicator_sizes.begin(),
                                                            d.communicator_sizes.end());
  std::sort(sizes.begin(), sizes.end());  // the same bytes for the same definitions
  out.u64(sizes.size());
  for (const auto& entry : sizes) {
    out.i64(entry.first);
    out.u64(entry.second);
  }
  out.u64(d.metrics.size());
  for (const MetricDefinition& m : d.metrics) {
    for (const std::string* text : {&m.name, &m.unit, &m.description, &m.mode, &m.source, &m.value_type})
      out.text(*text);
    out.i64(m.base);
    out.i64(m.exponent);
    out.u8(static_cast<std::uint8_t>(m.sum));
  }
}

Definitions read_definitions(IndexReader& in) {
  Definitions d;
  read_names(in, d.types, d.types.size());
  read_names(in, d.regions, 0);
  read_names(in, d.groups, 0);
  std::uint64_t n = in.count(8);
  for (std::uint64_t i = 0; i < n; ++i) {
    std::uint64_t group = in.u64();
    if (group >= d.groups.size()) throw IndexDamaged{"a region's group is undefined"};
    d.region_group.push_back(static_cast<SymbolId>(group));
  }
  read_names(in, d.strings, 0);
  n = in.count(8);
  for (std::uint64_t i = 0; i < n; ++i) d.location_names.push_back(in.text());
  std::int64_t count = in.i64();
  if (count < 0 || count > kMaxLocations || static_cast<std::uint64_t>(count) < d.location_names.size())
    throw IndexDamaged{"the location count is invalid"};
  d.location_count = static_cast<Location>(count);
  d.declared_begin = in.f64();
  d.declared_end = in.f64();
  n = in.count(16);
  for (std::uint64_t i = 0; i < n; ++i) {
    std::int64_t com = in.i64();
    d.communicator_sizes[com] = static_cast<std::uint32_t>(in.u64());
  }
  n = in.count(6 * 8 + 17);
  for (std::uint64_t i = 0; i < n; ++i) {
    MetricDefinition m;
    for (std::string* text : {&m.name, &m.unit, &m.description, &m.mode, &m.source, &m.value_type})
      *text = in.text();
    m.base = in.i64();
    m.exponent = in.i64();
    const std::uint8_t sum = in.u8();
    if (sum > static_cast<std::uint8_t>(MetricSum::None)) throw IndexDamaged{"a metric's sum is unknown"};
    m.sum = static_cast<MetricSum>(sum);
    d.metrics.push_back(std::move(m));
  }
  return d;
}

void write_scan(IndexWriter& out, const RandomAccessTrace& access) {
  out.u64(access.size());
  out.u64(access.effective_bdist());
  for (const ProblemName& name : kProblemNames) {
    out.text(name.name);
    write_kind(out, access.problems().*name.kind);
  }
  const auto& bookmarks = access.bookmarks();
  out.u64(bookmarks.size());
  for (const RandomAccessTrace::Bookmark& b : bookmarks) {
    out.u64(b.next);
    out.words(b.where.words);
    out.u8(b.checkpoint ? 1 : 0);
    if (b.checkpoint) {
      out.u64(b.checkpoint->stacks.size());
      for (const auto& stack : b.checkpoint->stacks) write_events(out, stack);
      write_events(out, b.checkpoint->queue);
      write_pointers(out, b.checkpoint->pointers);
    } else {
      out.u64(b.delta.removed.size());
      for (const StateDelta::Removed& r : b.delta.removed) {
        out.u64(r.pos);
        out.i64(r.loc);
        out.u64(r.depth);
      }
      write_events(out, b.delta.added);
      write_pointers(out, b.delta.pointers);
    }
  }
}

RandomAccessTrace::ScanResult read_scan(IndexReader& in) {
  RandomAccessTrace::ScanResult scan;
  scan.size = in.u64();
  scan.bdist = in.u64();
  for (const ProblemName& name : kProblemNames) {
    if (in.text() != name.name) throw IndexDamaged{"its problem kinds differ from this EARL's"};
    scan.problems.*name.kind = read_kind(in);
  }
  std::uint64_t n = in.count(18);
  scan.bookmarks.reserve(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    RandomAccessTrace::Bookmark b;
    b.next = in.u64();
    b.where.words = in.words();
    std::uint8_t full = in.u8();
    if (full > 1) throw IndexDamaged{"a bookmark's kind is unknown"};
    if (full) {
      b.checkpoint = std::make_unique<StateSnapshot>();
      std::uint64_t stacks = in.count(8);
      if (stacks > static_cast<std::uint64_t>(kMaxLocations)) throw IndexDamaged{"too many stacks"};
      for (std::uint64_t s = 0; s < stacks; ++s) b.checkpoint->stacks.push_back(read_events(in));
      b.checkpoint->queue = read_events(in);
      b.checkpoint->pointers = read_pointers(in);
    } else {
      std::uint64_t removed = in.count(24);
      for (std::uint64_t r = 0; r < removed; ++r) {
        StateDelta::Removed gone;
        gone.pos = in.u64();
        std::int64_t loc = in.i64();
        if (loc < -1 || loc >= kMaxLocations) throw IndexDamaged{"a removed record's location is invalid"};
        gone.loc = static_cast<Location>(loc);
        std::uint64_t depth = in.u64();
        if (depth > std::numeric_limits<std::uint32_t>::max()) throw IndexDamaged{"a removed record's depth is invalid"};
        gone.depth = static_cast<std::uint32_t>(depth);
        b.delta.removed.push_back(gone);
      }
      b.delta.added = read_events(in);
      b.delta.pointers = read_pointers(in);
    }
    scan.bookmarks.push_back(std::move(b));
  }
  return scan;
}

void write_decoder_state(IndexWriter& out, const DecoderState& state) {
  out.u64(state.tables.size());
  for (const auto& table : state.tables) out.words(table);
  out.u64(state.data_bytes);
}

void read_decoder_state(IndexReader& in, DecoderState& state) {
  std::uint64_t n = in.count(8);
  state.tables.clear();
  for (std::uint64_t i = 0; i < n; ++i) state.tables.push_back(in.words());
  state.data_bytes = in.u64();
}

}  // namespace earl
