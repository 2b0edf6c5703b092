#include "formats/clog2/clog2_decoder.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <unordered_set>

#include "format_interface/file_kind.h"
#include "formats/clog2/clog2_layout.h"
#include "model/error.h"

namespace earl {

using namespace clog2;

namespace {

// A fixed-size string field up to its first NUL.
std::string field_string(const unsigned char* p, std::size_t size) {
  const char* text = reinterpret_cast<const char*>(p);
  std::size_t n = 0;
  while (n < size && text[n] != '\0') ++n;
  return std::string(text, n);
}

std::uint64_t comm_key(std::int32_t icomm, std::int32_t rank) {
  return (std::uint64_t(std::uint32_t(icomm)) << 32) | std::uint32_t(rank);
}

const char* record_name(std::int32_t type) {
  static const char* const names[kRecordTypes] = {
      "end-of-log", "end-of-block", "state definition", "event definition", "constant definition",
      "bare event", "cargo event", "message event", "collective event", "communicator event",
      "source location", "time shift"};
  return type >= 0 && type < kRecordTypes ? names[type] : "record";
}

}  // namespace

Clog2Decoder::Clog2Decoder(const std::string& path, const ReadOptions& options)
    : path_(path), strict_(options.strict) {
  refuse_special_file(path_);
  fd_ = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK);
  if (fd_ < 0) throw EarlError(path_ + ": cannot open: " + std::strerror(errno));
  try {
    struct stat info;
    if (::fstat(fd_, &info) != 0 || !S_ISREG(info.st_mode))
      throw EarlError(path_ + ": not a regular file");
    file_size_ = static_cast<std::uint64_t>(info.st_size);
    std::string head(std::min<std::uint64_t>(kPreambleSize, file_size_), '\0');
    if (::pread(fd_, head.data(), head.size(), 0) != static_cast<ssize_t>(head.size()))
      throw EarlError(path_ + ": cannot read the preamble: " + std::strerror(errno));
    preamble_ = parse_preamble(head, path_);
    big_ = preamble_.big_endian;
    threads_ = preamble_.thread_count;
    data_end_ = file_size_;
    if (preamble_.commtable_offset != 0) {
      const std::string outside = "'" + path_ + "': the communicator table's offset " +
                                  std::to_string(preamble_.commtable_offset) + " lies outside the file (" +
                                  std::to_string(file_size_) + " bytes; cut short?)";
      if (preamble_.commtable_offset < kPreambleSize) throw EarlError(outside);
      if (preamble_.commtable_offset <= file_size_) {
        data_end_ = preamble_.commtable_offset;
        table_cut_ = table_problem();
      } else {
        table_cut_ = outside;  // the blocks are read as far as the file holds them
      }
      if (strict_ && !table_cut_.empty()) throw EarlError(table_cut_);
    }
    if (preamble_.world_size * threads_ > kMaxLocations)
      throw EarlError("'" + path_ + "': preamble declares " + std::to_string(preamble_.world_size) + " x " +
                      std::to_string(threads_) + " locations, more than EARL reads");
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

Clog2Decoder::~Clog2Decoder() {
  if (fd_ >= 0) ::close(fd_);
}

// The communicator table (an int32 count, then entries) is not used, but a file whose
// table is cut short was cut short: "" where the table fits in the file.
std::string Clog2Decoder::table_problem() const {
  const std::uint64_t room = file_size_ - data_end_;
  unsigned char count_bytes[4] = {0, 0, 0, 0};
  if (room >= 4 && ::pread(fd_, count_bytes, 4, static_cast<off_t>(data_end_)) != 4)
    return "'" + path_ + "': cannot read the communicator table: " + std::strerror(errno);
  const std::int64_t count = load_i32(count_bytes, big_);
  if (room >= 4 && count >= 0 && 4 + std::uint64_t(count) * kCommTableEntry <= room) return "";
  return "'" + path_ + "': the communicator table at byte " + std::to_string(data_end_) +
         (room < 4 ? " is cut short"
                   : " announces " + std::to_string(count) + " entries of " + std::to_string(kCommTableEntry) +
                         " bytes, but the file holds " + std::to_string(room - 4) + " bytes of them") +
         " (cut short?)";
}

const Definitions& Clog2Decoder::definitions() const {
  ensure_scanned();
  return definitions_;
}

void Clog2Decoder::fail_at(std::uint64_t offset, const std::string& problem) const {
  throw EarlError("'" + path_ + "', record at byte " + std::to_string(offset) + ": " + problem);
}

void Clog2Decoder::load_block(std::uint64_t start) {
  if (block_loaded_ && block_start_ == start) return;
  const std::uint64_t size = std::min<std::uint64_t>(preamble_.block_size, data_end_ - start);
  block_.resize(size);
  std::uint64_t done = 0;
  while (done < size) {
    ssize_t got = ::pread(fd_, block_.data() + done, size - done, static_cast<off_t>(start + done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      block_loaded_ = false;
      fail_at(start + done, got < 0 ? std::string("cannot read: ") + std::strerror(errno)
                                    : "the file ended while being read (changed?)");
    }
    done += static_cast<std::uint64_t>(got);
  }
  block_start_ = start;
  block_loaded_ = true;
}

bool Clog2Decoder::next_record(Record& record) {
  if (offset_ >= stop_) return false;  // the damage: nothing from it on
  if (offset_ >= data_end_)
    fail_at(offset_, "the blocks end without an end-of-log record (file cut short?)");
  const std::uint64_t bs = preamble_.block_size;
  const std::uint64_t start = kPreambleSize + (offset_ - kPreambleSize) / bs * bs;
  load_block(start);
  const std::uint64_t end = start + block_.size();
  const bool short_block = block_.size() < bs;
  auto cut = [&](const char* what) {
    fail_at(offset_, short_block ? std::string(what) + " cut short: the block at byte " + std::to_string(start) +
                                       " has " + std::to_string(block_.size()) + " of " + std::to_string(bs) +
                                       " bytes (file cut short?)"
                                 : std::string(what) + " crosses the end of its block (block size " +
                                       std::to_string(bs) + ")");
  };
  if (offset_ + kHeaderSize > end) cut("record header");
  const unsigned char* p = block_.data() + (offset_ - start);
  record.offset = offset_;
  record.time = load_f64(p, big_);
  record.icomm = load_i32(p + 8, big_);
  record.rank = load_i32(p + 12, big_);
  record.thread = load_i32(p + 16, big_);
  record.type = load_i32(p + 20, big_);
  record.body = p + kHeaderSize;
  if (record.type < 0 || record.type >= kRecordTypes)
    fail_at(offset_, "unknown record type " + std::to_string(record.type));
  if (offset_ + kHeaderSize + kBodySize[record.type] > end) cut(record_name(record.type));
  if (record.type == kEndLog) return false;
  if (!std::isfinite(record.time)) fail_at(offset_, "time is not a finite number");
  offset_ = record.type == kEndBlock ? start + bs : offset_ + kHeaderSize + kBodySize[record.type];
  return true;
}

std::int32_t Clog2Decoder::i32(const Record& record, std::size_t at) const {
  return load_i32(record.body + at, big_);
}

void Clog2Decoder::define_communicator(const Record& r) {
  const std::int32_t etype = i32(r, comm_evt::etype);
  if (etype == kCommFree) return;
  const std::int32_t icomm = i32(r, comm_evt::icomm), rank = i32(r, comm_evt::rank),
                     wrank = i32(r, comm_evt::wrank);
  if (rank < 0 || wrank < 0) return;  // a process outside the communicator (CLOG_COMM_RANK_NULL)
  if ((std::int64_t(wrank) + 1) * threads_ > kMaxLocations)
    fail_at(r.offset, "world rank " + std::to_string(wrank) + " is absurd");
  if (rank >= kMaxLocations) fail_at(r.offset, "rank " + std::to_string(rank) + " is absurd");
  world_ranks_.emplace(comm_key(icomm, rank), wrank);
  definitions_.ensure_location(static_cast<Location>(std::int64_t(wrank) * threads_ + threads_ - 1));
}

void Clog2Decoder::ensure_scanned() const {
  // Every decoder is made by new (the registry's open_reader), never a const object.
  if (!scanned_) const_cast<Clog2Decoder*>(this)->scan_definitions();
}

// The pass for definitions, up to the first damaged record: a damaged record after the
// first block becomes the end of the trace (unless strict), and the pass runs again up to
// it, so that nothing after the damage (a state definition, a communicator) is used.
void Clog2Decoder::scan_definitions() {
  for (;;) {
    scan_at_ = kPreambleSize;
    try {
      scan_up_to_stop();
      break;
    } catch (const EarlError& error) {
      if (strict_ || scan_at_ < kPreambleSize + preamble_.block_size || scan_at_ >= stop_) throw;
      stop_ = scan_at_;
      damage_ = Damage{scan_at_, 0, error.what()};
    }
  }
  if (!damage_ && !table_cut_.empty()) damage_ = Damage{data_end_, 0, table_cut_, true};
  if (damage_) damage_->events_before = scanned_events_;
  offset_ = kPreambleSize;
  scanned_ = true;
}

void Clog2Decoder::scan_up_to_stop() {
  definitions_ = Definitions();
  event_types_.clear();
  collective_types_.clear();
  world_ranks_.clear();
  if (preamble_.world_size > 0)
    definitions_.ensure_location(static_cast<Location>(preamble_.world_size * threads_ - 1));
  // Definitions and communicators first (they may follow the events that use them), the
  // etypes used without a definition after them, in order of first use.
  std::vector<std::pair<std::int32_t, bool>> used;  // etype, collective
  std::unordered_set<std::uint64_t> seen;
  Record r;
  offset_ = kPreambleSize;
  for (;;) {
    scan_at_ = offset_;  // the record about to be read: where a failure is
    if (!next_record(r)) break;
    switch (r.type) {
      case kStateDef: {
        const std::int32_t start = i32(r, state_def::start), final = i32(r, state_def::final);
        const std::string name = field_string(r.body + state_def::name, kNameSize);
        if (event_types_.count(start) || event_types_.count(final)) break;  // the first wins
        const SymbolId region = definitions_.define_region(name, "All");
        event_types_[start] = EventType{EventKind::Enter, kEnterType, region};
        event_types_[final] = EventType{EventKind::Exit, kExitType, region};
        break;
      }
      case kEventDef: {
        const std::int32_t etype = i32(r, event_def::etype);
        if (event_types_.count(etype)) break;
        std::string name = field_string(r.body + event_def::name, kNameSize);
        SymbolId type = definitions_.types.intern(name);
        if (type <= kRecvType) type = definitions_.types.intern("event " + name);  // not a builtin
        event_types_[etype] = EventType{EventKind::Other, type, 0};
        break;
      }
      case kCommEvt:
        define_communicator(r);
        break;
      case kBareEvt:
      case kCargoEvt:
      case kCollEvt: {
        const bool coll = r.type == kCollEvt;
        const std::int32_t etype = i32(r, 0);
        if (seen.insert((std::uint64_t(coll) << 32) | std::uint32_t(etype)).second) used.emplace_back(etype, coll);
        break;
      }
      case kMsgEvt: {
        const std::int32_t etype = i32(r, msg_evt::etype);
        if (etype != kSendMsg && etype != kRecvMsg)
          fail_at(r.offset, "message event type " + std::to_string(etype) + " is neither send (-101) nor receive (-102)");
        if (i32(r, msg_evt::size) < 0) fail_at(r.offset, "negative message size " + std::to_string(i32(r, msg_evt::size)));
        break;
      }
      default:
        break;
    }
    if (r.type >= kBareEvt && r.type <= kCollEvt) {
      if (r.thread < 0 || r.thread >= threads_)
        fail_at(r.offset, "thread " + std::to_string(r.thread) + " outside the preamble's " +
                              std::to_string(threads_) + " threads");
    }
  }
  for (const auto& [etype, coll] : used) event_type(etype, coll);
  // Communicators as location groups: rank r of com c is the master thread of its world rank.
  // A communicator's size is its largest rank + 1; MPE writes one record per member, so a
  // group is kept only where most ranks are defined (a hostile file of a few records with
  // huge ranks would otherwise cost memory for members no record names).
  std::unordered_map<std::int32_t, std::int32_t> sizes, defined;
  for (const auto& [key, wrank] : world_ranks_) {
    const std::int32_t icomm = static_cast<std::int32_t>(key >> 32), rank = static_cast<std::int32_t>(key);
    sizes[icomm] = std::max(sizes[icomm], rank + 1);
    ++defined[icomm];
  }
  for (const auto& [icomm, size] : sizes) {
    if (size > definitions_.location_count)
      throw EarlError("'" + path_ + "': communicator " + std::to_string(icomm) + " has rank " +
                      std::to_string(size - 1) + ", beyond the " + std::to_string(definitions_.location_count) +
                      " locations");
    if (size > 2 * defined[icomm] + 16) continue;
    std::vector<Location> members(static_cast<std::size_t>(size), -1);
    for (std::int32_t rank = 0; rank < size; ++rank) {
      auto it = world_ranks_.find(comm_key(icomm, rank));
      if (it != world_ranks_.end()) members[rank] = static_cast<Location>(std::int64_t(it->second) * threads_);
    }
    definitions_.communicator_sizes[icomm] = static_cast<std::uint32_t>(size);
    definitions_.location_groups[icomm] = std::move(members);
    definitions_.communicator_groups[icomm] = icomm;
  }
  // Every record's own location must resolve: a second pass would otherwise fail midway.
  offset_ = kPreambleSize;
  scanned_events_ = 0;
  for (;;) {
    scan_at_ = offset_;
    if (!next_record(r)) break;
    if (r.type < kBareEvt || r.type > kCollEvt) continue;
    definitions_.ensure_location(own_location(r));
    ++scanned_events_;
  }
}

const Clog2Decoder::EventType& Clog2Decoder::event_type(std::int32_t etype, bool coll) {
  auto& table = coll ? collective_types_ : event_types_;
  auto it = table.find(etype);
  if (it != table.end()) return it->second;
  if (coll) {  // a collective's etype named by an event definition keeps that name
    auto named = event_types_.find(etype);
    if (named != event_types_.end() && named->second.kind == EventKind::Other)
      return table[etype] = named->second;
  }
  const SymbolId type = definitions_.types.intern((coll ? "collective " : "event ") + std::to_string(etype));
  return table[etype] = EventType{EventKind::Other, type, 0};
}

std::int64_t Clog2Decoder::world_rank(std::int32_t icomm, std::int32_t rank) const {
  if (world_ranks_.empty()) return rank;  // no communicator records: ranks are world ranks
  auto it = world_ranks_.find(comm_key(icomm, rank));
  return it == world_ranks_.end() ? -1 : it->second;
}

Location Clog2Decoder::own_location(const Record& r) const {
  const std::int64_t wrank = world_rank(r.icomm, r.rank);
  if (wrank < 0 || wrank * threads_ >= kMaxLocations)
    fail_at(r.offset, "rank " + std::to_string(r.rank) + " of communicator " + std::to_string(r.icomm) +
                          " is not defined by any communicator record");
  return static_cast<Location>(wrank * threads_ + r.thread);
}

Location Clog2Decoder::peer_location(std::int32_t icomm, std::int32_t rank) const {
  const std::int64_t wrank = world_rank(icomm, rank);
  if (wrank < 0 || wrank * threads_ >= definitions_.location_count) return -1;
  return static_cast<Location>(wrank * threads_);
}

bool Clog2Decoder::read(Event& e) {
  ensure_scanned();
  Record r;
  for (;;) {
    if (!next_record(r)) return false;
    if (r.type == kBareEvt || r.type == kCargoEvt || r.type == kMsgEvt || r.type == kCollEvt) break;
  }
  e.time = r.time;
  e.loc = own_location(r);
  e.sendptr = 0;
  e.tag = 0;
  e.com = -1;
  e.len = 0;
  e.peer = -1;
  e.region = 0;
  e.flags = 0;
  e.data1 = Value();
  e.data2 = Value();
  switch (r.type) {
    case kBareEvt:
    case kCargoEvt: {
      auto it = event_types_.find(i32(r, 0));
      if (it == event_types_.end()) fail_at(r.offset, "event type unknown to the first pass (file changed?)");
      e.kind = it->second.kind;
      e.type = it->second.type;
      e.region = it->second.region;
      if (r.type == kCargoEvt && e.kind == EventKind::Other) {
        std::size_t n = kCargoSize;
        while (n > 0 && r.body[cargo_evt::bytes + n - 1] == 0) --n;  // the unused tail
        e.data1 = Value::of_string(definitions_.strings.intern(
            std::string_view(reinterpret_cast<const char*>(r.body + cargo_evt::bytes), n)));
      }
      break;
    }
    case kMsgEvt: {
      const std::int32_t etype = i32(r, msg_evt::etype);
      e.kind = etype == kSendMsg ? EventKind::Send : EventKind::Recv;
      e.type = etype == kSendMsg ? kSendType : kRecvType;
      e.peer = peer_location(i32(r, msg_evt::icomm), i32(r, msg_evt::rank));
      if (e.peer < 0) e.flags |= kUnresolvedReference;
      e.tag = i32(r, msg_evt::tag);
      e.com = r.icomm;
      e.len = static_cast<std::uint64_t>(std::max(0, i32(r, msg_evt::size)));
      break;
    }
    case kCollEvt: {
      auto it = collective_types_.find(i32(r, coll_evt::etype));
      if (it == collective_types_.end()) fail_at(r.offset, "event type unknown to the first pass (file changed?)");
      e.kind = EventKind::Other;
      e.type = it->second.type;
      const Location root = peer_location(r.icomm, i32(r, coll_evt::root));
      e.data1 = Value::of_int(root);
      e.data2 = Value::of_int(i32(r, coll_evt::size));
      break;
    }
  }
  return true;
}

void Clog2Decoder::seek(const DecoderPosition& position) {
  ensure_scanned();
  if (position.words.size() != 1 || position.words[0] < kPreambleSize || position.words[0] > data_end_)
    throw EarlError(path_ + ": invalid decoder position");
  offset_ = position.words[0];
}

double Clog2Decoder::progress() const {
  const std::uint64_t end = std::min(stop_, data_end_);
  if (end <= kPreambleSize) return 1.0;
  return std::min(1.0, double(offset_ - kPreambleSize) / double(end - kPreambleSize));
}

std::vector<StreamDamage> Clog2Decoder::damage() const {
  ensure_scanned();
  if (!damage_) return {};
  const Damage& d = *damage_;
  StreamDamage entry;
  entry.loc = -1;
  entry.record = d.events_before + 1;
  const std::string read = d.events_before == 1 ? "the event record before it was read"
                                                : "the " + std::to_string(d.events_before) +
                                                      " event records before it were read";
  // A file cut at or just before a block's start ends before the record named; one whose
  // communicator table alone is cut had all its records read.
  const std::string lost = d.offset < data_end_ ? "the file's bytes " + std::to_string(d.offset) + " to " +
                                                      std::to_string(data_end_) + " were not"
                           : d.complete ? "nothing after them was lost"
                                        : "the rest of the file is missing";
  entry.message = d.error + "; " + read + ", " + lost;
  return {entry};
}

// The state: the definitions, then tables of the file's size and where its blocks end
// (a check), the event types (etype, kind, type, region), the collective types, and the
// communicators' world ranks ((icomm, rank) key, world rank), each sorted by key.
bool Clog2Decoder::save_state(DecoderState& state) const {
  ensure_scanned();
  if (damage_) return false;  // found again at every open (EventTrace keeps no index then)
  state.definitions = definitions_;
  state.tables.assign(4, {});
  state.tables[0] = {file_size_, data_end_};
  auto put = [](std::vector<std::uint64_t>& out, const std::unordered_map<std::int32_t, EventType>& types) {
    std::vector<std::int32_t> keys;
    for (const auto& entry : types) keys.push_back(entry.first);
    std::sort(keys.begin(), keys.end());
    for (std::int32_t key : keys) {
      const EventType& t = types.at(key);
      out.insert(out.end(), {std::uint32_t(key), std::uint64_t(t.kind), t.type, t.region});
    }
  };
  put(state.tables[1], event_types_);
  put(state.tables[2], collective_types_);
  std::vector<std::pair<std::uint64_t, std::int32_t>> ranks(world_ranks_.begin(), world_ranks_.end());
  std::sort(ranks.begin(), ranks.end());
  for (const auto& [key, wrank] : ranks) state.tables[3].insert(state.tables[3].end(), {key, std::uint64_t(wrank)});
  return true;
}

void Clog2Decoder::check_state(bool ok) const {
  if (!ok) throw EarlError(path_ + ": invalid saved decoder state");
}

void Clog2Decoder::restore_state(DecoderState& state) {
  auto& t = state.tables;
  check_state(t.size() == 4 && t[0].size() == 2 && t[0][0] == file_size_ && t[0][1] == data_end_ &&
              t[1].size() % 4 == 0 && t[2].size() % 4 == 0 && t[3].size() % 2 == 0);
  const Definitions& d = state.definitions;
  auto take = [&](const std::vector<std::uint64_t>& in, std::unordered_map<std::int32_t, EventType>& types) {
    types.clear();
    for (std::size_t i = 0; i < in.size(); i += 4) {
      const auto kind = static_cast<EventKind>(in[i + 1]);
      check_state(in[i] <= 0xFFFFFFFFu && in[i + 1] <= 0xFF &&
                  (kind == EventKind::Enter || kind == EventKind::Exit || kind == EventKind::Other) &&
                  in[i + 2] < d.types.size() && (kind == EventKind::Other || in[i + 3] < d.regions.size()));
      types[static_cast<std::int32_t>(std::uint32_t(in[i]))] =
          EventType{kind, static_cast<SymbolId>(in[i + 2]), static_cast<SymbolId>(in[i + 3])};
    }
  };
  take(t[1], event_types_);
  take(t[2], collective_types_);
  world_ranks_.clear();
  for (std::size_t i = 0; i < t[3].size(); i += 2) {
    check_state(t[3][i + 1] < std::uint64_t(kMaxLocations) &&
                std::int64_t(t[3][i + 1]) * threads_ < d.location_count);
    world_ranks_[t[3][i]] = static_cast<std::int32_t>(t[3][i + 1]);
  }
  definitions_ = std::move(state.definitions);
  offset_ = kPreambleSize;
  scanned_ = true;
}

}  // namespace earl
