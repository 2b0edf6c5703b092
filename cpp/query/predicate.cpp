#include "query/predicate.h"

#include <cmath>
#include <type_traits>

#include "model/error.h"

namespace earl::query {

namespace {

std::optional<Attribute> attribute_named(const std::string& name) {
  for (int a = 0; a < static_cast<int>(Attribute::Count_); ++a)
    if (name == attribute_name(static_cast<Attribute>(a))) return static_cast<Attribute>(a);
  return std::nullopt;
}

std::int64_t id_in(const SymbolTable& table, const std::string& name) {
  SymbolId id = 0;
  return table.find(name, id) ? static_cast<std::int64_t>(id) : -1;
}

bool ordered(Compare op, long double a, long double b) {
  switch (op) {
    case Compare::Eq: return a == b;
    case Compare::Ne: return a != b;
    case Compare::Lt: return a < b;
    case Compare::Le: return a <= b;
    case Compare::Gt: return a > b;
    case Compare::Ge: return a >= b;
  }
  return false;
}

// The result of comparing values that cannot be equal (absent, or number vs string).
bool unequal(Compare op) { return op == Compare::Ne; }

}  // namespace

Predicate::Predicate(const Node& tree, const Definitions& definitions) { add(tree, definitions); }

std::uint32_t Predicate::add(const Node& node, const Definitions& definitions) {
  const auto at = static_cast<std::uint32_t>(tests_.size());
  tests_.emplace_back();
  tests_.back().kind = node.kind;
  if (node.kind == Node::Kind::And || node.kind == Node::Kind::Or || node.kind == Node::Kind::Not) {
    std::vector<std::uint32_t> children;
    for (const Node& child : node.children) children.push_back(add(child, definitions));
    tests_[at].children = std::move(children);
    return at;
  }
  Test& t = tests_[at];
  t.op = node.op;
  t.negated = node.negated;
  for (const Constant& c : node.values) {
    Test::Value v{c.is_string, c.number, -1, -1, -1};
    if (c.is_string) {
      v.type_id = id_in(definitions.types, c.text);
      v.region_id = id_in(definitions.regions, c.text);
      v.string_id = id_in(definitions.strings, c.text);
    }
    t.values.push_back(v);
  }
  if (node.attribute == kDuration) {
    t.duration = uses_duration_ = true;
    return at;
  }
  auto attribute = attribute_named(node.attribute);
  if (!attribute) {
    std::string names;
    for (int a = 0; a < static_cast<int>(Attribute::Count_); ++a)
      names += attribute_name(static_cast<Attribute>(a)) + std::string(", ");
    names += kDuration;
    throw EarlError("line " + std::to_string(node.line) + ", column " + std::to_string(node.column) +
                    ": no event has an attribute '" + node.attribute + "' (attributes: " + names + ")");
  }
  for (int k = 0; k <= static_cast<int>(kLastEventKind); ++k)
    for (const AttributeSpec& spec : attribute_specs(static_cast<EventKind>(k)))
      if (spec.name == *attribute) t.slots[k] = spec.slot;
  return at;
}

bool Predicate::compare(const Test& t, const Test::Value& v, const Event& e, double duration) {
  if (t.duration) {
    if (std::isnan(duration) || v.is_string) return unequal(t.op);
    return ordered(t.op, duration, v.number);
  }
  const auto& slot = t.slots[static_cast<int>(e.kind)];
  if (!slot) return unequal(t.op);
  return visit_slot(e, *slot, [&](auto value) -> bool {
    using V = std::decay_t<decltype(value)>;
    if constexpr (std::is_arithmetic_v<V>) {
      if (v.is_string) return unequal(t.op);
      return ordered(t.op, static_cast<long double>(value), v.number);
    } else if constexpr (std::is_same_v<V, NoValue>) {
      return unequal(t.op);
    } else {
      if (!v.is_string) return unequal(t.op);
      std::int64_t wanted = std::is_same_v<V, TypeName>     ? v.type_id
                            : std::is_same_v<V, RegionName> ? v.region_id
                                                            : v.string_id;
      bool same = wanted >= 0 && static_cast<std::int64_t>(value.id) == wanted;
      return t.op == Compare::Eq ? same : t.op == Compare::Ne ? !same : false;
    }
  });
}

bool Predicate::test(std::uint32_t at, const Event& e, double duration) const {
  const Test& t = tests_[at];
  switch (t.kind) {
    case Node::Kind::And:
      for (std::uint32_t child : t.children)
        if (!test(child, e, duration)) return false;
      return true;
    case Node::Kind::Or:
      for (std::uint32_t child : t.children)
        if (test(child, e, duration)) return true;
      return false;
    case Node::Kind::Not: return !test(t.children[0], e, duration);
    case Node::Kind::Compare: return compare(t, t.values[0], e, duration);
    case Node::Kind::In:
      for (const Test::Value& v : t.values)
        if (compare(t, v, e, duration)) return !t.negated;
      return t.negated;
  }
  return false;
}

}  // namespace earl::query
