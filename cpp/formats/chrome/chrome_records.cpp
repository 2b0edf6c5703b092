#include <cstring>

#include "formats/chrome/chrome_records.h"
#include "model/clock.h"

namespace earl {

bool chrome_record_before(const ChromeRecord& a, const ChromeRecord& b) {
  if (a.tick != b.tick) return a.tick < b.tick;
  if (a.loc != b.loc) return a.loc < b.loc;
  if (a.phase != b.phase) return a.phase < b.phase;
  if (a.key1 != b.key1) return a.key1 < b.key1;
  return a.key2 < b.key2;
}

std::vector<StreamDamage> ChromeTrace::damages() const {
  if (damage.empty()) return {};
  StreamDamage d;
  d.loc = -1;  // one stream for every thread
  d.record = events_read + 1;
  d.message = damage + "; the " + std::to_string(events_read) + " events of the array before it were read";
  return {d};
}

Event ChromeTrace::event(std::size_t index) const {
  const ChromeRecord& r = records[index];
  Event e;
  e.time = ticks_to_seconds(r.tick, 1e9);
  e.loc = static_cast<Location>(r.loc);
  e.kind = r.kind;
  e.flags = r.flags;
  switch (r.kind) {
    case EventKind::Enter: e.type = kEnterType; e.region = r.symbol; break;
    case EventKind::Exit: e.type = kExitType; e.region = r.symbol; break;
    case EventKind::CollectiveExit: {
      const ChromeCollective& c = collectives[r.data];
      e.type = kExitType;
      e.region = r.symbol;
      e.com = c.com;
      e.peer = r.peer;
      e.len = c.sent;
      e.tag = static_cast<std::int64_t>(c.recvd);
      break;
    }
    case EventKind::Send:
    case EventKind::Recv:
      e.type = r.kind == EventKind::Send ? kSendType : kRecvType;
      e.peer = r.peer;
      e.tag = r.value;
      e.len = static_cast<std::uint64_t>(r.key2);
      e.com = static_cast<std::int64_t>(r.data) - 1;
      break;
    case EventKind::Metric:
      e.type = metric_type;
      e.tag = r.symbol;
      e.data1 = Value::of_string(metric_names[r.symbol]);
      if (r.value_kind == 1) {
        double real;
        std::memcpy(&real, &r.value, sizeof(double));
        e.data2 = Value::of_float(real);
      } else {
        e.data2 = Value::of_int(r.value);
      }
      break;
    default:
      e.type = r.symbol;
      e.data1 = Value::of_string(r.data);
      if (r.value >= 0) e.data2 = Value::of_string(static_cast<SymbolId>(r.value));
      break;
  }
  return e;
}

}  // namespace earl
