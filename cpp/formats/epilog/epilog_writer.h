#pragma once
// EPILOG output: one merged trace (definitions, then every event in time order), version
// 1.9 in little-endian byte order (big-endian with WriterOptions::big_endian), as KOJAK's and Scalasca 1.x's tools read it (the mapping:
// docs/api-contract.md, "EPILOG"). Location l is thread l % threads of process
// l / threads, named by TraceHeader::location_names as its thread; the processes form
// communicator 0 (MPI_COMM_WORLD, process p is its rank p)
// and, with TraceHeader::rma_window, window 0 over it. Peers are written as ranks of
// communicator 0. A put's completion is written as the transfer end on the target
// (MPI_PUT_1TE, as KOJAK's merge writes it); lock requests, request records and program
// begin/end have no EPILOG record and are left out (refused as such: earl convert counts
// them). Numbers that do not fit EPILOG's 4-byte
// fields are refused (refusal()).
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "format_interface/trace_writer.h"

namespace earl::output {
class StagedFile;
}

namespace earl {

class EpilogWriter : public TraceWriter {
 public:
  EpilogWriter(std::string path, const WriterOptions& options);
  ~EpilogWriter() override;
  EpilogWriter(const EpilogWriter&) = delete;
  EpilogWriter& operator=(const EpilogWriter&) = delete;

  void begin(const TraceHeader& header) override;
  void write(const WriterEvent* events, std::size_t count) override;
  void finish() override;
  void commit() override;
  void discard() override;
  std::string refusal(const WriterEvent& e) const override;
  bool holds_collectives() const override { return true; }

 private:
  void record(std::uint8_t type, const std::string& body);
  void event_head(std::string& body, std::int32_t loc, std::int64_t time_us) const;
  std::uint32_t string_id(const std::string& text);
  std::uint32_t rank(std::int32_t loc) const { return static_cast<std::uint32_t>(loc / threads_); }
  void flush(bool force);
  [[noreturn]] void fail(const std::string& what);

  std::string path_;
  bool big_;
  std::unique_ptr<output::StagedFile> file_;
  bool finished_ = false;
  std::string buffer_;
  std::vector<std::string> strings_;
  int locations_ = 0;
  int threads_ = 1;
  // The target of each put not yet completed, by (origin location, put id): a completion
  // names neither.
  std::map<std::pair<std::int32_t, std::int64_t>, std::int32_t> open_puts_;
};

}  // namespace earl
