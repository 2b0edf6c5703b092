// The Python mapping of EventTrace: events become dicts, lists become lists, the false
// value is 0. Long decoding releases the GIL and reports progress through a Python
// callable that also lets Ctrl-C stop the work.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <type_traits>
#include <vector>

#include "bindings/python/bindings.h"
#include "bindings/python/open_options_binding.h"
#include "bindings/python/arguments.h"
#include "bindings/python/callbacks.h"
#include "bindings/python/init_once.h"
#include "bindings/python/lists.h"
#include "bindings/python/metric_fields.h"
#include "bindings/python/profile_tables.h"
#include "bindings/python/text.h"
#include "index/index_settings.h"
#include "model/error.h"
#include "profile/region_instances.h"
#include "profile/time_window.h"
#include "profile/trace_profile.h"
#include "trace/event_attributes.h"
#include "trace/event_trace.h"
#include "trace/shared_trace.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace earl::bindings {

namespace {

// One row of EventTrace.to_numpy(). Its NumPy dtype is made from this struct (export_dtype)
// and nowhere else. NumPy lists the fields in memory order, so the members follow the
// contract's order (pos, loc, time, type, ...), padded so that every field is aligned.
struct ExportRecord {
  std::uint64_t pos;
  std::int32_t loc;
  double time;
  std::int32_t type;
  std::uint64_t enterptr;
  std::int32_t region;
  std::int32_t peer;
  std::int64_t tag;
  std::int64_t com;
  std::uint64_t len;  // bytes, up to 2^64 - 1 as the model holds them
  std::uint64_t sendptr;
};

// Registered on first use rather than at import: building a dtype imports NumPy, whose
// OpenBLAS threads would compete with every scan of a script that never exports.
py::dtype export_dtype() {
  static const bool registered = [] {
    PYBIND11_NUMPY_DTYPE(ExportRecord, pos, loc, time, type, enterptr, region, peer, tag, com,
                         len, sendptr);
    return true;
  }();
  (void)registered;
  return py::dtype::of<ExportRecord>();
}

// One interned Python string per attribute name, made once.
PyObject* key(Attribute attribute) {
  static PyObject* keys[static_cast<int>(Attribute::Count_)] = {};
  PyObject*& cached = keys[static_cast<int>(attribute)];
  if (!cached) {
    cached = PyUnicode_InternFromString(attribute_name(attribute));
    if (!cached) throw py::error_already_set();
  }
  return cached;
}

void put(PyObject* dict, PyObject* name, PyObject* value) {
  if (!value) throw py::error_already_set();
  int failed = PyDict_SetItem(dict, name, value);
  Py_DECREF(value);
  if (failed) throw py::error_already_set();
}

// The columns of every event, grown as a scan hands the events over (ScanObserver): each a
// malloc'd block that realloc grows (the C library remaps large blocks instead of copying
// them) and that a NumPy array then owns. Events arrive in position order; position 1
// again (a restarted scan) starts over.
class ColumnSink {
 public:
  explicit ColumnSink(std::vector<std::pair<std::size_t, std::size_t>> layout) : layout_(std::move(layout)) {
    blocks_.assign(layout_.size(), nullptr);
  }
  ColumnSink(const ColumnSink&) = delete;
  ColumnSink& operator=(const ColumnSink&) = delete;
  ~ColumnSink() {
    for (char* block : blocks_) std::free(block);
    for (double* block : counters_) std::free(block);
  }

