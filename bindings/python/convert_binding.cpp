// Python binding of `earl convert`: _core.convert(input, output, format=None) runs the C++
// converter (cpp/convert/) with the GIL released and returns its summary as a dict.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "bindings/python/bindings.h"
#include "bindings/python/callbacks.h"
#include "bindings/python/text.h"
#include "convert/convert.h"
#include "convert/trace_files.h"
#include "model/error.h"

namespace py = pybind11;

namespace earl::bindings {

void bind_convert(py::module_& m) {
  m.def(
      "overwrites_trace",
      [](const py::object& trace_path, const py::object& output_path) {
        return convert::overwrites_trace(text_argument(trace_path, "trace"), text_argument(output_path, "output"));
      },
      py::arg("trace"), py::arg("output"),
      "True when writing OUTPUT would overwrite the trace TRACE or a file of its OTF2 archive "
      "(by file identity: hard and symbolic links count).");
  m.def(
      "convert",
      [](const py::object& input_path, const py::object& output_path, const py::object& format,
         bool strict) {
        const std::string input = text_argument(input_path, "input");
        const std::string output = text_argument(output_path, "output");
        convert::ConvertOptions o;
        if (!format.is_none()) o.format = text_argument(format, "format");
        o.strict = strict;
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
        auto counts = [](const std::vector<std::pair<std::string, std::uint64_t>>& entries) {
          py::dict d;
          for (const auto& [what, count] : entries) d[text(what)] = count;
          return d;
        };
        out["dropped"] = counts(s.dropped);
        out["refused"] = counts(s.refused);
        out["renamed"] = counts(s.renamed);
        out["collective_exits_plain"] = s.collective_exits_plain;
        out["times_rounded"] = s.times_rounded;
        out["ties_reordered"] = s.ties_reordered;
        out["frame_events_added"] = s.frame_events_added;
        py::list damaged;
        for (const std::string& line : s.damaged) damaged.append(text(line));
        out["damaged"] = damaged;
        return out;
      },
      py::arg("input"), py::arg("output"), py::arg("format") = py::none(), py::arg("strict") = false,
      "Converts the trace `input` into `output` (format from `format`, else output's suffix, "
      "else the input's) and returns a summary dict.");
}

}  // namespace earl::bindings
