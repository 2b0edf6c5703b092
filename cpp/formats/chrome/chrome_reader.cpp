#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>
#include <utility>

#include "formats/chrome/chrome_parser.h"
#include "formats/chrome/chrome_records.h"
#include "model/clock.h"
#include "model/error.h"

namespace earl {

namespace {

constexpr double kNanosecondsPerMicrosecond = 1000.0;
// Timestamps EARL takes, in nanoseconds: far beyond any real run (146 years), far enough
// from 2^63 that ts + dur cannot overflow.
constexpr std::int64_t kMaxTick = std::int64_t(1) << 62;

// One end of a flow (s/t/f, flow_out/flow_in) or of an async operation (b/e, S/F).
struct FlowPoint {
  std::uint32_t key;  // which flow or async operation
  std::int64_t tick;
  std::uint64_t index;
  std::uint32_t loc;
  enum Role : std::uint8_t { Start, Step, End } role;
  bool async;
  bool has_tag;  // args.tag given (EARL's own output): the tag of the message
  std::int64_t tag;
  std::uint64_t len;
  std::int64_t com;
  bool has_len = false, has_com = false;  // args given (else the other end's, as the trace viewer merges them)
};

class Builder {
 public:
  explicit Builder(ChromeTrace& trace) : t_(trace), d_(trace.definitions) {
    instant_type_ = d_.types.intern("instant");
    metric_type_ = d_.types.intern("metric");
    async_instant_type_ = d_.types.intern("async_instant");
    async_step_type_ = d_.types.intern("async_step");
  }

  void on_event(const ChromeFields& f) {
    f_ = &f;
    if (f.ph.kind != ChromeScalar::Kind::String || f.ph.text.size() != 1)
      fail(f.ph.present() ? "ph is not a one-letter string" : "no ph");
    switch (f.ph.text[0]) {
      case 'M': return metadata();
      case 'X': return complete();
      case 'B': return begin();
      case 'E': return end();
      case 'i': case 'I': case 'R': return point(instant_type_);
      case 'C': return counter();
      case 's': return flow(FlowPoint::Start, false, f.id);
      case 't': return flow(FlowPoint::Step, false, f.id);
      case 'f': return flow(FlowPoint::End, false, f.id);
      case 'b': case 'S': return flow(FlowPoint::Start, true, f.id);
      case 'e': case 'F': return flow(FlowPoint::End, true, f.id);
      case 'n': return point(async_instant_type_);
      case 'T': case 'p': return point(async_step_type_);
      default: ++t_.events_ignored; return;
    }
  }

  void finish() {
    match_flows();
    d_.location_count = static_cast<Location>(location_names_.size());
    // A thread without thread_name is named "<process> / <tid>" (process: its process_name,
    // else the pid), so that it can be told apart; an empty thread_name is no name.
    for (std::size_t l = 0; l < location_names_.size(); ++l) {
      std::string name = location_names_[l];
      if (!named_[l]) {
        auto process = process_names_.find(location_pids_[l]);
        name = process != process_names_.end() ? process->second : shown(location_pids_[l]);
        if (!location_tids_[l].empty()) name += " / " + shown(location_tids_[l]);
      }
      if (!name.empty()) d_.name_location(static_cast<Location>(l), name);
    }
    std::sort(t_.records.begin(), t_.records.end(), chrome_record_before);
    t_.metric_type = metric_type_;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw EarlError(t_.file + ": event " + std::to_string(f_->index) + " (byte " + std::to_string(f_->offset) +
                    "): " + what);
  }

  // A pid or tid key as users know it: the number or the string ("" where absent).
  static std::string shown(const std::string& key) { return key.empty() ? key : key.substr(1); }

  std::string text(const ChromeScalar& s) const { return s.kind == ChromeScalar::Kind::String ? s.text : ""; }

  std::uint32_t location() {
    std::string key = f_->pid.key();
    key += '\x1f';
    key += f_->tid.key();
    auto found = location_ids_.find(key);
    if (found != location_ids_.end()) return found->second;
    if (location_names_.size() >= static_cast<std::size_t>(kMaxLocations)) fail("more than 2^24 threads");
    const auto loc = static_cast<std::uint32_t>(location_names_.size());
    location_ids_.emplace(std::move(key), loc);
    location_names_.emplace_back();
    named_.push_back(false);
    location_pids_.push_back(f_->pid.key());
    location_tids_.push_back(f_->tid.key());
    be_stacks_.emplace_back();
    return loc;
  }

