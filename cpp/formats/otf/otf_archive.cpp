#include "formats/otf/otf_archive.h"

#include <otf.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>

#include "formats/otf/otf_anchor.h"
#include "formats/otf/otf_handlers.h"
#include "model/clock.h"
#include "model/error.h"

namespace earl {

namespace {

// The files libotf opens at once: a stream's event file and its compressed buffer.
constexpr uint32_t kOpenFiles = 100;
// Bytes of an event record in an event file, plain and zlib-compressed (estimates).
constexpr std::uint64_t kEventBytes = 13, kCompressedEventBytes = 3;

std::string libotf_says() {
  std::string says = otf_strerr;
  for (char& c : says)
    if (c == '\n') c = ' ';  // one line
  while (!says.empty() && says.back() == ' ') says.pop_back();
  return says.empty() ? "" : " (libotf: " + says + ")";
}

bool readable(const std::string& path) { return std::ifstream(path, std::ios::binary).good(); }

}  // namespace

OtfArchive::OtfArchive(const std::string& path, const ReadOptions& options) : options_(options) {
  anchor_ = find_otf_anchor(path);
  if (anchor_.empty()) throw EarlError(path + ": no OTF trace (a NAME.otf master control file) here");
  stub_ = otf_name_stub(anchor_);
  // libotf reads the definitions from stream 0 and says little when it is missing.
  if (!readable(stub_ + ".0.def") && !readable(stub_ + ".0.def.z"))
    throw EarlError(anchor_ + ": its definitions file " + stub_ + ".0.def is missing or unreadable");
  for (const std::string& part : otf_archive_files(anchor_)) {
    struct stat info;
    if (part.find(".events") == std::string::npos || ::stat(part.c_str(), &info) != 0) continue;
    // libotf's text records take about 13 bytes per event, about 3 once compressed.
    const bool compressed = part.size() > 2 && part.compare(part.size() - 2, 2, ".z") == 0;
    estimated_events_ += static_cast<std::uint64_t>(info.st_size) / (compressed ? kCompressedEventBytes : kEventBytes);
  }
  try {
    open_reader();
    read_definitions();
    map_definitions();
    read_markers();
  } catch (...) {
    close_reader();  // no destructor runs for a constructor that throws
    throw;
  }
  declared_ = defs_;
}

OtfArchive::~OtfArchive() { close_reader(); }

void OtfArchive::fail(const std::string& what) const { throw EarlError(anchor_ + ": " + what); }

void OtfArchive::open_reader() {
  otf_errno = OTF_NO_ERROR;
  manager_ = OTF_FileManager_open(kOpenFiles);
  if (!manager_) fail("libotf cannot start" + libotf_says());
  reader_ = OTF_Reader_open(stub_.c_str(), manager_);
  if (!reader_) {
    OTF_FileManager_close(manager_);
    manager_ = nullptr;
    std::ifstream master(anchor_, std::ios::binary);
    if (master.peek() == std::ifstream::traits_type::eof())
      fail("the master control file names no stream (a trace without events?), which libotf cannot open");
    fail("libotf cannot open the trace: is the master control file damaged?" + libotf_says());
  }
  handlers_ = OTF_HandlerArray_open();
}

void OtfArchive::close_reader() {
  if (handlers_) OTF_HandlerArray_close(handlers_);
  if (reader_) OTF_Reader_close(reader_);
  if (manager_) OTF_FileManager_close(manager_);
  handlers_ = nullptr;
  reader_ = nullptr;
  manager_ = nullptr;
}

void OtfArchive::read_definitions() {
  install_definition_handlers(handlers_, &raw_);
  if (OTF_Reader_readDefinitions(reader_, handlers_) == OTF_READ_ERROR)
    fail("cannot read the definitions (" + stub_ + ".0.def)" + libotf_says());
  if (!raw_.unreadable.empty())
    fail("cannot read the definitions (" + stub_ + ".0.def): a record libotf cannot parse: \"" + raw_.unreadable +
         "\" (is the file damaged?)");
}

void OtfArchive::map_definitions() {
  ticks_per_second_ = raw_.ticks_per_second ? raw_.ticks_per_second : 1;
  if (!raw_.ticks_per_second) fail("the definitions give no timer resolution (DefTimerResolution)");
  // Locations: every process defined or named by the master control file, by process id.
  std::map<std::uint32_t, std::string> processes;
  for (const auto& p : raw_.processes) processes[p.first] = p.second;
  OTF_MasterControl* master = OTF_Reader_getMasterControl(reader_);
  const uint32_t streams = master ? OTF_MasterControl_getCount(master) : 0;
  for (uint32_t i = 0; i < streams; ++i) {
    OTF_MapEntry* entry = OTF_MasterControl_getEntryByIndex(master, i);
    if (!entry) continue;
    for (uint32_t v = 0; v < entry->n; ++v) processes.emplace(entry->values[v], "");
  }
  if (processes.size() > static_cast<std::size_t>(kMaxLocations))
    fail("defines " + std::to_string(processes.size()) + " processes, more than EARL reads");
  for (const auto& p : processes) {
    Location loc = static_cast<Location>(processes_.size());
    processes_.push_back(p.first);
    locations_[p.first] = loc;
    defs_.ensure_location(loc);
    if (!p.second.empty()) defs_.name_location(loc, p.second);
  }
  carries_.assign(processes_.size(), Carry());
  emitted_.assign(processes_.size(), 0);
  ended_.assign(processes_.size(), false);
  for (const auto& f : raw_.functions) {
    auto group = raw_.function_groups.find(f.group);
    std::string group_name = group == raw_.function_groups.end() ? "All" : group->second;
    regions_[f.id] = defs_.define_region(f.name, group_name);
  }
  for (const auto& g : raw_.process_groups) {
    std::vector<Location> members;
    for (std::uint32_t process : g.second) members.push_back(location_of(process));
    std::int64_t com = g.first;
    defs_.communicator_sizes[com] = static_cast<std::uint32_t>(members.size());
    defs_.location_groups[com] = std::move(members);
    defs_.communicator_groups[com] = com;
  }
  for (const auto& c : raw_.counters) {
    MetricDefinition m;
    m.name = c.name;
    m.unit = c.unit;
    m.source = "other";
    const std::uint32_t type = c.properties & OTF_COUNTER_TYPE_BITS;
    const std::uint32_t scope = c.properties & OTF_COUNTER_SCOPE_BITS;
    static const char* const scopes[] = {"start", "point", "last", "next"};
    m.mode = std::string(type == OTF_COUNTER_TYPE_ABS ? "absolute_" : "accumulated_") + scopes[scope / 4];
    // Like OTF2's modes: a running total differs sample to sample; an amount since the last
    // sample is itself the amount; levels and amounts until the next sample add up to none.
    if (type == OTF_COUNTER_TYPE_ACC && (scope == OTF_COUNTER_SCOPE_START || scope == OTF_COUNTER_SCOPE_POINT))
      m.sum = MetricSum::Difference;
    else if (scope == OTF_COUNTER_SCOPE_LAST)
      m.sum = MetricSum::Sample;
    else
      m.sum = MetricSum::None;
    counter_properties_[c.id] = c.properties;
    const std::uint32_t vartype = c.properties & OTF_COUNTER_VARTYPE_BITS;
    m.value_type = vartype == OTF_COUNTER_VARTYPE_DOUBLE || vartype == OTF_COUNTER_VARTYPE_FLOAT ? "double"
                   : counter_is_signed(c.id) ? "int64" : "uint64";
    metrics_[c.id] = defs_.metrics.size();
    defs_.metrics.push_back(m);
  }
  if (raw_.last_tick > raw_.first_tick) {
    defs_.declared_begin = seconds(raw_.first_tick);
    defs_.declared_end = seconds(raw_.last_tick);
  }
}

void OtfArchive::read_markers() {
  // Traces without markers have no marker file; libotf then reads nothing.
  std::vector<OtfEvent> markers;
  out_ = &markers;
  reading_markers_ = true;  // marker files need not be in time order: sorted below
  install_marker_handlers(handlers_, this);
  otf_errno = OTF_NO_ERROR;
  std::uint64_t read = OTF_Reader_readMarkers(reader_, handlers_);
  out_ = nullptr;
  reading_markers_ = false;
  throw_if_failed();
  if (read == OTF_READ_ERROR && otf_errno != OTF_NO_ERROR)
    fail("cannot read the markers (" + stub_ + ".*.marker)" + libotf_says());
  std::stable_sort(markers.begin(), markers.end(),
                   [](const OtfEvent& a, const OtfEvent& b) { return a.tick < b.tick; });
  markers_ = std::move(markers);
  records_ = 0;  // event records are numbered on their own
  last_tick_ = 0;
  emitted_.assign(processes_.size(), 0);
  // The reader's marker pass is done; the events get a fresh reader.
  close_reader();
  open_reader();
  install_event_handlers(handlers_, this);
}

void OtfArchive::rewind() {
  close_reader();
  open_reader();
  install_event_handlers(handlers_, this);
  for (Carry& c : carries_) c = Carry();
  emitted_.assign(processes_.size(), 0);
  ended_.assign(processes_.size(), false);
  next_marker_ = 0;
  records_ = 0;
  last_tick_ = 0;
  error_.clear();
}

double OtfArchive::seconds(std::uint64_t tick) const {
  return ticks_to_seconds(tick, std::uint64_t(0), static_cast<double>(ticks_per_second_));
}

void OtfArchive::take_markers_before(std::uint64_t tick, std::vector<OtfEvent>& out) {
  while (next_marker_ < markers_.size() && markers_[next_marker_].tick < tick) out.push_back(markers_[next_marker_++]);
}

bool OtfArchive::read(std::uint64_t limit, std::vector<OtfEvent>& out) {
  if (!reader_) fail("the trace is closed");
  const std::size_t before = out.size();
  std::vector<OtfEvent> events;
  out_ = &events;
  OTF_Reader_setRecordLimit(reader_, limit);
  otf_errno = OTF_NO_ERROR;
  std::uint64_t read = OTF_Reader_readEvents(reader_, handlers_);
  out_ = nullptr;
  throw_if_failed();
  if (read == OTF_READ_ERROR)
    fail("cannot read the event records after record " + std::to_string(records_) + libotf_says());
  for (OtfEvent& e : events) {
    take_markers_before(e.tick, out);
    out.push_back(e);
  }
  if (read == 0) {  // the events are done: the markers after the last of them follow
    out.insert(out.end(), markers_.begin() + static_cast<std::ptrdiff_t>(next_marker_), markers_.end());
    next_marker_ = markers_.size();
  }
  return read != 0 || out.size() > before;
}

std::string OtfArchive::events_file(std::uint32_t process) const {
  OTF_MasterControl* master = reader_ ? OTF_Reader_getMasterControl(reader_) : nullptr;
  const uint32_t stream = master ? OTF_MasterControl_mapReverse(master, process) : 0;
  if (stream == 0) return "the event file of process " + std::to_string(process);
  char hex[16];
  std::snprintf(hex, sizeof hex, "%x", stream);
  std::string plain = stub_ + "." + hex + ".events";
  return readable(plain) ? plain : plain + ".z";
}

bool OtfArchive::stream_damaged(std::uint32_t process, const std::string& what) {
  if (reading_markers_) {  // the marker files are read whole at the start: damage there is an error
    note_error("a marker file (" + stub_ + ".<stream>.marker): " + what);
    return false;
  }
  const std::string where = events_file(process) + ": " + what;
  if (options_.strict || location_of(process) < 0) {
    note_error(where);
    return false;
  }
  OTF_MasterControl* master = OTF_Reader_getMasterControl(reader_);
  const uint32_t stream = master ? OTF_MasterControl_mapReverse(master, process) : 0;
  for (std::size_t loc = 0; loc < processes_.size(); ++loc) {
    const bool same_stream = processes_[loc] == process ||
                             (stream != 0 && OTF_MasterControl_mapReverse(master, processes_[loc]) == stream);
    if (!same_stream || ended_[loc]) continue;
    ended_[loc] = true;
    bool noted = false;  // read before a rewind (the direct reader's seek back)
    for (const StreamDamage& d : damage_) noted = noted || d.loc == static_cast<Location>(loc);
    if (noted) continue;
    StreamDamage damage;
    damage.loc = static_cast<Location>(loc);
    damage.record = emitted_[loc] + 1;
    damage.message = anchor_ + ": location " + std::to_string(loc) + " (process " + std::to_string(processes_[loc]) +
                     ") ends after " + std::to_string(emitted_[loc]) + " events: " + where;
    damage_.push_back(std::move(damage));
  }
  return true;
}

void OtfArchive::note_error(std::string message) {
  if (error_.empty()) error_ = std::move(message);
}

void OtfArchive::throw_if_failed() {
  if (error_.empty()) return;
  std::string message = std::move(error_);
  error_.clear();
  fail(message);
}

Event* OtfArchive::emit(std::uint64_t tick, std::uint32_t process, EventKind kind, SymbolId type) {
  ++records_;
  Location loc = location_of(process);
  if (loc < 0) {
    note_error("event record " + std::to_string(records_) + " (time " + std::to_string(tick) +
               ") is on process " + std::to_string(process) + ", which neither the definitions nor the "
               "master control file name");
    return nullptr;
  }
  if (ended_[static_cast<std::size_t>(loc)]) return nullptr;  // after damage in its stream
  // libotf merges streams whose records are in time order (its writer refuses others), so
  // what it delivers never goes back in time; a record that does is damage in its stream.
  // (Reading on would make the merged order depend on the way the trace is read.)
  if (!reading_markers_ && tick < last_tick_) {
    stream_damaged(process, "event record " + std::to_string(records_) + " (process " + std::to_string(process) +
                                "): time " + std::to_string(tick) + " is before the time " +
                                std::to_string(last_tick_) + " of the record before it");
    return nullptr;
  }
  if (!reading_markers_) last_tick_ = tick;
  ++emitted_[static_cast<std::size_t>(loc)];
  out_->push_back(OtfEvent{loc, tick, Event()});
  Event& e = out_->back().event;
  e.loc = loc;
  e.kind = kind;
  e.type = type;
  return &e;
}

Location OtfArchive::location_of(std::uint32_t process) const {
  auto found = locations_.find(process);
  return found == locations_.end() ? -1 : found->second;
}

Location OtfArchive::peer(std::uint32_t process, Event& event) const {
  if (process == 0) return -1;  // OTF numbers processes from 1: 0 is "none"
  Location loc = location_of(process);
  if (loc < 0) event.flags |= kUnresolvedReference;
  return loc;
}

std::int64_t OtfArchive::communicator(std::uint32_t group, Event& event) const {
  if (defs_.communicator_sizes.count(group)) return group;
  if (group == 0) return -1;  // no communicator named
  event.flags |= kUnresolvedReference;
  return group;
}

SymbolId OtfArchive::region(std::uint32_t function, Event& event) {
  auto found = regions_.find(function);
  if (found != regions_.end()) return found->second;
  // Every reference to an undefined function is flagged, the first defines its region.
  event.flags |= kUnresolvedReference;
  auto met = undefined_regions_.find(function);
  if (met != undefined_regions_.end()) return met->second;
  SymbolId id = defs_.define_region("function " + std::to_string(function), "All");
  undefined_regions_[function] = id;
  return id;
}

std::int64_t OtfArchive::metric_index(std::uint32_t counter) const {
  auto found = metrics_.find(counter);
  return found == metrics_.end() ? -1 : static_cast<std::int64_t>(found->second);
}

bool OtfArchive::counter_is_double(std::uint32_t counter) const {
  auto found = counter_properties_.find(counter);
  return found != counter_properties_.end() &&
         (found->second & OTF_COUNTER_VARTYPE_BITS) == OTF_COUNTER_VARTYPE_DOUBLE;
}

bool OtfArchive::counter_is_signed(std::uint32_t counter) const {
  auto found = counter_properties_.find(counter);
  if (found == counter_properties_.end()) return false;
  const std::uint32_t vartype = found->second & OTF_COUNTER_VARTYPE_BITS;
  return vartype < OTF_COUNTER_VARTYPE_FLOAT && (vartype & OTF_COUNTER_VARTYPE_SIGNED8) != 0;
}

const std::string& OtfArchive::file_name(std::uint32_t file, Event& event) {
  auto found = raw_.files.find(file);
  if (found != raw_.files.end()) return found->second;
  event.flags |= kUnresolvedReference;
  undefined_name_ = "file " + std::to_string(file);
  return undefined_name_;
}

const std::string& OtfArchive::marker_name(std::uint32_t token, Event& event) {
  auto found = raw_.markers.find(token);
  if (found != raw_.markers.end()) return found->second;
  event.flags |= kUnresolvedReference;
  undefined_name_ = "marker " + std::to_string(token);
  return undefined_name_;
}

double OtfArchive::progress() const {
  if (!reader_) return 1.0;
  uint64_t minimum = 0, current = 0, maximum = 0;
  if (!OTF_Reader_eventBytesProgress(reader_, &minimum, &current, &maximum) || maximum <= minimum) return 0.0;
  return std::min(1.0, static_cast<double>(current - minimum) / static_cast<double>(maximum - minimum));
}

}  // namespace earl
