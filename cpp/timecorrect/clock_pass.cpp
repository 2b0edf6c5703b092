#include "timecorrect/clock_pass.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <iomanip>
#include <sstream>
#include <string>
#include <limits>
#include <unordered_map>
#include <vector>

#include "model/message_channel.h"
#include "model/error.h"

namespace earl {

namespace {

constexpr std::uint64_t kProgressEvery = 1 << 16;
constexpr double kNoBound = -std::numeric_limits<double>::infinity();

std::uint64_t mix(std::uint64_t h, std::uint64_t v) { return (h ^ v) * 0x9E3779B97F4A7C15ULL; }

// What the pass keeps of an event that has to wait.
struct Pending {
  std::uint64_t ordinal;
  double time;
  std::int64_t tag, com;
  Location peer;
  EventKind kind;
};

using Channel = MessageChannel;
// A send not yet paired: the bound it sets, and where it is (for backward amortisation).
struct SentMessage {
  double bound;  // corrected send + min_latency
  std::uint64_t ordinal;
  double time;
};
struct ChannelState {
  std::deque<SentMessage> sends;
  std::uint64_t skip = 0;     // sends whose receive went on without them
  bool waiting = false;       // the destination waits at a receive of this channel
};

struct InstanceKey {
  std::int64_t com;
  std::uint64_t number;
  bool operator==(const InstanceKey& o) const { return com == o.com && number == o.number; }
};
struct InstanceHash {
  std::size_t operator()(const InstanceKey& k) const {
    std::uint64_t h = mix(static_cast<std::uint64_t>(k.com), k.number);
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};
struct OpenEnter {
  double corrected, time;
  std::uint64_t ordinal;
};
struct MemberEnter {
  Location loc;
  OpenEnter enter;
};
struct Instance {
  InstanceKey key{0, 0};
  double latest_enter = kNoBound;
  double earliest_exit = std::numeric_limits<double>::infinity();
  std::vector<MemberEnter> members;
  std::uint32_t size = 0;  // members; 0: the trace does not say
  std::uint32_t arrived = 0, done = 0;
  bool released = false;  // given up waiting for the missing members
  std::vector<Location> waiting;
};

// How far backward amortisation may move an event of a location (see resolve()).
struct Constraint {
  std::uint64_t ordinal;
  double time;
  double allowed;  // the largest shift it may get
};

struct LocationClock {
  std::vector<Pending> queue;  // queue[head..]: events waiting behind queue[head]
  std::size_t head = 0;
  std::vector<OpenEnter> enters;
  bool blocked = false;
  bool has_bound = false;  // the send of the waiting receive arrived:
  SentMessage bound_send{kNoBound, 0, 0.0};
  // Constraints of this location's sends and collective enters that are known, oldest
  // first, at most kMaxConstraints; no ramp reaches back to `floor` (the newest dropped).
  std::vector<Constraint> constraints;
  std::size_t constraints_head = 0;
  double floor = kNoBound;
  bool backwards = false;  // its recorded time went backwards once: no more ramps
  bool seen = false;
  double last_time = 0.0;
  bool listed = false;  // scratch of ClockPass::compact_blocked
  bool arrived = false;    // the waiting collective exit joined its instance
  InstanceKey instance{0, 0};

  bool empty() const { return head == queue.size(); }
  const Pending& front() const { return queue[head]; }
  void pop() {
    if (++head == queue.size()) {
      queue.clear();
      head = 0;
    }
  }
};

class ClockPass {
 public:
  ClockPass(const Definitions& definitions, const ClockCorrectionOptions& options)
      : definitions_(definitions),
        corrections_(std::make_unique<ClockCorrections>(options)),
        min_latency_(options.min_latency),
        backward_(options.backward) {}

  void add(const Event& event, std::uint64_t ordinal) {
    if (event.loc < 0) return;
    const auto l = static_cast<std::size_t>(event.loc);
    if (clocks_.size() <= l) clocks_.resize(l + 1);
    if (!clocks_[l]) clocks_[l] = std::make_unique<LocationClock>();
    const Pending p{ordinal, event.time, event.tag, event.com, event.peer, event.kind};
    LocationClock& c = *clocks_[l];
    if (c.blocked) {
      c.queue.push_back(p);
      if (++queued_ > kMaxQueued) {
        release_oldest();
        drain();
      }
      return;
    }
    if (!step(event.loc, p)) {
      c.queue.push_back(p);
      ++queued_;
      block(event.loc, c);
    }
    drain();
  }

