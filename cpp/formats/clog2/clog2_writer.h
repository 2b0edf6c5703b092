#pragma once
// CLOG2 output, as MPE's merger writes a merged file (big-endian, 64 KiB blocks): the
// preamble, then at time 0 one MPI_COMM_WORLD communicator record per process (rank p is
// process p, so the header's rank_process is not kept) and one state definition per region
// (state 300+i, start event 600+2i, final event 601+2i: MPE's user range; the color is the
// style's part before ':'), then the events: enter/exit as bare events, send/recv as
// message events on MPI_COMM_WORLD (communicator 0), a location's thread as the record's
// thread. Collective exits are plain exits. End-of-log, then the communicator table.
//
// What CLOG2 cannot hold is refused (refusal()) and, in write(), left out as ALOG's writer
// leaves it out: fork/join, one-sided, request and program records; a message to or from a
// thread other than a process's first (CLOG2's messages name processes), a tag outside 32
// bits or a length of 2^31 bytes or more make write() fail. Names longer than 31 bytes are
// cut (not inside a UTF-8 character) and NUL bytes escaped, a cut name made unique with a
// "~N" ending where it would read back as another region's (counted as renamed).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "format_interface/trace_writer.h"
#include "format_interface/written_names.h"

namespace earl::output {
class StagedFile;
}

namespace earl {

class Clog2Writer : public TraceWriter {
 public:
  Clog2Writer(std::string path, const WriterOptions& options);
  ~Clog2Writer() override;
  Clog2Writer(const Clog2Writer&) = delete;
  Clog2Writer& operator=(const Clog2Writer&) = delete;

  void begin(const TraceHeader& header) override;
  void write(const WriterEvent* events, std::size_t count) override;
  void finish() override;
  void commit() override;
  void discard() override;
  std::string refusal(const WriterEvent& e) const override;
  std::vector<std::pair<std::string, std::uint64_t>> renamed() const override { return renamed_.counts(); }

 private:
  // Appends one record (header fields, then `body`, which has the type's body size),
  // ending the block first where the record and an end-of-block record would not fit.
  void record(double time, std::int32_t rank, std::int32_t thread, std::int32_t type, const unsigned char* body);
  void flush_block();
  void put_bytes(const void* data, std::size_t size);
  [[noreturn]] void fail(const std::string& what);

  std::string path_;
  std::unique_ptr<output::StagedFile> file_;
  bool finished_ = false;
  std::vector<unsigned char> block_;
  std::size_t used_ = 0;
  std::uint64_t written_ = 0;  // bytes written to the file so far
  double last_time_ = 0.0;
  int locations_ = 0;
  int threads_ = 1;
  int regions_ = 0;
  RenamedNames renamed_;
};

}  // namespace earl
