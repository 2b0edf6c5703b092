#include "formats/otf2/otf2_writer.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unordered_map>
#include <utility>

#include "formats/otf2/otf2_anchor.h"
#include "formats/otf2/otf2_errors.h"
#include "formats/otf2/otf2_paradigms.h"
#include "formats/otf2/otf2_scorep_regions.h"
#include "model/error.h"
#include "output/staged_output.h"

namespace fs = std::filesystem;

namespace earl {

namespace {

constexpr std::uint64_t kTimerResolution = 1000000;  // ticks per second: microseconds
constexpr std::uint64_t kMemoryBudget = std::uint64_t{256} << 20;  // all event buffers
constexpr std::uint64_t kMaxChunksPerBuffer = 4;

// --- libotf2 callbacks ----------------------------------------------------------------

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) {
  return OTF2_FLUSH;
}

const OTF2_FlushCallbacks kFlushCallbacks = {pre_flush, nullptr};  // no BufferFlush records

// The chunks one buffer holds. An event buffer gets at most Memory::max_chunks; when the
// allocation fails, libotf2 writes the buffer to its file, frees it and starts again.
struct BufferChunks {
  std::vector<void*> chunks;
};

void* allocate_chunk(void* user, OTF2_FileType type, OTF2_LocationRef, void** per_buffer,
                     std::uint64_t size) {
  auto* memory = static_cast<Otf2Writer::Memory*>(user);
  auto* mine = static_cast<BufferChunks*>(*per_buffer);
  if (!mine) {
    mine = new (std::nothrow) BufferChunks;
    if (!mine) return nullptr;
    *per_buffer = mine;
  }
  if (type == OTF2_FILETYPE_EVENTS && mine->chunks.size() >= memory->max_chunks) return nullptr;
  void* chunk = std::malloc(size);
  if (!chunk) return nullptr;
  try {
    mine->chunks.push_back(chunk);
  } catch (...) {
    std::free(chunk);
    return nullptr;
  }
  return chunk;
}

void free_chunks(void*, OTF2_FileType, OTF2_LocationRef, void** per_buffer, bool final) {
  auto* mine = static_cast<BufferChunks*>(*per_buffer);
  if (!mine) return;
  for (void* chunk : mine->chunks) std::free(chunk);
  mine->chunks.clear();
  if (final) {
    delete mine;
    *per_buffer = nullptr;
  }
}

const OTF2_MemoryCallbacks kMemoryCallbacks = {allocate_chunk, free_chunks};

// --- names ----------------------------------------------------------------------------

// The collective operation Score-P records in RmaCollectiveEnd for a window call.
int rma_op_of(const std::string& name) {
  if (name == "MPI_Win_create") return OTF2_COLLECTIVE_OP_CREATE_HANDLE;
  if (name == "MPI_Win_free") return OTF2_COLLECTIVE_OP_DESTROY_HANDLE;
  if (name == "MPI_Win_fence") return OTF2_COLLECTIVE_OP_BARRIER;
  return -1;
}

constexpr OTF2_RmaWinRef kWindow = 0;
// The string the ProgramBegin events refer to before the definitions are written:
// write_definitions defines it right after the empty string (id 0).
constexpr OTF2_StringRef kProgramNameString = 1;

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

// --- construction ---------------------------------------------------------------------

Otf2Writer::Otf2Writer(std::string path, const WriterOptions& options) : path_(std::move(path)) {
  (void)options;  // no OTF2-specific options (roll-over is an ALOG notion)
  install_otf2_error_handler();
  if (!ends_with(path_, ".otf2") || fs::path(path_).filename() == ".otf2")
    fail("an OTF2 archive is named by its anchor file, which must end in .otf2");
  const fs::path anchor(path_);
  const fs::path parent = anchor.has_parent_path() ? anchor.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(parent, ec)) fail("no such directory '" + parent.string() + "'");
  directory_ = parent.string();
  name_ = anchor.filename().string();
  name_.resize(name_.size() - 5);