  std::unique_ptr<ClockCorrections> finish() {
    while (release_oldest()) drain();
    // Instances some member never left: their enters stay where they are.
    for (auto& [key, instance] : instances_)
      for (const MemberEnter& m : instance.members)
        resolve(m.loc, m.enter.ordinal, m.enter.time, m.enter.corrected - m.enter.time);
    corrections_->finish();
    return std::move(corrections_);
  }

 private:
  // Takes event p of location l: false when it has to wait (l is then blocked at it).
  bool step(Location l, const Pending& p) {
    LocationClock& c = *clocks_[static_cast<std::size_t>(l)];
    const bool wild = definitions_.outside_declared_span(p.time);
    double corrected = wild ? p.time : corrections_->forward(corrections_->latest(l), p.time);
    double bound = kNoBound;
    SentMessage from{kNoBound, 0, 0.0};
    Instance* instance = nullptr;
    switch (p.kind) {
      case EventKind::Send:
        if (p.peer >= 0) send(l, p, wild ? kNoBound : corrected + min_latency_, corrected);
        break;
      case EventKind::Recv:
        if (p.peer < 0) break;
        if (c.has_bound) {
          from = c.bound_send;
          c.has_bound = false;
        } else {
          ChannelState& channel = channels_[Channel{p.peer, l, p.tag, p.com}];
          if (channel.sends.empty()) {
            channel.waiting = true;
            return false;
          }
          from = channel.sends.front();
          channel.sends.pop_front();
        }
        bound = from.bound;
        break;
      case EventKind::Enter:
        c.enters.push_back(OpenEnter{corrected, p.time, p.ordinal});
        break;
      case EventKind::Exit:
        if (!c.enters.empty()) c.enters.pop_back();
        break;
      case EventKind::CollectiveExit:
        if (c.enters.empty()) break;  // no enter: no member (as the time checks count)
        if (p.peer == -1) {
          instance = collective(l, c, p);
          if (!instance) return false;
          bound = instance->latest_enter;
        }
        c.enters.pop_back();
        break;
      default:
        break;
    }
    if (!wild) {
      if (c.seen && p.time < c.last_time) c.backwards = true;
      c.seen = true;
      c.last_time = p.time;
      if (corrected < bound) {
        corrected = corrections_->add_jump(l, p.ordinal, p.time, bound);
        limit_new_ramp(l, c);
      }
    }
    // What this event's corrected time now allows the events that bound it.
    if (from.bound != kNoBound)
      resolve(p.peer, from.ordinal, from.time, corrected - min_latency_ - from.time);
    if (instance) finish_member(*instance, wild ? p.time : corrected);
    return true;
  }

  void send(Location l, const Pending& p, double bound, double corrected) {
    ChannelState& channel = channels_[Channel{l, p.peer, p.tag, p.com}];
    const SentMessage sent{bound, p.ordinal, p.time};
    if (channel.skip > 0) {
      // Its receive went on without it: it stays where the forward pass put it.
      --channel.skip;
      resolve(l, p.ordinal, p.time, corrected - p.time);
      return;
    }
    if (channel.waiting) {
      channel.waiting = false;
      LocationClock& receiver = *clocks_[static_cast<std::size_t>(p.peer)];
      receiver.bound_send = sent;
      receiver.has_bound = true;
      unblock(p.peer);
      return;
    }
    channel.sends.push_back(sent);
  }