  // Microseconds (ts, dur) to nanoseconds, rounded half away from zero, from the number's
  // text where it is a plain decimal (exact for any digits), else from its double.
  std::int64_t microseconds_to_tick(const ChromeScalar& v, const char* field) const {
    if (v.kind == ChromeScalar::Kind::Absent) fail(std::string("no ") + field);
    if (!v.number()) fail(std::string(field) + " is not a number");
    const std::string& t = v.text;
    const bool negative = !t.empty() && t[0] == '-';
    const std::size_t dot = t.find('.');
    if (!t.empty() && t.find_first_of("eE") == std::string::npos) {
      const std::size_t digits_end = dot == std::string::npos ? t.size() : dot;
      std::int64_t ns = 0;
      for (std::size_t i = negative ? 1 : 0; i < digits_end; ++i) {
        ns = ns * 10 + (t[i] - '0');
        if (ns > kMaxTick / 1000) fail(std::string(field) + " out of range (more than 2^62 ns)");
      }
      ns *= 1000;
      std::int64_t scale = 100;
      for (std::size_t i = digits_end + 1; dot != std::string::npos && i < t.size() && scale > 0; ++i, scale /= 10)
        ns += (t[i] - '0') * scale;
      const std::size_t rounding = digits_end + 4;  // the digit after the nanoseconds
      if (dot != std::string::npos && rounding < t.size() && t[rounding] >= '5') ++ns;
      return negative ? -ns : ns;
    }
    const double ns = v.real * kNanosecondsPerMicrosecond;
    if (!(std::fabs(ns) <= static_cast<double>(kMaxTick)))
      fail(std::string(field) + " out of range (more than 2^62 ns)");
    return static_cast<std::int64_t>(std::llround(ns));
  }

  std::int64_t timestamp() const { return microseconds_to_tick(f_->ts, "ts"); }

  SymbolId region() {
    const std::string name = text(f_->name);
    SymbolId id;
    if (d_.regions.find(name, id)) return id;
    const std::string cat = text(f_->cat);
    return d_.define_region(name, cat.empty() ? "All" : cat);
  }

  ChromeRecord& add(std::uint32_t loc, std::int64_t tick, EventKind kind, std::uint8_t phase) {
    ChromeRecord& r = t_.records.emplace_back();
    r.tick = tick;
    r.loc = loc;
    r.kind = kind;
    r.phase = phase;
    return r;
  }

  const ChromeScalar* integer_arg(const char* key) const {
    const ChromeScalar* a = f_->arg(key);
    return a && (a->kind == ChromeScalar::Kind::Int || a->kind == ChromeScalar::Kind::UInt) ? a : nullptr;
  }

  // An exit record; a collective exit where the args carry root, sent and recvd (EARL's
  // own output of MPI collectives).
  void exit_record(ChromeRecord& r) {
    const ChromeScalar *root = integer_arg("root"), *sent = integer_arg("sent"), *recvd = integer_arg("recvd");
    if (!root || !sent || !recvd) return;
    ChromeCollective c;
    if (const ChromeScalar* com = integer_arg("com")) c.com = com->integer;
    c.sent = sent->kind == ChromeScalar::Kind::UInt ? sent->unsigned_integer : static_cast<std::uint64_t>(sent->integer);
    c.recvd = recvd->kind == ChromeScalar::Kind::UInt ? recvd->unsigned_integer : static_cast<std::uint64_t>(recvd->integer);
    r.kind = EventKind::CollectiveExit;
    r.peer = root->kind == ChromeScalar::Kind::Int && root->integer >= -1 && root->integer < kMaxLocations
                 ? static_cast<std::int32_t>(root->integer)
                 : -1;
    r.data = static_cast<std::uint32_t>(t_.collectives.size());
    t_.collectives.push_back(c);
  }

