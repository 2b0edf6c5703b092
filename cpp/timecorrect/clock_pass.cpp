#include "timecorrect/clock_pass.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <unordered_map>
#include <vector>

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

struct Channel {
  Location src, dest;
  std::int64_t tag, com;
  bool operator==(const Channel& o) const {
    return src == o.src && dest == o.dest && tag == o.tag && com == o.com;
  }
};
struct ChannelHash {
  std::size_t operator()(const Channel& c) const {
    std::uint64_t h = mix(mix(mix(static_cast<std::uint32_t>(c.src), static_cast<std::uint32_t>(c.dest)),
                              static_cast<std::uint64_t>(c.tag)), static_cast<std::uint64_t>(c.com));
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};
struct ChannelState {
  std::deque<double> bounds;  // of sends not yet paired: corrected send + min_latency
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
struct Instance {
  double latest_enter = kNoBound;
  std::uint32_t size = 0;  // members; 0: the trace does not say
  std::uint32_t arrived = 0, done = 0;
  bool released = false;  // given up waiting for the missing members
  std::vector<Location> waiting;
};

struct LocationClock {
  std::vector<Pending> queue;  // queue[head..]: events waiting behind queue[head]
  std::size_t head = 0;
  std::vector<double> enters;  // corrected times of the open enters
  bool blocked = false;
  bool has_bound = false;  // the bound of the waiting receive arrived
  double bound = kNoBound;
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
        min_latency_(options.min_latency) {}

  void add(const Event& event, std::uint64_t ordinal) {
    if (event.loc < 0) return;
    const auto l = static_cast<std::size_t>(event.loc);
    if (clocks_.size() <= l) clocks_.resize(l + 1);
    const Pending p{ordinal, event.time, event.tag, event.com, event.peer, event.kind};
    LocationClock& c = clocks_[l];
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
      c.blocked = true;
    }
    drain();
  }

  std::unique_ptr<ClockCorrections> finish() {
    while (release_oldest()) drain();
    return std::move(corrections_);
  }

 private:
  // Takes event p of location l: false when it has to wait (l is then blocked at it).
  bool step(Location l, const Pending& p) {
    LocationClock& c = clocks_[static_cast<std::size_t>(l)];
    const bool wild = definitions_.outside_declared_span(p.time);
    const double corrected = wild ? p.time : corrections_->apply(corrections_->latest(l), p.time);
    double bound = kNoBound;
    switch (p.kind) {
      case EventKind::Send:
        if (p.peer >= 0) send(l, p, wild ? kNoBound : corrected + min_latency_);
        break;
      case EventKind::Recv:
        if (p.peer < 0) break;
        if (c.has_bound) {
          bound = c.bound;
          c.has_bound = false;
        } else {
          ChannelState& channel = channels_[Channel{p.peer, l, p.tag, p.com}];
          if (channel.bounds.empty()) {
            channel.waiting = true;
            return false;
          }
          bound = channel.bounds.front();
          channel.bounds.pop_front();
        }
        break;
      case EventKind::Enter:
        c.enters.push_back(corrected);
        break;
      case EventKind::Exit:
        if (!c.enters.empty()) c.enters.pop_back();
        break;
      case EventKind::CollectiveExit:
        if (c.enters.empty()) break;  // no enter: no member (as the time checks count)
        if (p.peer == -1 && !collective(l, c, p, bound)) return false;
        c.enters.pop_back();
        break;
      default:
        break;
    }
    if (!wild && corrected < bound) corrections_->add_jump(l, p.ordinal, p.time, bound);
    return true;
  }

  void send(Location l, const Pending& p, double bound) {
    ChannelState& channel = channels_[Channel{l, p.peer, p.tag, p.com}];
    if (channel.skip > 0) {
      --channel.skip;
      return;
    }
    if (channel.waiting) {
      channel.waiting = false;
      LocationClock& receiver = clocks_[static_cast<std::size_t>(p.peer)];
      receiver.bound = bound;
      receiver.has_bound = true;
      unblock(p.peer);
      return;
    }
    channel.bounds.push_back(bound);
  }

