// libFuzzer target: the event-expression parser (cpp/query/expression.h) on any text, in
// Python or Lua (the first byte chooses), then the predicate bound to a few names and
// tested on an event of every kind. parse() must end and never throw; binding may throw
// only EarlError (an attribute no event has); testing must not fail at all.
#include <cstdint>
#include <string>

#include "model/definitions.h"
#include "model/error.h"
#include "query/expression.h"
#include "query/predicate.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace earl;
  if (size == 0) return 0;
  const auto language = (data[0] & 1) ? query::Language::Lua : query::Language::Python;
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  const query::Parsed parsed = query::parse(text, language);
  if (!parsed.native) return 0;
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