  // An archive of the same name is replaced, when the new one is whole (commit()); anything
  // else in the way is an error, never deleted.
  const fs::path def = parent / (name_ + ".def"), dir = parent / name_;
  if (fs::exists(anchor, ec) && (!fs::is_regular_file(anchor, ec) || !has_otf2_magic(anchor.string())))
    fail("exists and is not an OTF2 anchor file (not replaced)");
  if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec)) fail("'" + dir.string() + "' exists and is not a directory");
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      const std::string ext = entry.path().extension().string();
      if (!entry.is_regular_file() || (ext != ".evt" && ext != ".def" && ext != ".snap"))
        fail("'" + dir.string() + "' holds '" + entry.path().filename().string() +
             "', which is not part of an OTF2 archive (not replaced)");
    }
  }
  if (fs::exists(def, ec) && fs::is_directory(def, ec)) fail("'" + def.string() + "' is a directory");
  // The archive is written under a staging name (all three parts free), whose anchor is
  // created here to probe that the directory can be written.
  staged_ = fs::path(output::staging_name((parent / name_).string(), [](const std::string& stem) {
                       std::error_code e;
                       return fs::exists(stem + ".otf2", e) || fs::exists(stem + ".def", e) || fs::exists(stem, e);
                     })).filename().string();
  {
    std::ofstream probe(parent / (staged_ + ".otf2"), std::ios::binary);
    if (!probe) fail(std::strerror(errno));
  }
  fs::remove(parent / (staged_ + ".otf2"), ec);
}

Otf2Writer::~Otf2Writer() { discard(); }  // an uncommitted archive is removed

void Otf2Writer::close_archive() noexcept {
  if (!archive_) return;
  OTF2_Archive* archive = archive_;
  archive_ = nullptr;
  OTF2_Archive_Close(archive);
}

void Otf2Writer::fail(const std::string& what) const {
  throw EarlError("cannot write '" + path_ + "': " + what);
}

// A call fails by its result or by an error libotf2 reported meanwhile (a buffer it
// flushed to a full disk: otf2_errors.h).
void Otf2Writer::check(OTF2_ErrorCode code, const char* what) const {
  if (code == OTF2_SUCCESS && errors_.count == 0) return;
  if (errors_.count) fail(std::string(what) + " failed: " + errors_.first);
  fail(std::string(what) + " failed: " + OTF2_Error_GetName(code) + " (" + otf2_problem(code) + ")");
}

std::uint32_t Otf2Writer::string_id(const std::string& s) {
  auto it = string_ids_.find(s);
  if (it != string_ids_.end()) return it->second;
  const auto id = static_cast<std::uint32_t>(strings_.size());
  strings_.push_back(s);
  string_ids_.emplace(s, id);
  return id;
}

// --- begin ----------------------------------------------------------------------------

