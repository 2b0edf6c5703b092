#include "query/checker.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "model/error.h"
#include "query/conjuncts.h"

namespace earl::query {

namespace {

std::string seconds(double t) {
  std::ostringstream out;
  out.precision(9);
  out << std::fixed << t << " s";
  return out.str();
}

// Instances a communicator keeps open (waiting for members, or for ever where the trace
// names none) before the oldest is told as at the end: memory stays bounded.
constexpr std::size_t kMaxOpenInstances = 4096;

}  // namespace

Checker::Checker(EventTrace& trace, std::vector<Rule> rules) : rules_(std::move(rules)) {
  last_ = trace.size();
  for (std::size_t r = 0; r < rules_.size(); ++r) {
    const Rule& rule = rules_[r];
    Fallback fallback;
    auto part = [&](const std::string& text, const char* what, Part& told) {
      std::optional<Predicate> predicate;
      if (text.find_first_not_of(" \t\r\n") == std::string::npos) return predicate;
      Parsed parsed = parse_conjuncts(text, rule.language);
      if (!parsed.native) told = Part{false, parsed.reason, parsed.line, parsed.column, parsed.partial,
                                      parsed.partial ? parsed.rest : text};
      if (!parsed.native && !parsed.partial) return predicate;
      try {
        predicate.emplace(parsed.tree, trace.definitions());
      } catch (const EarlError& error) {
        throw EarlError("rule " + std::to_string(r + 1) + " (" + rule.name + "): " + what + ": " + error.what());
      }
      return predicate;
    };
    if (rule.assertion.find_first_not_of(" \t\r\n") == std::string::npos)
      throw EarlError("rule " + std::to_string(r + 1) + " (" + rule.name + "): assert: an empty expression");
    when_.push_back(part(rule.when, "when", fallback.when));
    assertion_.push_back(part(rule.assertion, "assert", fallback.assertion));
    fallbacks_.push_back(fallback);
  }
}

std::string Checker::region_name(EventTrace& trace, SymbolId region) const {
  const SymbolTable& regions = trace.definitions().regions;
  return region < regions.size() ? regions.name(region) : "region " + std::to_string(region);
}

void Checker::batch(EventTrace& trace, std::size_t scan, std::vector<Violation>& found,
                    std::vector<Pending>& pending) {
  for (std::size_t scanned = 0; next_ <= last_ && scanned < scan; ++scanned, ++next_)
    check(trace, trace.event(static_cast<std::int64_t>(next_)), found, pending);
}

void Checker::check(EventTrace& trace, const Event& e, std::vector<Violation>& found,
                    std::vector<Pending>& pending) {
  auto violation = [&](const char* kind, std::string message) {
    found.push_back(Violation{kind, e.pos, e.loc, e.time, std::move(message), -1});
  };
  double duration = Predicate::kNoDuration;
  if (e.flags & kUnresolvedReference)
    violation("unresolved_reference", "the record refers to something the trace does not define (a region, "
                                      "communicator or rank)");
  if (e.loc >= 0) {
    const auto loc = static_cast<std::size_t>(e.loc);
    if (loc >= stacks_.size()) {
      stacks_.resize(loc + 1);
      last_time_.resize(loc + 1, 0.0);
      last_pos_.resize(loc + 1, 0);
    }
    if (last_pos_[loc] != 0 && e.time < last_time_[loc])
      violation("time_order", "time goes back on location " + std::to_string(e.loc) + ": " + seconds(e.time) +
                                  " after " + seconds(last_time_[loc]) + " at event " + std::to_string(last_pos_[loc]));
    last_time_[loc] = e.time;
    last_pos_[loc] = e.pos;
    std::vector<Open>& stack = stacks_[loc];
    if (e.kind == EventKind::Enter) {
      stack.push_back(Open{e.pos, e.region, e.time});
    } else if (is_exit(e.kind)) {
      if (stack.empty()) {
        violation("exit_without_enter", "exit of " + region_name(trace, e.region) + " with no region open on location " +
                                            std::to_string(e.loc));
      } else {
        Open enter = stack.back();
        stack.pop_back();
        duration = e.time - enter.time;
        if (enter.region != e.region)
          violation("mismatched_exit", "exit of " + region_name(trace, e.region) + " closes " +
                                           region_name(trace, enter.region) + " entered at event " +
                                           std::to_string(enter.pos));
        if (e.kind == EventKind::CollectiveExit) check_exit(trace, e, enter.time, found);
      }
    }
  }
  if (e.kind == EventKind::Send || e.kind == EventKind::Recv) check_message(e, found);
  for (std::size_t r = 0; r < rules_.size(); ++r) {
    // a predicate of a part that is partial tests its native operands: false is final
    if (when_[r] && !(*when_[r])(e, duration)) continue;
    const bool fails = assertion_[r] && !(*assertion_[r])(e, duration);
    const bool decided = fallbacks_[r].assertion.native || fails;
    if (!fallbacks_[r].when.native || !decided) {
      pending.push_back(Pending{r, e.pos, fails});
    } else if (fails) {
      found.push_back(Violation{"rule", e.pos, e.loc, e.time,
                                "rule " + rules_[r].name + ": " + rules_[r].assertion + " is false",
                                static_cast<std::int64_t>(r)});
    }
  }
}

void Checker::check_message(const Event& e, std::vector<Violation>& found) {
  const bool receive = e.kind == EventKind::Recv;
  const MessageChannel key = receive ? MessageChannel{e.peer, e.loc, e.tag, e.com}
                                     : MessageChannel{e.loc, e.peer, e.tag, e.com};
  const Message message{e.pos, e.loc, e.time, e.peer, e.tag, e.com};
  auto entry = channels_.try_emplace(key).first;
  Unpaired& channel = entry->second;
  if (channel.events.empty() || channel.receives == receive) {
    channel.receives = receive;
    channel.events.push_back(message);
    return;
  }
  const Message partner = channel.events.front();
  channel.events.pop_front();
  if (channel.events.empty()) channels_.erase(entry);
  const Message& recv = receive ? message : partner;
  const Message& send = receive ? partner : message;
  if (recv.time < send.time)
    found.push_back(Violation{"clock_condition", recv.pos, recv.loc, recv.time,
                              "receive at " + seconds(recv.time) + " before its send (event " +
                                  std::to_string(send.pos) + " at " + seconds(send.time) + ")",
                              -1});
}

void Checker::check_exit(EventTrace& trace, const Event& e, double enter_time, std::vector<Violation>& found) {
  auto [entry, added] = collectives_.try_emplace(e.com);
  Communicator& c = entry->second;
  if (added) {
    try {
      c.members = trace.ranks(e.com);
    } catch (const EarlError&) {
      // the trace names no ranks of it: completeness cannot be told, the clock can
    }
  }
  std::uint64_t index = c.next[e.loc]++;
  if (index < c.first) return;  // beyond the instances its members all completed
  while (c.open.size() <= index - c.first) c.open.emplace_back();
  Instance& instance = c.open[index - c.first];
  instance.latest_enter = std::max(instance.latest_enter, enter_time);
  instance.exits.push_back(CollectiveExit{e.pos, e.loc, e.time, e.peer == -1});
  settle(c, false, e.com, found);
}

void Checker::settle(Communicator& c, bool at_end, std::int64_t com, std::vector<Violation>& found) {
  while (!c.open.empty()) {
    Instance& instance = c.open.front();
    bool complete = c.members && instance.exits.size() >= c.members->size();
    // An instance still open behind kMaxOpenInstances others is told now, as at the end.
    bool given_up = at_end || c.open.size() > kMaxOpenInstances;
    if (!complete && !given_up) return;
    for (const CollectiveExit& exit : instance.exits)
      if (exit.n_to_n && exit.time < instance.latest_enter)
        found.push_back(Violation{"clock_condition", exit.pos, exit.loc, exit.time,
                                  "collective exit at " + seconds(exit.time) + " before the last enter of its " +
                                      "instance on communicator " + std::to_string(com) + " (" +
                                      seconds(instance.latest_enter) + ")",
                                  -1});
    if (given_up && c.members && !complete && !instance.exits.empty()) {
      std::string missing;
      for (Location member : *c.members) {
        bool took_part = std::any_of(instance.exits.begin(), instance.exits.end(),
                                     [&](const CollectiveExit& x) { return x.loc == member; });
        if (!took_part) missing += (missing.empty() ? "" : ",") + std::to_string(member);
      }
      const CollectiveExit& first = instance.exits.front();
      found.push_back(Violation{"incomplete_collective", first.pos, first.loc, first.time,
                                "collective " + std::to_string(c.first + 1) + " on communicator " +
                                    std::to_string(com) + ": location(s) " + missing + " of its " +
                                    std::to_string(c.members->size()) + " never took part",
                                -1});
    }
    c.open.pop_front();
    ++c.first;
  }
}

void Checker::finish(EventTrace& trace, std::vector<Violation>& found) {
  for (std::size_t loc = 0; loc < stacks_.size(); ++loc)
    for (const Open& open : stacks_[loc])
      found.push_back(Violation{"unclosed_region", open.pos, static_cast<Location>(loc), open.time,
                                region_name(trace, open.region) + " entered here is never exited", -1});
  for (const auto& [key, channel] : channels_) {
    for (const Message& m : channel.events) {
      const std::string on = " (tag " + std::to_string(m.tag) + ", com " + std::to_string(m.com) + ")";
      if (channel.receives)
        found.push_back(Violation{"unmatched_recv", m.pos, m.loc, m.time,
                                  "receive from " + std::to_string(m.peer) + on + " matches no send", -1});
      else
        found.push_back(Violation{"unreceived_send", m.pos, m.loc, m.time,
                                  "send to " + std::to_string(m.peer) + on + " is never received", -1});
    }
  }
  for (auto& [com, c] : collectives_) settle(c, true, com, found);
  for (const StreamDamage& damage : trace.problems().damaged)
    found.push_back(Violation{"damaged", 0, damage.loc, 0.0, damage.message, -1});
}

}  // namespace earl::query
