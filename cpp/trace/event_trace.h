#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "access/random_access_trace.h"
#include "index/persisted_index.h"
#include "trace/open_options.h"

namespace earl {

// The EARL 2.0 EventTrace: the trace model behind an iterator, with EARL's semantics
// (DESIGN.md section 3). Language mappings wrap this class and add only their idioms.
class EventTrace {
 public:
  // The options and their table: trace/open_options.h.
  using Options = OpenOptions;

  // `observer`: see RandomAccessTrace. It sees no event where a persisted index spares the
  // scan; the caller then reads the events itself.
  EventTrace(const std::string& file, const Options& options,
             const ProgressCallback& progress = {}, const ScanObserver& observer = {});

  // Iterator: starts at 0; moves return the new position or 0 and stay put on failure.
  Position iterator() const { return iterator_; }
  Position next();
  Position prev();
  Position jump(std::int64_t pos);
  void reset() { iterator_ = 0; }

  // pos < 0 means "the iterator".
  const Event& event(std::int64_t pos, const ProgressCallback& progress = {});

  // The rules of a mapping's position arguments, with one message each. An omitted
  // position is kAtIterator; a given one passes through checked_position.
  static constexpr std::int64_t kAtIterator = -1;
  // EarlError "no event at position N (positions are numbered from 1)" for a negative N.
  static std::int64_t checked_position(std::int64_t pos);
  // That message for a position given as text, with `more` said after "numbered from 1"
  // (Python's integers may not even fit in 64 bits).
  static std::string no_event_at(const std::string& pos, const std::string& more = "");
  // How a mapping writes the calls that move the iterator: next() and jump() (Python,
  // Lua) or next and jump (Tcl).
  enum class CallSyntax { Parentheses, Words };
  // The position an event call means: pos, or the iterator's for kAtIterator. EarlError
  // "no event at the iterator: it stands at 0 (call next() or jump() first)" while it
  // stands at 0.
  std::int64_t event_position(std::int64_t pos, CallSyntax syntax) const;
  std::vector<Position> stack(Location loc, std::int64_t pos, const ProgressCallback& progress = {});
  std::vector<Position> queue(Location src, Location dest, std::int64_t pos,
                              const ProgressCallback& progress = {});
  bool is_cheap(std::int64_t pos) const;

  // What the persisted index did on opening.
  const IndexInfo& index_info() const { return index_; }
  // Removes the index of the trace at `path` wherever it may be (beside it, in
  // $EARL_INDEX_DIR, in the user's cache directory); returns the files removed.
  static std::vector<std::string> remove_index(const std::string& path);

  Position size() const { return access_->size(); }
  const std::string& file() const { return file_; }
  std::string format() const { return access_->decoder().format(); }
  Location nrlocs() const { return definitions().location_count; }
  // The location's name, or nullopt where the trace gives none.
  std::optional<std::string> locsym(Location loc) const;
  std::vector<std::string> groups() const;
  std::string group(const std::string& region) const;
  std::vector<std::string> regions(const std::optional<std::string>& group = std::nullopt) const;
  std::vector<std::string> types() const;
  // The locations of a process group the trace defines (OTF2's Group definitions of MPI
  // groups and communicators; the group attribute of rma_group_sync names one), in rank
  // order. EarlError naming the id where the trace defines no such group.
  const std::vector<Location>& members(std::int64_t group) const;
  // The locations of communicator `com` (its id as events' `com` name it) in rank order:
  // rank r is element r. EarlError for a communicator whose ranks the trace does not name.
  const std::vector<Location>& ranks(std::int64_t com) const;
  // The counters the trace defines (OTF2's metric members), in definition order; a metric
  // event's counter is metrics()[its index]. trace/metric_fields.h: how mappings show them.
  const std::vector<MetricDefinition>& metrics() const { return definitions().metrics; }
  const Problems& problems() const { return access_->problems(); }
  const RandomAccessTrace& access() const { return *access_; }
  const Definitions& definitions() const { return access_->definitions(); }
  // The corrections made where the trace was opened with time_correct, else nullptr.
  const ClockCorrections* corrections() const { return corrections_; }

  // Attribute names of an event in model order (DESIGN.md section 1).
  static std::vector<const char*> attribute_names(EventKind kind);

 private:
  Position resolve(std::int64_t pos) const;
  std::unique_ptr<RandomAccessTrace> open(const Options& options, const ProgressCallback& progress,
                                          const ScanObserver& observer);
  void save_index_of(const RandomAccessTrace& access, const IndexKey& key,
                     const std::vector<std::string>& files);

  // EarlError "FILE changed since it was opened (...)" when the trace's files differ in
  // size or modification time from when it was opened (or are gone).
  void check_unchanged() const;

  std::string file_;
  // The trace's files and their sizes and times when it was opened (before the scan):
  // re-reads check them (RandomAccessTrace::set_input_check). Declared before access_,
  // which open() fills while they are set.
  std::vector<std::string> files_;
  TraceIdentity opened_;
  IndexInfo index_;
  const ClockCorrections* corrections_ = nullptr;  // owned by the decoder inside access_
  std::unique_ptr<RandomAccessTrace> access_;
  Position iterator_ = 0;
};

}  // namespace earl
