#include "bindings/python/open_options_binding.h"

#include <vector>

#include "bindings/python/arguments.h"
#include "bindings/python/text.h"

namespace py = pybind11;

namespace earl::bindings {

namespace {

// One parameter of Python's EventTrace after the file: a row of the table, or (option
// nullptr) Python's own progress callable.
struct Parameter {
  const char* name;
  const OpenOption* option;
  bool positional;
};

constexpr const char* kProgress = "progress";
// The progress callable follows EARL 2.0's positional options (format, bdist, hsize), as
// it always has in Python; the table's later positional options come after it.
constexpr const char* kProgressFollows = "hsize";

const std::vector<Parameter>& parameters() {
  static const std::vector<Parameter> all = [] {
    std::vector<Parameter> out;
    for (const OpenOption& option : open_options()) {
      if (!option.positional) continue;
      out.push_back({option.name, &option, true});
      if (std::string(option.name) == kProgressFollows) out.push_back({kProgress, nullptr, true});
    }
    for (const OpenOption& option : open_options())
      if (!option.positional) out.push_back({option.name, &option, false});
    return out;
  }();
  return all;
}

[[noreturn]] void wrong_type(const char* name, const char* wanted, const py::handle value) {
  throw py::type_error(std::string(name) + " must be " + wanted + ", not " + Py_TYPE(value.ptr())->tp_name);
}

OptionValue converted(const OpenOption& option, const py::object& value) {
  if (value.is_none()) return std::monostate{};
  switch (option.type) {
    case OptionType::Text: return text_argument(value, option.name);
    case OptionType::Integer: return integer_argument(value, option.name);
    case OptionType::Boolean:
      if (!py::isinstance<py::bool_>(value)) wrong_type(option.name, "True, False or None", value);
      return value.cast<bool>();
    case OptionType::Number:
      if (PyBool_Check(value.ptr()) || (!PyFloat_Check(value.ptr()) && !PyLong_Check(value.ptr())))
        wrong_type(option.name, "a number (int or float) or None", value);
      return value.cast<double>();
  }
  return std::monostate{};
}

py::object python_value(const OptionValue& value) {
  return std::visit(
      [](const auto& v) -> py::object {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) return py::none();
        else if constexpr (std::is_same_v<T, std::string>) return text(v);
        else return py::cast(v);
      },
      value);
}

const char* python_type(OptionType type) {
  switch (type) {
    case OptionType::Text: return "str";
    case OptionType::Integer: return "int";
    case OptionType::Boolean: return "bool";
    case OptionType::Number: return "float";
  }
  return "object";
}

}  // namespace

OpenArguments open_arguments(const py::args& args, const py::kwargs& kwargs) {
  const std::vector<Parameter>& all = parameters();
  std::size_t positional = 0;
  while (positional < all.size() && all[positional].positional) ++positional;
  if (args.size() == 0 && !kwargs.contains("file")) throw py::type_error("EventTrace() missing its argument 'file'");
  if (args.size() > positional + 1)
    throw py::type_error("EventTrace() takes at most " + std::to_string(positional + 1) +
                         " positional arguments (" + std::to_string(args.size()) + " given)");
  std::vector<py::object> given(all.size());
  py::object file = args.size() > 0 ? py::reinterpret_borrow<py::object>(args[0]) : py::object();
  for (std::size_t i = 1; i < args.size(); ++i) given[i - 1] = args[i];
  for (const auto& item : kwargs) {
    const std::string name = py::str(item.first);
    if (name == "file") {
      if (file) throw py::type_error("EventTrace() got multiple values for argument 'file'");
      file = py::reinterpret_borrow<py::object>(item.second);
      continue;
    }
    std::size_t at = 0;
    while (at < all.size() && name != all[at].name) ++at;
    if (at == all.size()) throw py::type_error("EventTrace() got an unexpected keyword argument '" + name + "'");
    if (given[at]) throw py::type_error("EventTrace() got multiple values for argument '" + name + "'");
    given[at] = py::reinterpret_borrow<py::object>(item.second);
  }
  OpenArguments out;
  out.file = path_argument(file, "file");
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (!given[i]) continue;
    if (!all[i].option) {
      out.progress = given[i];
      continue;
    }
    set_open_option(out.options, *all[i].option, converted(*all[i].option, given[i]), all[i].name);
  }
  return out;
}

void set_python_option(OpenOptions& options, const char* name, const py::object& value) {
  const OpenOption* option = find_open_option(name);
  if (!option) throw EarlError(std::string("internal error: no open option '") + name + "'");
  set_open_option(options, *option, converted(*option, value), name);
}

const std::string& open_signature_text() {
  static const std::string text = [] {
    std::string out = "EventTrace(file";
    bool keywords = false;
    for (const Parameter& p : parameters()) {
      if (!p.positional && !keywords) {
        out += ", *";
        keywords = true;
      }
      out += std::string(", ") + p.name + "=";
      out += p.option ? std::string(py::repr(python_value(option_default(*p.option)))) : "None";
    }
    return out + ")";
  }();
  return text;
}

void bind_open_options(py::module_& m) {
  m.def(
      "open_options",
      [] {
        py::list rows;
        for (const OpenOption& option : open_options()) {
          py::dict row;
          row["name"] = option.name;
          row["tcl"] = option.tcl;
          row["tcl98"] = option.tcl98 ? py::object(py::str(option.tcl98)) : py::none();
          row["type"] = python_type(option.type);
          row["default"] = python_value(option_default(option));
          row["env"] = option.env ? py::object(py::str(option.env)) : py::none();
          row["help"] = option.help;
          row["positional"] = option.positional;
          rows.append(row);
        }
        return rows;
      },
      "The options of opening a trace, one dict per option: name, tcl, tcl98, type, default "
      "(None: the environment or the trace decides), env, help, positional.");
  m.def(
      "open_parameters",
      [] {
        py::list out;
        for (const Parameter& p : parameters())
          out.append(py::make_tuple(p.name, p.positional,
                                    p.option ? python_value(option_default(*p.option)) : py::none()));
        return out;
      },
      "EventTrace's parameters after the file, in order: (name, positional, default).");
}

}  // namespace earl::bindings