  // `fill` writes an event's row (ExportRecord); `value` gives a metric event's counter
  // value. The counters are kept aside until finish(), which knows how many the trace defines.
  template <typename Fill, typename Value>
  void take(const Event& e, Fill&& fill, Value&& value) {
    const auto index = static_cast<std::size_t>(e.pos - 1);
    if (index == 0) restart();
    if (index >= capacity_) grow(index + 1);
    ExportRecord row;
    fill(row, e);
    const char* from = reinterpret_cast<const char*>(&row);
    for (std::size_t f = 0; f < layout_.size(); ++f) {
      const auto [offset, size] = layout_[f];
      // Sizes known at compile time make each copy one move instead of a call.
      if (size == 8) std::memcpy(blocks_[f] + index * 8, from + offset, 8);
      else if (size == 4) std::memcpy(blocks_[f] + index * 4, from + offset, 4);
      else std::memcpy(blocks_[f] + index * size, from + offset, size);
    }
    if (e.kind == EventKind::Metric && e.tag >= 0) samples_.push_back({index, e.tag, value(e)});
    count_ = std::max(count_, index + 1);
  }

  std::size_t count() const { return count_; }

  // The counter columns of the `metrics` counters the trace defines: NaN where the event is
  // no sample of that counter.
  void finish(std::size_t metrics) {
    for (std::size_t m = 0; m < metrics; ++m) {
      auto* column = static_cast<double*>(std::malloc(std::max<std::size_t>(count_, 1) * sizeof(double)));
      if (!column) throw std::bad_alloc();
      std::fill(column, column + count_, std::numeric_limits<double>::quiet_NaN());
      counters_.push_back(column);
    }
    for (const Sample& sample : samples_)
      if (static_cast<std::size_t>(sample.metric) < metrics) counters_[sample.metric][sample.index] = sample.value;
  }

  py::array release(std::size_t field, const py::dtype& type) { return own(blocks_[field], type); }
  py::array release_counter(std::size_t metric) {
    char* block = reinterpret_cast<char*>(counters_[metric]);
    counters_[metric] = nullptr;
    return own(block, py::dtype::of<double>());
  }

 private:
  struct Sample {
    std::size_t index;
    std::int64_t metric;
    double value;
  };

  py::array own(char*& block, const py::dtype& type) {
    char* data = block;
    if (!data) data = static_cast<char*>(std::malloc(1));  // an empty trace
    if (!data) throw std::bad_alloc();
    block = nullptr;
    py::capsule owner(data, [](void* p) { std::free(p); });
    return py::array(type, {static_cast<py::ssize_t>(count_)}, {}, data, owner);
  }

  void restart() {
    samples_.clear();
    count_ = 0;
  }

  void grow(std::size_t needed) {
    std::size_t capacity = std::max<std::size_t>({needed, capacity_ * 2, 1 << 16});
    for (std::size_t f = 0; f < layout_.size(); ++f) {
      void* grown = std::realloc(blocks_[f], capacity * layout_[f].second);
      if (!grown) throw std::bad_alloc();
      blocks_[f] = static_cast<char*>(grown);
    }
    capacity_ = capacity;
  }

  std::vector<std::pair<std::size_t, std::size_t>> layout_;
  std::vector<char*> blocks_;
  std::vector<double*> counters_;
  std::vector<Sample> samples_;
  std::size_t capacity_ = 0;
  std::size_t count_ = 0;
};

// Every method runs with the trace's lock held (see lock_and_call below), so another
// Python thread, or Lua or Tcl holding the same SharedTrace, never sees the iterator or
// the decoder halfway through a move.
class PyEventTrace {
 private:
  // The locations `lookup` gives for an integer id (TypeError for another type); an id
  // beyond 64 bits names nothing the trace defines: EarlError "<before><id><after>".
  template <class Lookup>
  static py::list locations(const py::object& id, const char* name, const char* before, const char* after,
                            const Lookup& lookup) {
    std::int64_t value = 0;
    if (!index_value(id, name, value)) throw EarlError(before + std::string(py::str(id)) + after);
    return py::cast(lookup(value));
  }

  // Long work without the GIL, reporting to the progress callable; an exception that the
  // callable raises (or Ctrl-C's KeyboardInterrupt) reaches the caller as itself.
  template <typename Work>
  decltype(auto) with_progress(Work&& work) {
    PythonCallbacks callbacks;
    ProgressCallback callback = make_callback(callbacks);
    return callbacks.without_gil([&]() -> decltype(auto) { return work(callback); });
  }

