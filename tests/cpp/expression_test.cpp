// Unit tests of the event-expression grammar (query/expression.h), its top-level
// conjunctions (query/conjuncts.h) and its predicate
// (query/predicate.h): what is native in which language, where the subset stops, and
// hand-made events tested against hand-worked answers.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "model/definitions.h"
#include "model/error.h"
#include "query/conjuncts.h"
#include "query/expression.h"
#include "query/predicate.h"

using namespace earl;
using query::Language;

namespace {

bool native(const std::string& text, Language language = Language::Python) {
  return query::parse(text, language).native;
}

Definitions names() {
  Definitions d;  // types enter, exit, send, recv are built in
  d.regions.intern("main");
  d.regions.intern("MPI_Send");
  return d;
}

bool test(const std::string& text, const Event& e, Language language = Language::Python,
          double duration = query::Predicate::kNoDuration) {
  const Definitions d = names();
  const query::Parsed parsed = query::parse(text, language);
  REQUIRE_MESSAGE(parsed.native, (text + ": " + parsed.reason));
  return query::Predicate(parsed.tree, d)(e, duration);
}

Event send(Location loc, Location dest, std::int64_t tag) {
  Event e;
  e.kind = EventKind::Send;
  e.type = kSendType;
  e.loc = loc;
  e.peer = dest;
  e.tag = tag;
  e.time = 1.5;
  return e;
}

Event enter(SymbolId region) {
  Event e;
  e.kind = EventKind::Enter;
  e.type = kEnterType;
  e.region = region;
  return e;
}

}  // namespace

TEST_CASE("each language's own operators are native only in it") {
  CHECK(native("ev.tag != 5"));
  CHECK_FALSE(native("ev.tag != 5", Language::Lua));
  CHECK(native("ev.tag ~= 5", Language::Lua));
  CHECK_FALSE(native("ev.tag ~= 5"));
  CHECK(native("ev.region in ('a', 'b')"));
  CHECK_FALSE(native("ev.region in ('a', 'b')", Language::Lua));
  // Lua's `not` binds tighter than ==: only `not (...)` means the same in both
  CHECK(native("not ev.tag == 5"));
  CHECK_FALSE(native("not ev.tag == 5", Language::Lua));
  CHECK(native("not (ev.tag == 5)", Language::Lua));
}

TEST_CASE("the subset stops where arithmetic, calls or chains begin, at their line and column") {
  const query::Parsed parsed = query::parse("ev.type == 'send' and\n  ev.len * 2 > 3", Language::Python);
  CHECK_FALSE(parsed.native);
  CHECK(parsed.line == 2);
  CHECK(parsed.column == 10);
  CHECK_FALSE(native("1 < ev.time < 2"));
  CHECK_FALSE(native("ev.region.startswith('MPI')"));
  CHECK_FALSE(native("ev.tag == 0x10"));
  CHECK_FALSE(native("ev.tag"));
  CHECK_FALSE(native("ev.region < 'b'"));
  CHECK_FALSE(native(std::string(200, '(') + "ev.tag == 1" + std::string(200, ')')));
}

TEST_CASE("comparisons on hand-made events") {
  const Event s = send(0, 3, 7);
  CHECK(test("ev.type == \"send\" and ev.dest == 3", s));
  CHECK_FALSE(test("ev.type == \"send\" and ev.dest == 4", s));
  CHECK(test("3 == ev.dest and 1.5 <= ev.time and ev.time < 1.6", s));
  CHECK(test("ev['tag'] >= 7 and not (ev.tag > 7)", s));
  CHECK(test("ev.tag in (1, 7)", s));
  CHECK(test("ev.tag not in [1, 2]", s));
  // an attribute the event lacks: == false, != true, orderings false
  CHECK_FALSE(test("ev.region == \"main\"", s));
  CHECK(test("ev.region != \"main\"", s));
  CHECK_FALSE(test("ev.src < 100", s));
  CHECK_FALSE(test("ev.src >= 100", s));
  // names by their ids; a name the trace lacks equals nothing
  CHECK(test("ev.region == 'MPI_Send'", enter(1)));
  CHECK_FALSE(test("ev.region == 'MPI_Recv'", enter(1)));
  CHECK_FALSE(test("ev.type == 3", s));  // a number never equals a name
  CHECK(test("ev.duration > 0.25", Event{}, Language::Python, 0.5));
  CHECK_FALSE(test("ev.duration > 0.25", Event{}));
}

TEST_CASE("an attribute no event has is an error with its line and column") {
  const Definitions d = names();
  const query::Parsed parsed = query::parse("ev.tag == 1 or\n ev.colour == 2", Language::Lua);
  REQUIRE(parsed.native);
  CHECK_THROWS_WITH_AS(query::Predicate(parsed.tree, d), doctest::Contains("line 2, column 2: no event has an attribute 'colour'"),
                       EarlError);
}

namespace {

// The operands top_level_conjuncts finds, as text.
std::vector<std::string> operands(const std::string& text, Language language = Language::Python) {
  std::vector<std::string> found;
  for (const query::Span& s : query::top_level_conjuncts(text, language)) found.push_back(text.substr(s.begin, s.end - s.begin));
  return found;
}

}  // namespace

TEST_CASE("top-level conjunctions: their operands, or none where the scan could misread") {
  using V = std::vector<std::string>;
  CHECK(operands("a == 1 and f(x, y) and (b or c)") == V{"a == 1 ", " f(x, y) ", " (b or c)"});
  CHECK(operands("((a and 'x and y'))") == V{"a ", " 'x and y'"});
  CHECK(operands("a andb and c") == V{"a andb ", " c"});
  CHECK(operands("a and b or c").empty());
  CHECK(operands("(a) + (b and c)").empty());
  CHECK(operands("a and b if c else d").empty());
  CHECK(operands("a and b, c").empty());
  CHECK(operands("a and b # c").empty());
  CHECK(operands("a and r'b'").empty());
  CHECK(operands("a and '''b'''").empty());
  CHECK(operands("a and").empty());
  CHECK(operands("a and [[b]]", Language::Lua).empty());
  CHECK(operands("a and b -- c", Language::Lua).empty());
  CHECK(operands("a and function() return b end", Language::Lua).empty());
  CHECK(operands("a and (function() return b and c end)()", Language::Lua).size() == 2);
  // parentheses around the whole are looked into up to a bound (each pair rescans)
  CHECK(operands(std::string(8, '(') + "a and b" + std::string(8, ')')).size() == 2);
  CHECK(operands(std::string(20, '(') + "a and b" + std::string(20, ')')).empty());
}

TEST_CASE("native operands of a conjunction: tested by the core, written as true for the language") {
  const query::Parsed p = query::parse_conjuncts("ev.tag == 7 and\n  ev.len * 2 > 3 and ev.dest == 3", Language::Python);
  REQUIRE(p.partial);
  CHECK_FALSE(p.native);
  CHECK(p.rest == "True        and\n  ev.len * 2 > 3 and True        ");
  CHECK(p.line == 2);
  CHECK(p.column == 10);
  CHECK(query::Predicate(p.tree, names())(send(0, 3, 7)));
  CHECK_FALSE(query::Predicate(p.tree, names())(send(0, 3, 8)));
  CHECK(query::parse_conjuncts("(ev.tag==7)and(ev.len*2>3)", Language::Lua).rest == "true       and(ev.len*2>3)");
  CHECK(query::parse_conjuncts("ev.tag == 7 and ev.dest == 3", Language::Python).native);
  CHECK_FALSE(query::parse_conjuncts("f(ev) and g(ev)", Language::Python).partial);
}
