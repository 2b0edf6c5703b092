#include "formats/clog2/clog2_writer.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unordered_set>
#include <utility>

#include "formats/clog2/clog2_layout.h"
#include "formats/clog2/clog2_preamble.h"
#include "model/clock.h"
#include "model/error.h"
#include "output/staged_output.h"

namespace earl {

using namespace clog2;

namespace {

// `text` cut to at most `length` bytes, not inside a UTF-8 character.
std::string cut_to(std::string text, std::size_t length) {
  if (text.size() <= length) return text;
  std::size_t end = length;
  for (int back = 0; back < 3 && end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80; ++back) --end;
  if ((static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) end = length;  // not UTF-8 after all
  text.resize(end);
  return text;
}

// A name as a fixed CLOG2 string field of `size` bytes: NUL escaped, cut to size - 1
// bytes so that the NUL that ends it fits.
std::string field_text(const std::string& name, std::size_t size) {
  std::string out;
  for (char c : name) out += c == '\0' ? escaped_byte(0) : std::string(1, c);
  return cut_to(std::move(out), size - 1);
}

// The state definitions' names. The reader makes one region per name, so a changed name
// (cut or escaped) must not become another region's: names that fit are written as they
// are and reserved first; a changed one gets its cut text where no other region has it,
// else that text cut shorter and ended by "~2", "~3", ... (the first one free).
std::vector<std::string> state_names(const std::vector<RegionDef>& regions) {
  std::vector<std::string> out(regions.size());
  std::unordered_set<std::string> taken;
  for (std::size_t i = 0; i < regions.size(); ++i) {
    std::string text = field_text(regions[i].name, kNameSize);
    if (text == regions[i].name) taken.insert(out[i] = std::move(text));
  }
  for (std::size_t i = 0; i < regions.size(); ++i) {
    std::string text = field_text(regions[i].name, kNameSize);
    if (text == regions[i].name) continue;
    for (int n = 2; taken.count(text); ++n) {
      const std::string suffix = "~" + std::to_string(n);
      text = cut_to(field_text(regions[i].name, kNameSize), kNameSize - 1 - suffix.size()) + suffix;
    }
    taken.insert(out[i] = std::move(text));
  }
  return out;
}

void put_field(unsigned char* p, const std::string& text) { std::memcpy(p, text.data(), text.size()); }

// MPE's communicator id (a uuid: int32 random, double time, 20 name bytes): any value
// unique in the file serves; this one names the writer.
void put_world_uuid(unsigned char* p) {
  store_u32(p, 1);
  store_f64(p + 4, 0.0);
  std::memcpy(p + 12, "EARL MPI_COMM_WORLD", 19);
}

}  // namespace

Clog2Writer::Clog2Writer(std::string path, const WriterOptions&) : path_(std::move(path)) {
  file_ = std::make_unique<output::StagedFile>(path_);
  block_.assign(kDefaultBlockSize, 0);
}

Clog2Writer::~Clog2Writer() = default;

void Clog2Writer::fail(const std::string& what) { throw EarlError("cannot write '" + path_ + "': " + what); }

void Clog2Writer::put_bytes(const void* data, std::size_t size) {
  if (!file_ || finished_) fail("file already closed");
  if (size && std::fwrite(data, 1, size, file_->stream()) != size) fail(std::strerror(errno));
  written_ += size;
}

void Clog2Writer::flush_block() {
  std::memset(block_.data() + used_, 0, block_.size() - used_);
  put_bytes(block_.data(), block_.size());
  used_ = 0;
}

void Clog2Writer::record(double time, std::int32_t rank, std::int32_t thread, std::int32_t type,
                         const unsigned char* body) {
  const std::size_t size = kHeaderSize + kBodySize[type];
  // Every record leaves room for the end-of-block or end-of-log record after it.
  if (type != kEndLog && type != kEndBlock && used_ + size + kHeaderSize > block_.size()) {
    record(last_time_, 0, 0, kEndBlock, nullptr);  // MPE stamps it with the last record's time
    flush_block();
  }
  unsigned char* p = block_.data() + used_;
  store_f64(p, time);
  store_u32(p + 8, 0);  // icomm: MPI_COMM_WORLD
  store_u32(p + 12, static_cast<std::uint32_t>(rank));
  store_u32(p + 16, static_cast<std::uint32_t>(thread));
  store_u32(p + 20, static_cast<std::uint32_t>(type));
  if (kBodySize[type]) std::memcpy(p + kHeaderSize, body, kBodySize[type]);
  used_ += size;
  if (type != kEndLog && type != kEndBlock) last_time_ = time;
}

void Clog2Writer::begin(const TraceHeader& header) {
  locations_ = header.locations;
  threads_ = header.threads > 0 ? header.threads : 1;
  if (locations_ % threads_ != 0) fail("locations are not a whole number of processes");
  regions_ = static_cast<int>(header.regions.size());
  const std::vector<std::string> names = state_names(header.regions);
  put_bytes(std::string(kPreambleSize, '\0').data(), kPreambleSize);  // rewritten by finish()
  const int processes = locations_ / threads_;
  unsigned char body[256];
  for (int p = 0; p < processes; ++p) {
    std::memset(body, 0, sizeof body);
    store_u32(body + comm_evt::etype, kCommWorldCreate);
    store_u32(body + comm_evt::icomm, 0);
    store_u32(body + comm_evt::rank, static_cast<std::uint32_t>(p));
    store_u32(body + comm_evt::wrank, static_cast<std::uint32_t>(p));
    put_world_uuid(body + comm_evt::gcomm);
    record(0.0, p, 0, kCommEvt, body);
  }
  for (int i = 0; i < regions_; ++i) {
    const RegionDef& region = header.regions[static_cast<std::size_t>(i)];
    std::memset(body, 0, sizeof body);
    store_u32(body + state_def::id, static_cast<std::uint32_t>(kUserStateIdStart + i));
    store_u32(body + state_def::start, static_cast<std::uint32_t>(kUserEventIdStart + 2 * i));
    store_u32(body + state_def::final, static_cast<std::uint32_t>(kUserEventIdStart + 2 * i + 1));
    const std::string color = region.style.substr(0, region.style.find(':'));
    put_field(body + state_def::color, field_text(color.empty() ? "gray" : color, kColorSize));
    put_field(body + state_def::name,
              renamed_.note("region", region.name, names[static_cast<std::size_t>(i)]));
    record(0.0, 0, 0, kStateDef, body);
  }
}

std::string Clog2Writer::refusal(const WriterEvent& e) const {
  switch (e.kind) {
    case WriterEventKind::Enter:
    case WriterEventKind::Exit:
      return e.region >= 0 && e.region < regions_ ? "" : "enter/exit of an undefined region";
    case WriterEventKind::Send:
    case WriterEventKind::Recv: {
      const bool send = e.kind == WriterEventKind::Send;
      if (e.peer < 0 || e.peer >= locations_)
        return send ? "send to an unknown destination" : "recv from an unknown source";
      if (e.peer % threads_ != 0)
        return send ? "send to a thread other than its process's first (CLOG2 names processes)"
                    : "recv from a thread other than its process's first (CLOG2 names processes)";
      if (e.tag < INT32_MIN || e.tag > INT32_MAX) return "message tag beyond CLOG2's 32 bits";
      if (e.len > static_cast<std::uint64_t>(INT32_MAX)) return "message of 2^31 bytes or more (CLOG2's 32 bits)";
      return "";
    }
    case WriterEventKind::Fork:
    case WriterEventKind::Join:
      return "CLOG2 has no thread fork/join records";
    case WriterEventKind::RmaPut:
    case WriterEventKind::RmaPutComplete:
    case WriterEventKind::RmaLockRequest:
    case WriterEventKind::RmaLockAcquire:
    case WriterEventKind::RmaLockRelease:
      return "CLOG2 has no one-sided communication records";
    case WriterEventKind::IrecvRequest:
    case WriterEventKind::IsendComplete:
      return "CLOG2 has no request records";
    case WriterEventKind::ProgramBegin:
    case WriterEventKind::ProgramEnd:
      return "CLOG2 has no program begin/end records";
  }
  return "";
}

void Clog2Writer::write(const WriterEvent* events, std::size_t count) {
  unsigned char body[64];
  for (std::size_t i = 0; i < count; ++i) {
    const WriterEvent& e = events[i];
    const std::string why = refusal(e);
    const bool message = e.kind == WriterEventKind::Send || e.kind == WriterEventKind::Recv;
    const bool state = e.kind == WriterEventKind::Enter || e.kind == WriterEventKind::Exit;
    if (!why.empty() && (message || state)) fail(why);
    if (!why.empty()) continue;  // no CLOG2 record for it; the regions around it stay
    if (e.loc < 0 || e.loc >= locations_) fail("event of location " + std::to_string(e.loc) + " outside the header's");
    const double time = ticks_to_seconds(e.time, kMicrosecondsPerSecond);
    const std::int32_t rank = e.loc / threads_, thread = e.loc % threads_;
    std::memset(body, 0, sizeof body);
    if (state) {
      const std::int32_t etype = kUserEventIdStart + 2 * e.region + (e.kind == WriterEventKind::Exit ? 1 : 0);
      store_u32(body, static_cast<std::uint32_t>(etype));
      record(time, rank, thread, kBareEvt, body);
    } else {
      store_u32(body + msg_evt::etype, static_cast<std::uint32_t>(e.kind == WriterEventKind::Send ? kSendMsg : kRecvMsg));
      store_u32(body + msg_evt::icomm, 0);
      store_u32(body + msg_evt::rank, static_cast<std::uint32_t>(e.peer / threads_));
      store_u32(body + msg_evt::tag, static_cast<std::uint32_t>(static_cast<std::int32_t>(e.tag)));
      store_u32(body + msg_evt::size, static_cast<std::uint32_t>(e.len));
      record(time, rank, thread, kMsgEvt, body);
    }
  }
}

void Clog2Writer::finish() {
  record(kMaxTime, 0, 0, kEndLog, nullptr);
  flush_block();
  Preamble preamble;
  preamble.version = kWrittenVersion;
  preamble.big_endian = true;
  preamble.finalized = true;
  preamble.block_size = block_.size();
  preamble.buffered_blocks = kDefaultBufferedBlocks;
  preamble.world_size = locations_ / threads_;
  preamble.thread_count = threads_;
  preamble.user_state_count = regions_;
  preamble.commtable_offset = written_;
  // The communicator table: MPI_COMM_WORLD alone, local id 0, an intracommunicator.
  unsigned char table[4 + kCommTableEntry] = {};
  store_u32(table, 1);
  put_world_uuid(table + 4);
  store_u32(table + 4 + kUuidSize, 0);
  store_u32(table + 4 + kUuidSize + 4, static_cast<std::uint32_t>(kCommKindIntra));
  put_bytes(table, sizeof table);
  const std::string head = format_preamble(preamble);
  if (std::fseek(file_->stream(), 0, SEEK_SET) != 0 ||
      std::fwrite(head.data(), 1, head.size(), file_->stream()) != head.size())
    fail(std::strerror(errno));
  finished_ = true;
}

void Clog2Writer::commit() {
  if (!file_ || !finished_) fail("commit before finish");
  file_->commit();
  file_.reset();
}

void Clog2Writer::discard() { file_.reset(); }

}  // namespace earl
