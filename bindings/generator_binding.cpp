// Python binding of the trace generator (`earl gen`): _core.generate(path, truth_path,
// options) runs the C++ generator with the GIL released; _core.generator_defaults() gives
// the option names, defaults and kinds so the Python side needs no second copy of them.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>

#include "bindings/bindings.h"
#include "bindings/python_callbacks.h"
#include "gen/generator.h"
#include "gen/trace_writer.h"
#include "model/error.h"

namespace py = pybind11;

namespace earl::bindings {

namespace {

using gen::GenOptions;

// Integer option from a Python value (bool and float are rejected).
std::int64_t as_int(const std::string& name, const py::handle& value) {
  if (py::isinstance<py::bool_>(value) || !py::isinstance<py::int_>(value))
    throw EarlError("earl gen: option '" + name + "' must be an integer, not " +
                    std::string(py::str(py::type::handle_of(value).attr("__name__"))));
  try {
    return value.cast<std::int64_t>();
  } catch (const py::cast_error&) {
    throw EarlError("earl gen: option '" + name + "' is out of range");
  }
}

double as_float(const std::string& name, const py::handle& value) {
  if (py::isinstance<py::bool_>(value) ||
      !(py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value)))
    throw EarlError("earl gen: option '" + name + "' must be a number, not " +
                    std::string(py::str(py::type::handle_of(value).attr("__name__"))));
  return value.cast<double>();
}

std::string as_str(const std::string& name, const py::handle& value) {
  if (!py::isinstance<py::str>(value))
    throw EarlError("earl gen: option '" + name + "' must be a string");
  return value.cast<std::string>();
}

bool as_bool(const std::string& name, const py::handle& value) {
  if (!py::isinstance<py::bool_>(value))
    throw EarlError("earl gen: option '" + name + "' must be True or False, not " +
                    std::string(py::str(py::type::handle_of(value).attr("__name__"))));
  return value.cast<bool>();
}

int as_int32(const std::string& name, const py::handle& value) {
  const std::int64_t v = as_int(name, value);
  if (v < INT32_MIN || v > INT32_MAX) throw EarlError("earl gen: option '" + name + "' is out of range");
  return static_cast<int>(v);
}

GenOptions options_from(const py::dict& given) {
  GenOptions o;
  for (const auto& item : given) {
    const std::string name = py::str(item.first);
    const py::handle value = item.second;
    if (name == "locations") o.locations = as_int32(name, value);
    else if (name == "events") o.events = as_int(name, value);
    else if (name == "seed") {
      if (py::isinstance<py::bool_>(value) || !py::isinstance<py::int_>(value))
        throw EarlError("earl gen: option 'seed' must be an integer");
      if (value.cast<py::int_>() < py::int_(0))
        throw EarlError("earl gen: seed must not be negative");
      try {
        o.seed = value.cast<std::uint64_t>();
      } catch (const py::cast_error&) {
        throw EarlError("earl gen: seed must be below 2**64");
      }
    }
    else if (name == "format") o.format = as_str(name, value);
    else if (name == "rollover") o.rollover = value.is_none() ? 0 : as_int(name, value);
    else if (name == "pattern") o.pattern = as_str(name, value);
    else if (name == "threads") o.threads = as_int32(name, value);
    else if (name == "permute_ranks") o.permute_ranks = as_bool(name, value);
    else if (name == "max_kernels") o.max_kernels = as_int32(name, value);
    else if (name == "kernel_us") o.kernel_us = as_int(name, value);
    else if (name == "jitter") o.jitter = as_float(name, value);
    else if (name == "update_us") o.update_us = as_int(name, value);
    else if (name == "msg_bytes") o.msg_bytes = as_int(name, value);
    else if (name == "latency_us") o.latency_us = as_int(name, value);
    else if (name == "bandwidth") o.bandwidth = as_int(name, value);
    else if (name == "barrier_every") o.barrier_every = as_int32(name, value);
    else if (name == "late_sender_rate") o.late_sender_rate = as_float(name, value);
    else if (name == "late_sender_us") o.late_sender_us = as_int(name, value);
    else if (name == "out_of_order_rate") o.out_of_order_rate = as_float(name, value);
    else if (name == "imbalance_rate") o.imbalance_rate = as_float(name, value);
    else if (name == "imbalance_us") o.imbalance_us = as_int(name, value);
    else if (name == "truth_limit") o.truth_limit = as_int(name, value);
    else throw EarlError("earl gen: unknown option '" + name + "'");
  }
  // rollover=0 from Python means "given but zero": not a valid roll-over point.
  if (given.contains("rollover") && !given["rollover"].is_none() && o.rollover <= 0)
    throw EarlError("earl gen: rollover must be a positive number of microseconds (got " +
                    std::to_string(o.rollover) + ")");
  return o;
}

py::dict defaults() {
  const GenOptions o;
  py::dict d;
  d["locations"] = o.locations;
  d["events"] = o.events;
  d["seed"] = o.seed;
  d["format"] = o.format;
  d["rollover"] = py::none();
  d["threads"] = o.threads;
  d["permute_ranks"] = o.permute_ranks;
  d["pattern"] = o.pattern;
  d["max_kernels"] = o.max_kernels;
  d["kernel_us"] = o.kernel_us;
  d["jitter"] = o.jitter;
  d["update_us"] = o.update_us;
  d["msg_bytes"] = o.msg_bytes;
  d["latency_us"] = o.latency_us;
  d["bandwidth"] = o.bandwidth;
  d["barrier_every"] = o.barrier_every;
  d["late_sender_rate"] = o.late_sender_rate;
  d["late_sender_us"] = o.late_sender_us;
  d["out_of_order_rate"] = o.out_of_order_rate;
  d["imbalance_rate"] = o.imbalance_rate;
  d["imbalance_us"] = o.imbalance_us;
  d["truth_limit"] = o.truth_limit;
  return d;
}

}  // namespace

void bind_generator(py::module_& m) {
  m.def(
      "generate",
      [](const std::string& path, const std::string& truth_path, const py::dict& options) {
        GenOptions o = options_from(options);
        o.validate();
        // Ctrl-C: the generator polls now and then; a pending signal stops it.
        PythonCallbacks callbacks;
        o.poll = [&callbacks] { callbacks.poll(); };
        const gen::GenSummary s =
            callbacks.without_gil([&] { return gen::generate(o, path, truth_path); });
        py::dict out;
        out["events"] = s.events;
        out["rounds"] = s.rounds;
        out["messages"] = s.messages;
        return out;
      },
      py::arg("path"), py::arg("truth_path"), py::arg("options"),
      "Writes a synthetic trace to `path` and its ground truth (JSON) to `truth_path`.");
  m.def("generator_defaults", &defaults, "Option names of the generator and their defaults.");
  m.def("generator_formats", &gen::writer_formats, "Formats the generator can write.");
}

}  // namespace earl::bindings
