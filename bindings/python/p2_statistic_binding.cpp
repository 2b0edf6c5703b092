// The Python mapping of P2Statistic (EARL 2.0, section 5 of the language reference).
// The state is a flat list of 13 floats; see cpp/stats/p2_statistic.h for the layout.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <array>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "bindings/python/bindings.h"
#include "bindings/python/init_once.h"
#include "model/error.h"
#include "stats/p2_statistic.h"

namespace py = pybind11;

namespace earl::bindings {

namespace {

std::string type_name(py::handle obj) { return py::str(py::type::handle_of(obj).attr("__name__")); }

// One Python number -> double, or EarlError naming the item. Strings are not numbers here.
double number_from_python(py::handle item, const std::string& where) {
  if (PyUnicode_Check(item.ptr()) || PyBytes_Check(item.ptr())) {
    throw EarlError(where + " is not a number (got " + type_name(item) + ")");
  }
  const double value = PyFloat_AsDouble(item.ptr());
  if (value == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    throw EarlError(where + " is not a number (got " + type_name(item) + ")");
  }
  return value;
}

// Any iterable of numbers (list, tuple, NumPy array, generator) -> vector<double>.
std::vector<double> numbers_from_python(py::handle obj, const std::string& what) {
  if (PyUnicode_Check(obj.ptr()) || PyBytes_Check(obj.ptr())) {
    throw EarlError(what + " must be a sequence of numbers, not " + type_name(obj));
  }
  py::iterator it;
  try {
    it = py::iter(obj);
  } catch (py::error_already_set&) {
    throw EarlError(what + " must be a sequence of numbers, not " + type_name(obj));
  }
  std::vector<double> values;
  const Py_ssize_t hint = PyObject_LengthHint(obj.ptr(), 0);
  if (hint > 0) values.reserve(static_cast<std::size_t>(hint));
  if (hint < 0) PyErr_Clear();
  for (py::handle item : it) {
    values.push_back(number_from_python(item, what + " item " + std::to_string(values.size())));
  }
  return values;
}

P2Statistic make_p2(const py::object& state) {
  if (state.is_none()) return P2Statistic();
  const std::vector<double> values = numbers_from_python(state, "P2Statistic: state");
  return P2Statistic(values);
}

py::list state_list(const P2Statistic& p) {
  py::list out;
  for (double v : p.state()) out.append(py::float_(v));
  return out;
}


// One object may be shared between Python threads. add_many works without the GIL, so
// the GIL alone does not order calls on it: every method holds the object's lock (one of
// a fixed set, chosen by address), taken with the GIL released when another thread holds
// it, so no value is lost and nothing reads a half-updated object.
std::mutex& lock_of(const P2Statistic& p) {
  static std::mutex locks[64];
  return locks[(reinterpret_cast<std::uintptr_t>(&p) / alignof(P2Statistic)) % 64];
}

std::unique_lock<std::mutex> acquire(const P2Statistic& p) {
  std::unique_lock<std::mutex> lock(lock_of(p), std::try_to_lock);
  if (!lock.owns_lock()) {
    py::gil_scoped_release unlocked;
    lock.lock();
  }
  return lock;
}

template <typename R, typename... Args>
auto locked(R (*f)(P2Statistic&, Args...)) {
  return [f](P2Statistic& p, Args... args) -> R {
    auto lock = acquire(p);
    return f(p, std::forward<Args>(args)...);
  };
}
template <typename R, typename... Args>
auto locked(R (P2Statistic::*f)(Args...)) {
  return [f](P2Statistic& p, Args... args) -> R {
    auto lock = acquire(p);
    return (p.*f)(std::forward<Args>(args)...);
  };
}
template <typename R, typename... Args>
auto locked(R (P2Statistic::*f)(Args...) const) {
  return [f](const P2Statistic& p, Args... args) -> R {
    auto lock = acquire(p);
    return (p.*f)(std::forward<Args>(args)...);
  };
}

// Adds values on a private copy with the GIL released (the object's lock held), then
// stores the result: a failure changes nothing.
void add_many_released(P2Statistic& p, const double* data, std::size_t n) {
  P2Statistic work = p;
  {
    py::gil_scoped_release release;
    work.add_many(data, n);
  }
  p = work;
}

py::list locked_state_list(const P2Statistic& p) {
  std::array<double, P2Statistic::kStateSize> values{};
  {
    auto lock = acquire(p);
    values = p.state();
  }
  py::list out;
  for (double v : values) out.append(py::float_(v));
  return out;
}

void add_many(P2Statistic& p, const py::object& values) {
  if (py::isinstance<py::array>(values)) {
    const auto array = py::reinterpret_borrow<py::array>(values);
    const char kind = array.dtype().kind();
    if (kind == 'f' || kind == 'i' || kind == 'u' || kind == 'b') {
      // float64 C-contiguous arrays are used in place; others are converted (copied) once.
      using Doubles = py::array_t<double, py::array::c_style | py::array::forcecast>;
      const Doubles doubles = Doubles::ensure(values);
      if (!doubles) throw py::error_already_set();
      auto lock = acquire(p);
      add_many_released(p, doubles.data(), static_cast<std::size_t>(doubles.size()));
      return;
    }
    // Object arrays and the like: element by element below.
  }
  const std::vector<double> data = numbers_from_python(values, "P2Statistic.add_many: values");
  auto lock = acquire(p);
  add_many_released(p, data.data(), data.size());
}

std::string repr(const P2Statistic& p) {
  auto lock = acquire(p);
  std::string out = "P2Statistic(count=" + std::to_string(p.count());
  if (p.count() > 0) out += ", mean=" + std::string(py::repr(py::float_(p.mean())));
  return out + ")";
}

}  // namespace

void bind_p2_statistic(py::module_& m) {
  py::class_<P2Statistic> cls(m, "P2Statistic", R"doc(
Statistics of a stream of numbers in constant memory.

q25(), med() and q75() are estimates by the P^2 algorithm (Jain & Chlamtac, CACM 28(10),
1985; 5 markers at the 0, .25, .5, .75 and 1 quantiles); count, sum, min, max, mean and var
are exact. P2Statistic(p.state()) is a copy of p.

state() layout (13 floats, STATE_FIELDS): count, marker heights q0..q4, marker positions
n0..n4 (1-based), sum, m2 (sum of squared deviations from the mean). With count >= 5,
q0 = min and q4 = max; with fewer values q0.. hold the values seen so far, sorted, the
unused heights are 0 and the positions are 1 2 3 4 5.
)doc");
  py::tuple fields(P2Statistic::kStateSize);
  const char* const names[] = {"count", "q0", "q1", "q2", "q3", "q4", "n0",
                               "n1",    "n2", "n3", "n4", "sum", "m2"};
  for (std::size_t i = 0; i < P2Statistic::kStateSize; ++i) fields[i] = py::str(names[i]);
  cls.attr("STATE_FIELDS") = fields;

  cls.def(py::init(&make_p2), py::arg("state") = py::none(),
          "P2Statistic(state=None): empty, or rebuilt from a state() list of 13 numbers "
          "(EarlError naming what is wrong if the list is not a valid state).")
      .def("add", locked(&P2Statistic::add), py::arg("x"),
           "Add one value (EarlError for nan/inf or when the running moments would overflow).")
      .def("add_many", &add_many, py::arg("values"),
           "Add every value of an iterable or NumPy array, in order (the GIL is released for "
           "NumPy numeric arrays). All or nothing: on error nothing is added.")
      .def("count", locked(&P2Statistic::count), "Number of values added so far.")
      .def("reset", locked(&P2Statistic::reset), "Forget all values.")
      .def("state", &locked_state_list, "The 13 numbers that define the object (see STATE_FIELDS).")
      .def("q25", locked(&P2Statistic::q25), "P^2 estimate of the 25% quantile; needs at least 5 values.")
      .def("med", locked(&P2Statistic::med), "P^2 estimate of the median; needs at least 5 values.")
      .def("q75", locked(&P2Statistic::q75), "P^2 estimate of the 75% quantile; needs at least 5 values.")
      .def("min", locked(&P2Statistic::min), "Exact minimum; needs at least 1 value.")
      .def("max", locked(&P2Statistic::max), "Exact maximum; needs at least 1 value.")
      .def("mean", locked(&P2Statistic::mean), "Mean (sum/count); needs at least 1 value.")
      .def("sum", locked(&P2Statistic::sum), "Sum of the values; needs at least 1 value.")
      .def("var", locked(&P2Statistic::var),
           "Sample variance m2/(count-1); 0.0 for one value; needs at least 1 value.")
      .def("variance_strict", locked(&P2Statistic::variance_strict),
           "Sample variance as the 1998 Tcl dialect's `$so var`: needs at least 2 values.")
      .def("__repr__", &repr)
      .def(py::pickle([](const P2Statistic& p) { return py::make_tuple(locked_state_list(p)); },
                      [](const py::tuple& t) {
                        if (t.size() != 1) throw EarlError("P2Statistic: bad pickle");
                        return make_p2(t[0]);
                      }));
  init_once(cls);
}

}  // namespace earl::bindings