void Otf2Writer::begin(const TraceHeader& header) {
  Otf2ErrorWatch watch(errors_);
  if (begun_) fail("begin called twice");
  begun_ = true;
  header_ = header;
  threads_ = header.threads > 0 ? header.threads : 1;
  const int n = header.locations;
  if (n < 0 || n % threads_ != 0) fail("the locations do not make whole processes");
  const int processes = n / threads_;

  // MPI_COMM_WORLD: rank r is process rank_process[r].
  rank_of_process_.assign(processes, 0);
  if (header.rank_process.empty()) {
    for (int p = 0; p < processes; ++p) rank_of_process_[p] = static_cast<std::uint32_t>(p);
  } else {
    if (static_cast<int>(header.rank_process.size()) != processes)
      fail("rank_process must list every process once");
    std::vector<char> seen(processes, 0);
    for (int r = 0; r < processes; ++r) {
      const int p = header.rank_process[r];
      if (p < 0 || p >= processes || seen[p]) fail("rank_process is not a permutation");
      seen[p] = 1;
      rank_of_process_[p] = static_cast<std::uint32_t>(r);
    }
  }

  location_ids_.resize(n);
  for (int l = 0; l < n; ++l)
    location_ids_[l] = (static_cast<std::uint64_t>(l % threads_) << 32) |
                       static_cast<std::uint64_t>(l / threads_);

  regions_.clear();
  for (const RegionDef& region : header.regions) {
    const ScorepRegion scorep = scorep_region(region);
    RegionInfo info;
    info.paradigm = scorep.paradigm;
    info.role = scorep.role;
    info.file = scorep.file;
    info.collective_op = scorep.collective_op;
    info.rma_op = rma_op_of(region.name);
    regions_.push_back(info);
  }

  // Bounded memory: every event buffer holds a few chunks before libotf2 writes it to its
  // file; many locations get smaller chunks. At least one chunk per location stays
  // allocated, so memory is about max(kMemoryBudget, locations * 256 KiB).
  const std::uint64_t chunk = n <= 64 ? OTF2_CHUNK_SIZE_EVENTS_DEFAULT : OTF2_CHUNK_SIZE_MIN;
  const std::uint64_t per_location = n > 0 ? kMemoryBudget / (chunk * n) : 1;
  memory_.max_chunks = std::clamp<std::uint64_t>(per_location, 1, kMaxChunksPerBuffer);

  archive_ = OTF2_Archive_Open(directory_.c_str(), staged_.c_str(), OTF2_FILEMODE_WRITE, chunk,
                               OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT, OTF2_SUBSTRATE_POSIX,
                               OTF2_COMPRESSION_NONE);
  if (!archive_) fail("libotf2 cannot create the archive");

  check(OTF2_Archive_SetFlushCallbacks(archive_, &kFlushCallbacks, nullptr), "setting flush callbacks");
  check(OTF2_Archive_SetMemoryCallbacks(archive_, &kMemoryCallbacks, &memory_),
        "setting memory callbacks");
  check(OTF2_Archive_SetSerialCollectiveCallbacks(archive_), "setting collective callbacks");
  check(OTF2_Archive_SetCreator(archive_, "EARL"), "setting the creator");
  check(OTF2_Archive_SetDescription(archive_, "written by EARL (earl gen / earl convert)"),
        "setting the description");
  check(OTF2_Archive_OpenEvtFiles(archive_), "opening the event files");

  writers_.assign(n, nullptr);
  for (int l = 0; l < n; ++l) {
    writers_[l] = OTF2_Archive_GetEvtWriter(archive_, location_ids_[l]);
    if (!writers_[l]) fail("libotf2 gives no event writer for location " + std::to_string(l));
  }
  last_time_.assign(n, INT64_MIN);
  collective_open_.assign(n, 0);
}

// --- events ---------------------------------------------------------------------------

void Otf2Writer::check_location(const WriterEvent& e) const {
  if (e.loc < 0 || e.loc >= header_.locations)
    fail("event of location " + std::to_string(e.loc) + " outside 0.." +
         std::to_string(header_.locations - 1));
}

std::uint32_t Otf2Writer::rank_of(std::int32_t location, const char* role) const {
  if (location < 0 || location >= header_.locations)
    fail(std::string(role) + " location " + std::to_string(location) + " does not exist");
  if (location % threads_ != 0)
    fail(std::string(role) + " location " + std::to_string(location) +
         " is no MPI rank (not a master thread)");
  return rank_of_process_[location / threads_];
}

