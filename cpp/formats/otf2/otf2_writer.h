#pragma once
// OTF2 output through libotf2, shaped the way Score-P writes MPI traces (so that Scalasca,
// Vampir and the OTF2 tools read it as Score-P's), and so that the archive decodes to
// exactly the events of the ALOG version but the program records ALOG has no room for
// (docs/api-contract.md, OTF2; docs/formats.md, Writing OTF2):
//
// - path "DIR/NAME.otf2" is the anchor; NAME.def and the directory NAME/ go beside it.
//   The archive is written under a staging name in DIR and renamed into place by
//   commit() (output/staged_output.h); an existing OTF2 archive of that name is replaced
//   then, and stays as it was when writing fails.
// - ClockProperties: timer resolution 1e6 ticks/s, so a timestamp is the event's time in
//   microseconds; global offset 0 (or -t for a first event at t < 0 microseconds).
// - System tree machine "EARL" > node "node 0" (with their domains); per process p a
//   LocationGroup (type process, under the node) named "MPI Rank <its MPI_COMM_WORLD
//   rank>", holding its threads' Locations (type CPU thread) "Master thread", "OpenMP
//   thread 1", ...; definition order is process-major, so OTF2 location definition i is
//   EARL location i. Location ids follow Score-P: (thread << 32) | process. Names given
//   in the header are written as they are, "" included, but NUL (written_names.h).
// - Regions as Score-P defines them (otf2_scorep_regions.h: paradigm, role, source file
//   "MPI"/"OMP"), then, with TraceHeader::program_name, the program's region (artificial,
//   measurement system) that ProgramBegin/ProgramEnd refer to. Paradigm MPI with its
//   name-template properties; OpenMP where used.
// - MPI_COMM_WORLD: a COMM_LOCATIONS group (paradigm MPI) listing the master locations
//   in process order, a COMM_GROUP listing per rank r the index of its process
//   (TraceHeader::rank_process), and Comm 0 "MPI_COMM_WORLD" on that group; Comm 1
//   "MPI_COMM_SELF" on a COMM_SELF group without members.
// - ProgramBegin/ProgramEnd -> ProgramBegin (the program name, no arguments) and
//   ProgramEnd (exit status undefined, as Score-P writes it).
// - Events: Enter/Leave; Send/Recv -> MpiSend/MpiRecv on MPI_COMM_WORLD with the peer
//   location's rank (MpiIsend/MpiIrecv with their request id where they have one;
//   IrecvRequest/IsendComplete -> MpiIrecvRequest/MpiIsendComplete); an Enter flagged kWriterCollective is followed by MpiCollectiveBegin,
//   an Exit flagged kWriterCollective is preceded by MpiCollectiveEnd (operation from the
//   region name, root rank or undefined, bytes sent/received); Fork/Join -> ThreadFork/
//   ThreadJoin (paradigm OpenMP) on the master thread.
// - One-sided (TraceHeader::rma_window): RmaWin 0 "MPI_Win_create_window" on
//   MPI_COMM_WORLD, flagged for create/destroy events. MPI_Win_create, MPI_Win_fence and
//   MPI_Win_free flagged kWriterRmaCollective get what Score-P's wrappers write: Enter,
//   RmaCollectiveBegin, [RmaWinCreate | RmaWinDestroy,] RmaCollectiveEnd (create handle /
//   barrier / destroy handle, no root, no bytes), Leave. RmaPut/RmaPutComplete -> RmaPut
//   (target rank, bytes, matching id) and RmaOpCompleteBlocking; RmaLock* ->
//   RmaRequestLock/RmaAcquireLock/RmaReleaseLock (target rank, lock id 0, lock type).
//
// Memory stays bounded: each location's buffer holds at most a few chunks before libotf2
// flushes it to its file (memory callbacks), and definitions are written at the end.
#include <otf2/otf2.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "format_interface/trace_writer.h"
#include "format_interface/written_names.h"
#include "formats/otf2/otf2_errors.h"

namespace earl {

class Otf2Writer : public TraceWriter {
 public:
  Otf2Writer(std::string path, const WriterOptions& options);
  ~Otf2Writer() override;
  Otf2Writer(const Otf2Writer&) = delete;
  Otf2Writer& operator=(const Otf2Writer&) = delete;

  void begin(const TraceHeader& header) override;
  void write(const WriterEvent* events, std::size_t count) override;
  void finish() override;
  void commit() override;
  void discard() override;
  // Sends and receives need MPI ranks at both ends (master threads of existing locations)
  // and a tag OTF2 holds (0..2^32-1).
  std::string refusal(const WriterEvent& e) const override;
  bool holds_collectives() const override { return true; }
  std::vector<std::pair<std::string, std::uint64_t>> renamed() const override { return renamed_.counts(); }

  // Per-buffer chunk accounting for libotf2's memory callbacks (public for them only).
  struct Memory {
    std::uint64_t max_chunks = 1;
  };

 private:
  struct RegionInfo {
    OTF2_Paradigm paradigm;
    OTF2_RegionRole role;
    std::string file;   // Score-P's source file ("MPI", "OMP", "")
    int collective_op;  // -1: none
    int rma_op;         // OTF2_COLLECTIVE_OP_* of a window synchronisation, -1: none
  };

  [[noreturn]] void fail(const std::string& what) const;
  void check(OTF2_ErrorCode code, const char* what) const;
  void check_location(const WriterEvent& e) const;
  void check_rma_collective(const WriterEvent& e) const;
  std::uint32_t rank_of(std::int32_t location, const char* role) const;
  std::uint32_t string_id(const std::string& s);
  void write_definitions(const std::vector<std::uint64_t>& events_per_location);
  void close_archive() noexcept;
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> parts() const;

  std::string path_;       // the anchor as given
  std::string directory_;  // where the anchor lives
  std::string name_;       // archive name (anchor without .otf2)
  std::string staged_;     // the archive name written under until commit()
  bool committed_ = false;
  Otf2Errors errors_;  // libotf2's errors in this writer's calls
  OTF2_Archive* archive_ = nullptr;
  Memory memory_;
  bool begun_ = false, finished_ = false;

  TraceHeader header_;
  int threads_ = 1;
  std::vector<std::uint64_t> location_ids_;     // per EARL location
  std::vector<std::uint32_t> rank_of_process_;  // inverse of header.rank_process
  std::vector<RegionInfo> regions_;
  std::vector<OTF2_EvtWriter*> writers_;
  std::vector<std::int64_t> last_time_;
  std::vector<std::uint8_t> collective_open_;
  bool have_offset_ = false;
  std::int64_t offset_ = 0;  // added to every time (microseconds) to make it unsigned
  std::uint64_t first_ts_ = 0, last_ts_ = 0;

  RenamedNames renamed_;
  std::vector<std::string> strings_;
  std::unordered_map<std::string, std::uint32_t> string_ids_;
};

}  // namespace earl