  void complete() {
    const std::uint32_t loc = location();
    const std::int64_t start = timestamp();
    const std::int64_t dur = microseconds_to_tick(f_->dur, "dur");
    if (dur < 0) fail("X event with negative dur");
    const std::int64_t end = start + dur;
    const SymbolId reg = region();
    const auto index = static_cast<std::int64_t>(f_->index);
    ChromeRecord& enter = add(loc, start, EventKind::Enter, kPhaseXEnter);
    enter.symbol = reg;
    enter.key1 = -end;
    enter.key2 = 2 * index;
    if (dur == 0) {
      ChromeRecord& exit = add(loc, end, EventKind::Exit, kPhaseXEnter);
      exit.symbol = reg;
      exit.key1 = -end;
      exit.key2 = 2 * index + 1;
      exit_record(exit);
    } else {
      ChromeRecord& exit = add(loc, end, EventKind::Exit, kPhaseXExit);
      exit.symbol = reg;
      exit.key1 = -start;  // the inner slice (the later start) leaves first
      exit.key2 = -index;
      exit_record(exit);
    }
    slice_flows(loc, start);
  }

  // Flow events of the newer form, bound to slices: flow_out starts, flow_in ends a flow
  // with the slice's bind_id (or id), at the slice's start.
  void slice_flows(std::uint32_t loc, std::int64_t start) {
    const bool in = f_->flow_in.kind == ChromeScalar::Kind::Bool && f_->flow_in.flag;
    const bool out = f_->flow_out.kind == ChromeScalar::Kind::Bool && f_->flow_out.flag;
    if (!in && !out) return;
    const ChromeScalar& id = f_->bind_id.present() ? f_->bind_id : f_->id;
    const std::string idk = id_key(id);
    if (in) flow_point("b" + idk, idk, loc, start, FlowPoint::End, false);
    if (out) flow_point("b" + idk, idk, loc, start, FlowPoint::Start, false);
  }

  void begin() {
    const std::uint32_t loc = location();
    ChromeRecord& r = add(loc, timestamp(), EventKind::Enter, kPhaseBeginEnd);
    r.symbol = region();
    r.key1 = static_cast<std::int64_t>(f_->index);
    be_stacks_[loc].push_back(r.symbol);
    slice_flows(loc, r.tick);
  }

  void end() {
    const std::uint32_t loc = location();
    ChromeRecord& r = add(loc, timestamp(), EventKind::Exit, kPhaseBeginEnd);
    r.key1 = static_cast<std::int64_t>(f_->index);
    auto& open = be_stacks_[loc];
    if (!open.empty()) {
      r.symbol = open.back();
      open.pop_back();
    } else {
      r.symbol = region();  // an E without B: the state reports the exit with an empty stack
    }
    exit_record(r);
  }

  void point(SymbolId type) {
    ChromeRecord& r = add(location(), timestamp(), EventKind::Other, kPhasePoint);
    r.symbol = type;
    r.key1 = 2 * static_cast<std::int64_t>(f_->index);
    r.data = d_.strings.intern(text(f_->name));
    r.value = f_->cat.kind == ChromeScalar::Kind::String ? static_cast<std::int64_t>(d_.strings.intern(f_->cat.text)) : -1;
  }

  void counter() {
    const std::uint32_t loc = location();
    const std::int64_t tick = timestamp();
    const std::string name = text(f_->name);
    std::int64_t member = 0;
    for (const auto& [key, value] : f_->args) {
      if (!value.number()) continue;
      const std::string metric = key == "value" ? name : name + "." + key;
      auto found = metric_ids_.find(metric);
      std::uint32_t index;
      if (found == metric_ids_.end()) {
        index = static_cast<std::uint32_t>(d_.metrics.size());
        MetricDefinition def;
        def.name = metric;
        def.mode = "absolute_point";
        def.source = "user";
        def.value_type = value.kind == ChromeScalar::Kind::Double ? "double" : "int64";
        def.sum = MetricSum::None;
        d_.metrics.push_back(def);
        t_.metric_names.push_back(d_.strings.intern(metric));
        metric_ids_.emplace(metric, index);
      } else {
        index = found->second;
      }
      ChromeRecord& r = add(loc, tick, EventKind::Metric, kPhasePoint);
      r.symbol = index;
      r.key1 = 2 * static_cast<std::int64_t>(f_->index);
      r.key2 = member++;
      if (value.kind == ChromeScalar::Kind::Double) {
        r.value_kind = 1;
        std::memcpy(&r.value, &value.real, sizeof(double));
      } else if (value.kind == ChromeScalar::Kind::UInt) {
        r.value_kind = 1;  // beyond int64: kept as a double
        const double real = static_cast<double>(value.unsigned_integer);
        std::memcpy(&r.value, &real, sizeof(double));
      } else {
        r.value = value.integer;
      }
    }
  }

