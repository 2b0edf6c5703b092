#include "convert/merge.h"
#include "convert/merge_offsets.h"
#include "convert/counts.h"
#include "convert/trace_files.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <tuple>

#include "format_interface/stream_merge.h"
#include "format_interface/trace_writer.h"
#include "model/clock.h"
#include "model/error.h"
#include "registry/format_registry.h"
#include "trace/event_trace.h"

namespace earl::convert {

namespace {

constexpr std::size_t kBatch = 4096;
constexpr Position kPollEvery = 1 << 16;
const char* const kOutsidePeer = "message to a location outside its input";

[[noreturn]] void bad(const std::string& what) { throw EarlError("earl merge: " + what); }

std::int64_t microseconds(double seconds, const std::string& what) {
  const double rounded = std::nearbyint(seconds * kMicrosecondsPerSecond);
  if (!std::isfinite(rounded) || std::fabs(rounded) > 9.0e18) bad(what + ": time out of range");
  return static_cast<std::int64_t>(rounded);
}

struct Opened {
  std::unique_ptr<EventTrace> trace;
  std::vector<char> busy;  // per location: has events
};

// Which input owns each location with events (-1: none); -2 where two inputs share one.
std::vector<std::int64_t> owners(const std::vector<Opened>& opened, std::int64_t locations) {
  std::vector<std::int64_t> owner(static_cast<std::size_t>(locations), -1);
  for (std::size_t i = 0; i < opened.size(); ++i)
    for (std::size_t l = 0; l < opened[i].busy.size(); ++l) {
      if (!opened[i].busy[l]) continue;
      owner[l] = owner[l] == -1 ? static_cast<std::int64_t>(i) : -2;
    }
  return owner;
}

// The bounds on the offsets of every pair of inputs that messages link (Keep mode):
// sends and receives whose peer another input owns, matched first in, first out per
// (sender, receiver, tag).
std::map<PairKey, PairBounds> message_bounds(std::vector<Opened>& opened, const std::vector<std::int64_t>& owner,
                                             const MergeOptions& options) {
  using Channel = std::tuple<Location, Location, std::int64_t>;
  std::map<Channel, std::vector<double>> sends, recvs;
  auto foreign = [&](Location peer, std::size_t input) {
    return peer >= 0 && static_cast<std::size_t>(peer) < owner.size() && owner[peer] >= 0 &&
           static_cast<std::size_t>(owner[peer]) != input;
  };
  for (std::size_t i = 0; i < opened.size(); ++i) {
    EventTrace& trace = *opened[i].trace;
    for (Position pos = 1; pos <= trace.size(); ++pos) {
      if (options.poll && pos % kPollEvery == 0) options.poll();
      const Event& e = trace.event(static_cast<std::int64_t>(pos));
      if (e.kind == EventKind::Send && foreign(e.peer, i))
        sends[{e.loc, e.peer, e.tag}].push_back(e.time);
      else if (e.kind == EventKind::Recv && foreign(e.peer, i))
        recvs[{e.peer, e.loc, e.tag}].push_back(e.time);
    }
  }
  std::map<PairKey, PairBounds> pairs;
  for (const auto& [channel, send_times] : sends) {
    auto r = recvs.find(channel);
    if (r == recvs.end()) continue;
    const auto from = static_cast<std::size_t>(owner[std::get<0>(channel)]);
    const auto to = static_cast<std::size_t>(owner[std::get<1>(channel)]);
    PairBounds& bounds = pairs[{std::min(from, to), std::max(from, to)}];
    const std::size_t matched = std::min(send_times.size(), r->second.size());
    for (std::size_t k = 0; k < matched; ++k) {
      if (from < to)
        bounds.message_from_a(send_times[k], r->second[k]);
      else
        bounds.message_from_b(send_times[k], r->second[k]);
    }
  }
  return pairs;
}

// The output's definitions: regions unified by name (first appearance), and per input
// the output id of each of its regions.
void unify_regions(const std::vector<Opened>& opened, TraceHeader& header,
                   std::vector<std::vector<std::int32_t>>& region_map) {
  std::map<std::string, std::int32_t> ids;
  for (const Opened& o : opened) {
    const Definitions& defs = o.trace->definitions();
    std::vector<std::int32_t> map;
    for (SymbolId r = 0; r < defs.regions.size(); ++r) {
      const std::string& name = defs.regions.name(r);
      auto [it, added] = ids.emplace(name, static_cast<std::int32_t>(header.regions.size()));
      if (added) {
        RegionDef region;
        region.name = name;
        if (r < defs.region_group.size() && defs.region_group[r] < defs.groups.size())
          region.group = defs.groups.name(defs.region_group[r]);
        header.regions.push_back(std::move(region));
      }
      map.push_back(it->second);
    }
    region_map.push_back(std::move(map));
  }
}

// A location's name as the writers take it: ALOG's locations are processes (" / Master
// thread" dropped); OTF2 gets it as the process's name (one thread per process).
std::string flat_name(const std::optional<std::string>& name) {
  std::string flat = name ? *name : std::string();
  const std::string master = " / Master thread";
  if (flat.size() >= master.size() && flat.compare(flat.size() - master.size(), master.size(), master) == 0)
    flat.resize(flat.size() - master.size());
  return flat;
}

// Each input opened, with the locations it has events on (one pass over it).
std::vector<Opened> open_inputs(const std::vector<MergeInput>& inputs, const MergeOptions& options,
                                MergeSummary& summary) {
  std::vector<Opened> opened;
  for (const MergeInput& in : inputs) {
    Opened o;
    EventTrace::Options open;
    open.format = in.format;
    o.trace = std::make_unique<EventTrace>(in.path, open);
    const Location n = o.trace->nrlocs();
    o.busy.assign(static_cast<std::size_t>(n), 0);
    for (Position pos = 1; pos <= o.trace->size(); ++pos) {
      if (options.poll && pos % kPollEvery == 0) options.poll();
      o.busy[o.trace->event(static_cast<std::int64_t>(pos)).loc] = 1;
    }
    InputOffset info;
    info.path = in.path;
    info.format = o.trace->format();
    info.events = o.trace->size();
    info.locations = n;
    for (Location l = 0; l < n; ++l)
      if (o.busy[l]) info.event_locations.push_back(l);
    if (in.offset) {
      info.offset = *in.offset;
      info.how = "given";
    }
    summary.inputs.push_back(info);
    opened.push_back(std::move(o));
  }
  return opened;
}

// Keep or Renumber (convert/merge.h), and each input's first output location.
std::vector<std::int64_t> number_locations(const std::vector<Opened>& opened, const std::vector<std::int64_t>& owner,
                                           LocationMode mode, MergeSummary& summary) {
  const auto shared = std::find(owner.begin(), owner.end(), -2);
  if (mode == LocationMode::Keep && shared != owner.end()) {
    const auto l = static_cast<std::size_t>(shared - owner.begin());
    std::string which;
    for (std::size_t i = 0; i < opened.size(); ++i)
      if (l < opened[i].busy.size() && opened[i].busy[l])
        which += (which.empty() ? "'" : " and '") + summary.inputs[i].path + "'";
    bad("location " + std::to_string(l) + " has events in " + which +
        ": the inputs are no per-rank pieces of one run; merge with renumbered locations");
  }
  summary.kept_locations = mode == LocationMode::Keep || (mode == LocationMode::Auto && shared == owner.end());
  std::vector<std::int64_t> first(opened.size(), 0);
  summary.locations = summary.kept_locations ? static_cast<std::int64_t>(owner.size()) : 0;
  for (std::size_t i = 0; i < opened.size(); ++i) {
    if (!summary.kept_locations) {
      first[i] = summary.locations;
      summary.locations += summary.inputs[i].locations;
    }
    summary.inputs[i].first_location = first[i];
  }
  if (summary.locations > INT32_MAX) bad("too many locations");
  return first;
}

// The output's header: locations named (Keep: by the input that has events there; Renumber:
// "FILE: NAME") and regions unified by name (region_map: per input, its regions' ids).
TraceHeader merged_header(const std::vector<Opened>& opened, const std::vector<std::int64_t>& owner,
                          const std::vector<std::int64_t>& first, const MergeSummary& summary, bool otf2,
                          std::vector<std::vector<std::int32_t>>& region_map) {
  TraceHeader header;
  header.locations = static_cast<int>(summary.locations);
  header.location_names.assign(static_cast<std::size_t>(summary.locations), "");
  std::vector<char> named(static_cast<std::size_t>(summary.locations), 0);
  for (std::size_t i = 0; i < opened.size(); ++i)
    for (Location l = 0; l < opened[i].trace->nrlocs(); ++l) {
      const std::size_t out = static_cast<std::size_t>(first[i] + l);
      // Keep mode: the owner's name, else the first input naming it.
      const bool mine = !summary.kept_locations || owner[l] == static_cast<std::int64_t>(i);
      if (named[out] == 2 || (named[out] == 1 && !mine)) continue;
      const std::optional<std::string> name = opened[i].trace->locsym(l);
      if (!name && !mine) continue;
      header.location_names[out] = flat_name(name);
      named[out] = mine ? 2 : 1;
    }
  // Separate runs name their locations alike ("MPI Rank 0"): the input's file says which.
  if (!summary.kept_locations)
    for (std::size_t i = 0; i < opened.size(); ++i) {
      const std::string& path = summary.inputs[i].path;
      const std::string file = path.substr(path.find_last_of('/') + 1);
      for (Location l = 0; l < opened[i].trace->nrlocs(); ++l) {
        std::string& name = header.location_names[static_cast<std::size_t>(first[i] + l)];
        name = file + ": " + (name.empty() ? std::to_string(l) : name);
      }
    }
  if (otf2)
    for (const std::string& name : header.location_names)
      header.process_names.push_back(name.empty() ? std::nullopt : std::optional<std::string>(name));
  unify_regions(opened, header, region_map);
  return header;
}

// Event `e` of input `i` as the writer takes it; false (and counted) where it is left out.
bool writer_event(const Event& e, const EventTrace& trace, std::int64_t first, const std::vector<std::int32_t>& regions,
                  const TraceWriter& writer, MergeSummary& summary, WriterEvent& g) {
  g.loc = static_cast<std::int32_t>(first + e.loc);
  bool outside = false;
  auto peer = [&](Location p) {
    if (p < 0) return std::int32_t{-1};
    if (!summary.kept_locations && p >= trace.nrlocs()) outside = true;
    return static_cast<std::int32_t>(first + p);
  };
  switch (e.kind) {
    case EventKind::Enter:
    case EventKind::Exit:
      g.kind = e.kind == EventKind::Enter ? WriterEventKind::Enter : WriterEventKind::Exit;
      g.region = regions[e.region];
      break;
    case EventKind::CollectiveExit:
      g.kind = WriterEventKind::Exit;
      g.region = regions[e.region];
      // Separate runs (Renumber) share no communicator: their collectives stay apart.
      if (summary.kept_locations && writer.holds_collectives()) {
        g.flags = kWriterCollective;
        g.len = e.len;
        g.received = static_cast<std::uint64_t>(e.tag);
        g.peer = peer(e.peer);
      }
      break;
    case EventKind::Send:
    case EventKind::Recv:
      g.kind = e.kind == EventKind::Send ? WriterEventKind::Send : WriterEventKind::Recv;
      g.peer = peer(e.peer);
      g.tag = e.tag;
      g.len = e.len;
      break;
    default:
      add_count(summary.dropped, trace.definitions().types.name(e.type));
      return false;
  }
  if (outside) {
    add_count(summary.refused, kOutsidePeer);
    return false;
  }
  if (const std::string why = writer.refusal(g); !why.empty()) {
    add_count(summary.refused, why);
    return false;
  }
  return true;
}

// The inputs' events merged by shifted time (StreamMerge over the inputs, each in its own
// time order) and written; events of equal time go out by location.
void write_merged(TraceWriter& writer, std::vector<Opened>& opened, const std::vector<std::int64_t>& first,
                  const std::vector<std::vector<std::int32_t>>& region_map, const MergeOptions& options,
                  MergeSummary& summary) {
  const std::size_t n = opened.size();
  auto when = [&](std::size_t i, Position pos, std::int64_t shift) {
    return microseconds(opened[i].trace->event(static_cast<std::int64_t>(pos)).time, "'" + summary.inputs[i].path + "'") + shift;
  };
  // The merge keys: microseconds since the earliest shifted start.
  std::vector<std::int64_t> shift(n);
  std::int64_t base = INT64_MAX;
  for (std::size_t i = 0; i < n; ++i) {
    shift[i] = microseconds(summary.inputs[i].offset, "offset of '" + summary.inputs[i].path + "'");
    if (opened[i].trace->size() > 0) base = std::min(base, when(i, 1, shift[i]));
  }
  StreamMerge streams(static_cast<std::uint32_t>(n));
  std::vector<Position> next(n, 1);
  std::vector<std::int64_t> time(n, 0);
  auto load = [&](std::size_t i) {
    if (next[i] > opened[i].trace->size()) {
      streams.end(static_cast<std::uint32_t>(i));
      return;
    }
    time[i] = when(i, next[i], shift[i]);
    streams.set(static_cast<std::uint32_t>(i), static_cast<std::uint64_t>(time[i] - base));
  };
  for (std::size_t i = 0; i < n; ++i) load(i);
  streams.rebuild();
  std::vector<WriterEvent> batch;
  std::uint64_t count = 0;
  // A batch ends only where the time changes, so sorting it orders every tie.
  auto flush = [&] {
    std::stable_sort(batch.begin(), batch.end(), writer_event_before);
    writer.write(batch.data(), batch.size());
    summary.events_written += batch.size();
    batch.clear();
  };
  while (!streams.done()) {
    const std::size_t i = streams.winner();
    if (options.poll && ++count % kPollEvery == 0) options.poll();
    WriterEvent g;
    g.time = time[i];
    const Event& e = opened[i].trace->event(static_cast<std::int64_t>(next[i]));
    if (writer_event(e, *opened[i].trace, first[i], region_map[i], writer, summary, g)) {
      if (batch.size() >= kBatch && batch.back().time != g.time) flush();
      g.seq = static_cast<std::uint32_t>(batch.size());
      batch.push_back(g);
    }
    ++next[i];
    load(i);
    streams.replay(static_cast<std::uint32_t>(i));
  }
  flush();
}

}  // namespace

LocationMode location_mode(const std::string& name) {
  if (name == "auto") return LocationMode::Auto;
  if (name == "keep") return LocationMode::Keep;
  if (name == "renumber") return LocationMode::Renumber;
  bad("locations '" + name + "': expected auto, keep or renumber");
}

MergeSummary merge(const std::string& output, const std::vector<MergeInput>& inputs, const MergeOptions& options) {
  if (inputs.empty()) bad("no input traces");
  if (output.empty()) bad("no output path");
  for (const MergeInput& in : inputs) {
    if (overwrites_trace(in.path, output))
      bad("'" + output + "' is the input trace '" + in.path + "' itself; choose another output path");
    if (in.offset && !std::isfinite(*in.offset)) bad("offset of '" + in.path + "' is not a finite number");
  }
  MergeSummary summary;
  std::vector<Opened> opened = open_inputs(inputs, options, summary);
  std::int64_t locations = 0;
  for (const InputOffset& in : summary.inputs) locations = std::max(locations, in.locations);
  const std::vector<std::int64_t> owner = owners(opened, locations);
  const std::vector<std::int64_t> first = number_locations(opened, owner, options.mode, summary);
  if (options.estimate) {
    if (!summary.kept_locations)
      bad("--estimate-offsets needs messages between the inputs, which inputs merged with renumbered "
          "locations cannot name; give the offsets (--offset IN=SECONDS)");
    estimate_offsets(message_bounds(opened, owner, options), summary.inputs);
  }

  std::string format = options.format;
  if (format.empty()) format = format_for_path(output);
  if (format.empty()) format = summary.inputs[0].format;
  if (const std::string why = why_not_writable(format); !why.empty())
    bad(why + "; give --format or an output path ending in .alog or .otf2");
  summary.output_format = format;
  std::vector<std::vector<std::int32_t>> region_map;
  const TraceHeader header = merged_header(opened, owner, first, summary, format == "otf2", region_map);

  std::unique_ptr<TraceWriter> writer = open_writer(format, output, WriterOptions{});
  try {
    writer->begin(header);
    write_merged(*writer, opened, first, region_map, options, summary);
    writer->finish();
    writer->commit();
  } catch (...) {
    writer->discard();
    throw;
  }
  return summary;
}

}  // namespace earl::convert