void Otf2Writer::write(const WriterEvent* events, std::size_t count) {
  Otf2ErrorWatch watch(errors_);
  if (!begun_ || finished_ || !archive_) fail("write outside begin/finish");
  for (std::size_t i = 0; i < count; ++i) {
    const WriterEvent& e = events[i];
    check_location(e);
    if (!have_offset_) {
      have_offset_ = true;
      offset_ = e.time < 0 ? -e.time : 0;
      first_ts_ = static_cast<std::uint64_t>(e.time + offset_);
    }
    if (e.time + offset_ < 0)
      fail("event times decrease (time " + std::to_string(e.time) + " us after the first event)");
    if (e.time < last_time_[e.loc])
      fail("times decrease on location " + std::to_string(e.loc) + " (" +
           std::to_string(e.time) + " us after " + std::to_string(last_time_[e.loc]) + " us)");
    last_time_[e.loc] = e.time;
    const OTF2_TimeStamp ts = static_cast<OTF2_TimeStamp>(e.time + offset_);
    last_ts_ = std::max<std::uint64_t>(last_ts_, ts);
    OTF2_EvtWriter* w = writers_[e.loc];
    switch (e.kind) {
      case WriterEventKind::Enter: {
        if (e.region < 0 || e.region >= static_cast<int>(regions_.size()))
          fail("enter of undefined region " + std::to_string(e.region));
        check(OTF2_EvtWriter_Enter(w, nullptr, ts, static_cast<OTF2_RegionRef>(e.region)), "Enter");
        if (e.flags & kWriterRmaCollective) {
          check_rma_collective(e);
          check(OTF2_EvtWriter_RmaCollectiveBegin(w, nullptr, ts), "RmaCollectiveBegin");
        }
        if ((e.flags & kWriterCollective) && regions_[e.region].collective_op >= 0) {
          check(OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, ts), "MpiCollectiveBegin");
          collective_open_[e.loc] = 1;
        }
        break;
      }
      case WriterEventKind::Exit: {
        if (e.region < 0 || e.region >= static_cast<int>(regions_.size()))
          fail("exit of undefined region " + std::to_string(e.region));
        const int op = regions_[e.region].collective_op;
        if (e.flags & kWriterRmaCollective) {
          check_rma_collective(e);
          const int rma_op = regions_[e.region].rma_op;
          if (rma_op == OTF2_COLLECTIVE_OP_CREATE_HANDLE)
            check(OTF2_EvtWriter_RmaWinCreate(w, nullptr, ts, kWindow), "RmaWinCreate");
          else if (rma_op == OTF2_COLLECTIVE_OP_DESTROY_HANDLE)
            check(OTF2_EvtWriter_RmaWinDestroy(w, nullptr, ts, kWindow), "RmaWinDestroy");
          const OTF2_RmaSyncLevel level = rma_op == OTF2_COLLECTIVE_OP_BARRIER
                                              ? OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY
                                              : OTF2_RMA_SYNC_LEVEL_PROCESS;
          check(OTF2_EvtWriter_RmaCollectiveEnd(w, nullptr, ts, static_cast<OTF2_CollectiveOp>(rma_op), level,
                                                kWindow, OTF2_UNDEFINED_UINT32, 0, 0),
                "RmaCollectiveEnd");
        }
        if ((e.flags & kWriterCollective) && op >= 0) {
          if (!collective_open_[e.loc])
            check(OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, ts), "MpiCollectiveBegin");
          const std::uint32_t root = e.peer < 0 ? OTF2_UNDEFINED_UINT32 : rank_of(e.peer, "root");
          check(OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, ts, static_cast<OTF2_CollectiveOp>(op),
                                                0, root, e.len, e.received),
                "MpiCollectiveEnd");
          collective_open_[e.loc] = 0;
        } else if (collective_open_[e.loc]) {
          // An operation begun at the enter ends here even without its sizes.
          check(OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, ts, static_cast<OTF2_CollectiveOp>(op),
                                                0, OTF2_UNDEFINED_UINT32, 0, 0),
                "MpiCollectiveEnd");
          collective_open_[e.loc] = 0;
        }
        check(OTF2_EvtWriter_Leave(w, nullptr, ts, static_cast<OTF2_RegionRef>(e.region)), "Leave");
        break;
      }
      case WriterEventKind::Send:
      case WriterEventKind::Recv: {
        const bool send = e.kind == WriterEventKind::Send;
        if (e.tag < 0 || e.tag > static_cast<std::int64_t>(UINT32_MAX))
          fail("message tag " + std::to_string(e.tag) + " outside OTF2's 0..2^32-1");
        const std::uint32_t peer = rank_of(e.peer, send ? "destination" : "source");
        rank_of(e.loc, send ? "sending" : "receiving");
        const auto tag = static_cast<std::uint32_t>(e.tag);
        const std::uint64_t len = e.len;
        const auto request = static_cast<std::uint64_t>(e.request);
        if (send && e.request >= 0)
          check(OTF2_EvtWriter_MpiIsend(w, nullptr, ts, peer, 0, tag, len, request), "MpiIsend");
        else if (send)
          check(OTF2_EvtWriter_MpiSend(w, nullptr, ts, peer, 0, tag, len), "MpiSend");
        else if (e.request >= 0)
          check(OTF2_EvtWriter_MpiIrecv(w, nullptr, ts, peer, 0, tag, len, request), "MpiIrecv");
        else
          check(OTF2_EvtWriter_MpiRecv(w, nullptr, ts, peer, 0, tag, len), "MpiRecv");
        break;
      }
      case WriterEventKind::IrecvRequest:
      case WriterEventKind::IsendComplete: {
        if (e.request < 0) fail("request record without a request id");
        rank_of(e.loc, "requesting");
        const auto request = static_cast<std::uint64_t>(e.request);
        if (e.kind == WriterEventKind::IrecvRequest)
          check(OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, ts, request), "MpiIrecvRequest");
        else
          check(OTF2_EvtWriter_MpiIsendComplete(w, nullptr, ts, request), "MpiIsendComplete");
        break;
      }
      case WriterEventKind::RmaPut:
      case WriterEventKind::RmaPutComplete: {
        if (!header_.rma_window) fail("one-sided event without the header's RMA window");
        if (e.tag < 0) fail("negative RMA matching id " + std::to_string(e.tag));
        rank_of(e.loc, "origin");
        if (e.kind == WriterEventKind::RmaPutComplete) {
          check(OTF2_EvtWriter_RmaOpCompleteBlocking(w, nullptr, ts, kWindow, static_cast<std::uint64_t>(e.tag)),
                "RmaOpCompleteBlocking");
          break;
        }
        check(OTF2_EvtWriter_RmaPut(w, nullptr, ts, kWindow, rank_of(e.peer, "target"), e.len,
                                    static_cast<std::uint64_t>(e.tag)),
              "RmaPut");
        break;
      }
      case WriterEventKind::RmaLockRequest:
      case WriterEventKind::RmaLockAcquire:
      case WriterEventKind::RmaLockRelease: {
        if (!header_.rma_window) fail("window lock without the header's RMA window");
        rank_of(e.loc, "locking");
        const std::uint32_t target = rank_of(e.peer, "lock target");
        constexpr std::uint64_t kLockId = 0;  // one lock per window and target, as Score-P numbers it
        const OTF2_LockType type = e.tag == 1 ? OTF2_LOCK_EXCLUSIVE : OTF2_LOCK_SHARED;
        if (e.kind == WriterEventKind::RmaLockRequest)
          check(OTF2_EvtWriter_RmaRequestLock(w, nullptr, ts, kWindow, target, kLockId, type), "RmaRequestLock");
        else if (e.kind == WriterEventKind::RmaLockAcquire)
          check(OTF2_EvtWriter_RmaAcquireLock(w, nullptr, ts, kWindow, target, kLockId, type), "RmaAcquireLock");
        else
          check(OTF2_EvtWriter_RmaReleaseLock(w, nullptr, ts, kWindow, target, kLockId), "RmaReleaseLock");
        break;
      }
      case WriterEventKind::ProgramBegin:
        if (header_.program_name.empty()) fail("program begin without the header's program name");
        check(OTF2_EvtWriter_ProgramBegin(w, nullptr, ts, kProgramNameString, 0, nullptr), "ProgramBegin");
        break;
      case WriterEventKind::ProgramEnd:
        if (header_.program_name.empty()) fail("program end without the header's program name");
        // Score-P does not know the exit status when it writes the record.
        check(OTF2_EvtWriter_ProgramEnd(w, nullptr, ts, OTF2_UNDEFINED_INT64), "ProgramEnd");
        break;
      case WriterEventKind::Fork:
        check(OTF2_EvtWriter_ThreadFork(w, nullptr, ts, OTF2_PARADIGM_OPENMP,
                                        static_cast<std::uint32_t>(std::max<std::int64_t>(e.tag, 0))),
              "ThreadFork");
        break;
      case WriterEventKind::Join:
        check(OTF2_EvtWriter_ThreadJoin(w, nullptr, ts, OTF2_PARADIGM_OPENMP), "ThreadJoin");
        break;
    }
  }
}