  std::string id_key(const ChromeScalar& id) const {
    std::string key = id.key();
    if (key.empty()) fail("flow or async event without an id (a number or a string)");
    return key;
  }

  void flow(FlowPoint::Role role, bool async, const ChromeScalar& id) {
    const ChromeScalar& which = id.present() ? id : f_->id2;
    // Flows (v1) and async operations are scoped by category, as the trace viewer has them.
    const std::string idk = id_key(which);
    std::string key = (async ? "a" : "f") + text(f_->cat) + '\x1f' + idk;
    if (async && f_->scope.kind == ChromeScalar::Kind::String) key += '\x1f' + f_->scope.text;
    flow_point(key, idk, location(), timestamp(), role, async);
  }

  void flow_point(const std::string& key, const std::string& id, std::uint32_t loc, std::int64_t tick, FlowPoint::Role role, bool async) {
    auto found = flow_keys_.find(key);
    std::uint32_t k;
    if (found == flow_keys_.end()) {
      k = static_cast<std::uint32_t>(flow_tags_.size());
      flow_keys_.emplace(key, k);
      flow_tags_.push_back(tag_of(id, k));
    } else {
      k = found->second;
    }
    FlowPoint p{k, tick, f_->index, loc, role, async, false, 0, 0, -1};
    if (const ChromeScalar* tag = integer_arg("tag")) p.has_tag = true, p.tag = tag->integer;
    if (const ChromeScalar* len = integer_arg("len")) {
      p.len = len->kind == ChromeScalar::Kind::UInt ? len->unsigned_integer : static_cast<std::uint64_t>(len->integer);
      p.has_len = true;
    }
    // A communicator EARL can hold in the record (others: none).
    if (const ChromeScalar* com = integer_arg("com")) {
      p.has_com = true;
      if (com->kind == ChromeScalar::Kind::Int && com->integer >= 0 && com->integer < INT32_MAX) p.com = com->integer;
    }
    points_.push_back(p);
  }

  // The tag of a flow's messages: its id where that is an integer (or a "0x..." string),
  // else the flow's number in order of first appearance.
  static std::int64_t tag_of(const std::string& id, std::uint32_t k) {
    if (!id.empty() && id[0] == 'n') return std::strtoll(id.c_str() + 1, nullptr, 10);
    if (id.size() > 3 && id[1] == '0' && (id[2] == 'x' || id[2] == 'X')) {
      char* end = nullptr;
      const unsigned long long v = std::strtoull(id.c_str() + 3, &end, 16);
      if (end && *end == '\0') return static_cast<std::int64_t>(v);
    }
    return k;
  }

  void message(const FlowPoint* send, const FlowPoint* recv) {
    // The tag: args.tag of either end (EARL's output gives it on the end written first),
    // else the flow's id.
    const FlowPoint* tagged = send && send->has_tag ? send : recv && recv->has_tag ? recv : nullptr;
    const std::int64_t tag = tagged ? tagged->tag : flow_tags_[(send ? send : recv)->key];
    // Each end keeps its own length and communicator (args len and com, EARL's output);
    // an end without them has the other end's (the trace viewer merges the two ends' args,
    // so EARL's output gives the receive's only where they differ).
    auto fill = [&](ChromeRecord& r, const FlowPoint& at, const FlowPoint* other, std::int64_t sub) {
      r.peer = other ? static_cast<std::int32_t>(other->loc) : -1;
      if (!other) r.flags = kUnresolvedReference;
      r.value = at.has_tag ? at.tag : tag;
      r.key1 = 2 * static_cast<std::int64_t>(at.index) + sub;
      const FlowPoint& len = at.has_len || !other ? at : *other;
      const FlowPoint& com = at.has_com || !other ? at : *other;
      r.key2 = static_cast<std::int64_t>(len.len);  // the length: key1 alone orders messages
      r.data = static_cast<std::uint32_t>(com.com + 1);
    };
    if (send) fill(add(send->loc, send->tick, EventKind::Send, kPhasePoint), *send, recv, 1);
    if (recv) fill(add(recv->loc, recv->tick, EventKind::Recv, kPhasePoint), *recv, send, 0);
  }

