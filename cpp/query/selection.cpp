#include "query/selection.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "model/error.h"
#include "query/conjuncts.h"

namespace earl::query {

namespace {

// The first position whose event is at `seconds` or later (size + 1 if none): events
// are numbered in time order, so a binary search visits log2(size) of them.
Position first_at_or_after(EventTrace& trace, double seconds, const ProgressCallback& progress) {
  Position lo = 1, hi = trace.size() + 1;
  while (lo < hi) {
    Position mid = lo + (hi - lo) / 2;
    if (trace.event(static_cast<std::int64_t>(mid), progress).time < seconds) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

Position first_after(EventTrace& trace, double seconds, const ProgressCallback& progress) {
  Position lo = 1, hi = trace.size() + 1;
  while (lo < hi) {
    Position mid = lo + (hi - lo) / 2;
    if (trace.event(static_cast<std::int64_t>(mid), progress).time <= seconds) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

}  // namespace

Bound parse_bound(const std::string& text, const std::string& option) {
  Bound bound;
  const char* start = text.c_str();
  char* end = nullptr;
  if (!text.empty() && std::isdigit(static_cast<unsigned char>(text[0])) &&
      text.find_first_not_of("0123456789") == std::string::npos) {
    errno = 0;
    unsigned long long value = std::strtoull(start, &end, 10);
    if (errno == 0) {
      bound.kind = Bound::Kind::Position;
      bound.position = value;
      return bound;
    }
  } else if (!text.empty() && (std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '.')) {
    double value = std::strtod(start, &end);
    std::string unit(end);
    static const struct { const char* name; double scale; } units[] = {
        {"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}};
    for (const auto& u : units) {
      if (unit == u.name && std::isfinite(value)) {
        bound.kind = Bound::Kind::Time;
        bound.seconds = value * u.scale;
        return bound;
      }
    }
  }
  throw EarlError(option + " " + text + ": expected a position (an integer, e.g. 1000) or a time with " +
                  "its unit (e.g. 1.5s, 250ms, 10us, 100ns)");
}

Selection::Selection(EventTrace& trace, const std::string& expression, Language language, Bound from,
                     Bound to, std::vector<Location> locations) {
  bool blank = expression.find_first_not_of(" \t\r\n") == std::string::npos;
  if (blank) {
    Node everything;
    everything.kind = Node::Kind::And;  // of nothing: true
    predicate_.emplace(everything, trace.definitions());
  } else {
    Parsed parsed = parse_conjuncts(expression, language);
    if (parsed.native || parsed.partial) predicate_.emplace(parsed.tree, trace.definitions());
    if (!parsed.native) {
      partial_ = parsed.partial;
      rest_ = parsed.partial ? parsed.rest : expression;
      reason_ = parsed.reason;
      line_ = parsed.line;
      column_ = parsed.column;
    }
  }
  const Position size = trace.size();
  first_ = 1;
  last_ = size;
  if (from.kind == Bound::Kind::Position) first_ = std::max<Position>(from.position, 1);
  if (from.kind == Bound::Kind::Time) first_ = first_at_or_after(trace, from.seconds, {});
  if (to.kind == Bound::Kind::Position) last_ = std::min<Position>(to.position, size);
  if (to.kind == Bound::Kind::Time) last_ = first_after(trace, to.seconds, {}) - 1;
  next_ = first_;
  for (Location loc : locations) {
    if (loc < 0 || loc >= trace.nrlocs())
      throw EarlError("location " + std::to_string(loc) + " is not in this trace (it has " +
                      std::to_string(trace.nrlocs()) + ": 0.." + std::to_string(trace.nrlocs() - 1) + ")");
    if (locations_.empty()) locations_.assign(static_cast<std::size_t>(trace.nrlocs()), false);
    locations_[static_cast<std::size_t>(loc)] = true;
  }
}

std::vector<Position> Selection::batch(EventTrace& trace, std::size_t scan, const ProgressCallback& progress) {
  std::vector<Position> found;
  for (std::size_t scanned = 0; next_ <= last_ && scanned < scan; ++scanned) {
    const Event& e = trace.event(static_cast<std::int64_t>(next_), progress);
    bool wanted = locations_.empty() ||
                  (e.loc >= 0 && static_cast<std::size_t>(e.loc) < locations_.size() &&
                   locations_[static_cast<std::size_t>(e.loc)]);
    if (wanted && predicate_) {
      if (predicate_->uses_duration() && is_exit(e.kind) && e.enterptr != 0) {
        const Event exit = e;  // the enter's read may move the history under `e`
        double enter_time = trace.event(static_cast<std::int64_t>(exit.enterptr), progress).time;
        wanted = (*predicate_)(exit, exit.time - enter_time);
      } else {
        wanted = (*predicate_)(e);
      }
    }
    if (wanted) found.push_back(next_);
    ++next_;
  }
  return found;
}

}  // namespace earl::query