std::string Otf2Writer::refusal(const WriterEvent& e) const {
  if (e.kind != WriterEventKind::Send && e.kind != WriterEventKind::Recv) return "";
  const bool send = e.kind == WriterEventKind::Send;
  const std::string what = send ? "send" : "recv";
  auto rank = [this](std::int32_t l) { return l >= 0 && l < header_.locations && l % threads_ == 0; };
  if (e.peer < 0 || e.peer >= header_.locations)
    return send ? "send to an unknown destination" : "recv from an unknown source";
  if (!rank(e.peer)) return what + (send ? " to" : " from") + " a thread that is no MPI rank";
  if (!rank(e.loc)) return what + " on a thread that is no MPI rank";
  if (e.tag < 0 || e.tag > static_cast<std::int64_t>(UINT32_MAX)) return what + " with a tag outside 0..2^32-1";
  return "";
}

void Otf2Writer::check_rma_collective(const WriterEvent& e) const {
  if (!header_.rma_window) fail("window synchronisation without the header's RMA window");
  if (regions_[e.region].rma_op < 0)
    fail("region '" + header_.regions[e.region].name +
         "' flagged as window synchronisation is none of MPI_Win_create/fence/free");
  rank_of(e.loc, "synchronising");
}

// --- finish ---------------------------------------------------------------------------

