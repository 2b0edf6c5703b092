#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "query/expression.h"
#include "query/predicate.h"
#include "trace/event_trace.h"

namespace earl::query {

// One end of a window: a position, or a time in seconds (the first event at or after it
// for `from`, the last at or before it for `to`).
struct Bound {
  enum class Kind : std::uint8_t { None, Position, Time } kind = Kind::None;
  std::uint64_t position = 0;
  double seconds = 0;
};

// Parses a bound as the command line writes it: "1234" a position, "1.5s", "250ms",
// "10us", "100ns" a time. EarlError naming `option` for anything else.
Bound parse_bound(const std::string& text, const std::string& option);

// The events of a trace an expression selects, in order, without materialising them:
// each batch() scans on from where the last stopped. Where the expression is in the
// common subset (native()), the scan tests it on the compact events; otherwise the
// positions it yields are only those in the window and at the locations, and the
// expression's language must test each with rest() (reason() says why, with line and
// column). partial(): the expression is `A and B` with A in the subset and B not (top
// level, any order, any number of operands): the scan tests A, and rest() is B.
class Selection {
 public:
  // An empty expression selects every event. EarlError with line and column for an
  // attribute no event has.
  Selection(EventTrace& trace, const std::string& expression, Language language, Bound from = {},
            Bound to = {}, std::vector<Location> locations = {});

  bool native() const { return predicate_.has_value() && !partial_; }
  bool partial() const { return partial_; }
  // What the language evaluates on each position batch() yields (unless native()): the
  // expression, with the operands the scan tests written as `true` (positions kept).
  const std::string& rest() const { return rest_; }
  const std::string& reason() const { return reason_; }
  int line() const { return line_; }
  int column() const { return column_; }
  Position first() const { return first_; }
  Position last() const { return last_; }

  // The positions of further events, scanning at most `scan` events (so that a caller
  // can react to Ctrl-C between batches even where nothing matches).
  std::vector<Position> batch(EventTrace& trace, std::size_t scan, const ProgressCallback& progress = {});
  // Whether the window is scanned to its end.
  bool done() const { return next_ > last_; }

 private:
  std::optional<Predicate> predicate_;
  bool partial_ = false;
  std::string rest_;
  std::string reason_;
  int line_ = 0, column_ = 0;
  Position first_ = 1, last_ = 0, next_ = 1;
  std::vector<bool> locations_;  // by location; empty: every location
};

}  // namespace earl::query