  // Backward amortisation: a ramp ending at a jump of `loc` may lift an event c before it
  // by at most `allowed` (its receive's corrected time - min_latency - c's time, or the
  // earliest exit of its collective instance - c's time). Applied to the jumps after c
  // that exist, and kept for those to come.
  void resolve(Location loc, std::uint64_t ordinal, double time, double allowed) {
    if (!backward_ || loc < 0) return;
    // The ramp is evaluated by other arithmetic than this bound: keep a few ulps away.
    allowed -= 16 * std::numeric_limits<double>::epsilon() * (std::fabs(time) + std::fabs(allowed));
    LocationClock& c = *clocks_[static_cast<std::size_t>(loc)];
    const double d = corrections_->decay();
    if (static_cast<std::size_t>(loc) < jump_lists_) {
      std::vector<ClockJump>& jumps = corrections_->jumps_of(loc);
      for (auto j = jumps.rbegin(); j != jumps.rend() && j->ordinal > ordinal; ++j)
        j->back = std::min(j->back, allowed + d * (j->time - time));
    }
    c.constraints.push_back(Constraint{ordinal, time, allowed});
    if (c.constraints.size() - c.constraints_head > kMaxConstraints) {
      c.floor = std::max(c.floor, c.constraints[c.constraints_head].time);
      if (++c.constraints_head * 2 > c.constraints.size()) {
        c.constraints.erase(c.constraints.begin(), c.constraints.begin() + static_cast<std::ptrdiff_t>(c.constraints_head));
        c.constraints_head = 0;
      }
    }
  }

  // A new jump's ramp under the constraints known so far (those still unknown lower it
  // when they become known, in resolve()).
  void limit_new_ramp(Location l, LocationClock& c) {
    if (!backward_) return;
    jump_lists_ = std::max(jump_lists_, static_cast<std::size_t>(l) + 1);
    ClockJump& jump = corrections_->jumps_of(l).back();
    if (c.backwards) {
      jump.back = 0.0;
      return;
    }
    const double d = corrections_->decay();
    if (c.floor != kNoBound) jump.back = std::min(jump.back, d * (jump.time - c.floor));
    for (std::size_t i = c.constraints.size(); i-- > c.constraints_head;) {
      const Constraint& k = c.constraints[i];
      if (jump.shift - d * (jump.time - k.time) <= 0.0) break;  // before the ramp's foot
      jump.back = std::min(jump.back, k.allowed + d * (jump.time - k.time));
    }
  }

  // The exit of an N-to-N collective: its instance once every member arrived (bound by
  // the latest enter), nullptr while it waits.
  Instance* collective(Location l, LocationClock& c, const Pending& p) {
    if (!c.arrived) {
      const InstanceKey key{p.com, next_instance_[InstanceKey{p.com, static_cast<std::uint64_t>(l)}]++};
      Instance& instance = instances_[key];
      if (instance.arrived == 0) {
        instance.key = key;
        auto size = definitions_.communicator_sizes.find(p.com);
        if (size != definitions_.communicator_sizes.end()) instance.size = size->second;
      }
      const OpenEnter& enter = c.enters.back();
      if (!definitions_.outside_declared_span(enter.time)) {
        instance.latest_enter = std::max(instance.latest_enter, enter.corrected);
        if (instance.size != 0)
          instance.members.push_back(MemberEnter{l, enter});
        else  // members unknown: its enter stays where the forward pass put it
          resolve(l, enter.ordinal, enter.time, enter.corrected - enter.time);
      }
      ++instance.arrived;
      c.arrived = true;
      c.instance = key;
      if (instance.size != 0 && instance.arrived < instance.size && !instance.released) {
        instance.waiting.push_back(l);
        return nullptr;
      }
      for (Location member : instance.waiting) unblock(member);
      instance.waiting.clear();
    }
    c.arrived = false;
    return &instances_.find(c.instance)->second;
  }

  // After a member's exit took its corrected time: once all have, the enters may move up
  // to the earliest exit.
  void finish_member(Instance& instance, double exit) {
    instance.earliest_exit = std::min(instance.earliest_exit, exit);
    if (instance.size == 0 || ++instance.done < instance.size) return;
    for (const MemberEnter& m : instance.members)
      resolve(m.loc, m.enter.ordinal, m.enter.time, instance.earliest_exit - m.enter.time);
    instances_.erase(instance.key);  // last: `instance` is gone
  }

  void unblock(Location l) { ready_.push_back(l); }

  void block(Location l, LocationClock& c) {
    c.blocked = true;
    blocked_.push_back(l);
    if (blocked_.size() >= 2 * compacted_size_ + 1024) compact_blocked();
  }

  // Drops the locations that went on since they blocked (and repeats).
  void compact_blocked() {
    std::size_t kept = 0;
    for (Location l : blocked_) {
      LocationClock& c = *clocks_[static_cast<std::size_t>(l)];
      if (!c.blocked || c.listed) continue;
      c.listed = true;
      blocked_[kept++] = l;
    }
    blocked_.resize(kept);
    for (Location l : blocked_) clocks_[static_cast<std::size_t>(l)]->listed = false;
    compacted_size_ = kept;
  }

