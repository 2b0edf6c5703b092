// Python binding of `earl merge`: _core.merge(output, inputs, offsets, format, locations,
// estimate, input_formats) runs the C++ merge (cpp/convert/merge.h) with the GIL released and returns its
// summary as a dict.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings/python/arguments.h"
#include "bindings/python/bindings.h"
#include "bindings/python/callbacks.h"
#include "bindings/python/lists.h"
#include "bindings/python/text.h"
#include "convert/merge.h"
#include "model/error.h"

namespace py = pybind11;
using namespace pybind11::literals;

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
         const py::object& format, const std::string& locations, bool estimate,
         const py::object& input_formats) {
        const std::string output = path_argument(output_path, "output");
        if (offsets.size() != input_paths.size())
          throw EarlError("merge: one offset (or None) per input expected");
        const py::list formats = input_formats.is_none() ? py::list() : py::list(input_formats);
        if (!input_formats.is_none() && formats.size() != input_paths.size())
          throw EarlError("merge: one input format (or None) per input expected");
        std::vector<convert::MergeInput> inputs;
        for (std::size_t i = 0; i < input_paths.size(); ++i) {
          convert::MergeInput in;
          in.path = path_argument(input_paths[i], "input");
          if (!offsets[i].is_none()) {
            if (py::isinstance<py::bool_>(offsets[i]) ||
                !(py::isinstance<py::float_>(offsets[i]) || py::isinstance<py::int_>(offsets[i])))
              throw EarlError("merge: offset of '" + in.path + "' is no number of seconds");
            in.offset = offsets[i].cast<double>();
          }
          if (!formats.empty() && !formats[i].is_none())
            in.format = text_argument(formats[i], "input format");
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
        out["inputs"] = list_of(s.inputs, [](const convert::InputOffset& in) {
          return py::dict("path"_a = text(in.path), "format"_a = text(in.format), "events"_a = in.events,
                          "first_location"_a = in.first_location, "locations"_a = in.locations,
                          "event_locations"_a = in.event_locations, "offset"_a = in.offset,
                          "how"_a = text(in.how), "low"_a = optional_seconds(in.low),
                          "high"_a = optional_seconds(in.high), "messages"_a = in.messages,
                          "linked_to"_a = in.linked_to >= 0 ? py::object(py::int_(in.linked_to)) : py::object(py::none()));
        });
        out["dropped"] = counts_dict(s.dropped);
        out["refused"] = counts_dict(s.refused);
        return out;
      },
      py::arg("output"), py::arg("inputs"), py::arg("offsets"), py::arg("format") = py::none(),
      py::arg("locations") = "auto", py::arg("estimate") = false,
      py::arg("input_formats") = py::none(),
      "Merges the traces `inputs` (offsets: seconds or None per input; input_formats: a "
      "format or None (detect) per input) into `output` and returns a summary dict (cpp/convert/merge.h).");
}

}  // namespace earl::bindings
