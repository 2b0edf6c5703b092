#include "formats/chrome/chrome_writer.h"

#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

#include "formats/chrome/chrome_json_text.h"
#include "model/error.h"
#include "output/staged_output.h"

namespace earl {

namespace {
constexpr std::size_t kFlushAt = 1 << 20;

bool ends_with(const std::string& text, const char* suffix) {
  const std::size_t n = std::strlen(suffix);
  return text.size() >= n && text.compare(text.size() - n, n, suffix) == 0;
}

const char* instant_name(WriterEventKind kind) {
  switch (kind) {
    case WriterEventKind::Fork: return "fork";
    case WriterEventKind::Join: return "join";
    case WriterEventKind::RmaPut: return "rma_put";
    case WriterEventKind::RmaPutComplete: return "rma_put_complete";
    case WriterEventKind::IrecvRequest: return "irecv_request";
    case WriterEventKind::IsendComplete: return "isend_complete";
    case WriterEventKind::RmaLockRequest: return "rma_lock_request";
    case WriterEventKind::RmaLockAcquire: return "rma_lock_acquire";
    case WriterEventKind::RmaLockRelease: return "rma_lock_release";
    case WriterEventKind::ProgramBegin: return "program_begin";
    case WriterEventKind::ProgramEnd: return "program_end";
    default: return "event";
  }
}

// A time in microseconds to the nanosecond, without trailing zeros.
std::string microseconds(double us) {
  char text[64];
  std::snprintf(text, sizeof text, "%.3f", us);
  std::string out = text;
  while (out.back() == '0') out.pop_back();
  if (out.back() == '.') out.pop_back();
  return out;
}
}  // namespace

// Deflates the output into the staged file as gzip (zlib's gzip wrapper).
class ChromeWriter::Compressor {
 public:
  explicit Compressor(std::FILE* out) : out_(out) {
    std::memset(&z_, 0, sizeof z_);
    if (deflateInit2(&z_, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
      throw EarlError("cannot start gzip compression");
  }
  ~Compressor() { deflateEnd(&z_); }
  // Returns false when the file cannot be written.
  bool put(const std::string& data, bool last) {
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z_.avail_in = static_cast<uInt>(data.size());
    unsigned char chunk[1 << 16];
    int code;
    do {
      z_.next_out = chunk;
      z_.avail_out = sizeof chunk;
      code = deflate(&z_, last ? Z_FINISH : Z_NO_FLUSH);
      const std::size_t n = sizeof chunk - z_.avail_out;
      if (n && std::fwrite(chunk, 1, n, out_) != n) return false;
    } while (z_.avail_out == 0 || (last && code != Z_STREAM_END));
    return true;
  }

 private:
  std::FILE* out_;
  z_stream z_;
};

ChromeWriter::ChromeWriter(std::string path, const WriterOptions&) : path_(std::move(path)) {
  file_ = std::make_unique<output::StagedFile>(path_);
  if (ends_with(path_, ".gz")) gzip_ = std::make_unique<Compressor>(file_->stream());
  buffer_.reserve(kFlushAt + 4096);
}

ChromeWriter::~ChromeWriter() = default;  // an uncommitted output is removed

void ChromeWriter::fail(const std::string& what) { throw EarlError("cannot write '" + path_ + "': " + what); }

void ChromeWriter::flush(bool force) {
  if (!file_ || finished_) fail("file already closed");
  if (!force && buffer_.size() < kFlushAt) return;
  const bool ok = gzip_ ? gzip_->put(buffer_, false)
                        : (buffer_.empty() || std::fwrite(buffer_.data(), 1, buffer_.size(), file_->stream()) == buffer_.size());
  if (!ok) fail(std::strerror(errno));
  buffer_.clear();
}

void ChromeWriter::record(const std::string& json) {
  buffer_ += first_ ? "\n" : ",\n";
  first_ = false;
  buffer_ += json;
  flush(false);
}

std::string ChromeWriter::name(const char* kind, const std::string& text) {
  bool changed = false;
  std::string literal = chrome_json_string(text, changed);
  // RenamedNames counts a kind when what is written differs from the name.
  renamed_.note(kind, text, changed ? std::string(1, '\0') + text : text);
  return literal;
}

void ChromeWriter::place(std::int32_t loc) {
  line_ += "\"pid\":" + std::to_string(loc / threads_) + ",\"tid\":" + std::to_string(loc);
}

void ChromeWriter::begin(const TraceHeader& header) {
  threads_ = header.threads > 0 ? header.threads : 1;
  locations_ = header.locations;
  annotated_.assign(static_cast<std::size_t>(header.locations), 0);
  buffer_ += "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[";
  const int processes = header.processes();
  for (int p = 0; p < processes; ++p) {
    const std::size_t i = static_cast<std::size_t>(p);
    if (i >= header.process_names.size() || !header.process_names[i]) continue;
    record("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + std::to_string(p) + ",\"args\":{\"name\":" +
           name("process", *header.process_names[i]) + "}}");
  }
  for (int l = 0; l < header.locations; ++l) {
    const std::size_t i = static_cast<std::size_t>(l);
    line_.clear();
    place(l);
    const std::string at = line_;
    record("{\"ph\":\"M\",\"name\":\"thread_sort_index\"," + at + ",\"args\":{\"sort_index\":" + std::to_string(l) + "}}");
    std::string thread = i < header.location_names.size() ? header.location_names[i] : "";
    if (thread.empty() && i < header.thread_names.size() && header.thread_names[i]) thread = *header.thread_names[i];
    // Written also when empty: EARL's reader names an unnamed thread by its pid and tid.
    record("{\"ph\":\"M\",\"name\":\"thread_name\"," + at + ",\"args\":{\"name\":" + name("thread", thread) + "}}");
    thread_names_.push_back(thread);
  }
  for (const RegionDef& r : header.regions) {
    regions_.push_back(name("region", r.name));
    bool changed = false;
    groups_.push_back(chrome_json_string(r.group.empty() ? "All" : r.group, changed));
  }
}

void ChromeWriter::write(const WriterEvent* events, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    const WriterEvent& e = events[i];
    line_.clear();
    const std::string ts = ",\"ts\":" + std::to_string(e.time) + ",";
    const bool has_region = e.region >= 0 && static_cast<std::size_t>(e.region) < regions_.size();
    switch (e.kind) {
      case WriterEventKind::Enter:
        if (!has_region) fail("enter of an undefined region " + std::to_string(e.region));
        line_ = "{\"ph\":\"B\",\"name\":" + regions_[e.region] + ",\"cat\":" + groups_[e.region] + ts;
        place(e.loc);
        line_ += "}";
        break;
      case WriterEventKind::Exit:
        line_ = "{\"ph\":\"E\"" + ts;
        place(e.loc);
        if (e.flags & kWriterCollective)
          line_ += ",\"args\":{\"root\":" + std::to_string(e.peer) + ",\"sent\":" + std::to_string(e.len) +
                   ",\"recvd\":" + std::to_string(e.received) + "}";
        line_ += "}";
        break;
      case WriterEventKind::Send:
      case WriterEventKind::Recv: {
        const bool send = e.kind == WriterEventKind::Send;
        const auto key = send ? std::make_tuple(e.loc, e.peer, e.tag) : std::make_tuple(e.peer, e.loc, e.tag);
        // The k-th send of a channel and its k-th receive share one flow id, whichever is
        // written first (a receive precedes its send where clocks are skewed).
        auto& waiting_here = send ? unsent_ : unreceived_;     // the other ends, waiting
        auto& waiting_there = send ? unreceived_ : unsent_;
        std::uint64_t id;
        // The trace viewer merges the args of a flow's ends (warning of each one given twice):
        // the end written second repeats none of the first's (the tag is the same by the
        // matching), only a length of its own.
        std::string args = ",\"args\":{\"tag\":" + std::to_string(e.tag) + ",\"len\":" + std::to_string(e.len) + "}";
        auto found = waiting_here.find(key);
        if (found == waiting_here.end() || found->second.empty()) {
          id = next_flow_++;
          waiting_there[key].push_back({id, e.len});
        } else {
          id = found->second.front().first;
          args = found->second.front().second == e.len ? "" : ",\"args\":{\"len\":" + std::to_string(e.len) + "}";
          found->second.pop_front();
          if (found->second.empty()) waiting_here.erase(found);
        }
        line_ = std::string("{\"ph\":\"") + (send ? "s" : "f") + "\"," + (send ? "" : "\"bp\":\"e\",") +
                "\"name\":\"message\",\"cat\":\"message\",\"id\":" + std::to_string(id) + ts;
        place(e.loc);
        line_ += args + "}";
        break;
      }
      default:
        line_ = std::string("{\"ph\":\"i\",\"s\":\"t\",\"name\":\"") + instant_name(e.kind) + "\"" + ts;
        place(e.loc);
        line_ += "}";
        break;
    }
    record(line_);
  }
}

void ChromeWriter::annotate(const std::vector<WriterAnnotation>& annotations) {
  bool changed = false;
  for (const WriterAnnotation& a : annotations) {
    if (a.loc < 0 || a.loc >= locations_) fail("annotation on an undefined location " + std::to_string(a.loc));
    const std::size_t l = static_cast<std::size_t>(a.loc);
    const std::string at = "\"pid\":" + std::to_string(a.loc / threads_) + ",\"tid\":" + std::to_string(locations_ + a.loc);
    if (!annotated_[l]) {
      annotated_[l] = 1;
      const std::string& thread = thread_names_[l];
      record("{\"ph\":\"M\",\"name\":\"thread_sort_index\"," + at + ",\"args\":{\"sort_index\":" +
             std::to_string(locations_ + a.loc) + "}}");
      record("{\"ph\":\"M\",\"name\":\"thread_name\"," + at + ",\"args\":{\"name\":" +
             chrome_json_string((thread.empty() ? "location " + std::to_string(a.loc) : thread) + " wait states", changed) +
             "}}");
    }
    char idle[40];
    std::snprintf(idle, sizeof idle, "%.9g", a.duration / 1e6);
    record("{\"ph\":\"X\",\"name\":" + chrome_json_string(a.name, changed) + ",\"cat\":\"wait state\",\"ts\":" +
           microseconds(a.begin) + ",\"dur\":" + microseconds(a.duration) + "," + at + ",\"args\":{\"metric\":" +
           chrome_json_string(a.metric, changed) + ",\"callpath\":" + chrome_json_string(a.callpath, changed) +
           ",\"idle\":" + idle + "}}");
  }
}

void ChromeWriter::finish() {
  buffer_ += "\n]}\n";
  flush(true);
  if (gzip_ && !gzip_->put("", true)) fail(std::strerror(errno));
  finished_ = true;
}

void ChromeWriter::commit() { file_->commit(); }

void ChromeWriter::discard() {
  if (file_) file_->discard();
}

}  // namespace earl