void Otf2Writer::finish() {
  Otf2ErrorWatch watch(errors_);
  if (!begun_ || finished_ || !archive_) fail("finish without begin");
  finished_ = true;
  const int n = header_.locations;
  std::vector<std::uint64_t> counts(n, 0);
  for (int l = 0; l < n; ++l) {
    check(OTF2_EvtWriter_GetNumberOfEvents(writers_[l], &counts[l]), "counting events");
    OTF2_EvtWriter* w = writers_[l];
    writers_[l] = nullptr;
    check(OTF2_Archive_CloseEvtWriter(archive_, w), "closing an event writer");
  }
  check(OTF2_Archive_CloseEvtFiles(archive_), "closing the event files");
  // Empty local definitions per location, as Score-P leaves them (readers look for them).
  check(OTF2_Archive_OpenDefFiles(archive_), "opening the local definition files");
  for (int l = 0; l < n; ++l) {
    OTF2_DefWriter* d = OTF2_Archive_GetDefWriter(archive_, location_ids_[l]);
    if (!d) fail("libotf2 gives no definition writer for location " + std::to_string(l));
    check(OTF2_Archive_CloseDefWriter(archive_, d), "closing a definition writer");
  }
  check(OTF2_Archive_CloseDefFiles(archive_), "closing the local definition files");
  write_definitions(counts);
  OTF2_Archive* archive = archive_;
  archive_ = nullptr;
  check(OTF2_Archive_Close(archive), "closing the archive");
}