  ProgressCallback make_callback(PythonCallbacks& callbacks) {
    return [this, &callbacks](double fraction) {
      if (!shared_) return callbacks.progress(progress_, fraction);  // still opening
      SharedTrace::Reporting reporting(*shared_);
      return callbacks.progress(progress_, fraction);
    };
  }

 public:
  PyEventTrace(const std::string& file, const EventTrace::Options& options, py::object progress,
               const ScanObserver& observer = {})
      : progress_(std::move(progress)) {
    PythonCallbacks callbacks;
    ProgressCallback callback = make_callback(callbacks);
    callbacks.without_gil([&] {
      shared_ = std::make_shared<SharedTrace>(std::make_unique<EventTrace>(file, options, callback, observer));
    });
    for (const auto& name : trace().definitions().types.names()) type_names_.push_back(text(name));
    for (const auto& name : trace().definitions().regions.names()) region_names_.push_back(text(name));
    for (const auto& name : trace().definitions().strings.names()) string_values_.push_back(text(name));
  }

  EventTrace& trace() { return shared_->trace(); }

  // Serialises use of the core between threads without deadlocking on the GIL: a thread
  // that must wait for the lock waits with the GIL released.
  std::unique_lock<std::recursive_mutex> acquire() {
    std::unique_lock<std::recursive_mutex> lock(shared_->mutex(), std::try_to_lock);
    if (!lock.owns_lock()) {
      py::gil_scoped_release unlocked;
      lock.lock();
    }
    return lock;
  }

  void close() { shared_->close(); }
  bool closed() const { return shared_->closed(); }

  // A ticket for another language module (earl.lua.share, the Tcl extension) to take the
  // same C++ trace, iterator and lock.
  std::uintptr_t ticket() { return issue_ticket(shared_); }

  void set_progress(py::object progress) { progress_ = std::move(progress); }
  py::object progress() const { return progress_; }

  py::object event(const py::object& pos) {
    const Event& found = locate(position(pos));
    return py::reinterpret_steal<py::object>(to_dict(found));
  }

  py::list attributes(const py::object& pos) {
    const Event& found = locate(position(pos));
    py::list names;
    for (const char* name : EventTrace::attribute_names(found.kind)) names.append(py::str(name));
    return names;
  }

  py::list values(const py::object& pos) {
    const Event& found = locate(position(pos));
    py::object dict = py::reinterpret_steal<py::object>(to_dict(found));
    return py::list(py::reinterpret_borrow<py::dict>(dict).attr("values")());
  }

  std::vector<Position> stack(const py::object& location, const py::object& pos) {
    Location loc = location_argument(location, "loc");
    std::int64_t at = position(pos);
    EventTrace& t = trace();
    if (t.is_cheap(at)) return t.stack(loc, at);
    return with_progress([&](const ProgressCallback& callback) { return t.stack(loc, at, callback); });
  }

  std::vector<Position> queue(const py::object& source, const py::object& destination,
                              const py::object& pos) {
    Location src = location_argument(source, "src");
    Location dest = location_argument(destination, "dest");
    std::int64_t at = position(pos);
    EventTrace& t = trace();
    if (t.is_cheap(at)) return t.queue(src, dest, at);
    return with_progress(
        [&](const ProgressCallback& callback) { return t.queue(src, dest, at, callback); });
  }

  Position next() { return trace().next(); }
  Position prev() { return trace().prev(); }
  Position jump(const py::object& pos) {
    std::int64_t target = 0;
    if (!index_value(pos, "pos", target)) return 0;  // beyond 64 bits: no such event
    return trace().jump(target);
  }
  void reset() { trace().reset(); }
  Position iterator() { return trace().iterator(); }

