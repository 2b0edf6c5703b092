#include "formats/epilog/epilog_decoder.h"

#include <algorithm>
#include <cstring>

#include "formats/epilog/epilog_records.h"
#include "model/error.h"

namespace earl {

using namespace epilog;

bool EpilogDecoder::looks_like(std::string_view head) {
  return head.size() >= kHeaderBytes && std::memcmp(head.data(), kMagic, sizeof kMagic) == 0;
}

EpilogDecoder::EpilogDecoder(const std::string& path, const ReadOptions& options)
    : path_(path), input_(path), strict_(options.strict) {
  read_header();
  read_definitions();
  next_ = first_event_;
}

bool EpilogDecoder::save_state(DecoderState& state) const {
  if (damage_) return false;
  state.definitions = definitions_;
  return true;
}

void EpilogDecoder::restore_state(DecoderState& state) {
  // What the constructor read must be where the saved definitions have it.
  if (state.definitions.regions.size() < definitions_.regions.size() ||
      state.definitions.types.size() < definitions_.types.size() ||
      state.definitions.location_count < definitions_.location_count)
    throw EarlError(path_ + ": invalid saved decoder state");
  definitions_ = std::move(state.definitions);
}

void EpilogDecoder::read_header() {
  std::uint8_t head[kHeaderBytes];
  if (input_.size() < kHeaderBytes)
    throw EarlError("EPILOG file '" + path_ + "': header cut short (" +
                    std::to_string(input_.size()) + " of 10 bytes)");
  input_.read_at(0, head, kHeaderBytes, "header");
  if (std::memcmp(head, kMagic, sizeof kMagic) != 0)
    throw EarlError("EPILOG file '" + path_ + "': header does not start with \"EPILOG\\0\"");
  if (head[7] != 1)
    throw EarlError("EPILOG file '" + path_ + "': major version " + std::to_string(head[7]) +
                    " (EARL reads version 1.x)");
  version_ = head[7] * 1000u + head[8];
  if (head[9] != kLittleEndian && head[9] != kBigEndian)
    throw EarlError("EPILOG file '" + path_ + "': byte order byte " + std::to_string(head[9]) +
                    " is neither 1 (little endian) nor 2 (big endian)");
  big_endian_ = head[9] == kBigEndian;
}

void EpilogDecoder::read_definitions() {
  std::uint64_t offset = kHeaderBytes;
  RawRecord record;
  while (input_.record_at(offset, record)) {
    if (record.type >= kFirstEvent || record.type == ATTR_UI1 || record.type == ATTR_UI4) break;
    define(record, offset);
    offset += 2 + record.length;
  }
  first_event_ = offset;
  finish_definitions();
}

std::vector<std::uint32_t> EpilogDecoder::read_members(Fields& f, std::uint32_t count, bool bits,
                                                       std::uint8_t continuation,
                                                       std::uint64_t& offset) {
  // `count` entries (bytes of a bit string, or 4-byte ranks), the first ones in this
  // record, the rest in continuation records that follow it.
  if (count > (bits ? kMaxLocations / 8 + 1 : kMaxLocations))
    fail(offset, "absurd member count " + std::to_string(count));
  std::vector<std::uint32_t> entries;
  entries.reserve(std::min<std::uint32_t>(count, 1 << 16));
  const std::size_t width = bits ? 1 : 4;
  auto take = [&](Fields& from) {
    while (entries.size() < count && from.has(width)) entries.push_back(bits ? from.u1() : from.u4());
  };
  take(f);
  std::uint64_t at = offset;
  RawRecord more;
  while (entries.size() < count) {
    at += 2 + (at == offset ? f.record().length : more.length);
    if (!input_.record_at(at, more) || more.type != continuation)
      fail(offset, "member list of " + std::to_string(count) + " entries ends after " +
                       std::to_string(entries.size()) + " (continuation record " +
                       std::to_string(continuation) + " missing)");
    Fields g(more, big_endian_);
    std::size_t before = entries.size();
    take(g);
    if (entries.size() == before) fail(at, "empty continuation record");
  }
  // The continuation records are part of this definition: skip them.
  if (at != offset) offset = at + 2 + more.length - (2 + f.record().length);
  if (!bits) return entries;
  std::vector<std::uint32_t> ranks;
  for (std::size_t byte = 0; byte < entries.size(); ++byte)
    for (int bit = 0; bit < 8; ++bit)
      if (entries[byte] & (1u << bit)) ranks.push_back(static_cast<std::uint32_t>(byte * 8 + bit));
  return ranks;
}

void EpilogDecoder::define(const RawRecord& record, std::uint64_t& offset) {
  Fields f(record, big_endian_);
  auto need = [&](std::size_t bytes) {
    if (!f.has(bytes))
      fail(offset, "definition type " + std::to_string(record.type) + " has " +
                       std::to_string(record.length) + " body bytes, needs at least " +
                       std::to_string(bytes));
  };
  switch (record.type) {
    case STRING: {
      need(5);
      std::uint32_t id = f.u4();
      std::uint8_t continued = f.u1();
      std::string text = f.text();
      std::uint64_t at = offset;
      std::uint8_t length = record.length;
      for (int i = 0; i < continued; ++i) {
        at += 2 + length;
        RawRecord more;
        if (!input_.record_at(at, more) || more.type != STRING_CNT)
          fail(offset, "string " + std::to_string(id) + " announces " + std::to_string(continued) +
                           " continuation records, found " + std::to_string(i));
        Fields g(more, big_endian_);
        text += g.text();
        length = more.length;
      }
      offset = at + 2 + length - (2 + record.length);
      strings_[id] = std::move(text);
      return;
    }
    case LOCATION: {
      need(20);
      LocationDef d{f.u4(), f.u4(), f.u4(), f.u4(), f.u4()};
      if (location_defs_.size() >= static_cast<std::size_t>(kMaxLocations))
        fail(offset, "more than " + std::to_string(kMaxLocations) + " locations");
      for (const LocationDef& other : location_defs_)
        if (other.lid == d.lid) fail(offset, "location " + std::to_string(d.lid) + " defined twice");
      location_defs_.push_back(d);
      single_lid_ = d.lid;
      return;
    }
    case MACHINE: {
      need(12);
      std::uint32_t mid = f.u4();
      f.skip(4);  // node count
      machine_name_[mid] = f.u4();
      return;
    }
    case NODE: {
      need(16);
      std::uint32_t nid = f.u4();
      std::uint32_t mid = f.u4();
      f.skip(4);  // cpus
      node_name_[std::uint64_t(mid) << 32 | nid] = f.u4();
      return;
    }
    case PROCESS: {
      need(8);
      std::uint32_t pid = f.u4();
      process_name_[pid] = f.u4();
      return;
    }
    case THREAD: {
      need(12);
      std::uint32_t tid = f.u4();
      std::uint32_t pid = f.u4();
      thread_name_[std::uint64_t(pid) << 32 | tid] = f.u4();
      return;
    }
    case REGION: {
      need(25);
      RegionDef d;
      d.rid = f.u4();
      d.name = f.u4();
      f.skip(12);  // file, begin and end line
      d.group = f.u4();
      region_defs_.push_back(d);
      return;
    }
    case CALL_SITE: {
      need(20);
      std::uint32_t id = f.u4();
      f.skip(8);
      call_site_region_[id] = f.u4();
      return;
    }
    case METRIC:
      ++metrics_;
      return;
    case MPI_COMM: {
      const bool has_mode = version_ >= kCommModeSince;
      need(has_mode ? 9 : 8);
      std::uint32_t cid = f.u4();
      std::uint8_t mode = has_mode ? f.u1() : 0;
      std::uint32_t count = f.u4();
      if (group_encoding(mode) != 0)
        fail(offset, "communicator " + std::to_string(cid) + " uses member encoding " +
                         std::to_string(group_encoding(mode)) +
                         " (EARL reads the bit string, encoding 0)");
      comm_members_[cid] = read_members(f, count, true, MPI_COMM_CNT, offset);
      return;
    }
    case MPI_GROUP: {
      need(9);
      std::uint32_t gid = f.u4();
      std::uint8_t mode = f.u1();
      std::uint32_t count = f.u4();
      if (mode & kGroupWorld) {
        if (count > static_cast<std::uint32_t>(kMaxLocations)) fail(offset, "absurd group size");
        std::vector<std::uint32_t> ranks(count);
        for (std::uint32_t i = 0; i < count; ++i) ranks[i] = i;
        group_members_[gid] = std::move(ranks);
      } else {
        group_members_[gid] = read_members(f, count, false, MPI_GROUP_CNT, offset);
      }
      return;
    }
    case MPI_COMM_REF: {
      need(8);
      std::uint32_t cid = f.u4();
      comm_group_[cid] = f.u4();
      return;
    }
    case MPI_WIN: {
      need(8);
      std::uint32_t wid = f.u4();
      window_comm_[wid] = f.u4();
      return;
    }
    case STRING_CNT:
    case MPI_COMM_CNT:
    case MPI_GROUP_CNT:
      fail(offset, "continuation record type " + std::to_string(record.type) +
                       " without the definition it continues");
    default:
      // Machines, nodes, processes, threads (the location record repeats their ids), files,
      // topologies, clock offsets (a merged trace's times are corrected), counts, maps:
      // nothing the event model holds.
      return;
  }
}

void EpilogDecoder::finish_definitions() {
  std::sort(location_defs_.begin(), location_defs_.end(),
            [](const LocationDef& a, const LocationDef& b) { return a.lid < b.lid; });
  for (std::size_t i = 0; i < location_defs_.size(); ++i) {
    const LocationDef& d = location_defs_[i];
    const Location loc = static_cast<Location>(i);
    location_of_lid_[d.lid] = loc;
    auto master = location_of_process_.find(d.process);
    if (master == location_of_process_.end() || location_defs_[master->second].thread > d.thread)
      location_of_process_[d.process] = loc;
  }
  if (!location_defs_.empty()) definitions_.ensure_location(static_cast<Location>(location_defs_.size() - 1));
  auto text = [&](std::uint32_t id) -> std::string {
    auto found = strings_.find(id);
    return found == strings_.end() ? std::string() : found->second;
  };
  // A location's name: its process's and its thread's, as "process / thread" where both
  // are named (OTF2's way), else the one that is.
  for (std::size_t i = 0; i < location_defs_.size(); ++i) {
    const LocationDef& d = location_defs_[i];
    auto p = process_name_.find(d.process);
    auto t = thread_name_.find(std::uint64_t(d.process) << 32 | d.thread);
    const std::string process = p == process_name_.end() ? std::string() : text(p->second);
    const std::string thread = t == thread_name_.end() ? std::string() : text(t->second);
    std::string name = !process.empty() && !thread.empty() ? process + " / " + thread
                                                           : (thread.empty() ? process : thread);
    if (!name.empty()) definitions_.name_location(static_cast<Location>(i), std::move(name));
  }
  define_system_tree();  // after the location names
  for (const RegionDef& d : region_defs_) {
    std::string group = text(d.group);
    std::string name = text(d.name);
    if (name.empty() && !strings_.count(d.name)) name = "region " + std::to_string(d.rid);
    regions_[d.rid] = definitions_.define_region(name, group.empty() ? "All" : group);
  }
  for (const auto& [cid, members] : comm_members_)
    definitions_.communicator_sizes[cid] = static_cast<std::uint32_t>(members.size());
  for (const auto& [cid, gid] : comm_group_) {
    auto g = group_members_.find(gid);
    if (g != group_members_.end()) definitions_.communicator_sizes[cid] = static_cast<std::uint32_t>(g->second.size());
  }
}

void EpilogDecoder::define_system_tree() {
  // Machines and nodes as levels, processes on the node of their first location (in
  // location order), as OTF2's system tree gives them.
  SystemTree& tree = definitions_.system_tree;
  auto text = [&](const auto& names, auto key) {
    auto found = names.find(key);
    auto string = found == names.end() ? strings_.end() : strings_.find(found->second);
    return string == strings_.end() ? std::string() : string->second;
  };
  std::unordered_map<std::uint64_t, std::int64_t> level_of;  // machine: mid; node: 1 << 63 | mid << 32 | nid
  std::unordered_map<std::uint32_t, std::int64_t> process_of;
  for (const LocationDef& d : location_defs_) {
    auto machine = level_of.find(d.machine);
    if (machine == level_of.end()) {
      machine = level_of.emplace(d.machine, static_cast<std::int64_t>(tree.levels.size())).first;
      tree.levels.push_back({text(machine_name_, d.machine), "machine", -1});
    }
    const std::uint64_t node_key = std::uint64_t(d.machine) << 32 | d.node;
    auto node = level_of.find(std::uint64_t(1) << 63 | node_key);
    if (node == level_of.end()) {
      node = level_of.emplace(std::uint64_t(1) << 63 | node_key, static_cast<std::int64_t>(tree.levels.size())).first;
      tree.levels.push_back({text(node_name_, node_key), "node", machine->second});
    }
    auto process = process_of.find(d.process);
    if (process == process_of.end()) {
      process = process_of.emplace(d.process, static_cast<std::int64_t>(tree.processes.size())).first;
      // An unnamed process (EARL's writer names only threads) is called by its first
      // location, as the analysis names processes of traces without a system tree.
      std::string name = text(process_name_, d.process);
      if (name.empty()) name = definitions_.location_name(static_cast<Location>(tree.location_process.size()));
      tree.processes.push_back({std::move(name), static_cast<std::int64_t>(d.process), node->second});
    }
    tree.location_process.push_back(process->second);
  }
}

void EpilogDecoder::seek(const DecoderPosition& position) {
  if (position.words.size() != 1 || position.words[0] < first_event_ || position.words[0] > input_.size())
    throw EarlError("EPILOG file '" + path_ + "': invalid decoder position");
  next_ = position.words[0];
}

double EpilogDecoder::progress() const {
  return input_.size() ? static_cast<double>(next_) / static_cast<double>(input_.size()) : 1.0;
}

bool EpilogDecoder::read(Event& event) {
  RawRecord record;
  for (;;) {
    const std::uint64_t at = next_;
    if (damage_ && at >= damage_->offset) return false;  // nothing from the damage on
    try {
      if (!input_.record_at(at, record)) return false;
      if (record.type < kFirstEvent) {
        next_ = at + 2 + record.length;
        if (record.type == ATTR_UI1 || record.type == ATTR_UI4) continue;
        if (record.type >= 1 && record.type <= MPI_COMM_DIST) continue;  // late definitions
        next_ = at;
        fail(at, "unknown record type " + std::to_string(record.type));
      }
      decode(record, event);
    } catch (const EarlError& error) {
      next_ = at;
      if (strict_) throw;
      damage_ = Damage{at, events_counted_, error.what()};
      return false;
    }
    next_ = at + 2 + record.length;
    if (at >= counted_until_) {  // first met: not a record read again after a seek
      ++events_counted_;
      counted_until_ = at + 1;
    }
    return true;
  }
}

std::vector<StreamDamage> EpilogDecoder::damage() const {
  if (!damage_) return {};
  const Damage& d = *damage_;
  StreamDamage entry;
  entry.loc = -1;
  entry.record = d.events_before + 1;
  entry.announced = 0;
  entry.message = d.error + "; the " + std::to_string(d.events_before) +
                  " event records before it were read, the " +
                  std::to_string(input_.size() - d.offset) + " bytes from it on were not";
  return {entry};
}

void EpilogDecoder::no_region_exit(Event& event) {
  // The state names the region of the instance the exit closes; one with no open instance
  // keeps this one (a trace without region definitions has no other).
  event.flags |= kRegionFromStack;
  if (definitions_.regions.size() == 0) definitions_.define_region("unknown", "All");
  event.region = 0;
}

Location EpilogDecoder::location_of_id(std::uint32_t lid, const RawRecord& record) {
  auto found = location_of_lid_.find(lid);
  if (found == location_of_lid_.end())
    fail(record.offset, "event type " + std::to_string(record.type) + " on location " +
                            std::to_string(lid) + ", which the trace does not define");
  return found->second;
}

std::int64_t EpilogDecoder::window_comm(std::uint32_t window) const {
  auto found = window_comm_.find(window);
  return found == window_comm_.end() ? -1 : found->second;
}

Location EpilogDecoder::peer(std::uint32_t rank, std::int64_t com, Event& event) const {
  if (rank == kNoId) return -1;
  std::uint32_t world = rank;
  if (version_ >= kLocalRanksSince && com >= 0) {
    const std::vector<std::uint32_t>* members = nullptr;
    auto c = comm_members_.find(static_cast<std::uint32_t>(com));
    if (c != comm_members_.end()) members = &c->second;
    auto ref = comm_group_.find(static_cast<std::uint32_t>(com));
    if (ref != comm_group_.end()) {
      auto g = group_members_.find(ref->second);
      if (g != group_members_.end()) members = &g->second;
    }
    if (!members || rank >= members->size()) {
      event.flags |= kUnresolvedReference;
      return -1;
    }
    world = (*members)[rank];
  }
  auto found = location_of_process_.find(world);
  if (found == location_of_process_.end()) {
    event.flags |= kUnresolvedReference;
    return -1;
  }
  return found->second;
}

namespace {

// The body bytes of an event type after its location id: those before the metric values,
// whether it has metric values, and those after them.
struct Layout {
  std::uint8_t before, after;
  bool metrics;
};

bool layout_of(std::uint8_t type, Layout& l) {
  switch (type) {
    case ENTER: case ENTER_CS: l = {12, 0, true}; return true;
    case EXIT: case OMP_COLLEXIT: case LOG_OFF: case LOG_ON: case ENTER_TRACING:
    case EXIT_TRACING: l = {8, 0, true}; return true;
    case MPI_COLLEXIT: case COLLEXIT: l = {8, 16, true}; return true;
    case MPI_WINEXIT: l = {8, 9, true}; return true;
    case MPI_WINCOLLEXIT: l = {8, 4, true}; return true;
    case MPI_SEND: case MPI_PUT_1TS: case MPI_GET_1TS: case MPI_GET_1TS_REMOTE: l = {24, 0, false}; return true;
    case MPI_RECV: case MPI_PUT_1TE: case MPI_PUT_1TE_REMOTE: case MPI_GET_1TE:
    case PUT_1TS: case GET_1TS: case GET_1TS_REMOTE: l = {20, 0, false}; return true;
    case OMP_FORK: case OMP_JOIN: l = {8, 0, false}; return true;
    case OMP_ALOCK: case OMP_RLOCK: case ALOCK: case RLOCK: case MPI_GET_1TO:
    case MPI_SEND_COMPLETE: case MPI_RECV_REQUEST: case MPI_REQUEST_TESTED: case MPI_CANCELLED:
      l = {12, 0, false}; return true;
    case MPI_WIN_LOCK: l = {17, 0, false}; return true;
    case MPI_WIN_UNLOCK: case PUT_1TE: case PUT_1TE_REMOTE: case GET_1TE: l = {16, 0, false}; return true;
    default: return false;
  }
}

}  // namespace

void EpilogDecoder::decode(const RawRecord& record, Event& event) {
  Layout layout;
  if (!layout_of(record.type, layout)) fail(record.offset, "unknown event type " + std::to_string(record.type));
  const std::size_t body = layout.before + layout.after + (layout.metrics ? 8u * metrics_ : 0u);
  Fields f(record, big_endian_);
  std::uint32_t lid;
  if (record.length == body + 4) {
    lid = f.u4();
  } else if (record.length == body && location_defs_.size() == 1) {
    lid = single_lid_;  // a one-location trace may leave the location id out
  } else {
    fail(record.offset, "event type " + std::to_string(record.type) + " has " +
                            std::to_string(record.length) + " body bytes, expected " +
                            std::to_string(body + 4));
  }
  const Position pos = event.pos, enterptr = event.enterptr;
  event = Event();
  event.pos = pos;
  event.enterptr = enterptr;
  event.loc = location_of_id(lid, record);
  event.time = f.d8();
  std::uint32_t first = layout.before > 8 && layout.metrics ? f.u4() : 0;  // enter's region
  if (layout.metrics) f.skip(8u * metrics_);
  auto region = [&](std::uint32_t rid) {
    auto found = regions_.find(rid);
    if (found != regions_.end()) return found->second;
    event.flags |= kUnresolvedReference;
    return definitions_.define_region("region " + std::to_string(rid), "All");
  };
  auto rma = [&](const char* name, EventKind kind, bool window, bool bytes) {
    event.kind = kind;
    event.type = type(name);
    std::uint32_t other = f.u4();
    event.com = window ? static_cast<std::int64_t>(f.u4()) : -1;
    event.tag = f.u4();
    if (bytes) event.len = f.u4();
    event.peer = peer(other, window ? window_comm(static_cast<std::uint32_t>(event.com)) : -1, event);
    if (window && window_comm(static_cast<std::uint32_t>(event.com)) < 0) event.flags |= kUnresolvedReference;
  };
  switch (record.type) {
    case ENTER:
      event.kind = EventKind::Enter;
      event.type = kEnterType;
      event.region = region(first);
      break;
    case ENTER_CS: {
      event.kind = EventKind::Enter;
      event.type = kEnterType;
      auto site = call_site_region_.find(first);
      if (site == call_site_region_.end()) {
        event.flags |= kUnresolvedReference;
        event.region = region(kNoId);
      } else {
        event.region = region(site->second);
      }
      break;
    }
    case EXIT: case OMP_COLLEXIT: case MPI_WINEXIT: case MPI_WINCOLLEXIT:
      no_region_exit(event);
      event.kind = EventKind::Exit;
      event.type = kExitType;
      // A window-collective call's exit keeps its window (no attribute of an exit): what
      // tells `earl convert` the call was one (convert/record_events.h).
      if (record.type == MPI_WINCOLLEXIT) event.com = f.u4();
      break;
    case MPI_COLLEXIT: case COLLEXIT: {
      no_region_exit(event);
      event.kind = EventKind::CollectiveExit;
      event.type = kExitType;
      std::uint32_t root = f.u4();
      std::uint32_t cid = f.u4();
      event.com = cid;
      event.len = f.u4();
      event.tag = f.u4();
      event.peer = peer(root, record.type == MPI_COLLEXIT ? static_cast<std::int64_t>(cid) : -1, event);
      break;
    }
    case MPI_SEND: case MPI_RECV: {
      const bool send = record.type == MPI_SEND;
      event.kind = send ? EventKind::Send : EventKind::Recv;
      event.type = send ? kSendType : kRecvType;
      std::uint32_t other = f.u4();
      event.com = f.u4();
      event.tag = f.u4();
      if (send) event.len = f.u4();
      else event.flags |= kLengthFromSend;  // EPILOG's receive has no length
      if (!comm_members_.count(static_cast<std::uint32_t>(event.com)) &&
          !comm_group_.count(static_cast<std::uint32_t>(event.com)) && version_ >= kLocalRanksSince)
        event.flags |= kUnresolvedReference;
      event.peer = peer(other, event.com, event);
      break;
    }
    case MPI_PUT_1TS: rma("put_1ts", EventKind::RmaTransferStart, true, true); break;
    case MPI_PUT_1TE:
      rma("put_1te", EventKind::RmaTransferEnd, true, false);
      event.flags |= kStartOnPeer;
      break;
    case MPI_PUT_1TE_REMOTE: rma("put_1te", EventKind::RmaTransferEnd, true, false); break;
    case MPI_GET_1TS: rma("get_1ts", EventKind::RmaTargetStart, true, true); break;
    case MPI_GET_1TE: rma("get_1te", EventKind::RmaTransferEnd, true, false); break;
    case MPI_GET_1TO:
      event.kind = EventKind::RmaTransferStart;
      event.type = type("get_1to");
      event.tag = f.u4();
      break;
    case PUT_1TS: rma("put_1ts", EventKind::RmaTransferStart, false, true); break;
    case PUT_1TE:
      rma("put_1te", EventKind::RmaTransferEnd, false, false);
      event.flags |= kStartOnPeer;
      break;
    case PUT_1TE_REMOTE: rma("put_1te", EventKind::RmaTransferEnd, false, false); break;
    case GET_1TS: rma("get_1ts", EventKind::RmaTargetStart, false, true); break;
    case GET_1TE: rma("get_1te", EventKind::RmaTransferEnd, false, false); break;
    case MPI_GET_1TS_REMOTE: case GET_1TS_REMOTE: {
      // The origin's note of a get's start at the target (an unmerged trace).
      event.type = type("get_1ts_remote");
      f.u4();
      event.data1 = Value::of_int(record.type == MPI_GET_1TS_REMOTE ? f.u4() : -1);
      event.data2 = Value::of_int(f.u4());
      break;
    }
    case MPI_WIN_LOCK: case MPI_WIN_UNLOCK: {
      const bool lock = record.type == MPI_WIN_LOCK;
      event.kind = EventKind::WindowLock;
      event.type = type(lock ? "wlock" : "wunlock");
      std::uint32_t other = f.u4();
      event.com = f.u4();
      event.peer = peer(other, window_comm(static_cast<std::uint32_t>(event.com)), event);
      if (lock) {
        event.data1 = Value::of_uint(f.u1() == kMpi2LockExclusive ? 1 : 0);
        event.data2 = Value::of_uint(0);
      }
      break;
    }
    case OMP_FORK: event.kind = EventKind::Fork; event.type = type("fork"); break;
    case OMP_JOIN: event.kind = EventKind::Join; event.type = type("join"); break;
    case OMP_ALOCK: case ALOCK: case OMP_RLOCK: case RLOCK:
      event.kind = EventKind::ThreadLock;
      event.type = type(record.type == OMP_ALOCK || record.type == ALOCK ? "alock" : "rlock");
      event.tag = f.u4();
      break;
    case MPI_SEND_COMPLETE: case MPI_RECV_REQUEST: case MPI_REQUEST_TESTED: case MPI_CANCELLED: {
      static const char* const names[] = {"mpi_send_complete", "mpi_recv_request",
                                          "mpi_request_tested", "mpi_cancelled"};
      event.type = type(names[record.type - MPI_SEND_COMPLETE]);
      event.data1 = Value::of_uint(f.u4());
      break;
    }
    case LOG_OFF: event.type = type("log_off"); break;
    case LOG_ON: event.type = type("log_on"); break;
    case ENTER_TRACING: event.type = type("enter_tracing"); break;
    case EXIT_TRACING: event.type = type("exit_tracing"); break;
  }
  if (f.overrun()) fail(record.offset, "event body shorter than its fields");
}

}  // namespace earl
