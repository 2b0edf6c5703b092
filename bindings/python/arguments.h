#pragma once
// Python argument checks shared by the bindings' files.
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

#include "model/error.h"

namespace earl::bindings {

// An integer argument: an int or an object with __index__ (NumPy integers), never a float,
// str, Decimal or Fraction (TypeError naming the argument). False when it does not fit in
// 64 bits.
inline bool index_value(const pybind11::object& value, const char* what, std::int64_t& out) {
  if (!PyIndex_Check(value.ptr()))
    throw pybind11::type_error(std::string(what) + " must be an integer (int or an object with __index__), not " +
                               Py_TYPE(value.ptr())->tp_name);
  pybind11::object number = pybind11::reinterpret_steal<pybind11::object>(PyNumber_Index(value.ptr()));
  if (!number) throw pybind11::error_already_set();
  int overflow = 0;
  long long result = PyLong_AsLongLongAndOverflow(number.ptr(), &overflow);
  if (overflow != 0) return false;
  if (result == -1 && PyErr_Occurred()) throw pybind11::error_already_set();
  out = result;
  return true;
}

// As index_value; EarlError for a value beyond 64 bits.
inline std::int64_t integer_argument(const pybind11::object& value, const char* what) {
  std::int64_t number = 0;
  if (!index_value(value, what, number))
    throw EarlError(std::string(what) + " " + std::string(pybind11::str(value)) + " is out of range");
  return number;
}

}  // namespace earl::bindings
