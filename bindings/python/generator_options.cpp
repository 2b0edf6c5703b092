#include "bindings/python/generator_options.h"

#include <pybind11/stl.h>

#include <cmath>
#include <string>
#include <type_traits>

#include "model/error.h"

namespace py = pybind11;

namespace earl::bindings {

namespace {

using gen::GenOptions;
using gen::OptionSpec;

[[noreturn]] void wrong_type(const OptionSpec& spec, const char* wanted, py::handle value) {
  throw EarlError(std::string("earl gen: option '") + spec.name + "' must be " + wanted +
                  ", not " + std::string(py::str(py::type::handle_of(value).attr("__name__"))));
}

template <typename T>
constexpr const char* type_name() {
  if constexpr (std::is_same_v<T, bool>) return "bool";
  else if constexpr (std::is_same_v<T, std::string>) return "str";
  else if constexpr (std::is_same_v<T, double>) return "float";
  else return "int";
}

// bool is a subclass of int in Python; True is no number of locations.
bool is_int(py::handle value) {
  return py::isinstance<py::int_>(value) && !py::isinstance<py::bool_>(value);
}

void set_option(GenOptions& o, const OptionSpec& spec, py::handle value) {
  if (spec.zero_is_unset && value.is_none()) return;
  std::visit(
      [&](auto member) {
        using T = std::decay_t<decltype(o.*member)>;
        if constexpr (std::is_same_v<T, bool>) {
          if (!py::isinstance<py::bool_>(value)) wrong_type(spec, "True or False", value);
          o.*member = value.cast<bool>();
        } else if constexpr (std::is_same_v<T, std::string>) {
          if (!py::isinstance<py::str>(value)) wrong_type(spec, "a string", value);
          o.*member = value.cast<std::string>();
        } else if constexpr (std::is_same_v<T, double>) {
          if (!is_int(value) && !py::isinstance<py::float_>(value)) wrong_type(spec, "a number", value);
          o.*member = value.cast<double>();
        } else {
          if (!is_int(value)) wrong_type(spec, "an integer", value);
          if (std::is_unsigned_v<T> && value.cast<py::int_>() < py::int_(0))
            throw EarlError(std::string("earl gen: ") + spec.name + " must not be negative");
          try {
            o.*member = value.cast<T>();
          } catch (const py::cast_error&) {
            throw EarlError(std::string("earl gen: option '") + spec.name + "' is out of range");
          }
          // 0 is how C++ says "not given"; from Python that is None.
          if (spec.zero_is_unset && o.*member == 0)
            throw EarlError(std::string("earl gen: ") + spec.name +
                            " must be a positive number, or None for none");
        }
      },
      spec.field);
}

py::object bound(double v) {
  if (std::isinf(v)) return py::none();
  return py::float_(v);
}

}  // namespace

GenOptions options_from(const py::dict& given) {
  GenOptions o;
  for (const auto& item : given) {
    const std::string name = py::str(item.first);
    const OptionSpec* spec = gen::find_option(name);
    if (!spec) {
      std::string known;
      for (const OptionSpec& s : gen::option_table()) known += (known.empty() ? "" : ", ") + std::string(s.name);
      throw EarlError("earl gen: unknown option '" + name + "' (known: " + known + ")");
    }
    set_option(o, *spec, item.second);
  }
  return o;
}

py::object option_value(const OptionSpec& spec, const GenOptions& options) {
  return std::visit(
      [&](auto member) -> py::object {
        const auto& value = options.*member;
        if constexpr (!std::is_same_v<std::decay_t<decltype(value)>, std::string> &&
                      !std::is_same_v<std::decay_t<decltype(value)>, bool>) {
          if (spec.zero_is_unset && value == 0) return py::none();
        }
        return py::cast(value);
      },
      spec.field);
}

py::list describe_options() {
  const GenOptions defaults;
  py::list out;
  for (const OptionSpec& spec : gen::option_table()) {
    py::dict row;
    row["name"] = spec.name;
    row["type"] = std::visit(
        [](auto member) { return type_name<std::decay_t<decltype(GenOptions{}.*member)>>(); },
        spec.field);
    row["default"] = option_value(spec, defaults);
    row["group"] = spec.group == gen::OptionGroup::Run ? "run" : "model";
    row["help"] = spec.help;
    row["min"] = bound(spec.min);
    row["max"] = bound(spec.max);
    const auto choices = gen::option_choices(spec);
    row["choices"] = choices.empty() ? py::object(py::none()) : py::cast(choices);
    out.append(row);
  }
  return out;
}

}  // namespace earl::bindings
