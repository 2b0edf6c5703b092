#include "formats/otf/otf_writer.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <map>

#include <otf.h>

#include "formats/otf/otf_anchor.h"
#include "model/error.h"
#include "output/staged_output.h"

namespace earl {

namespace {

// libotf's files open at once (it closes and reopens beyond).
constexpr uint32_t kOpenFiles = 64;
constexpr uint32_t kWorld = 1;       // process group id of MPI_COMM_WORLD
constexpr uint32_t kCollective = 1;  // the one collective operation definition
constexpr std::int64_t kMicroseconds = 1000000;

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool exists(const std::string& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0;
}

// A staging stub is taken while any part of a trace by that name exists.
bool stub_taken(const std::string& stub) { return exists(stub + ".otf") || exists(stub + ".0.def"); }

uint32_t process_id(std::int32_t loc) { return static_cast<uint32_t>(loc) + 1; }

}  // namespace

OtfWriter::OtfWriter(const std::string& path, const WriterOptions&) {
  stub_ = ends_with(path, ".otf") ? path.substr(0, path.size() - 4) : path;
  anchor_ = stub_ + ".otf";
  staged_stub_ = output::staging_name(stub_, stub_taken);
}

OtfWriter::~OtfWriter() { discard(); }

void OtfWriter::fail(const std::string& what) const { throw EarlError("cannot write '" + anchor_ + "': " + what); }

void OtfWriter::begin(const TraceHeader& header) {
  header_ = header;
  if (header.locations <= 0) fail("a trace needs at least one location");
  locations_.assign(static_cast<std::size_t>(header.locations), Location());
  otf_errno = OTF_NO_ERROR;  // see put()
  manager_ = OTF_FileManager_open(kOpenFiles);
  writer_ = manager_ ? OTF_Writer_open(staged_stub_.c_str(), static_cast<uint32_t>(header.locations), manager_) : nullptr;
  if (!writer_) fail("libotf cannot create its files");
  OTF_Writer_writeDefTimerResolution(writer_, 0, kMicroseconds);

  const int threads = header.threads > 0 ? header.threads : 1;
  for (int loc = 0; loc < header.locations; ++loc) {
    const std::size_t l = static_cast<std::size_t>(loc);
    const int process = loc / threads, thread = loc % threads;
    std::string name;
    if (l < header.location_names.size() && !header.location_names[l].empty()) {
      name = header.location_names[l];
    } else {
      if (static_cast<std::size_t>(process) < header.process_names.size() && header.process_names[process])
        name = *header.process_names[process];
      else
        name = "Process " + std::to_string(process);
      if (thread > 0) name += " / Thread " + std::to_string(thread);
    }
    const uint32_t parent = thread > 0 ? process_id(process * threads) : 0;
    OTF_Writer_assignProcess(writer_, process_id(loc), process_id(loc));
    OTF_Writer_writeDefProcess(writer_, 0, process_id(loc), renamed_.note("location", name, otf_name(name)).c_str(),
                               parent);
  }
  std::vector<uint32_t> world;
  for (int rank = 0; rank < header.processes(); ++rank) {
    const int process = static_cast<std::size_t>(rank) < header.rank_process.size() ? header.rank_process[rank] : rank;
    world.push_back(process_id(process * threads));
  }
  OTF_Writer_writeDefProcessGroup(writer_, 0, kWorld, "MPI_COMM_WORLD", static_cast<uint32_t>(world.size()),
                                  world.data());
  std::map<std::string, uint32_t> groups;
  for (std::size_t r = 0; r < header.regions.size(); ++r) {
    const RegionDef& region = header.regions[r];
    // Without a group, MPI's functions are MPI's and the rest the user's (as OTF2 writes).
    std::string group = !region.group.empty() ? region.group : region.name.rfind("MPI_", 0) == 0 ? "MPI" : "USER";
    auto found = groups.find(group);
    if (found == groups.end()) {
      found = groups.emplace(group, static_cast<uint32_t>(groups.size() + 1)).first;
      OTF_Writer_writeDefFunctionGroup(writer_, 0, found->second,
                                       renamed_.note("group", group, otf_name(group)).c_str());
    }
    OTF_Writer_writeDefFunction(writer_, 0, static_cast<uint32_t>(r + 1),
                                renamed_.note("region", region.name, otf_name(region.name)).c_str(), found->second, 0);
  }
  OTF_Writer_writeDefCollectiveOperation(writer_, 0, kCollective, "MPI collective", OTF_COLLECTIVE_TYPE_UNKNOWN);
}

std::string OtfWriter::refusal(const WriterEvent& e) const {
  if (e.time < 0) return "an event before time 0 (OTF's ticks are unsigned)";
  if (e.kind != WriterEventKind::Send && e.kind != WriterEventKind::Recv) return "";
  const bool send = e.kind == WriterEventKind::Send;
  if (e.peer < 0 || e.peer >= header_.locations)
    return send ? "send to an unknown destination" : "recv from an unknown source";
  // OTF's message records hold the tag (its "type") and the length in 32 bits.
  if (e.tag < 0 || e.tag > static_cast<std::int64_t>(UINT32_MAX))
    return std::string(send ? "send" : "recv") + " with a tag outside 0..2^32-1";
  if (e.len > UINT32_MAX) return std::string(send ? "send" : "recv") + " of more than 2^32-1 bytes";
  return "";
}

void OtfWriter::write(const WriterEvent* events, std::size_t count) {
  if (!writer_) fail("write() before begin()");
  for (std::size_t i = 0; i < count; ++i) {
    const WriterEvent& e = events[i];
    if (e.loc < 0 || e.loc >= header_.locations) fail("an event on location " + std::to_string(e.loc) + ", which the header does not have");
    if (const std::string why = refusal(e); !why.empty()) fail(why);
    Location& at = locations_[static_cast<std::size_t>(e.loc)];
    const int depth = static_cast<int>(at.enters.size());
    if (e.kind == WriterEventKind::Enter) {
      if (at.held_from < 0 && (e.flags & kWriterCollective)) {
        at.held_from = depth;
        at.held.push_back(e);
      } else if (at.held_from >= 0) {
        at.held.push_back(e);
      } else {
        put(e);
      }
      at.enters.push_back(e.time);
      continue;
    }
    if (e.kind == WriterEventKind::Exit) {
      const std::int64_t enter = depth > 0 ? at.enters.back() : e.time;
      if (depth > 0) at.enters.pop_back();
      if (at.held_from >= 0 && depth - 1 == at.held_from) {
        put_collective(at, e);
        continue;
      }
      if (at.held_from < 0 && (e.flags & kWriterCollective)) {
        put_collective_record(at, e, enter);
        continue;
      }
    }
    if (at.held_from >= 0)
      at.held.push_back(e);
    else
      put(e);
  }
}

// The held collective: its enter, the begin with what the exit says, what happened inside,
// the end and the leave.
void OtfWriter::put_collective(Location& at, const WriterEvent& exit) {
  std::vector<WriterEvent> held;
  held.swap(at.held);
  at.held_from = -1;
  const bool collective = (exit.flags & kWriterCollective) != 0;
  const uint32_t process = process_id(exit.loc);
  const uint64_t matching = next_matching_++;
  put(held.front());
  if (collective) {
    const uint32_t root = exit.peer >= 0 && exit.peer < header_.locations ? process_id(exit.peer) : 0;
    OTF_Writer_writeBeginCollectiveOperation(writer_, static_cast<uint64_t>(held.front().time), process, kCollective,
                                             matching, kWorld, root, exit.len, exit.received, 0);
  }
  for (std::size_t i = 1; i < held.size(); ++i) put(held[i]);
  if (collective) OTF_Writer_writeEndCollectiveOperation(writer_, static_cast<uint64_t>(exit.time), process, matching);
  put(exit);
}

void OtfWriter::put_collective_record(Location& at, const WriterEvent& exit, std::int64_t enter) {
  const std::int64_t begin = std::max(enter, at.written);
  const uint32_t root = exit.peer >= 0 && exit.peer < header_.locations ? process_id(exit.peer) : 0;
  // OTF's one-record collective holds its bytes in 32 bits.
  const uint32_t sent = static_cast<uint32_t>(std::min<std::uint64_t>(exit.len, UINT32_MAX));
  const uint32_t received = static_cast<uint32_t>(std::min<std::uint64_t>(exit.received, UINT32_MAX));
  if (exit.len > UINT32_MAX || exit.received > UINT32_MAX) {
    // Too large for the one-record form: begin and end records carry 64 bits.
    const uint64_t matching = next_matching_++;
    OTF_Writer_writeBeginCollectiveOperation(writer_, static_cast<uint64_t>(begin), process_id(exit.loc), kCollective,
                                             matching, kWorld, root, exit.len, exit.received, 0);
    OTF_Writer_writeEndCollectiveOperation(writer_, static_cast<uint64_t>(exit.time), process_id(exit.loc), matching);
  } else {
    OTF_Writer_writeCollectiveOperation(writer_, static_cast<uint64_t>(begin), process_id(exit.loc), kCollective,
                                        kWorld, root, sent, received, static_cast<uint64_t>(exit.time - begin), 0);
  }
  put(exit);
}

void OtfWriter::put(const WriterEvent& e) {
  const uint64_t time = static_cast<uint64_t>(e.time);
  const uint32_t process = process_id(e.loc);
  int ok = 1;
  // libotf's writer says "refused" while its global otf_errno holds an error, also one an
  // earlier reader in this process left: each record starts clean.
  otf_errno = OTF_NO_ERROR;
  switch (e.kind) {
    case WriterEventKind::Enter:
      ok = OTF_Writer_writeEnter(writer_, time, static_cast<uint32_t>(e.region + 1), process, 0);
      break;
    case WriterEventKind::Exit:
      ok = OTF_Writer_writeLeave(writer_, time, static_cast<uint32_t>(e.region + 1), process, 0);
      break;
    case WriterEventKind::Send:
      ok = OTF_Writer_writeSendMsg(writer_, time, process, process_id(e.peer), kWorld, static_cast<uint32_t>(e.tag),
                                   static_cast<uint32_t>(e.len), 0);
      break;
    case WriterEventKind::Recv:
      ok = OTF_Writer_writeRecvMsg(writer_, time, process, process_id(e.peer), kWorld, static_cast<uint32_t>(e.tag),
                                   static_cast<uint32_t>(e.len), 0);
      break;
    default:
      break;  // no OTF record EARL reads back as this event (see the class comment)
  }
  if (!ok) fail("libotf refused a record at time " + std::to_string(e.time) + " us on location " + std::to_string(e.loc));
  Location& at = locations_[static_cast<std::size_t>(e.loc)];
  at.written = std::max(at.written, e.time);
}

void OtfWriter::close_writer() {
  if (writer_) OTF_Writer_close(writer_);
  if (manager_) OTF_FileManager_close(manager_);
  writer_ = nullptr;
  manager_ = nullptr;
}

void OtfWriter::finish() {
  if (!writer_) fail("finish() before begin()");
  // A collective whose exit never came: what was held is written as it is.
  for (Location& at : locations_) {
    std::vector<WriterEvent> held;
    held.swap(at.held);
    at.held_from = -1;
    for (const WriterEvent& e : held) put(e);
  }
  close_writer();
  finished_ = true;
}

// The files libotf wrote under the staging stub, the master control file last.
std::vector<std::string> OtfWriter::staged_parts() const {
  std::vector<std::string> parts;
  const std::size_t slash = staged_stub_.rfind('/');
  const std::string directory = slash == std::string::npos ? "." : staged_stub_.substr(0, slash + 1);
  const std::string prefix = (slash == std::string::npos ? staged_stub_ : staged_stub_.substr(slash + 1)) + ".";
  if (DIR* dir = ::opendir(directory.c_str())) {
    while (dirent* entry = ::readdir(dir)) {
      std::string name = entry->d_name;
      if (name.compare(0, prefix.size(), prefix) == 0 && !ends_with(name, ".otf"))
        parts.push_back((slash == std::string::npos ? "" : directory) + name);
    }
    ::closedir(dir);
  }
  std::sort(parts.begin(), parts.end());
  parts.push_back(staged_stub_ + ".otf");
  return parts;
}

void OtfWriter::commit() {
  if (!finished_) fail("commit() before finish()");
  // Parts of an older trace by this name that the new one does not replace go after.
  std::vector<std::string> old = exists(anchor_) ? otf_archive_files(anchor_) : std::vector<std::string>();
  std::vector<std::string> placed;
  for (const std::string& part : staged_parts()) {
    const std::string final_path = stub_ + part.substr(staged_stub_.size());
    output::sync_file(part, anchor_);
    output::move_into_place(part, final_path, anchor_);
    placed.push_back(final_path);
  }
  for (const std::string& file : old)
    if (std::find(placed.begin(), placed.end(), file) == placed.end()) ::unlink(file.c_str());
  output::sync_directory_of(anchor_);
  finished_ = false;
}

void OtfWriter::discard() {
  close_writer();
  if (finished_ || !staged_stub_.empty()) {
    std::vector<std::string> parts = staged_parts();
    for (const std::string& part : parts) ::unlink(part.c_str());
  }
  finished_ = false;
}

}  // namespace earl
