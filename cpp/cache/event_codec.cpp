#include "cache/event_codec.h"

#include <cstring>

namespace earl {

namespace {

// Which attributes follow the kind byte.
enum Field : unsigned {
  kType = 1u << 0,
  kRegion = 1u << 1,
  kTag = 1u << 2,
  kCom = 1u << 3,
  kLen = 1u << 4,
  kPeer = 1u << 5,
  kFlags = 1u << 6,
  kData1 = 1u << 7,
  kData2 = 1u << 8,
  kPointer = 1u << 9,
};

std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
std::int64_t unzigzag(std::uint64_t v) {
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

std::uint8_t* put(std::uint8_t* out, std::uint64_t v) {
  while (v >= 0x80) {
    *out++ = static_cast<std::uint8_t>(v | 0x80);
    v >>= 7;
  }
  *out++ = static_cast<std::uint8_t>(v);
  return out;
}

// Reads a variable-length number; returns nullptr when it runs past `end` or is too long.
const std::uint8_t* get(const std::uint8_t* in, const std::uint8_t* end, std::uint64_t& v) {
  v = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    if (in == end) return nullptr;
    std::uint8_t byte = *in++;
    v |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
    if (!(byte & 0x80)) return in;
  }
  return nullptr;
}

std::uint8_t* put_value(std::uint8_t* out, const Value& value) {
  *out++ = static_cast<std::uint8_t>(value.kind);
  switch (value.kind) {
    case Value::Kind::None: break;
    case Value::Kind::Int: out = put(out, zigzag(value.integer)); break;
    case Value::Kind::UInt: out = put(out, value.unsigned_integer); break;
    case Value::Kind::String: out = put(out, value.string); break;
    case Value::Kind::Float:
      std::memcpy(out, &value.real, sizeof(double));
      out += sizeof(double);
      break;
  }
  return out;
}

const std::uint8_t* get_value(const std::uint8_t* in, const std::uint8_t* end, Value& value) {
  if (in == end || *in > static_cast<std::uint8_t>(Value::Kind::String)) return nullptr;
  value.kind = static_cast<Value::Kind>(*in++);
  std::uint64_t v = 0;
  switch (value.kind) {
    case Value::Kind::None: return in;
    case Value::Kind::Int:
      if (!(in = get(in, end, v))) return nullptr;
      value.integer = unzigzag(v);
      return in;
    case Value::Kind::UInt:
      if (!(in = get(in, end, v))) return nullptr;
      value.unsigned_integer = v;
      return in;
    case Value::Kind::String:
      if (!(in = get(in, end, v))) return nullptr;
      value.string = static_cast<SymbolId>(v);
      return in;
    case Value::Kind::Float:
      if (end - in < static_cast<std::ptrdiff_t>(sizeof(double))) return nullptr;
      std::memcpy(&value.real, in, sizeof(double));
      return in + sizeof(double);
  }
  return nullptr;
}

}  // namespace

std::size_t encode_event(const Event& event, std::uint64_t tick, std::uint64_t previous_tick,
                         std::uint8_t* out) {
  const Event plain;
  unsigned fields = 0;
  if (event.type != plain.type) fields |= kType;
  if (event.region != plain.region) fields |= kRegion;
  if (event.tag != plain.tag) fields |= kTag;
  if (event.com != plain.com) fields |= kCom;
  if (event.len != plain.len) fields |= kLen;
  if (event.peer != plain.peer) fields |= kPeer;
  if (event.flags != plain.flags) fields |= kFlags;
  if (event.data1.kind != Value::Kind::None) fields |= kData1;
  if (event.data2.kind != Value::Kind::None) fields |= kData2;
  if (event.sendptr != plain.sendptr) fields |= kPointer;

  std::uint8_t* at = out;
  *at++ = static_cast<std::uint8_t>(event.kind);
  at = put(at, fields);
  at = put(at, zigzag(static_cast<std::int64_t>(tick - previous_tick)));
  if (fields & kType) at = put(at, event.type);
  if (fields & kRegion) at = put(at, event.region);
  if (fields & kTag) at = put(at, zigzag(event.tag));
  if (fields & kCom) at = put(at, zigzag(event.com));
  if (fields & kLen) at = put(at, event.len);
  if (fields & kPeer) at = put(at, zigzag(event.peer));
  if (fields & kFlags) *at++ = event.flags;
  if (fields & kData1) at = put_value(at, event.data1);
  if (fields & kData2) at = put_value(at, event.data2);
  if (fields & kPointer) at = put(at, event.sendptr);
  return static_cast<std::size_t>(at - out);
}

bool peek_tick(const std::uint8_t* in, const std::uint8_t* end, std::uint64_t previous_tick,
               std::uint64_t& tick) {
  std::uint64_t fields = 0, v = 0;
  if (in == end || !(in = get(in + 1, end, fields)) || !(in = get(in, end, v))) return false;
  tick = previous_tick + static_cast<std::uint64_t>(unzigzag(v));
  return true;
}

std::size_t decode_event(const std::uint8_t* in, const std::uint8_t* end,
                         std::uint64_t previous_tick, Event& event, std::uint64_t& tick) {
  const std::uint8_t* start = in;
  if (in == end || *in > static_cast<std::uint8_t>(kLastEventKind)) return 0;
  event.kind = static_cast<EventKind>(*in++);
  std::uint64_t fields = 0, v = 0;
  if (!(in = get(in, end, fields)) || fields >= (kPointer << 1)) return 0;
  if (!(in = get(in, end, v))) return 0;
  tick = previous_tick + static_cast<std::uint64_t>(unzigzag(v));
  const Event plain;
  event.type = plain.type;
  event.region = plain.region;
  event.tag = plain.tag;
  event.com = plain.com;
  event.len = plain.len;
  event.peer = plain.peer;
  event.flags = plain.flags;
  event.data1 = Value();
  event.data2 = Value();
  event.sendptr = plain.sendptr;
  if (fields & kType) {
    if (!(in = get(in, end, v))) return 0;
    event.type = static_cast<SymbolId>(v);
  }
  if (fields & kRegion) {
    if (!(in = get(in, end, v))) return 0;
    event.region = static_cast<SymbolId>(v);
  }
  if (fields & kTag) {
    if (!(in = get(in, end, v))) return 0;
    event.tag = unzigzag(v);
  }
  if (fields & kCom) {
    if (!(in = get(in, end, v))) return 0;
    event.com = unzigzag(v);
  }
  if (fields & kLen) {
    if (!(in = get(in, end, v))) return 0;
    event.len = v;
  }
  if (fields & kPeer) {
    if (!(in = get(in, end, v))) return 0;
    event.peer = static_cast<Location>(unzigzag(v));
  }
  if (fields & kFlags) {
    if (in == end) return 0;
    event.flags = *in++;
  }
  if ((fields & kData1) && !(in = get_value(in, end, event.data1))) return 0;
  if ((fields & kData2) && !(in = get_value(in, end, event.data2))) return 0;
  if (fields & kPointer) {
    if (!(in = get(in, end, v))) return 0;
    event.sendptr = v;
  }
  return static_cast<std::size_t>(in - start);
}

}  // namespace earl