  // Pairs each flow's points in time order (a step both ends and starts a message) and
  // each async operation's begin with its end (nested ones last in, first out). A flow of
  // exactly one start and one end is one message whatever its times say: a receive
  // recorded before its send (skewed clocks) is a clock problem the trace state reports,
  // not a message without a partner.
  void match_flows() {
    std::stable_sort(points_.begin(), points_.end(), [](const FlowPoint& a, const FlowPoint& b) {
      if (a.key != b.key) return a.key < b.key;
      if (a.tick != b.tick) return a.tick < b.tick;
      return a.index < b.index;
    });
    std::vector<const FlowPoint*> open;
    for (std::size_t i = 0; i < points_.size(); ++i) {
      const FlowPoint& p = points_[i];
      if (i == 0 || points_[i - 1].key != p.key) {
        for (const FlowPoint* o : open) message(o, nullptr);
        open.clear();
        const bool pair = i + 1 < points_.size() && points_[i + 1].key == p.key &&
                          (i + 2 == points_.size() || points_[i + 2].key != p.key);
        if (pair && p.role == FlowPoint::End && points_[i + 1].role == FlowPoint::Start) {
          message(&points_[i + 1], &p);
          ++i;
          continue;
        }
      }
      if (p.role == FlowPoint::Start) {
        if (!p.async && !open.empty()) {
          message(open.back(), nullptr);  // a flow started again before it ended
          open.clear();
        }
        open.push_back(&p);
      } else {
        const FlowPoint* from = open.empty() ? nullptr : open.back();
        if (from) open.pop_back();
        message(from, &p);
        if (p.role == FlowPoint::Step) open.push_back(&p);
      }
    }
    for (const FlowPoint* o : open) message(o, nullptr);
  }

  void metadata() {
    const std::string name = text(f_->name);
    const ChromeScalar* value = f_->arg("name");
    if (name == "thread_name") {
      const std::uint32_t loc = location();
      if (value && value->kind == ChromeScalar::Kind::String) {
        location_names_[loc] = value->text;
        named_[loc] = true;
      }
    } else if (name == "thread_sort_index") {
      location();  // places the thread (EARL's own output orders every thread so)
    } else if (name == "process_name") {
      if (value && value->kind == ChromeScalar::Kind::String) process_names_[f_->pid.key()] = value->text;
    }  // the sort indices order nothing in EARL
  }

  ChromeTrace& t_;
  Definitions& d_;
  const ChromeFields* f_ = nullptr;
  SymbolId instant_type_, metric_type_, async_instant_type_, async_step_type_;
  std::unordered_map<std::string, std::uint32_t> location_ids_;
  std::vector<std::string> location_names_;  // by location: its thread_name
  std::vector<std::string> location_pids_, location_tids_;  // ChromeScalar::key() of each
  std::vector<bool> named_;  // by a thread_name
  std::unordered_map<std::string, std::string> process_names_;  // by pid key
  std::vector<std::vector<SymbolId>> be_stacks_;  // open B slices per location, file order
  std::unordered_map<std::string, std::uint32_t> metric_ids_;
  std::unordered_map<std::string, std::uint32_t> flow_keys_;
  std::vector<std::int64_t> flow_tags_;
  std::vector<FlowPoint> points_;
};

}  // namespace

ChromeTrace read_chrome_trace(const std::string& path, const ReadOptions& options) {
  ChromeTrace trace;
  trace.file = path;
  Builder builder(trace);
  ChromeParseResult parsed =
      parse_chrome_events(path, options.strict, [&](const ChromeFields& f) { builder.on_event(f); });
  trace.events_read = parsed.events;
  trace.unterminated = parsed.unterminated;
  trace.damage = parsed.damage;
  builder.finish();
  return trace;
}

}  // namespace earl