  py::object locsym(const py::object& location) {
    Location loc = location_argument(location, "loc");
    auto name = trace().locsym(loc);
    if (name) return text(*name);
    return py::int_(loc);
  }

  py::str group(const py::object& region) { return text(trace().group(text_argument(region, "region"))); }
  py::list regions(const py::object& group) {
    if (group.is_none()) return texts(trace().regions());
    return texts(trace().regions(text_argument(group, "group")));
  }

  py::list members(const py::object& group) {
    return locations(group, "group", "no process group ", " in this trace",
                     [this](std::int64_t id) -> const std::vector<Location>& { return trace().members(id); });
  }

  py::list ranks(const py::object& com) {
    return locations(com, "com", "no communicator ", " with named ranks in this trace",
                     [this](std::int64_t id) -> const std::vector<Location>& { return trace().ranks(id); });
  }

  py::dict bookmarks() {
    const RandomAccessTrace& access = trace().access();
    return py::dict("count"_a = access.bookmark_count(), "checkpoints"_a = access.checkpoint_count(),
                    "memory"_a = access.bookmark_memory(), "budget"_a = access.memory_budget(),
                    "bdist"_a = access.effective_bdist());
  }

  py::dict index_info() {
    const IndexInfo& info = trace().index_info();
    py::object path = info.path.empty() ? py::object(py::none()) : py::object(text(info.path));
    return py::dict("path"_a = path, "state"_a = text(info.state), "note"_a = text(info.note));
  }

  // None, or what the clock correction did (EventTrace(..., time_correct=True)).
  py::object time_correction() {
    const ClockCorrections* corrections = trace().corrections();
    if (!corrections) return py::none();
    return py::dict("jumps"_a = corrections->jump_count(), "max_shift"_a = corrections->max_shift(),
                    "min_latency"_a = corrections->options().min_latency, "gamma"_a = corrections->options().gamma,
                    "memory"_a = corrections->memory());
  }

  py::dict problems() {
    const Problems& found = trace().problems();
    py::dict result;
    for (const ProblemName& kind : kProblemNames) {
      const ProblemKind& counted = found.*kind.kind;
      result[kind.name] = py::dict("count"_a = counted.count, "first"_a = counted.first);
    }
    if (found.damaged.empty()) return result;
    py::list locations = list_of(found.damaged, [](const StreamDamage& damage) {
      return py::dict("loc"_a = damage.loc, "record"_a = damage.record, "announced"_a = damage.announced,
                      "message"_a = text(damage.message));
    });
    result[kDamagedName] = py::dict("count"_a = found.damaged.size(), "first"_a = py::list(), "locations"_a = locations);
    return result;
  }

  // Events first .. first+count-1 as a new NumPy array of ExportRecord rows, and their
  // counter values: a float64 array of one column per metrics() entry, NaN where the event
  // is no sample of that counter (None where the trace defines no metrics).
  py::tuple records(Position first, std::size_t count) {
    EventTrace& t = trace();
    py::array::ShapeContainer shape{static_cast<py::ssize_t>(count)};
    py::array out(export_dtype(), std::move(shape));
    auto* rows = static_cast<ExportRecord*>(out.mutable_data());
    const std::size_t width = t.metrics().size();
    py::object columns = py::none();
    double* cells = nullptr;
    if (width > 0) {
      py::array_t<double> values({count, width});
      cells = values.mutable_data();
      std::fill(cells, cells + count * width, std::numeric_limits<double>::quiet_NaN());
      columns = values;
    }
    with_progress([&](const ProgressCallback& callback) {
      for (std::size_t i = 0; i < count; ++i) {
        const Event& e = t.event(static_cast<std::int64_t>(first + i), callback);
        fill(rows[i], e);
        if (cells && is_sample(e, width)) cells[i * width + static_cast<std::size_t>(e.tag)] = number(e.data2);
      }
    });
    return py::make_tuple(out, columns);
  }