void Otf2Writer::write_definitions(const std::vector<std::uint64_t>& events_per_location) {
  OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(archive_);
  if (!g) fail("libotf2 gives no global definition writer");
  const int n = header_.locations;
  const int processes = n / threads_;

  // Strings first (every later record refers to them), collected from the names; those
  // the events refer to come first, with the ids the events used.
  strings_.clear();
  string_ids_.clear();
  const std::uint32_t empty = string_id("");
  if (!header_.program_name.empty() &&
      string_id(renamed_.note("program", header_.program_name, otf2_name(header_.program_name))) != kProgramNameString)
    fail("the program name must differ from the empty string");
  const std::uint32_t machine_class = string_id("machine"), node_class = string_id("node");
  const std::uint32_t machine_name = string_id("EARL"), node_name = string_id("node 0");
  std::vector<std::uint32_t> process_name(processes), location_name(n);
  auto named = [this](const char* kind, const std::string& name) {
    return string_id(renamed_.note(kind, name, otf2_name(name)));
  };
  for (int p = 0; p < processes; ++p) {
    const bool given = p < static_cast<int>(header_.process_names.size()) && header_.process_names[p];
    process_name[p] = given ? named("process", *header_.process_names[p])
                            : string_id("MPI Rank " + std::to_string(rank_of_process_[p]));
  }
  for (int l = 0; l < n; ++l) {
    const bool given = l < static_cast<int>(header_.thread_names.size()) && header_.thread_names[l];
    const int k = l % threads_;
    location_name[l] = given ? named("thread", *header_.thread_names[l])
                             : string_id(k == 0 ? std::string("Master thread") : "OpenMP thread " + std::to_string(k));
  }
  std::vector<std::uint32_t> region_name, region_file;
  for (std::size_t r = 0; r < header_.regions.size(); ++r) {
    region_name.push_back(named("region", header_.regions[r].name));
    region_file.push_back(string_id(regions_[r].file));
  }
  // The program's region, as Score-P defines it (and Scalasca looks it up for the
  // ProgramBegin records): artificial, measurement system, named by the executable without
  // its path, canonically with it.
  const bool program = !header_.program_name.empty();
  const std::uint32_t program_display =
      program ? string_id(otf2_name(fs::path(header_.program_name).filename().string())) : empty;
  const std::uint32_t world = string_id("MPI_COMM_WORLD"), self = string_id("MPI_COMM_SELF");
  const std::uint32_t mpi = string_id("MPI");
  const std::uint32_t comm_template = string_id("Comm ${id}"), window_template = string_id("Win ${id}");
  const std::uint32_t window_name = header_.rma_window ? string_id("MPI_Win_create_window") : empty;
  const bool openmp = threads_ > 1 || std::any_of(regions_.begin(), regions_.end(), [](const RegionInfo& r) {
                        return r.paradigm == OTF2_PARADIGM_OPENMP;
                      });
  const std::uint32_t openmp_name = openmp ? string_id("OpenMP") : empty;

  check(OTF2_GlobalDefWriter_WriteClockProperties(g, kTimerResolution, static_cast<std::uint64_t>(offset_),
                                                  last_ts_ >= first_ts_ ? last_ts_ - static_cast<std::uint64_t>(offset_) : 0,
                                                  OTF2_UNDEFINED_TIMESTAMP),
        "ClockProperties");
  for (std::uint32_t i = 0; i < strings_.size(); ++i)
    check(OTF2_GlobalDefWriter_WriteString(g, i, strings_[i].c_str()), "String");

  // Paradigms as Score-P defines them: MPI with the templates that name communicators and
  // windows without a name of their own.
  check(OTF2_GlobalDefWriter_WriteParadigm(g, OTF2_PARADIGM_MPI, mpi, OTF2_PARADIGM_CLASS_PROCESS), "Paradigm");
  OTF2_AttributeValue value;
  value.stringRef = comm_template;
  check(OTF2_GlobalDefWriter_WriteParadigmProperty(g, OTF2_PARADIGM_MPI, OTF2_PARADIGM_PROPERTY_COMM_NAME_TEMPLATE,
                                                   OTF2_TYPE_STRING, value),
        "ParadigmProperty");
  value.stringRef = window_template;
  check(OTF2_GlobalDefWriter_WriteParadigmProperty(g, OTF2_PARADIGM_MPI, OTF2_PARADIGM_PROPERTY_RMA_WIN_NAME_TEMPLATE,
                                                   OTF2_TYPE_STRING, value),
        "ParadigmProperty");
  if (openmp)
    check(OTF2_GlobalDefWriter_WriteParadigm(g, OTF2_PARADIGM_OPENMP, openmp_name,
                                             OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN),
          "Paradigm");

  // System tree: machine > node > processes, as Score-P's (one node: EARL knows no hosts).
  constexpr OTF2_SystemTreeNodeRef kMachine = 0, kNode = 1;
  check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, kMachine, machine_name, machine_class,
                                                 OTF2_UNDEFINED_SYSTEM_TREE_NODE),
        "SystemTreeNode");
  check(OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(g, kMachine, OTF2_SYSTEM_TREE_DOMAIN_MACHINE),
        "SystemTreeNodeDomain");
  check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, kNode, node_name, node_class, kMachine), "SystemTreeNode");
  check(OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(g, kNode, OTF2_SYSTEM_TREE_DOMAIN_SHARED_MEMORY),
        "SystemTreeNodeDomain");
  for (int p = 0; p < processes; ++p)
    check(OTF2_GlobalDefWriter_WriteLocationGroup(g, static_cast<OTF2_LocationGroupRef>(p), process_name[p],
                                                  OTF2_LOCATION_GROUP_TYPE_PROCESS, kNode,
                                                  OTF2_UNDEFINED_LOCATION_GROUP),
          "LocationGroup");
  for (int l = 0; l < n; ++l)
    check(OTF2_GlobalDefWriter_WriteLocation(g, location_ids_[l], location_name[l], OTF2_LOCATION_TYPE_CPU_THREAD,
                                             events_per_location[l],
                                             static_cast<OTF2_LocationGroupRef>(l / threads_)),
          "Location");
  for (std::size_t r = 0; r < header_.regions.size(); ++r)
    check(OTF2_GlobalDefWriter_WriteRegion(g, static_cast<OTF2_RegionRef>(r), region_name[r], region_name[r],
                                           empty, regions_[r].role, regions_[r].paradigm,
                                           OTF2_REGION_FLAG_NONE, region_file[r], 0, 0),
          "Region");
  if (program)
    check(OTF2_GlobalDefWriter_WriteRegion(g, static_cast<OTF2_RegionRef>(header_.regions.size()), program_display,
                                           kProgramNameString, empty, OTF2_REGION_ROLE_ARTIFICIAL,
                                           OTF2_PARADIGM_MEASUREMENT_SYSTEM, OTF2_REGION_FLAG_NONE,
                                           OTF2_UNDEFINED_STRING, 0, 0),
          "Region (program)");
  // MPI_COMM_WORLD: locations of the processes, then per rank the index of its process;
  // MPI_COMM_SELF on a COMM_SELF group, which has no members.
  constexpr OTF2_GroupRef kLocations = 0, kWorldGroup = 1, kSelfGroup = 2;
  std::vector<std::uint64_t> members(processes);
  for (int p = 0; p < processes; ++p) members[p] = location_ids_[static_cast<std::size_t>(p) * threads_];
  check(OTF2_GlobalDefWriter_WriteGroup(g, kLocations, empty, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                        OTF2_GROUP_FLAG_NONE, static_cast<std::uint32_t>(processes),
                                        members.data()),
        "Group (COMM_LOCATIONS)");
  std::vector<std::uint64_t> ranks(processes);
  for (int r = 0; r < processes; ++r)
    ranks[r] = header_.rank_process.empty() ? static_cast<std::uint64_t>(r)
                                            : static_cast<std::uint64_t>(header_.rank_process[r]);
  check(OTF2_GlobalDefWriter_WriteGroup(g, kWorldGroup, empty, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                        OTF2_GROUP_FLAG_NONE, static_cast<std::uint32_t>(processes),
                                        ranks.data()),
        "Group (COMM_GROUP)");
  check(OTF2_GlobalDefWriter_WriteGroup(g, kSelfGroup, empty, OTF2_GROUP_TYPE_COMM_SELF, OTF2_PARADIGM_MPI,
                                        OTF2_GROUP_FLAG_NONE, 0, nullptr),
        "Group (COMM_SELF)");
  check(OTF2_GlobalDefWriter_WriteComm(g, 0, world, kWorldGroup, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE), "Comm");
  check(OTF2_GlobalDefWriter_WriteComm(g, 1, self, kSelfGroup, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE), "Comm");
  if (header_.rma_window)
    check(OTF2_GlobalDefWriter_WriteRmaWin(g, kWindow, window_name, 0, OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS),
          "RmaWin");
  check(OTF2_Archive_CloseGlobalDefWriter(archive_, g), "closing the global definitions");
}

