#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "format_interface/trace_writer.h"
#include "format_interface/written_names.h"

struct struct_OTF_FileManager;
struct struct_OTF_Writer;

namespace earl {

// Writes an OTF (version 1) trace through libotf's OTF_Writer: `path` is the master
// control file NAME.otf (or the name stub NAME), beside which NAME.0.def and one
// NAME.<stream>.events per location are written. Every location is an OTF process (id
// loc + 1, its own stream; threads name their process as parent), regions are functions
// in function groups, MPI_COMM_WORLD (the processes of the ranks, in rank order) is
// process group 1 and the communicator of every message. A collective's calls are held
// until its exit so that BeginCollectiveOperation can follow its enter with the root and
// bytes the exit brings. Fork, join, one-sided, request and program records have no OTF
// counterpart EARL reads back and are not written (as ALOG). The parts are written under
// a staging name and renamed into place on commit, the master control file last.
class OtfWriter : public TraceWriter {
 public:
  OtfWriter(const std::string& path, const WriterOptions& options);
  ~OtfWriter() override;

  void begin(const TraceHeader& header) override;
  void write(const WriterEvent* events, std::size_t count) override;
  void finish() override;
  void commit() override;
  void discard() override;
  std::string refusal(const WriterEvent& e) const override;
  bool holds_collectives() const override { return true; }
  std::vector<std::pair<std::string, std::uint64_t>> renamed() const override { return renamed_.counts(); }

 private:
  struct Location {
    std::vector<std::int64_t> enters;  // times of the open regions' enters
    int held_from = -1;        // depth of the collective's enter being held; -1: none
    std::vector<WriterEvent> held;
    std::int64_t written = 0;  // time of the last record written (libotf wants no less)
  };
  void put(const WriterEvent& e);
  void put_collective(Location& at, const WriterEvent& exit);
  void put_collective_record(Location& at, const WriterEvent& exit, std::int64_t enter);
  std::vector<std::string> staged_parts() const;
  [[noreturn]] void fail(const std::string& what) const;
  void close_writer();

  std::string anchor_, stub_, staged_stub_;
  TraceHeader header_;
  std::vector<Location> locations_;
  struct_OTF_FileManager* manager_ = nullptr;
  struct_OTF_Writer* writer_ = nullptr;
  std::uint64_t next_matching_ = 1;
  bool finished_ = false;
  RenamedNames renamed_;
};

}  // namespace earl