  // Events first .. first+count-1 written straight into the caller's columns, one NumPy
  // array per field of to_numpy's dtype (in its order, each C-contiguous with `count`
  // elements of the field's size) and one float64 array per metrics() entry: to_pandas
  // without a row buffer to copy out of. The fields' offsets and sizes are read from the
  // dtype, so ExportRecord stays their one source.
  void fill_columns(Position first, std::size_t count, const py::list& columns, const py::list& counters) {
    EventTrace& t = trace();
    if (first < 1 || first - 1 + count > t.size())
      throw EarlError("_fill_columns: positions outside 1.." + std::to_string(t.size()));
    const py::dtype dtype = export_dtype();
    const py::tuple names = dtype.attr("names");
    const py::dict fields = dtype.attr("fields");
    if (columns.size() != names.size() || counters.size() != t.metrics().size())
      throw EarlError("_fill_columns: one array per field and per metric is needed");
    struct Slot {
      std::size_t offset, size;
      char* out;
    };
    std::vector<Slot> slots;
    auto writable = [count](const py::handle& given, std::size_t size) {
      py::array column = py::reinterpret_borrow<py::array>(given);
      if (!py::isinstance<py::array>(given) || static_cast<std::size_t>(column.itemsize()) != size ||
          static_cast<std::size_t>(column.size()) != count || !(column.flags() & py::array::c_style) ||
          !column.writeable())
        throw EarlError("_fill_columns: a column is not a writable contiguous array of the field's size");
      return static_cast<char*>(column.mutable_data());
    };
    for (std::size_t f = 0; f < names.size(); ++f) {
      const py::tuple field = fields[names[f]];
      const std::size_t size = static_cast<std::size_t>(py::dtype(field[0]).itemsize());
      slots.push_back({field[1].cast<std::size_t>(), size, writable(columns[f], size)});
    }
    std::vector<double*> cells;
    for (const py::handle& column : counters) cells.push_back(reinterpret_cast<double*>(writable(column, 8)));
    for (double* cell : cells) std::fill(cell, cell + count, std::numeric_limits<double>::quiet_NaN());
    with_progress([&](const ProgressCallback& callback) {
      ExportRecord row;
      for (std::size_t i = 0; i < count; ++i) {
        const Event& e = t.event(static_cast<std::int64_t>(first + i), callback);
        fill(row, e);
        for (const Slot& slot : slots) {
          const char* from = reinterpret_cast<const char*>(&row) + slot.offset;
          // Sizes known at compile time make each copy one move instead of a call.
          if (slot.size == 8) std::memcpy(slot.out + i * 8, from, 8);
          else if (slot.size == 4) std::memcpy(slot.out + i * 4, from, 4);
          else std::memcpy(slot.out + i * slot.size, from, slot.size);
        }
        if (is_sample(e, cells.size())) cells[static_cast<std::size_t>(e.tag)][i] = number(e.data2);
      }
    });
  }

  // Opens `file` and fills the columns of fill_columns for every event in the opening
  // scan itself (read_pandas): no second decoding of each event with its state. Returns
  // (trace, columns, counters), the arrays owning memory that grew with the scan.
  static py::tuple read_columns(const py::args& args, const py::kwargs& kwargs) {
    OpenArguments open = open_arguments(args, kwargs);
    const py::dtype dtype = export_dtype();
    const py::tuple names = dtype.attr("names");
    const py::dict fields = dtype.attr("fields");
    std::vector<py::dtype> types;
    std::vector<std::pair<std::size_t, std::size_t>> layout;  // offset, size of each field
    for (const py::handle& name : names) {
      const py::tuple field = fields[name];
      types.push_back(py::dtype(field[0]));
      layout.emplace_back(field[1].cast<std::size_t>(), static_cast<std::size_t>(types.back().itemsize()));
    }
    ColumnSink sink(std::move(layout));
    auto take = [&sink](const Event& e) { sink.take(e, fill, [](const Event& m) { return number(m.data2); }); };
    auto held = std::make_shared<PyEventTrace>(open.file, open.options, open.progress, take);
    EventTrace& t = held->trace();
    if (sink.count() != static_cast<std::size_t>(t.size())) {  // an index spared the scan
      held->with_progress([&](const ProgressCallback& callback) {
        for (Position p = 1; p <= t.size(); ++p) take(t.event(static_cast<std::int64_t>(p), callback));
      });
    }
    sink.finish(t.metrics().size());
    py::list columns, counters;
    for (std::size_t f = 0; f < types.size(); ++f) columns.append(sink.release(f, types[f]));
    for (std::size_t m = 0; m < t.metrics().size(); ++m) counters.append(sink.release_counter(m));
    return py::make_tuple(held, columns, counters);
  }