// --- discard --------------------------------------------------------------------------

// The staged archive's parts; the anchor last, as commit() renames them.
std::vector<std::pair<fs::path, fs::path>> Otf2Writer::parts() const {
  const fs::path parent(directory_);
  return {{parent / staged_, parent / name_},
          {parent / (staged_ + ".def"), parent / (name_ + ".def")},
          {parent / (staged_ + ".otf2"), parent / (name_ + ".otf2")}};
}

// Every file flushed to disk, then the old archive (if any) replaced part by part: its
// anchor removed first (no reader opens a mixed archive), its directory moved aside, the
// new directory and definitions renamed into place, the new anchor last, the old
// directory removed. libotf2's anchor holds no archive name (the files are found beside
// it), so the renamed archive reads as written.
void Otf2Writer::commit() {
  if (!finished_ || archive_ || committed_) fail("commit before finish");
  const fs::path parent(directory_);
  std::error_code ec;
  const fs::path staged_dir = parent / staged_;
  for (const auto& entry : fs::directory_iterator(staged_dir, ec))
    output::sync_file(entry.path().string(), path_);
  if (ec) fail("cannot list '" + staged_dir.string() + "': " + ec.message());
  output::sync_file((parent / (staged_ + ".def")).string(), path_);
  output::sync_file((parent / (staged_ + ".otf2")).string(), path_);
  output::sync_directory_of((staged_dir / "events").string());  // the directory itself

  const fs::path anchor = parent / (name_ + ".otf2"), dir = parent / name_;
  fs::remove(anchor, ec);
  std::string old_dir;
  if (fs::exists(dir, ec)) {
    old_dir = output::staging_name(dir.string());
    output::move_into_place(dir.string(), old_dir, path_);
  }
  for (const auto& [from, to] : parts()) output::move_into_place(from.string(), to.string(), path_);
  committed_ = true;
  output::sync_directory_of(path_);
  if (!old_dir.empty()) fs::remove_all(old_dir, ec);
}

void Otf2Writer::discard() {
  close_archive();
  if (committed_ || staged_.empty()) return;
  std::error_code ec;
  for (const auto& part : parts()) fs::remove_all(part.first, ec);  // staging names are ours alone
}

}  // namespace earl
