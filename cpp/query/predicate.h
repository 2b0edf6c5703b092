#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/definitions.h"
#include "model/event.h"
#include "query/expression.h"
#include "trace/event_attributes.h"

namespace earl::query {

// A parsed expression bound to one trace's names: strings become symbol ids and each
// attribute the slot it has in each event kind, so a test reads the compact Event and
// never makes a string. Semantics (docs/cli.md, "Event expressions"):
// - an attribute the event's kind does not have compares as an absent value: == false,
//   != true, orderings false; so do data1/data2 holding no value;
// - a number compares with a string as unequal (orderings false);
// - names compare by name (type, region, string values of data1/data2).
class Predicate {
 public:
  // EarlError "line L, column C: no event has an attribute 'x' (...)" for a name no
  // event kind has.
  Predicate(const Node& tree, const Definitions& definitions);

  // `duration`: an exit's time minus its enter's (the pseudo-attribute `duration`); NaN
  // for other events, where it is absent.
  bool operator()(const Event& e, double duration = kNoDuration) const { return test(0, e, duration); }
  // Whether the expression reads `duration` (callers then find the enter's time).
  bool uses_duration() const { return uses_duration_; }

  static constexpr double kNoDuration = __builtin_nan("");
  // The name of the pseudo-attribute: not in an event record, derived from enterptr.
  static constexpr const char* kDuration = "duration";

 private:
  struct Test {
    Node::Kind kind = Node::Kind::And;
    bool duration = false;  // tests the pseudo-attribute, not a slot
    Compare op = Compare::Eq;
    bool negated = false;
    std::vector<std::uint32_t> children;
    // Compare / In: the attribute's slot in each event kind, or none.
    std::array<std::optional<Slot>, static_cast<int>(kLastEventKind) + 1> slots;
    struct Value {
      bool is_string;
      long double number;
      // the string's id in types, regions and strings; -1 where that table lacks it
      std::int64_t type_id, region_id, string_id;
    };
    std::vector<Value> values;
  };

  std::uint32_t add(const Node& node, const Definitions& definitions);
  bool test(std::uint32_t at, const Event& e, double duration) const;
  static bool compare(const Test& t, const Test::Value& v, const Event& e, double duration);

  std::vector<Test> tests_;  // tests_[0] is the root
  bool uses_duration_ = false;
};

}  // namespace earl::query