  py::list metrics() { return list_of(trace().metrics(), metric_dict); }

  // The tables of cpp/profile/, one pass each, as dicts of NumPy arrays.
  py::dict region_instances() {
    EventTrace& t = trace();
    profile::RegionInstances found =
        with_progress([&](const ProgressCallback& callback) { return profile::region_instances(t, callback); });
    return instance_columns(found);
  }

  py::dict profile_tables(std::int64_t bins) {
    const std::size_t count = profile::checked_bins(bins);
    EventTrace& t = trace();
    profile::TraceProfile found = with_progress([&](const ProgressCallback& callback) {
      return profile::trace_profile(t, count, callback);
    });
    return profile_columns(found);
  }

  Position first_at(double time, bool after) {
    EventTrace& t = trace();
    return with_progress([&](const ProgressCallback& callback) { return profile::first_at(t, time, after, callback); });
  }

 private:
  // A metric event of one of the `width` counters the trace defines.
  static bool is_sample(const Event& e, std::size_t width) {
    return e.kind == EventKind::Metric && e.tag >= 0 && static_cast<std::size_t>(e.tag) < width;
  }

  // A counter value as a float64 cell: NaN where it is no number.
  static double number(const Value& v) {
    return visit_value(v, [](auto value) -> double {
      if constexpr (std::is_arithmetic_v<decltype(value)>) return static_cast<double>(value);
      else return std::numeric_limits<double>::quiet_NaN();
    });
  }

  static void fill(ExportRecord& row, const Event& e) {
    row.pos = e.pos;
    row.loc = e.loc;
    row.type = static_cast<std::int32_t>(e.type);
    row.time = e.time;
    row.enterptr = e.enterptr;
    bool region_event = e.kind == EventKind::Enter || is_exit(e.kind);
    bool message = e.kind == EventKind::Send || e.kind == EventKind::Recv;
    row.region = region_event ? static_cast<std::int32_t>(e.region) : -1;
    row.peer = message ? e.peer : -1;
    row.tag = message ? e.tag : 0;
    row.com = message ? e.com : -1;
    row.len = message ? e.len : 0;
    row.sendptr = e.kind == EventKind::Recv ? e.sendptr : 0;
  }

  static std::int64_t position(const py::object& pos) {
    if (pos.is_none()) return EventTrace::kAtIterator;
    std::int64_t value = 0;
    if (!index_value(pos, "pos", value))
      throw EarlError(EventTrace::no_event_at(std::string(py::str(pos)), " and fit in 64 bits"));
    return EventTrace::checked_position(value);
  }

  static Location location_argument(const py::object& value, const char* what) {
    std::int64_t loc = 0;
    if (!index_value(value, what, loc) || loc < -1 || loc > std::numeric_limits<Location>::max())
      throw EarlError(std::string(what) + " " + std::string(py::str(value)) + " is not a location");
    return static_cast<Location>(loc);
  }

  const Event& locate(std::int64_t pos) {
    EventTrace& t = trace();
    const std::int64_t at = t.event_position(pos, EventTrace::CallSyntax::Parentheses);
    if (t.is_cheap(at)) return t.event(at);
    return with_progress([&](const ProgressCallback& callback) -> const Event& { return t.event(at, callback); });
  }

