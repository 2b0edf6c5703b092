#include "formats/alog/alog_writer.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

#include "model/error.h"
#include "output/staged_output.h"

namespace earl {

namespace {
constexpr std::size_t kFlushAt = 1 << 20;
}

AlogWriter::AlogWriter(std::string path, const WriterOptions& options)
    : path_(std::move(path)), options_(options) {
  if (options_.rollover < 0) throw EarlError("roll-over point must be positive");
  file_ = std::make_unique<output::StagedFile>(path_);
  buffer_.reserve(kFlushAt + 4096);
}

AlogWriter::~AlogWriter() = default;  // an uncommitted output is removed

void AlogWriter::fail(const std::string& what) {
  throw EarlError("cannot write '" + path_ + "': " + what);
}

void AlogWriter::put_int(std::int64_t v) {
  if (v < 0) put('-');
  put_uint(v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v));
}

void AlogWriter::put_uint(std::uint64_t u) {
  char digits[24];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u);
  while (n) put(digits[--n]);
}

std::string AlogWriter::refusal(const WriterEvent& e) const {
  switch (e.kind) {
    case WriterEventKind::Enter: case WriterEventKind::Exit: return "";
    case WriterEventKind::Send: case WriterEventKind::Recv: break;
    case WriterEventKind::Fork: case WriterEventKind::Join:
      return threads_ ? "" : "no fork/join in ALOG without threads";
    default: return "no such record in ALOG";  // write() leaves them out (gen)
  }
  const bool send = e.kind == WriterEventKind::Send;
  // The reader takes the peer as a location of the -3 count and the length as a
  // non-negative 64-bit integer.
  if (e.peer < 0 || e.peer >= locations_)
    return send ? "send to an unknown destination" : "recv from an unknown source";
  if (e.len > static_cast<std::uint64_t>(INT64_MAX))
    return std::string(send ? "send" : "recv") + " of more than 2^63-1 bytes";
  return "";
}

void AlogWriter::put_time(std::int64_t us) {
  if (options_.rollover > 0) {
    put_int(us / options_.rollover);
    put(' ');
    put_int(us % options_.rollover);
  } else {
    put("0 ");
    put_int(us);
  }
}

void AlogWriter::flush(bool force) {
  if (!file_ || finished_) fail("file already closed");
  if (!force && buffer_.size() < kFlushAt) return;
  if (!buffer_.empty() && std::fwrite(buffer_.data(), 1, buffer_.size(), file_->stream()) != buffer_.size())
    fail(std::strerror(errno));
  buffer_.clear();
}

void AlogWriter::begin(const TraceHeader& header) {
  // -3: process count in data.
  locations_ = header.locations;
  put("-3 0 0 ");
  put_int(header.locations);
  put(" 0 0\n");
  // -11: roll-over point in timestamp.
  if (options_.rollover > 0) {
    put("-11 0 0 0 0 ");
    put_int(options_.rollover);
    put('\n');
  }
  // -13: task = enter type, data = exit type, comment = "color:pattern Name".
  for (std::size_t i = 0; i < header.regions.size(); ++i) {
    const RegionDef& region = header.regions[i];
    put("-13 0 ");
    put_int(enter_type(static_cast<int>(i)));
    put(' ');
    put_int(exit_type(static_cast<int>(i)));
    put(" 0 0 ");
    put(region.style.empty() ? std::string("black:solid") : region.style);
    put(' ');
    put(renamed_.note("region", region.name, alog_name(region.name, true)));
    put('\n');
  }
  // -9: fork and join of thread teams, after the region types.
  regions_ = static_cast<int>(header.regions.size());
  threads_ = header.threads > 1;
  if (threads_) {
    put("-9 0 0 ");
    put_int(fork_type());
    put(" 0 0 fork\n-9 0 0 ");
    put_int(join_type());
    put(" 0 0 join\n");
  }
  // -15: location names.
  for (std::size_t l = 0; l < header.location_names.size(); ++l) {
    const std::string name = renamed_.note("location", header.location_names[l],
                                           alog_name(header.location_names[l], false));
    if (name.empty()) continue;
    put("-15 ");
    put_int(static_cast<std::int64_t>(l));
    put(" 0 0 0 0 ");
    put(name);
    put('\n');
  }
  flush(false);
}

void AlogWriter::write(const WriterEvent* events, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    const WriterEvent& e = events[i];
    switch (e.kind) {
      case WriterEventKind::Enter:
      case WriterEventKind::Exit:
        put_int(e.kind == WriterEventKind::Enter ? enter_type(e.region) : exit_type(e.region));
        put(' ');
        put_int(e.loc);
        put(" 0 0 ");
        put_time(e.time);
        break;
      case WriterEventKind::Send:
      case WriterEventKind::Recv:
        if (const std::string why = refusal(e); !why.empty()) fail(why);
        put(e.kind == WriterEventKind::Send ? "-101 " : "-102 ");
        put_int(e.loc);
        put(" 0 ");
        put_int(e.peer);
        put(' ');
        put_time(e.time);
        put(' ');
        put_int(e.tag);
        put(' ');
        put_uint(e.len);
        break;
      case WriterEventKind::Fork:
      case WriterEventKind::Join:
        if (!threads_) fail("fork/join events need a header with threads > 1");
        put_int(e.kind == WriterEventKind::Fork ? fork_type() : join_type());
        put(' ');
        put_int(e.loc);
        put(" 0 ");
        put_int(e.tag);
        put(' ');
        put_time(e.time);
        break;
      case WriterEventKind::RmaPut:
      case WriterEventKind::RmaPutComplete:
      case WriterEventKind::IrecvRequest:
      case WriterEventKind::IsendComplete:
      case WriterEventKind::RmaLockRequest:
      case WriterEventKind::RmaLockAcquire:
      case WriterEventKind::RmaLockRelease:
      case WriterEventKind::ProgramBegin:
      case WriterEventKind::ProgramEnd:
        continue;  // ALOG has no one-sided, request or program records; the regions stay
    }
    put('\n');
    if (buffer_.size() >= kFlushAt) flush(true);
  }
}

void AlogWriter::finish() {
  flush(true);
  finished_ = true;
}

void AlogWriter::commit() {
  if (!file_ || !finished_) fail("commit before finish");
  file_->commit();
  file_.reset();
}

void AlogWriter::discard() { file_.reset(); }

}  // namespace earl
