// The Python mapping of query::Selection: converts arguments and hands back positions;
// the core parses, binds and scans (cpp/query). earl.trace.EventTrace.select drives it.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <mutex>

#include "bindings/python/arguments.h"
#include "bindings/python/bindings.h"
#include "bindings/python/init_once.h"
#include "bindings/python/text.h"
#include "model/error.h"
#include "query/checker.h"
#include "query/rules_file.h"
#include "query/selection.h"
#include "trace/event_attributes.h"
#include "trace/shared_trace.h"

namespace py = pybind11;

namespace earl::bindings {

namespace {

// None, a position (int) or a time in seconds (float), or the command line's text
// ("1000", "1.5s": query::parse_bound).
query::Bound bound_argument(const py::object& value, const char* what) {
  query::Bound bound;
  if (value.is_none()) return bound;
  if (py::isinstance<py::float_>(value)) {
    bound.kind = query::Bound::Kind::Time;
    bound.seconds = value.cast<double>();
    return bound;
  }
  if (py::isinstance<py::str>(value)) return query::parse_bound(text_argument(value, what), what);
  std::int64_t position = 0;
  if (!index_value(value, what, position) || position < 0)
    throw EarlError(std::string(what) + " " + std::string(py::str(value)) + " is not a position");
  bound.kind = query::Bound::Kind::Position;
  bound.position = static_cast<std::uint64_t>(position);
  return bound;
}

// A core object working on a trace shared with earl.EventTrace (taken by its ticket).
class OnSharedTrace {
 protected:
  explicit OnSharedTrace(std::uintptr_t ticket) : shared_(redeem_ticket(ticket)) {}

  // The work without the GIL, under the trace's lock (as every EventTrace method).
  template <class Work>
  void run(Work&& work) {
    py::gil_scoped_release unlocked;
    std::lock_guard<std::recursive_mutex> lock(shared_->mutex());
    work(shared_->trace());
  }

 private:
  std::shared_ptr<SharedTrace> shared_;
};

class PySelection : OnSharedTrace {
 public:
  PySelection(std::uintptr_t ticket, const py::object& expression, const std::string& language,
              const py::object& first, const py::object& last, const std::vector<Location>& locations)
      : OnSharedTrace(ticket) {
    std::string text = expression.is_none() ? std::string() : text_argument(expression, "expression");
    query::Language lang = query::language_named(language);
    query::Bound from = bound_argument(first, "first"), to = bound_argument(last, "last");
    run([&](EventTrace& trace) {
      selection_ = std::make_unique<query::Selection>(trace, text, lang, from, to, locations);
    });
  }

  std::vector<Position> batch(std::size_t scan) {
    std::vector<Position> found;
    run([&](EventTrace& trace) { found = selection_->batch(trace, scan); });
    return found;
  }

  const query::Selection& selection() const { return *selection_; }

 private:
  std::unique_ptr<query::Selection> selection_;
};

py::dict violation_dict(const query::Violation& v) {
  py::object rule = v.rule < 0 ? py::object(py::none()) : py::object(py::int_(v.rule));
  return py::dict(py::arg("kind") = text(v.kind), py::arg("pos") = v.pos, py::arg("loc") = v.loc,
                  py::arg("time") = v.time, py::arg("message") = text(v.message), py::arg("rule") = rule);
}

py::list violation_dicts(const std::vector<query::Violation>& found) {
  py::list out;
  for (const query::Violation& v : found) out.append(violation_dict(v));
  return out;
}

// Rules as (name, when, assert, language) tuples.
class PyChecker : OnSharedTrace {
 public:
  PyChecker(std::uintptr_t ticket, const std::vector<std::tuple<std::string, std::string, std::string, std::string>>& rules)
      : OnSharedTrace(ticket) {
    std::vector<query::Rule> parsed;
    for (const auto& [name, when, assertion, language] : rules)
      parsed.push_back(query::Rule{name, when, assertion, query::language_named(language)});
    run([&](EventTrace& trace) { checker_ = std::make_unique<query::Checker>(trace, std::move(parsed)); });
  }

  // (violations, pending (rule, pos, fails) for the rules' languages; fails: the core
  // found the assertion false, only the when is left)
  py::tuple batch(std::size_t scan) {
    std::vector<query::Violation> found;
    std::vector<query::Checker::Pending> pending;
    run([&](EventTrace& trace) { checker_->batch(trace, scan, found, pending); });
    py::list waiting;
    for (const auto& p : pending) waiting.append(py::make_tuple(p.rule, p.pos, p.fails));
    return py::make_tuple(violation_dicts(found), waiting);
  }

