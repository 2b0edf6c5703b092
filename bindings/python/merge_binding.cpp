// Python binding of `earl merge`: _core.merge(output, inputs, offsets, format, locations,
// estimate) runs the C++ merge (cpp/convert/merge.h) with the GIL released and returns its
// summary as a dict.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings/python/arguments.h"
#include "bindings/python/bindings.h"
#include "bindings/python/callbacks.h"
#include "bindings/python/text.h"
#include "convert/merge.h"
#include "model/error.h"

namespace py = pybind11;

namespace earl::bindings {

namespace {

py::object optional_seconds(const std::optional<double>& value) {
  return value ? py::object(py::float_(*value)) : py::object(py::none());
}

}  // namespace

void bind_merge(py::module_& m) {
  m.def(
      "merge",
      [](const py::object& output_path, const py::list& input_paths, const py::list& offsets,
         const py::object& format, const std::string& locations, bool estimate) {
        const std::string output = path_argument(output_path, "output");
        if (offsets.size() != input_paths.size())
          throw EarlError("merge: one offset (or None) per input expected");
        std::vector<convert::MergeInput> inputs;
        for (std::size_t i = 0; i < input_paths.size(); ++i) {
          convert::MergeInput in;
          in.path = path_argument(input_paths[i], "input");
          if (!offsets[i].is_none()) in.offset = offsets[i].cast<double>();
          inputs.push_back(std::move(in));
        }
        convert::MergeOptions o;
        if (!format.is_none()) o.format = text_argument(format, "format");
        o.mode = convert::location_mode(locations);
        o.estimate = estimate;
        PythonCallbacks callbacks;
        o.poll = [&callbacks] { callbacks.poll(); };
        const convert::MergeSummary s =
            callbacks.without_gil([&] { return convert::merge(output, inputs, o); });
        py::dict out;
        out["output_format"] = text(s.output_format);
        out["locations_kept"] = s.kept_locations;
        out["locations"] = s.locations;
        out["events_written"] = s.events_written;
        py::list per_input;
        for (const convert::InputOffset& in : s.inputs) {
          py::dict d;
          d["path"] = text(in.path);
          d["format"] = text(in.format);
          d["events"] = in.events;
          d["first_location"] = in.first_location;
          d["locations"] = in.locations;
          d["event_locations"] = in.event_locations;
          d["offset"] = in.offset;
          d["how"] = text(in.how);
          d["low"] = optional_seconds(in.low);
          d["high"] = optional_seconds(in.high);
          d["messages"] = in.messages;
          d["linked_to"] = in.linked_to >= 0 ? py::object(py::int_(in.linked_to)) : py::object(py::none());
          per_input.append(d);
        }
        out["inputs"] = per_input;
        auto counts = [](const std::vector<std::pair<std::string, std::uint64_t>>& entries) {
          py::dict d;
          for (const auto& [what, count] : entries) d[text(what)] = count;
          return d;
        };
        out["dropped"] = counts(s.dropped);
        out["refused"] = counts(s.refused);
        return out;
      },
      py::arg("output"), py::arg("inputs"), py::arg("offsets"), py::arg("format") = py::none(),
      py::arg("locations") = "auto", py::arg("estimate") = false,
      "Merges the traces `inputs` (offsets: seconds or None per input) into `output` and "
      "returns a summary dict (cpp/convert/merge.h).");
}

}  // namespace earl::bindings
