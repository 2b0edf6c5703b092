// Python binding of `earl convert`: _core.convert(input, output, format=None) runs the C++
// converter (cpp/convert/) with the GIL released and returns its summary as a dict.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "bindings/python/arguments.h"
#include "bindings/python/bindings.h"
#include "bindings/python/callbacks.h"
#include "bindings/python/lists.h"
#include "bindings/python/text.h"
#include "convert/convert.h"
#include "convert/trace_files.h"
#include "model/error.h"

namespace py = pybind11;

namespace earl::bindings {

void bind_convert(py::module_& m) {
  m.def(
      "check_path",
      [](const py::object& path, const std::string& what) { path_argument(path, what.c_str()); },
      py::arg("path"), py::arg("what"),
      "EarlError naming WHAT when PATH holds a NUL byte (the rule of every path EARL takes).");
  m.def(
      "overwrites_trace",
      [](const py::object& trace_path, const py::object& output_path) {
        return convert::overwrites_trace(path_argument(trace_path, "trace"), path_argument(output_path, "output"));
      },
      py::arg("trace"), py::arg("output"),
      "True when writing OUTPUT would overwrite the trace TRACE or a file of its OTF2 archive "
      "(by file identity: hard and symbolic links count).");
  m.def(
      "convert",
      [](const py::object& input_path, const py::object& output_path, const py::object& format,
         bool strict, bool wait_states, const py::object& wait_states_limit) {
        const std::string input = path_argument(input_path, "input");
        const std::string output = path_argument(output_path, "output");
        convert::ConvertOptions o;
        if (!format.is_none()) o.format = text_argument(format, "format");
        o.strict = strict;
        o.wait_states = wait_states;
        if (!wait_states_limit.is_none()) {
          const std::int64_t limit = integer_argument(wait_states_limit, "wait_states_limit");
          if (limit < 0) throw EarlError("wait_states_limit " + std::to_string(limit) + " is negative");
          o.wait_states_limit = static_cast<std::size_t>(limit);
        }
        // Ctrl-C: a pending signal stops the scan or the conversion.
        PythonCallbacks callbacks;
        o.poll = [&callbacks] { callbacks.poll(); };
        o.progress = [&callbacks](double) { return callbacks.no_signal(); };
        const convert::ConvertSummary s =
            callbacks.without_gil([&] { return convert::convert(input, output, o); });
        py::dict out;
        out["input_format"] = text(s.input_format);
        out["output_format"] = text(s.output_format);
        out["events_read"] = s.events_read;
        out["events_written"] = s.events_written;
        out["dropped"] = counts_dict(s.dropped);
        out["refused"] = counts_dict(s.refused);
        out["renamed"] = counts_dict(s.renamed);
        out["collective_exits_plain"] = s.collective_exits_plain;
        out["times_rounded"] = s.times_rounded;
        out["ties_reordered"] = s.ties_reordered;
        out["frame_events_added"] = s.frame_events_added;
        py::list damaged;
        for (const std::string& line : s.damaged) damaged.append(text(line));
        out["damaged"] = damaged;
        out["wait_states_written"] = s.wait_states_written;
        out["wait_states_left_out"] = s.wait_states_left_out;
        return out;
      },
      py::arg("input"), py::arg("output"), py::arg("format") = py::none(), py::arg("strict") = false,
      py::arg("wait_states") = false, py::arg("wait_states_limit") = py::none(),
      "Converts the trace `input` into `output` (format from `format`, else output's suffix, "
      "else the input's) and returns a summary dict; `wait_states`: the analysis' wait states "
      "written as annotated slices (Chrome JSON output only).");
}

}  // namespace earl::bindings
