// libFuzzer target: the event-expression parser (cpp/query/expression.h) on any text, in
// Python or Lua (the first byte chooses), through parse_conjuncts (cpp/query/conjuncts.h:
// the whole, else the native operands of a top-level `and`), then the predicate bound to a
// few names and tested on an event of every kind. Parsing must end and never throw, and a
// partial parse's rest keeps every position of the text (its length, its line breaks);
// binding may throw only EarlError (an attribute no event has); testing must not fail.
#include <cstdint>
#include <string>

#include "model/definitions.h"
#include "model/error.h"
#include "query/conjuncts.h"
#include "query/expression.h"
#include "query/predicate.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace earl;
  if (size == 0) return 0;
  const auto language = (data[0] & 1) ? query::Language::Lua : query::Language::Python;
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  const query::Parsed parsed = query::parse_conjuncts(text, language);
  if (parsed.partial) {
    if (parsed.rest.size() != text.size()) __builtin_trap();
    for (std::size_t i = 0; i < text.size(); ++i)
      if ((text[i] == '\n') != (parsed.rest[i] == '\n')) __builtin_trap();
  }
  if (!parsed.native && !parsed.partial) return 0;
  static const Definitions definitions = [] {
    Definitions d;
    d.regions.intern("MPI_Send");
    d.regions.intern("main");
    d.strings.intern("send");
    return d;
  }();
  try {
    const query::Predicate predicate(parsed.tree, definitions);
    for (int k = 0; k <= static_cast<int>(kLastEventKind); ++k) {
      Event e;
      e.kind = static_cast<EventKind>(k);
      e.pos = static_cast<Position>(k + 1);
      e.data1 = Value::of_string(0);
      e.data2 = Value::of_uint(~std::uint64_t{0});
      (void)predicate(e);
      (void)predicate(e, 1.5);
    }
  } catch (const EarlError&) {
    // an attribute no event has: the outcome wanted
  }
  return 0;
}
