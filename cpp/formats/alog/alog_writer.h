#pragma once
// ALOG output (thesis appendix A): header records -3, -13, -15 and optionally -11, then one
// text line per event in the order given. ALOG has no communicators, collectives or
// threads: collective exits are plain exits, and when the header has threads > 1, fork and
// join are written as the trace-defined types (-9) "fork" and "join" (type numbers
// 2R+1 and 2R+2 for R regions) with data = the team size. Names are written by alog_name
// (format_interface/written_names.h: line ends and blanks at either end escaped, an empty
// region name as `""`); empty location names get no -15. Sends and receives need a peer
// among the locations and a length of at most 2^63-1 (refusal()).
#include <memory>
#include <string>
#include <vector>

#include "format_interface/trace_writer.h"
#include "format_interface/written_names.h"

namespace earl::output {
class StagedFile;
}

namespace earl {

class AlogWriter : public TraceWriter {
 public:
  AlogWriter(std::string path, const WriterOptions& options);
  ~AlogWriter() override;
  AlogWriter(const AlogWriter&) = delete;
  AlogWriter& operator=(const AlogWriter&) = delete;

  void begin(const TraceHeader& header) override;
  void write(const WriterEvent* events, std::size_t count) override;
  void finish() override;
  void commit() override;
  void discard() override;
  std::string refusal(const WriterEvent& e) const override;
  std::vector<std::pair<std::string, std::uint64_t>> renamed() const override { return renamed_.counts(); }

  // ALOG type numbers of a region's enter and exit records.
  static int enter_type(int region) { return 2 * region + 1; }
  static int exit_type(int region) { return 2 * region + 2; }
  int fork_type() const { return 2 * regions_ + 1; }
  int join_type() const { return 2 * regions_ + 2; }

 private:
  void put(char c) { buffer_.push_back(c); }
  void put(const std::string& s) { buffer_.append(s); }
  void put_int(std::int64_t v);
  void put_uint(std::uint64_t v);
  // "cycle timestamp" of a time in microseconds.
  void put_time(std::int64_t us);
  void flush(bool force);
  void fail(const std::string& what);

  std::string path_;
  WriterOptions options_;
  std::unique_ptr<output::StagedFile> file_;  // written under a staging name until commit()
  bool finished_ = false;
  std::string buffer_;
  int regions_ = 0;
  int locations_ = 0;
  RenamedNames renamed_;
  bool threads_ = false;
};

}  // namespace earl