  py::list finish() {
    std::vector<query::Violation> found;
    run([&](EventTrace& trace) { checker_->finish(trace, found); });
    return violation_dicts(found);
  }

  // Per rule: {"when": part, "assert": part}, each part None where the core tests it,
  // else {"reason", "line", "column", "rest"} (rest: what the language evaluates).
  py::list fallbacks() const {
    auto part = [](const query::Checker::Part& p) -> py::object {
      if (p.native) return py::none();
      return py::dict(py::arg("reason") = text(p.reason), py::arg("line") = p.line, py::arg("column") = p.column,
                      py::arg("rest") = text(p.rest));
    };
    py::list out;
    for (const auto& f : checker_->fallbacks())
      out.append(py::dict(py::arg("when") = part(f.when), py::arg("assert") = part(f.assertion)));
    return out;
  }

  bool done() const { return checker_->done(); }

 private:
  std::unique_ptr<query::Checker> checker_;
};

// A rules file read by the core (query/rules_file.h): per rule a dict of name, language,
// when, assert and when_at/assert_at, (line, column) where that value's text starts in
// the file (None where the rule has no when).
py::list load_rules(const std::string& path) {
  std::vector<query::RulePlaces> places;
  const std::vector<query::Rule> rules = query::load_rules(path, &places);
  py::list out;
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const query::Rule& r = rules[i];
    const query::RulePlaces& p = places[i];
    py::object when_at = p.when_line ? py::object(py::make_tuple(p.when_line, p.when_column)) : py::object(py::none());
    out.append(py::dict(py::arg("name") = text(r.name), py::arg("language") = query::language_name(r.language),
                        py::arg("when") = text(r.when), py::arg("assert") = text(r.assertion),
                        py::arg("when_at") = when_at,
                        py::arg("assert_at") = py::make_tuple(p.assert_line, p.assert_column)));
  }
  return out;
}

}  // namespace

void bind_query(py::module_& m) {
  m.def("load_rules", &load_rules, py::arg("path"));
  py::class_<PyChecker> checker(m, "Checker");
  checker
      .def(py::init<std::uintptr_t, const std::vector<std::tuple<std::string, std::string, std::string, std::string>>&>(),
           py::arg("ticket"), py::arg("rules"))
      .def("batch", &PyChecker::batch, py::arg("scan"))
      .def("finish", &PyChecker::finish)
      .def("fallbacks", &PyChecker::fallbacks)
      .def_property_readonly("done", &PyChecker::done);
  init_once(checker);
  py::class_<PySelection> selection(m, "Selection");
  selection
      .def(py::init<std::uintptr_t, const py::object&, const std::string&, const py::object&, const py::object&,
                    const std::vector<Location>&>(),
           py::arg("ticket"), py::arg("expression"), py::arg("language") = "python",
           py::arg("first") = py::none(), py::arg("last") = py::none(),
           py::arg("locations") = std::vector<Location>{})
      .def("batch", &PySelection::batch, py::arg("scan"))
      .def_property_readonly("done", [](const PySelection& s) { return s.selection().done(); })
      .def_property_readonly("native", [](const PySelection& s) { return s.selection().native(); })
      .def_property_readonly("partial", [](const PySelection& s) { return s.selection().partial(); })
      .def_property_readonly("rest", [](const PySelection& s) { return text(s.selection().rest()); })
      .def_property_readonly("reason", [](const PySelection& s) { return text(s.selection().reason()); })
      .def_property_readonly("line", [](const PySelection& s) { return s.selection().line(); })
      .def_property_readonly("column", [](const PySelection& s) { return s.selection().column(); })
      .def_property_readonly("first", [](const PySelection& s) { return s.selection().first(); })
      .def_property_readonly("last", [](const PySelection& s) { return s.selection().last(); });
  init_once(selection);
  m.def(
      "parse_bound",
      [](const py::object& value, const std::string& option) -> py::object {
        query::Bound bound = query::parse_bound(text_argument(value, "text"), option);
        if (bound.kind == query::Bound::Kind::Position) return py::int_(bound.position);
        return py::float_(bound.seconds);
      },
      py::arg("text"), py::arg("option"),
      "A window's end as the command line writes it: a position (int) or a time in seconds "
      "(float, from 1.5s, 250ms, 10us, 100ns); EarlError naming option otherwise.");
  m.def(
      "attribute_names",
      [] {
        py::list names;
        for (int a = 0; a < static_cast<int>(Attribute::Count_); ++a)
          names.append(py::str(attribute_name(static_cast<Attribute>(a))));
        return names;
      },
      "Every attribute name an event of any kind may have.");
}

}  // namespace earl::bindings
