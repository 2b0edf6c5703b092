#include "trace/event_trace.h"

#include <unistd.h>

#include <cstdlib>

#include "index/index_settings.h"
#include "registry/format_registry.h"
#include "trace/event_attributes.h"
#include "model/error.h"
#include "timecorrect/corrected_decoder.h"

namespace earl {

namespace {

IndexMode index_mode(int index) {
  return index < 0 ? IndexMode::Automatic : index == 0 ? IndexMode::Off : IndexMode::On;
}

// With time_correct the decoder is wrapped in the controlled logical clock; corrections
// then points into the wrapper, which the random access layer owns.
std::unique_ptr<TraceDecoder> corrected_if_asked(std::unique_ptr<TraceDecoder> decoder,
                                                 const EventTrace::Options& options,
                                                 const ProgressCallback& progress,
                                                 const ClockCorrections*& corrections) {
  if (!options.time_correct) return decoder;
  auto corrected = std::make_unique<CorrectedDecoder>(std::move(decoder), options.clock, progress);
  corrections = &corrected->corrections();
  return corrected;
}

}  // namespace

EventTrace::EventTrace(const std::string& file, const Options& options,
                       const ProgressCallback& progress, const ScanObserver& observer)
    : file_(file), access_(open(options, progress, observer)) {
  if (access_->decoder().rereads_input()) access_->set_input_check([this] { check_unchanged(); });
}

// One stat per file: the price of every restore from a bookmark (which decodes up to
// bdist events anyway), so that a trace rewritten, cut, grown, replaced or deleted after
// opening is one clear error instead of wrong events or a decoder's crash. Not for a
// decoder that reads a copy (the event cache): its answers stay those of the trace opened,
// and an archive of 10^4 locations would pay 10^4 stats per jump for nothing.
void EventTrace::check_unchanged() const {
  std::string changed = stat_trace(files_).difference(opened_);
  if (changed.empty()) return;
  // "a.alog changed since it was opened (it was modified)"; an archive names its file
  if (changed.compare(0, files_[0].size() + 1, files_[0] + " ") == 0)
    changed = "it" + changed.substr(files_[0].size());
  throw EarlError(file_ + " changed since it was opened (" + changed + ")");
}

// With an index that is whole and for this very trace: the decoder and the bookmarks come
// from it, nothing is scanned. Otherwise the scan, then (when the policy wants one) the
// index is written for the next open. Nothing about the index is ever an error: what went
// wrong is a note in index_info().
std::unique_ptr<RandomAccessTrace> EventTrace::open(const Options& options,
                                                    const ProgressCallback& progress,
                                                    const ScanObserver& observer) {
  check_open_options(options);  // arguments first, before any file is touched
  const auto bdist = static_cast<std::uint64_t>(options.bdist);
  const auto hsize = static_cast<std::uint64_t>(options.hsize);
  const std::uint64_t memory = memory_budget(options.memory);
  const bool cache = use_event_cache(options);
  const ReadOptions read{options.strict};
  if (options.time_correct) options.clock.validate();
  IndexPolicy policy = index_policy(index_mode(options.index));
  if (options.time_correct && policy.enabled) {
    // The index keeps the recorded times' decoder state; corrected times are derived at
    // every open (a pass costing about one scan), so nothing is persisted for them.
    policy.enabled = false;
    policy.why_off = "not kept for a clock-corrected trace (time_correct)";
  }
  const std::string format = resolve_format(file_, options.format);
  files_ = trace_files(file_, format);
  opened_ = stat_trace(files_);
  std::vector<std::string> files;
  IndexKey key;
  bool save = false;
  index_.note = policy.why_off;
  if (policy.enabled) {
    files = trace_files(file_, format);
    const bool large = trace_bytes(files) >= policy.min_bytes;
    if (large) key.identity = identify_trace(files);
    key.decoder = format + (cache ? "+cache" : "");
    key.bdist = bdist;
    key.memory = memory;
    index_.path = large ? index_path_for(files[0]) : "";
    if (!large) {
      index_.note = "the trace is smaller than " + std::to_string(policy.min_bytes) + " bytes (" +
                    kIndexMinBytesEnv + ")";
    } else if (index_.path.empty()) {
      index_.note = "no directory to keep it in (set " + std::string(kIndexDirEnv) + ")";
    } else {
      LoadedIndex loaded;
      std::string why;
      if (load_index(index_.path, key, loaded, why)) {
        try {
          std::unique_ptr<TraceDecoder> decoder = open_decoder(file_, format, cache, loaded.decoder, read);
          if (loaded.bookmarks_usable) {
            auto access = std::make_unique<RandomAccessTrace>(std::move(decoder), bdist, hsize, memory,
                                                              std::move(loaded.scan));
            index_.state = "loaded";
            index_.note = "";
            return access;
          }
          // Scanned again, but from the decoder's saved state (the persisted cache).
          auto access = std::make_unique<RandomAccessTrace>(std::move(decoder), bdist, hsize, progress, memory, observer);
          index_.note = why;
          save_index_of(*access, key, files);
          return access;
        } catch (const EarlError& error) {
          if (loaded.decoder.restored_fd >= 0) ::close(loaded.decoder.restored_fd);
          why = std::string("it does not fit the trace: ") + error.what();
        }
      }
      save = true;
      index_.note = why == "none" ? "" : why;
    }
  }
  auto access = std::make_unique<RandomAccessTrace>(
      corrected_if_asked(open_decoder(file_, format, cache, read), options, progress, corrections_),
      bdist, hsize, progress, memory, observer);
  if (save) save_index_of(*access, key, files);
  return access;
}

// After a scan: saves the index unless the decoder keeps no state or the trace changed
// while it was read. index_.note holds why an index that was there was not used.
void EventTrace::save_index_of(const RandomAccessTrace& access, const IndexKey& key,
                               const std::vector<std::string>& files) {
  DecoderState state;
  const bool rebuilt = !index_.note.empty();
  if (!access.problems().damaged.empty()) {
    index_.note = "not kept for a damaged trace (its damage is found again at every open)";
  } else if (!access.decoder().save_state(state)) {
    index_.note = "the " + key.decoder + " reader keeps no index";
  } else if (std::string changed = identify_trace(files).difference(key.identity); !changed.empty()) {
    index_.note = "not saved: the trace changed while it was read (" + changed + ")";
  } else {
    try {
      save_index(index_.path, key, access, state);
      index_.state = rebuilt ? "rebuilt" : "built";
    } catch (const EarlError& error) {
      index_.note = std::string("not saved: ") + error.what();
    }
  }
}

std::vector<std::string> EventTrace::remove_index(const std::string& path) {
  std::string anchor = path;
  try {
    anchor = trace_files(path, "").front();
  } catch (const EarlError&) {
    // Not a trace (any more): its index may still be named after the path.
  }
  std::vector<std::string> gone;
  for (const std::string& place : index_places(anchor))
    for (std::string& file : earl::remove_index(place)) gone.push_back(std::move(file));
  return gone;
}

std::vector<const char*> EventTrace::attribute_names(EventKind kind) {
  std::vector<const char*> names;
  for (const AttributeSpec& spec : attribute_specs(kind)) names.push_back(attribute_name(spec.name));
  return names;
}

Position EventTrace::next() {
  if (iterator_ + 1 > size()) return 0;
  return ++iterator_;
}

Position EventTrace::prev() {
  if (iterator_ <= 1) return 0;
  return --iterator_;
}

Position EventTrace::jump(std::int64_t pos) {
  if (pos <= 0 || static_cast<Position>(pos) > size()) return 0;
  iterator_ = static_cast<Position>(pos);
  return iterator_;
}

Position EventTrace::resolve(std::int64_t pos) const {
  return pos < 0 ? iterator_ : static_cast<Position>(pos);
}

const Event& EventTrace::event(std::int64_t pos, const ProgressCallback& progress) {
  return access_->event(resolve(pos), progress);
}

std::int64_t EventTrace::checked_position(std::int64_t pos) {
  if (pos < 0) throw EarlError(no_event_at(std::to_string(pos)));
  return pos;
}

std::string EventTrace::no_event_at(const std::string& pos, const std::string& more) {
  return "no event at position " + pos + " (positions are numbered from 1" + more + ")";
}

std::int64_t EventTrace::event_position(std::int64_t pos, CallSyntax syntax) const {
  if (pos < 0 && iterator_ == 0) {
    const std::string call = syntax == CallSyntax::Parentheses ? "()" : "";
    throw EarlError("no event at the iterator: it stands at 0 (call next" + call + " or jump" + call + " first)");
  }
  return pos;
}

std::vector<Position> EventTrace::stack(Location loc, std::int64_t pos,
                                        const ProgressCallback& progress) {
  return access_->stack(loc, resolve(pos), progress);
}

std::vector<Position> EventTrace::queue(Location src, Location dest, std::int64_t pos,
                                        const ProgressCallback& progress) {
  return access_->queue(src, dest, resolve(pos), progress);
}

bool EventTrace::is_cheap(std::int64_t pos) const { return access_->is_cheap(resolve(pos)); }

std::optional<std::string> EventTrace::locsym(Location loc) const {
  const Definitions& defs = definitions();
  if (loc < 0 || loc >= defs.location_count)
    throw EarlError("location " + std::to_string(loc) + " is not a location (the trace has " +
                    "locations 0.." + std::to_string(defs.location_count - 1) + ")");
  if (static_cast<std::size_t>(loc) < defs.location_names.size() &&
      !defs.location_names[loc].empty())
    return defs.location_names[loc];
  return std::nullopt;
}

std::vector<std::string> EventTrace::groups() const {
  const auto& names = definitions().groups.names();
  if (names.empty()) return {"All"};
  return names;
}

std::string EventTrace::group(const std::string& region) const {
  const Definitions& defs = definitions();
  SymbolId id;
  if (!defs.regions.find(region, id)) throw EarlError("unknown region '" + region + "'");
  if (id < defs.region_group.size()) return defs.groups.name(defs.region_group[id]);
  return "All";
}

std::vector<std::string> EventTrace::regions(const std::optional<std::string>& group) const {
  const Definitions& defs = definitions();
  if (!group) return defs.regions.names();
  SymbolId group_id;
  bool known = defs.groups.find(*group, group_id);
  if (!known && *group != "All") throw EarlError("unknown group '" + *group + "'");
  if (*group == "All" && (!known || defs.groups.size() == 1)) return defs.regions.names();
  std::vector<std::string> names;
  for (SymbolId id = 0; id < defs.regions.size(); ++id)
    if (id < defs.region_group.size() && defs.region_group[id] == group_id)
      names.push_back(defs.regions.name(id));
  return names;
}

const std::vector<Location>& EventTrace::members(std::int64_t group) const {
  const auto& groups = definitions().location_groups;
  auto found = groups.find(group);
  if (found == groups.end())
    throw EarlError("no process group " + std::to_string(group) + " in this trace" +
                    (groups.empty() ? " (it defines none)" : ""));
  return found->second;
}

const std::vector<Location>& EventTrace::ranks(std::int64_t com) const {
  const auto& communicators = definitions().communicator_groups;
  auto found = communicators.find(com);
  if (found == communicators.end())
    throw EarlError("no communicator " + std::to_string(com) + " with named ranks in this trace" +
                    (communicators.empty() ? " (it names none)" : ""));
  return members(found->second);
}

std::vector<std::string> EventTrace::types() const { return definitions().types.names(); }

}  // namespace earl
