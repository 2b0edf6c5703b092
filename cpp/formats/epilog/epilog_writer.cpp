#include "formats/epilog/epilog_writer.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <unordered_map>

#include "formats/epilog/epilog_input.h"
#include "formats/epilog/epilog_records.h"
#include "model/error.h"
#include "output/staged_output.h"

namespace earl {

using namespace epilog;

namespace {
constexpr std::size_t kFlushAt = 1 << 20;
constexpr std::size_t kMaxBody = 255;

// Lock requests, request records and program begin/end have no EPILOG record.
bool has_record(WriterEventKind kind) {
  switch (kind) {
    case WriterEventKind::RmaLockRequest:
    case WriterEventKind::IrecvRequest:
    case WriterEventKind::IsendComplete:
    case WriterEventKind::ProgramBegin:
    case WriterEventKind::ProgramEnd: return false;
    default: return true;
  }
}
}  // namespace

EpilogWriter::EpilogWriter(std::string path, const WriterOptions& options)
    : path_(std::move(path)), big_(options.big_endian) {
  file_ = std::make_unique<output::StagedFile>(path_);
}

EpilogWriter::~EpilogWriter() = default;

void EpilogWriter::fail(const std::string& what) {
  throw EarlError("cannot write '" + path_ + "': " + what);
}

void EpilogWriter::flush(bool force) {
  if (!file_ || finished_) fail("file already closed");
  if (!force && buffer_.size() < kFlushAt) return;
  if (!buffer_.empty() && std::fwrite(buffer_.data(), 1, buffer_.size(), file_->stream()) != buffer_.size())
    fail(std::strerror(errno));
  buffer_.clear();
}

void EpilogWriter::record(std::uint8_t type, const std::string& body) {
  if (body.size() > kMaxBody) fail("record body over 255 bytes (type " + std::to_string(type) + ")");
  buffer_.push_back(static_cast<char>(body.size()));
  buffer_.push_back(static_cast<char>(type));
  buffer_ += body;
}

std::uint32_t EpilogWriter::string_id(const std::string& text) {
  // Each distinct text once; a text longer than the first record holds (250 bytes) goes on
  // in STRING_CNT records, the last piece ending with a NUL.
  for (std::size_t i = 0; i < strings_.size(); ++i)
    if (strings_[i] == text) return static_cast<std::uint32_t>(i);
  const std::uint32_t id = static_cast<std::uint32_t>(strings_.size());
  strings_.push_back(text);
  std::string rest = text + '\0';
  const std::size_t first = std::min(rest.size(), kMaxBody - 5);
  const std::size_t more = (rest.size() - first + kMaxBody - 1) / kMaxBody;
  if (more > 255) fail("a name of more than 65 000 bytes");
  std::string body;
  put_u4(body, id, big_);
  body.push_back(static_cast<char>(more));
  body.append(rest, 0, first);
  record(STRING, body);
  for (std::size_t at = first; at < rest.size(); at += kMaxBody) record(STRING_CNT, rest.substr(at, kMaxBody));
  return id;
}

void EpilogWriter::begin(const TraceHeader& header) {
  locations_ = header.locations;
  threads_ = header.threads > 0 ? header.threads : 1;
  buffer_.append(kMagic, sizeof kMagic);
  buffer_.push_back(static_cast<char>(kWrittenMajor));
  buffer_.push_back(static_cast<char>(kWrittenMinor));
  buffer_.push_back(static_cast<char>(big_ ? kBigEndian : kLittleEndian));
  const int processes = (locations_ + threads_ - 1) / threads_;
  std::string b;
  auto reset = [&] { b.clear(); };
  // One machine with one node holding every process.
  const std::uint32_t machine_name = string_id("machine");
  const std::uint32_t node_name = string_id("node");
  reset(); put_u4(b, 0, big_); put_u4(b, 1, big_); put_u4(b, machine_name, big_); record(MACHINE, b);
  reset(); put_u4(b, 0, big_); put_u4(b, 0, big_); put_u4(b, static_cast<std::uint32_t>(locations_), big_);
  put_u4(b, node_name, big_); put_d8(b, 1e6, big_); record(NODE, b);
  for (int p = 0; p < processes; ++p) {
    reset(); put_u4(b, p, big_); put_u4(b, kNoId, big_); record(PROCESS, b);
  }
  for (int l = 0; l < locations_; ++l) {
    // A location's name is its thread's (the reader gives a thread's name alone).
    const bool named = static_cast<std::size_t>(l) < header.location_names.size() &&
                       !header.location_names[l].empty();
    const std::uint32_t name = named ? string_id(header.location_names[l]) : kNoId;
    reset(); put_u4(b, l % threads_, big_); put_u4(b, l / threads_, big_); put_u4(b, name, big_);
    record(THREAD, b);
    reset(); put_u4(b, l, big_); put_u4(b, 0, big_); put_u4(b, 0, big_); put_u4(b, l / threads_, big_);
    put_u4(b, l % threads_, big_); record(LOCATION, b);
  }
  for (std::size_t r = 0; r < header.regions.size(); ++r) {
    const RegionDef& region = header.regions[r];
    const std::uint32_t name = string_id(region.name);
    const std::uint32_t group = string_id(region.group.empty() ? "USER" : region.group);
    reset(); put_u4(b, static_cast<std::uint32_t>(r), big_); put_u4(b, name, big_);
    put_u4(b, kNoId, big_); put_u4(b, kNoId, big_); put_u4(b, kNoId, big_); put_u4(b, group, big_);
    b.push_back(1);  // ELG_FUNCTION
    record(REGION, b);
  }
  // Communicator 0: every process, as a bit string of world ranks (continued past 246 bytes).
  std::string bits((processes + 7) / 8, '\0');
  for (int p = 0; p < processes; ++p) bits[p / 8] = static_cast<char>(bits[p / 8] | (1 << (p % 8)));
  reset(); put_u4(b, 0, big_); b.push_back(0); put_u4(b, static_cast<std::uint32_t>(bits.size()), big_);
  const std::size_t first = std::min(bits.size(), kMaxBody - 9);
  b.append(bits, 0, first);
  record(MPI_COMM, b);
  for (std::size_t at = first; at < bits.size(); at += kMaxBody) record(MPI_COMM_CNT, bits.substr(at, kMaxBody));
  if (header.rma_window) {
    reset(); put_u4(b, 0, big_); put_u4(b, 0, big_); record(MPI_WIN, b);
  }
  flush(false);
}

std::string EpilogWriter::refusal(const WriterEvent& e) const {
  if (!has_record(e.kind)) return "no such record in EPILOG";  // write() leaves them out
  auto peer_needed = [&](const char* what) -> std::string {
    if (e.peer < 0 || e.peer >= locations_) return std::string(what) + " with a peer that is no location";
    return "";
  };
  switch (e.kind) {
    case WriterEventKind::Send:
    case WriterEventKind::Recv: {
      const bool send = e.kind == WriterEventKind::Send;
      std::string why = peer_needed(send ? "send" : "recv");
      if (!why.empty()) return why;
      if (e.tag < 0 || e.tag > UINT32_MAX) return "message tag outside 0..2^32-1";
      if (send && e.len > UINT32_MAX) return "message of more than 2^32-1 bytes";
      return "";
    }
    case WriterEventKind::RmaPut: {
      std::string why = peer_needed("put");
      if (!why.empty()) return why;
      if (e.tag < 0 || e.tag > UINT32_MAX) return "put id outside 0..2^32-1";
      if (e.len > UINT32_MAX) return "put of more than 2^32-1 bytes";
      return "";
    }
    case WriterEventKind::RmaLockAcquire:
    case WriterEventKind::RmaLockRelease: return peer_needed("window lock");

    case WriterEventKind::Exit:
      if ((e.flags & kWriterCollective) && (e.len > UINT32_MAX || e.received > UINT32_MAX))
        return "collective of more than 2^32-1 bytes";
      return "";
    default: return "";
  }
}

void EpilogWriter::event_head(std::string& body, std::int32_t loc, std::int64_t time_us) const {
  body.clear();
  put_u4(body, static_cast<std::uint32_t>(loc), big_);
  // Divided, not multiplied by 1e-6: the correctly rounded seconds (10 us is 1e-05, not
  // 9.999999999999999e-06), as the other formats' readers give them.
  put_d8(body, static_cast<double>(time_us) / 1e6, big_);
}

void EpilogWriter::write(const WriterEvent* events, std::size_t count) {
  std::string b;
  for (std::size_t i = 0; i < count; ++i) {
    const WriterEvent& e = events[i];
    if (!has_record(e.kind)) continue;  // see the header
    const std::string why = refusal(e);
    if (!why.empty()) fail(why);
    if (e.loc < 0 || e.loc >= locations_) fail("event on location " + std::to_string(e.loc));
    const std::uint32_t tag = static_cast<std::uint32_t>(e.tag);
    switch (e.kind) {
      case WriterEventKind::Enter:
        event_head(b, e.loc, e.time);
        put_u4(b, static_cast<std::uint32_t>(e.region), big_);
        record(ENTER, b);
        break;
      case WriterEventKind::Exit:
        event_head(b, e.loc, e.time);
        if (e.flags & kWriterCollective) {
          put_u4(b, e.peer < 0 ? kNoId : rank(e.peer), big_);
          put_u4(b, 0, big_);
          put_u4(b, static_cast<std::uint32_t>(e.len), big_);
          put_u4(b, static_cast<std::uint32_t>(e.received), big_);
          record(MPI_COLLEXIT, b);
        } else if (e.flags & kWriterRmaCollective) {
          put_u4(b, 0, big_);
          record(MPI_WINCOLLEXIT, b);
        } else {
          record(EXIT, b);
        }
        break;
      case WriterEventKind::Send:
      case WriterEventKind::Recv: {
        const bool send = e.kind == WriterEventKind::Send;
        event_head(b, e.loc, e.time);
        put_u4(b, rank(e.peer), big_);
        put_u4(b, 0, big_);
        put_u4(b, tag, big_);
        if (send) put_u4(b, static_cast<std::uint32_t>(e.len), big_);
        record(send ? MPI_SEND : MPI_RECV, b);
        break;
      }
      case WriterEventKind::Fork:
      case WriterEventKind::Join:
        event_head(b, e.loc, e.time);
        record(e.kind == WriterEventKind::Fork ? OMP_FORK : OMP_JOIN, b);
        break;
      case WriterEventKind::RmaPut:
        event_head(b, e.loc, e.time);
        put_u4(b, rank(e.peer), big_);
        put_u4(b, 0, big_);
        put_u4(b, tag, big_);
        put_u4(b, static_cast<std::uint32_t>(e.len), big_);
        record(MPI_PUT_1TS, b);
        open_puts_[{e.loc, e.tag}] = e.peer;
        break;
      case WriterEventKind::RmaPutComplete: {
        // The transfer ends where the data arrive: on the target, naming the origin.
        auto put = open_puts_.find({e.loc, e.tag});
        if (put == open_puts_.end())
          fail("put completion on location " + std::to_string(e.loc) + " without its put (id " +
               std::to_string(e.tag) + ")");
        const std::int32_t target = put->second;
        open_puts_.erase(put);
        event_head(b, target, e.time);
        put_u4(b, rank(e.loc), big_);
        put_u4(b, 0, big_);
        put_u4(b, tag, big_);
        record(MPI_PUT_1TE, b);
        break;
      }
      case WriterEventKind::RmaLockAcquire:
      case WriterEventKind::RmaLockRelease: {
        const bool lock = e.kind == WriterEventKind::RmaLockAcquire;
        event_head(b, e.loc, e.time);
        put_u4(b, rank(e.peer), big_);
        put_u4(b, 0, big_);
        if (lock) b.push_back(static_cast<char>(e.tag == 1 ? kMpi2LockExclusive : 0));
        record(lock ? MPI_WIN_LOCK : MPI_WIN_UNLOCK, b);
        break;
      }
      default:
        break;  // no EPILOG record (see the header)
    }
  }
  flush(false);
}

void EpilogWriter::finish() {
  flush(true);
  finished_ = true;
}

void EpilogWriter::commit() {
  if (!file_) fail("nothing to commit");
  file_->commit();
}

void EpilogWriter::discard() {
  if (file_) file_->discard();
}

}  // namespace earl