  // A new reference to the Python object of one attribute value (visit_slot's types).
  struct ToPython {
    const PyEventTrace& self;
    PyObject* operator()(std::uint64_t v) const { return PyLong_FromUnsignedLongLong(v); }
    PyObject* operator()(std::int64_t v) const { return PyLong_FromLongLong(v); }
    PyObject* operator()(double v) const { return PyFloat_FromDouble(v); }
    PyObject* operator()(TypeName name) const { return owned(self.type_names_[name.id]); }
    PyObject* operator()(RegionName name) const { return owned(self.region_names_[name.id]); }
    PyObject* operator()(StringName name) const { return owned(self.string_values_.at(name.id)); }
    PyObject* operator()(NoValue) const { Py_RETURN_NONE; }
    static PyObject* owned(const py::str& s) { return py::object(s).release().ptr(); }
  };

  PyObject* to_dict(const Event& e) const {
    PyObject* dict = PyDict_New();
    if (!dict) throw py::error_already_set();
    try {
      for (const AttributeSpec& spec : attribute_specs(e.kind))
        put(dict, key(spec.name), visit_slot(e, spec.slot, ToPython{*this}));
    } catch (...) {
      Py_DECREF(dict);
      throw;
    }
    return dict;
  }

  std::shared_ptr<SharedTrace> shared_;
  py::object progress_;
  std::vector<py::str> type_names_;
  std::vector<py::str> region_names_;
  std::vector<py::str> string_values_;
};

using Holder = std::shared_ptr<PyEventTrace>;

// An EventTrace whose __init__ failed (or was never called, EventTrace.__new__) is a
// Python object without a C++ object in it. pybind11 refuses to hand out the holder of
// such an instance, which is how every method finds out, and raises rather than crash.
Holder opened(py::handle self) {
  try {
    return py::cast<Holder>(self);
  } catch (const py::cast_error&) {
    if (!py::isinstance<PyEventTrace>(self)) throw py::type_error("expected an earl.EventTrace");
    throw EarlError("this EventTrace was never opened (its constructor failed)");
  }
}

// The one way a Python call reaches a PyEventTrace: check it is open, take its lock.
template <typename R, typename... Args>
auto method(R (PyEventTrace::*f)(Args...)) {
  return [f](py::handle self, Args... args) -> R {
    Holder held = opened(self);
    auto lock = held->acquire();
    return ((*held).*f)(args...);
  };
}
template <typename R, typename... Args>
auto method(R (PyEventTrace::*f)(Args...) const) {
  return [f](py::handle self, Args... args) -> R {
    Holder held = opened(self);
    auto lock = held->acquire();
    return ((*held).*f)(args...);
  };
}
template <typename F>
auto on_trace(F f) {
  return [f](py::handle self) {
    Holder held = opened(self);
    auto lock = held->acquire();
    return f(held->trace());
  };
}

}  // namespace