  void drain() {
    while (!ready_.empty()) {
      const Location l = ready_.back();
      ready_.pop_back();
      LocationClock& c = *clocks_[static_cast<std::size_t>(l)];
      c.blocked = false;
      while (!c.empty()) {
        if (!step(l, c.front())) {
          block(l, c);
          break;
        }
        c.pop();
        --queued_;
      }
    }
  }

  // The location waiting at the oldest event goes on without its bound.
  bool release_oldest() {
    compact_blocked();
    Location oldest = -1;
    for (Location l : blocked_)
      if (oldest < 0 || clocks_[static_cast<std::size_t>(l)]->front().ordinal <
                            clocks_[static_cast<std::size_t>(oldest)]->front().ordinal)
        oldest = l;
    if (oldest < 0) return false;
    LocationClock& c = *clocks_[static_cast<std::size_t>(oldest)];
    const Pending& p = c.front();
    const Location l = oldest;
    if (p.kind == EventKind::Recv) {
      ChannelState& channel = channels_[Channel{p.peer, l, p.tag, p.com}];
      channel.waiting = false;
      ++channel.skip;  // its send, should it come, pairs with this receive
      c.bound_send = SentMessage{kNoBound, 0, 0.0};
      c.has_bound = true;
      unblock(l);
    } else {
      Instance& instance = instances_[c.instance];
      instance.released = true;
      for (Location member : instance.waiting) unblock(member);
      instance.waiting.clear();
    }
    return true;
  }

  const Definitions& definitions_;
  std::unique_ptr<ClockCorrections> corrections_;
  double min_latency_;
  bool backward_;
  std::size_t jump_lists_ = 0;  // locations that may have jumps
  std::vector<std::unique_ptr<LocationClock>> clocks_;  // of the locations seen
  std::vector<Location> blocked_;  // locations that blocked (some may have gone on since)
  std::size_t compacted_size_ = 0;
  std::unordered_map<Channel, ChannelState, MessageChannelHash> channels_;
  std::unordered_map<InstanceKey, Instance, InstanceHash> instances_;
  // (com, location) -> the number of that location's next instance on com.
  std::unordered_map<InstanceKey, std::uint64_t, InstanceHash> next_instance_;
  std::vector<Location> ready_;  // unblocked, to be drained
  std::size_t queued_ = 0;
};

// The recorded times a trace spans (wild timestamps aside), and whether it has a message
// that min_latency would bound. A latency beyond the whole span is no latency the run can
// have had: each message hop would add it again, and a chain of hops reaches infinity
// (min_latency=1e308 made most corrected times inf), so it is refused, naming the argument.
struct RecordedSpan {
  double first = std::numeric_limits<double>::infinity();
  double last = -std::numeric_limits<double>::infinity();
  bool messages = false;

  void add(const Event& event, const Definitions& definitions) {
    if (definitions.outside_declared_span(event.time) || !std::isfinite(event.time)) return;
    first = std::min(first, event.time);
    last = std::max(last, event.time);
    if (event.kind == EventKind::Send && event.peer >= 0) messages = true;
  }
  void check(double min_latency) const {
    if (!messages || min_latency == 0.0) return;
    const double span = last - first;
    if (min_latency > span)
      throw EarlError("min_latency must not exceed the trace's recorded span of " + seconds_text(span) +
                      " s, got " + seconds_text(min_latency));
  }
  static std::string seconds_text(double s) {
    std::ostringstream out;
    out << std::setprecision(17) << s;
    return out.str();
  }
};

}  // namespace

std::unique_ptr<ClockCorrections> correct_clocks(TraceDecoder& decoder,
                                                 const ClockCorrectionOptions& options,
                                                 const std::function<bool(double)>& progress) {
  options.validate();
  return read_from_start(decoder, [&] {
    ClockPass pass(decoder.definitions(), options);
    Event event;
    std::uint64_t ordinal = 0;
    RecordedSpan span;
    while (decoder.read(event)) {
      pass.add(event, ++ordinal);
      span.add(event, decoder.definitions());
      if (ordinal % kProgressEvery == 0 && progress && !progress(decoder.progress()))
        throw Interrupted();
    }
    span.check(options.min_latency);
    return pass.finish();
  });
}

}  // namespace earl
