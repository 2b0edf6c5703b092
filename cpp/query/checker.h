#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "model/message_channel.h"
#include "query/expression.h"
#include "query/predicate.h"
#include "trace/event_trace.h"

namespace earl::query {

// One finding of `earl check`: what (kind), where (position 0: no one event, e.g. a
// damaged location), and a sentence. rule: the index of the user rule, -1 for a standard
// check.
struct Violation {
  std::string kind;
  Position pos = 0;
  Location loc = -1;
  double time = 0;
  std::string message;
  std::int64_t rule = -1;
};

// A user assertion: where `when` holds (empty: every event), `assertion` must hold.
struct Rule {
  std::string name;
  std::string when;
  std::string assertion;
  Language language = Language::Python;
};

// The standard checks of a trace (CHECKTRACE and VARUS: docs/cli.md, "earl check") and
// the user's rules, in one pass in position order. An exit closes the innermost open
// instance of its location (as the state's enterptr); messages pair by MPI's
// non-overtaking rule, the k-th receive of a channel with its k-th send (as the time
// checks pair them: the state's sendptr, the oldest queued send, differs from it once a
// receive came before its send). The checker keeps what a violation needs to be told:
// open instances' regions and times, each channel's unpaired messages, open collective
// instances.
class Checker {
 public:
  // EarlError "rule N (NAME): when|assert: line L, column C: ..." for an attribute no
  // event has.
  Checker(EventTrace& trace, std::vector<Rule> rules);

  // Whether the core tests a rule part (when, assertion) itself; where not, its language
  // must test `rest`, and line and column say where the common subset ended. `partial`:
  // the core tests the part's top-level `and` operands in the subset (parse_conjuncts),
  // and `rest` is the part with them written as true.
  struct Part {
    bool native = true;
    std::string reason;
    int line = 0, column = 0;
    bool partial = false;
    std::string rest;
  };
  struct Fallback {
    Part when, assertion;
  };
  const std::vector<Fallback>& fallbacks() const { return fallbacks_; }

  // An event the language of rule `rule` must test (its when, if not native, then its
  // assertion): a violation of the rule where the assertion fails. `fails`: the core
  // found the assertion false (it is native, or a native operand of its `and` is false);
  // where the assertion is native and `fails` false, it holds: only the when is left.
  struct Pending {
    std::size_t rule;
    Position pos;
    bool fails = false;
  };

  // Checks at most `scan` further events, adding what it finds.
  void batch(EventTrace& trace, std::size_t scan, std::vector<Violation>& found,
             std::vector<Pending>& pending);
  bool done() const { return next_ > last_; }
  // After the last batch: what only the end tells (unclosed instances, unreceived sends,
  // incomplete collectives, damaged locations). Call once.
  void finish(EventTrace& trace, std::vector<Violation>& found);

 private:
  struct Open {
    Position pos;
    SymbolId region;
    double time;
  };
  struct Message {
    Position pos;
    Location loc;
    double time;
    Location peer;
    std::int64_t tag, com;
  };
  struct CollectiveExit {
    Position pos;
    Location loc;
    double time;
    bool n_to_n;
  };
  struct Instance {
    double latest_enter = -1e308;
    std::vector<CollectiveExit> exits;
  };
  struct Communicator {
    std::deque<Instance> open;  // instances first .. first + open.size() - 1
    std::uint64_t first = 0;
    std::unordered_map<Location, std::uint64_t> next;  // per location: its next instance
    std::optional<std::vector<Location>> members;       // unknown where the trace names none
  };

  void check(EventTrace& trace, const Event& e, std::vector<Violation>& found,
             std::vector<Pending>& pending);
  void check_exit(EventTrace& trace, const Event& e, double enter_time, std::vector<Violation>& found);
  void check_message(const Event& e, std::vector<Violation>& found);
  void settle(Communicator& c, bool at_end, std::int64_t com, std::vector<Violation>& found);
  std::string region_name(EventTrace& trace, SymbolId region) const;

  std::vector<Rule> rules_;
  std::vector<std::optional<Predicate>> when_, assertion_;
  std::vector<Fallback> fallbacks_;
  Position next_ = 1, last_ = 0;
  std::vector<double> last_time_;           // per location
  std::vector<Position> last_pos_;          // per location
  std::vector<std::vector<Open>> stacks_;   // per location
  // Per channel, its unpaired events: all sends or all receives (`receives`), oldest first.
  struct Unpaired {
    bool receives = false;
    std::deque<Message> events;
  };
  std::unordered_map<MessageChannel, Unpaired, MessageChannelHash> channels_;
  std::map<std::int64_t, Communicator> collectives_;
};

}  // namespace earl::query