void bind_event_trace(py::module_& m) {
  m.attr("DEFAULT_TIME_BINS") = profile::kDefaultTimeBins;
  py::class_<PyEventTrace, Holder> cls(m, "EventTrace");
  cls
      .def(py::init([](const py::args& args, const py::kwargs& kwargs) {
             OpenArguments open = open_arguments(args, kwargs);
             return std::make_shared<PyEventTrace>(open.file, open.options, open.progress);
           }),
           open_signature_text().c_str())
      .def("event", method(&PyEventTrace::event), py::arg("pos") = py::none())
      .def("attributes", method(&PyEventTrace::attributes), py::arg("pos") = py::none())
      .def("values", method(&PyEventTrace::values), py::arg("pos") = py::none())
      .def("stack", method(&PyEventTrace::stack), py::arg("loc"), py::arg("pos") = py::none())
      .def("queue", method(&PyEventTrace::queue), py::arg("src"), py::arg("dest"), py::arg("pos") = py::none())
      .def("next", method(&PyEventTrace::next))
      .def("prev", method(&PyEventTrace::prev))
      .def("jump", method(&PyEventTrace::jump), py::arg("pos"))
      .def("reset", method(&PyEventTrace::reset))
      .def_property_readonly("iterator", method(&PyEventTrace::iterator))
      .def("file", on_trace([](EventTrace& t) {
             // The bytes it was opened with, decoded as os.fsdecode does.
             PyObject* decoded = PyUnicode_DecodeFSDefaultAndSize(t.file().data(),
                                                                  static_cast<Py_ssize_t>(t.file().size()));
             if (!decoded) throw py::error_already_set();
             return py::reinterpret_steal<py::str>(decoded);
           }))
      .def("format", on_trace([](EventTrace& t) { return text(t.format()); }))
      .def("nrlocs", on_trace([](EventTrace& t) { return t.nrlocs(); }))
      .def("locsym", method(&PyEventTrace::locsym), py::arg("loc"))
      .def("groups", on_trace([](EventTrace& t) { return texts(t.groups()); }))
      .def("group", method(&PyEventTrace::group), py::arg("region"))
      .def("regions", method(&PyEventTrace::regions), py::arg("group") = py::none())
      .def("members", method(&PyEventTrace::members), py::arg("group"))
      .def("ranks", method(&PyEventTrace::ranks), py::arg("com"))
      .def("types", on_trace([](EventTrace& t) { return texts(t.types()); }))
      .def("eventTypes", on_trace([](EventTrace& t) { return texts(t.types()); }))
      .def("problems", method(&PyEventTrace::problems))
      .def("metrics", method(&PyEventTrace::metrics))
      .def("time_correction", method(&PyEventTrace::time_correction))
      .def("bookmarks", method(&PyEventTrace::bookmarks))
      .def("index_info", method(&PyEventTrace::index_info))
      .def("__len__", on_trace([](EventTrace& t) { return t.size(); }))
      .def("close", method(&PyEventTrace::close))
      .def_property_readonly("closed", method(&PyEventTrace::closed))
      .def_property("progress", method(&PyEventTrace::progress), method(&PyEventTrace::set_progress))
      .def("_ticket", method(&PyEventTrace::ticket))
      .def("_records", method(&PyEventTrace::records), py::arg("first"), py::arg("count"))
      .def("_fill_columns", method(&PyEventTrace::fill_columns), py::arg("first"), py::arg("count"),
           py::arg("columns"), py::arg("counters"))
      .def("_region_instances", method(&PyEventTrace::region_instances))
      .def("_profile", method(&PyEventTrace::profile_tables), py::arg("bins"))
      .def("_first_at", method(&PyEventTrace::first_at), py::arg("time"), py::arg("after") = false);
  init_once(cls);
  m.def(
      "remove_index",
      [](const py::object& path) {
        std::vector<std::string> gone;
        std::string file = path_argument(path, "path");
        {
          py::gil_scoped_release unlocked;
          gone = EventTrace::remove_index(file);
        }
        return texts(gone);
      },
      py::arg("path"), "Removes the persisted index of the trace at path; returns the files removed.");
  m.def(
      "remove_indexes_in",
      [](const py::object& directory) { return texts(remove_indexes_in(path_argument(directory, "directory"))); },
      py::arg("directory"), "Removes every persisted index file in directory; returns them.");
  m.def("index_directories", [] { return texts(index_directories()); },
        "The directories holding indexes named by hash ($EARL_INDEX_DIR, the user's cache directory).");
  m.def("_read_columns", &PyEventTrace::read_columns,
        "_read_columns(file, *options): (trace, columns, counters) filled in the opening scan (earl.read_pandas).");
  m.def("event_dtype", &export_dtype,
        "The NumPy dtype of EventTrace.to_numpy() rows (imports NumPy on first use).");
}

}  // namespace earl::bindings
