#pragma once
// Chrome trace-event JSON output, `{"traceEvents": [...]}`, gzip-compressed when the path
// ends in ".gz"; Perfetto and chrome://tracing open it. Location l is tid l of pid
// l / threads; metadata events name processes and threads and fix the thread order
// (thread_sort_index l, which EARL's reader also takes as the location's place). Regions
// are B/E slices (name = region, cat = group); a collective exit carries args root, sent,
// recvd. A message is a flow: "s" at the send, "f" (binding to the enclosing slice) at the
// matching receive, id shared, args tag/len on the send and on the receive only a len of its
// own (the trace viewer merges both ends' args), so that EARL reads the message back as it
// was. Events without a slice or flow form (fork, join, RMA, request records, program
// begin/end) are instants named for their kind. ts are integer microseconds.
// Annotations (earl convert --wait-states) are X slices named for what they show ("Late
// Sender"), cat "wait state", args metric, callpath and idle (seconds), on a track of
// their own per location: tid locations + l in location l's process, named
// "<thread> wait states", sorted after every location; their metadata follow every
// location's, so EARL (locations in order of first appearance) reads the locations back as
// they were and those tracks after them. ts and dur to the nanosecond.
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "format_interface/trace_writer.h"
#include "format_interface/written_names.h"

namespace earl::output {
class StagedFile;
}

namespace earl {

class ChromeWriter : public TraceWriter {
 public:
  ChromeWriter(std::string path, const WriterOptions& options);
  ~ChromeWriter() override;
  ChromeWriter(const ChromeWriter&) = delete;
  ChromeWriter& operator=(const ChromeWriter&) = delete;

  void begin(const TraceHeader& header) override;
  void write(const WriterEvent* events, std::size_t count) override;
  bool holds_collectives() const override { return true; }
  void finish() override;
  bool shows_annotations() const override { return true; }
  void annotate(const std::vector<WriterAnnotation>& annotations) override;
  void commit() override;
  void discard() override;
  std::vector<std::pair<std::string, std::uint64_t>> renamed() const override { return renamed_.counts(); }

 private:
  class Compressor;
  void record(const std::string& json);  // one element of the event array
  void flush(bool force);
  void place(std::int32_t loc);  // "pid":P,"tid":T
  [[noreturn]] void fail(const std::string& what);
  std::string name(const char* kind, const std::string& text);

  std::string path_;
  std::unique_ptr<output::StagedFile> file_;
  std::unique_ptr<Compressor> gzip_;
  std::string buffer_, line_;
  bool first_ = true, finished_ = false;
  int threads_ = 1, locations_ = 0;
  std::vector<std::string> thread_names_;  // as begin() wrote them, for the annotation tracks
  std::vector<char> annotated_;            // per location: its annotation track is named
  std::vector<std::string> regions_, groups_;  // as JSON string literals
  RenamedNames renamed_;
  std::uint64_t next_flow_ = 1;
  // Flow ids and lengths of sends not yet received and of receives whose send is not yet
  // written, by channel (source, destination, tag), oldest first.
  using Channel = std::tuple<std::int32_t, std::int32_t, std::int64_t>;
  std::map<Channel, std::deque<std::pair<std::uint64_t, std::uint64_t>>> unreceived_, unsent_;
};

}  // namespace earl
