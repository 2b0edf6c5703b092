#pragma once
// Text between C++ and Python where the bytes need not be UTF-8: paths (any bytes on
// POSIX) and the names a trace file carries. C++ keeps bytes; Python sees them decoded
// with surrogate escapes (PEP 383, as os.fsdecode does), so a name handed back (a region
// to group(), a path) is the same bytes again. Error messages use backslash escapes
// instead, so that printing one never fails.
#include <pybind11/pybind11.h>

#include <cstring>
#include <string>
#include <vector>

#include "model/path_check.h"

namespace earl::bindings {

inline pybind11::str text(const std::string& bytes) {
  PyObject* decoded = PyUnicode_DecodeUTF8(bytes.data(), static_cast<Py_ssize_t>(bytes.size()),
                                           "surrogateescape");
  if (!decoded) throw pybind11::error_already_set();
  return pybind11::reinterpret_steal<pybind11::str>(decoded);
}

inline pybind11::list texts(const std::vector<std::string>& all) {
  pybind11::list out;
  for (const std::string& one : all) out.append(text(one));
  return out;
}

// A str (surrogate escapes allowed), bytes or os.PathLike -> its bytes; TypeError naming
// `what` for anything else.
inline std::string text_argument(pybind11::handle value, const char* what) {
  PyObject* path = PyOS_FSPath(value.ptr());  // str and bytes pass through
  if (!path) {
    PyErr_Clear();
    throw pybind11::type_error(std::string(what) + " must be a str, bytes or os.PathLike, not " +
                               Py_TYPE(value.ptr())->tp_name);
  }
  pybind11::object owned = pybind11::reinterpret_steal<pybind11::object>(path);
  if (PyBytes_Check(path)) return std::string(PyBytes_AS_STRING(path), PyBytes_GET_SIZE(path));
  PyObject* encoded = PyUnicode_AsEncodedString(path, "utf-8", "surrogateescape");
  if (!encoded) throw pybind11::error_already_set();
  pybind11::object bytes = pybind11::reinterpret_steal<pybind11::object>(encoded);
  return std::string(PyBytes_AS_STRING(encoded), PyBytes_GET_SIZE(encoded));
}

// A path argument: as text_argument, and refused with EarlError naming `what` when it holds
// a NUL byte (model/path_check.h, the rule of every binding).
inline std::string path_argument(pybind11::handle value, const char* what) {
  std::string path = text_argument(value, what);
  check_path(path, what);
  return path;
}

// An error message for Python: bytes that are not UTF-8 (a path, a name) as \xNN.
inline PyObject* message_text(const char* message) {
  return PyUnicode_DecodeUTF8(message, static_cast<Py_ssize_t>(std::strlen(message)), "backslashreplace");
}

}  // namespace earl::bindings