  // The exit of an N-to-N collective: bound by the latest enter of its instance, known
  // once every member arrived.
  bool collective(Location l, LocationClock& c, const Pending& p, double& bound) {
    if (!c.arrived) {
      const InstanceKey key{p.com, next_instance_[InstanceKey{p.com, static_cast<std::uint64_t>(l)}]++};
      Instance& instance = instances_[key];
      if (instance.arrived == 0) {
        auto size = definitions_.communicator_sizes.find(p.com);
        if (size != definitions_.communicator_sizes.end()) instance.size = size->second;
      }
      if (!definitions_.outside_declared_span(c.enters.back()))
        instance.latest_enter = std::max(instance.latest_enter, c.enters.back());
      ++instance.arrived;
      c.arrived = true;
      c.instance = key;
      if (instance.size != 0 && instance.arrived < instance.size && !instance.released) {
        instance.waiting.push_back(l);
        return false;
      }
      for (Location member : instance.waiting) unblock(member);
      instance.waiting.clear();
    }
    auto found = instances_.find(c.instance);
    bound = found->second.latest_enter;
    c.arrived = false;
    if (found->second.size != 0 && ++found->second.done >= found->second.size) instances_.erase(found);
    return true;
  }

  void unblock(Location l) { ready_.push_back(l); }

  void drain() {
    while (!ready_.empty()) {
      const Location l = ready_.back();
      ready_.pop_back();
      LocationClock& c = clocks_[static_cast<std::size_t>(l)];
      c.blocked = false;
      while (!c.empty()) {
        if (!step(l, c.front())) {
          c.blocked = true;
          break;
        }
        c.pop();
        --queued_;
      }
    }
  }

  // The location waiting at the oldest event goes on without its bound.
  bool release_oldest() {
    std::size_t oldest = clocks_.size();
    for (std::size_t l = 0; l < clocks_.size(); ++l)
      if (clocks_[l].blocked && (oldest == clocks_.size() ||
                                 clocks_[l].front().ordinal < clocks_[oldest].front().ordinal))
        oldest = l;
    if (oldest == clocks_.size()) return false;
    LocationClock& c = clocks_[oldest];
    const Pending& p = c.front();
    const auto l = static_cast<Location>(oldest);
    if (p.kind == EventKind::Recv) {
      ChannelState& channel = channels_[Channel{p.peer, l, p.tag, p.com}];
      channel.waiting = false;
      ++channel.skip;  // its send, should it come, pairs with this receive
      c.bound = kNoBound;
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
  std::vector<LocationClock> clocks_;
  std::unordered_map<Channel, ChannelState, ChannelHash> channels_;
  std::unordered_map<InstanceKey, Instance, InstanceHash> instances_;
  // (com, location) -> the number of that location's next instance on com.
  std::unordered_map<InstanceKey, std::uint64_t, InstanceHash> next_instance_;
  std::vector<Location> ready_;  // unblocked, to be drained
  std::size_t queued_ = 0;
};

}  // namespace

std::unique_ptr<ClockCorrections> correct_clocks(TraceDecoder& decoder,
                                                 const ClockCorrectionOptions& options,
                                                 const std::function<bool(double)>& progress) {
  options.validate();
  for (;;) {
    try {
      decoder.seek(decoder.start_position());
      ClockPass pass(decoder.definitions(), options);
      Event event;
      std::uint64_t ordinal = 0;
      while (decoder.read(event)) {
        pass.add(event, ++ordinal);
        if (ordinal % kProgressEvery == 0 && progress && !progress(decoder.progress()))
          throw Interrupted();
      }
      return pass.finish();
    } catch (const DecoderRestart&) {
      // The decoder reordered an unsorted file: start again in its order.
    }
  }
}

}  // namespace earl
