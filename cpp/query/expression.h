#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace earl::query {

// The languages an event expression may be written in. Both share the subset this parser
// reads natively; each adds its own operators (Python's != and `in`, Lua's ~=).
enum class Language { Python, Lua };

// Parses "python" or "lua"; EarlError naming the others for anything else.
Language language_named(const std::string& name);
const char* language_name(Language language);

enum class Compare : std::uint8_t { Eq, Ne, Lt, Le, Gt, Ge };

// A constant of a comparison: a number or a string.
struct Constant {
  bool is_string = false;
  long double number = 0;  // exact for every 64-bit integer and every double
  std::string text;
};

// One node of a parsed expression: And/Or/Not of children, or `ev.<attribute> <op>
// <constant>` (a constant on the left is turned around), or `ev.<attribute> [not] in
// (constants)` (a set).
struct Node {
  enum class Kind : std::uint8_t { And, Or, Not, Compare, In } kind = Kind::Compare;
  std::vector<Node> children;    // And, Or (two or more), Not (one)
  std::string attribute;         // Compare, In
  Compare op = Compare::Eq;      // Compare
  std::vector<Constant> values;  // Compare (one), In (the set)
  bool negated = false;          // In: `not in`
  int line = 1, column = 1;      // where the attribute is written
};

// What parse() found. `native` is false where the expression uses more than the common
// subset (arithmetic, calls, other variables, ...): its language must evaluate it, and
// `reason` says what was met first and where (line, column from 1). Never throws for
// any input: the language's own compiler reports real syntax errors.
struct Parsed {
  bool native = false;
  Node tree;
  std::string reason;
  int line = 1, column = 1;
  // parse_conjuncts (conjuncts.h): `tree` tests some top-level `and` operands, and the
  // language evaluates `rest` on the events it selects.
  bool partial = false;
  std::string rest;
};

// `line` and `column`: where `text` begins, where it is a part of a longer expression
// (positions are then the whole's).
Parsed parse(const std::string& text, Language language, int line = 1, int column = 1);

}  // namespace earl::query
