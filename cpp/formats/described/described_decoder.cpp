#include "formats/described/described_decoder.h"

#include "format_interface/damage_text.h"
#include "model/clock.h"
#include "model/error.h"

namespace earl {

namespace {
constexpr std::int64_t kSmallCodes = 1 << 16;
// Every described format's regions are in one group, as in formats that have no groups.
const char* const kGroup = "All";

bool is_event(RecordRole role) { return role == RecordRole::Event || role == RecordRole::ByCode; }
bool is_definition(RecordRole role) { return !is_event(role) && role != RecordRole::Skip; }
}  // namespace

DescribedDecoder::DescribedDecoder(const std::string& path, Description description, const std::string& name,
                                   const ReadOptions& options)
    : path_(path), strict_(options.strict), d_(std::move(description)), name_(name) {
  definitions_.groups.intern(kGroup);
  for (const RecordSpec& spec : d_.records) {
    std::vector<FieldSpec> fields = d_.fields;
    fields.insert(fields.end(), spec.fields.begin(), spec.fields.end());
    fields_of_.push_back(std::move(fields));
  }
  input_ = d_.binary ? open_binary_records(path, d_) : open_text_records(path, d_);
  read_definitions();
  finish_codes();
  // Types of `other` and `metric` records not naming theirs per record: interned after the
  // codes', so that a description of a format EARL reads natively numbers them alike.
  for (const RecordSpec& spec : d_.records) {
    SymbolId type = 0;
    if (spec.role == RecordRole::Event && spec.kind == EventKind::Other) {
      const Source& source = spec.slots[kSlotType];
      if (!source.given()) type = definitions_.types.intern(spec.name);
      else if (source.constant) type = definitions_.types.intern(source.is_text ? source.text : std::to_string(source.number));
    } else if (spec.role == RecordRole::Event && spec.kind == EventKind::Metric) {
      type = definitions_.types.intern("metric");
    }
    record_types_.push_back(type);
  }
  seek(start_position());
}

void DescribedDecoder::fail(const ParsedRecord& record, const std::string& problem) const {
  throw BadRecord(path_ + ": " + input_->where(record) + ": " + problem);
}

void DescribedDecoder::read_definitions() {
  bool event_seen = false;
  for (;;) {
    const std::uint64_t offset = input_->offset();
    const std::uint64_t number = input_->number();
    try {
      if (!input_->next(record_)) break;
    } catch (const BadRecord&) {
      // After the first event record the pass over the events meets it again: damage.
      if (!event_seen || strict_) throw;
      return;
    }
    if (record_.record < 0) continue;
    const RecordSpec& spec = d_.records[static_cast<std::size_t>(record_.record)];
    if (is_event(spec.role)) {
      if (!event_seen) {
        first_event_offset_ = offset;
        first_event_number_ = number;
        event_seen = true;
      }
      if (!d_.definitions_anywhere) return;
    } else if (is_definition(spec.role)) {
      try {
        define(spec, record_);
      } catch (const BadRecord&) {
        if (!event_seen || strict_) throw;
        failed_definition_ = record_.offset;  // met again by the pass over the events
        return;
      }
    }
  }
  if (!event_seen) {
    first_event_offset_ = input_->offset();
    first_event_number_ = input_->number();
  }
}

void DescribedDecoder::define(const RecordSpec& spec, const ParsedRecord& record) {
  std::int64_t number = 0;
  switch (spec.role) {
    case RecordRole::DefineRegion:
      integer(spec.slots[kSlotId], record, number, "id");
      region_ids_[number] = definitions_.define_region(std::string(text(spec.slots[kSlotLabel], record, "label")), kGroup);
      break;
    case RecordRole::DefineLocation: {
      const Location loc = location(spec.slots[kSlotId], record, "id");
      const FieldValue* name = field_of(spec.slots[kSlotLabel], record);
      definitions_.name_location(loc, name && name->kind == FieldValue::Kind::Text ? std::string(name->s) : std::string());
      break;
    }
    case RecordRole::DefineCode: {
      // Every value is read before any is kept: a bad record leaves no definition.
      std::vector<std::int64_t> numbers;
      for (const CodeDefinition& def : spec.codes) {
        Source source;
        source.fields.push_back(def.code_field);
        integer(source, record, number, "code");
        numbers.push_back(number);
        text(spec.slots[def.kind == EventKind::Other ? kSlotType : kSlotRegion], record,
             def.kind == EventKind::Other ? "type" : "region");
      }
      for (std::size_t i = 0; i < spec.codes.size(); ++i) {
        number = numbers[i];
        if (spec.codes[i].kind == EventKind::Other) {
          if (!other_codes_.count(number)) other_order_.push_back(number);
          other_codes_[number] = std::string(text(spec.slots[kSlotType], record, "type"));
        } else {
          const SymbolId region =
              definitions_.define_region(std::string(text(spec.slots[kSlotRegion], record, "region")), kGroup);
          region_codes_[number] = {region, spec.codes[i].kind == EventKind::Enter};
        }
      }
      break;
    }
    case RecordRole::LocationCount:
      integer(spec.slots[kSlotCount], record, number, "count");
      if (number < 0) fail(record, "negative location count " + std::to_string(number));
      if (number > kMaxLocations)
        fail(record, "declares " + std::to_string(number) + " locations, more than the " +
                         std::to_string(kMaxLocations) + " EARL reads (a damaged header?)");
      declared_locations_ = number;
      if (number > 0) definitions_.ensure_location(static_cast<Location>(number - 1));
      break;
    case RecordRole::TimeWrap:
      integer(spec.slots[kSlotValue], record, number, "value");
      if (number <= 0) fail(record, "the period of the time's cycle counter must be positive");
      wrap_period_ = number;
      break;
    default:
      break;
  }
}

void DescribedDecoder::finish_codes() {
  auto set = [this](std::int64_t number, const Code& entry) {
    if (number >= 0 && number < kSmallCodes) {
      if (small_codes_.size() <= static_cast<std::size_t>(number)) small_codes_.resize(static_cast<std::size_t>(number) + 1);
      small_codes_[static_cast<std::size_t>(number)] = entry;
    } else {
      other_code_table_[number] = entry;
    }
  };
  for (std::int64_t number : other_order_) {
    if (region_codes_.count(number)) continue;  // an enter/exit definition wins
    Code entry;
    entry.kind = EventKind::Other;
    entry.type = definitions_.types.intern(other_codes_[number]);
    entry.defined = true;
    set(number, entry);
  }
  for (const auto& [number, meaning] : region_codes_) {
    Code entry;
    entry.kind = meaning.second ? EventKind::Enter : EventKind::Exit;
    entry.type = meaning.second ? kEnterType : kExitType;
    entry.region = meaning.first;
    entry.defined = true;
    set(number, entry);
  }
}

const DescribedDecoder::Code* DescribedDecoder::code(std::int64_t number) const {
  if (number >= 0 && number < kSmallCodes) {
    const auto i = static_cast<std::size_t>(number);
    return i < small_codes_.size() && small_codes_[i].defined ? &small_codes_[i] : nullptr;
  }
  auto found = other_code_table_.find(number);
  return found == other_code_table_.end() ? nullptr : &found->second;
}

const FieldValue* DescribedDecoder::field_of(const Source& source, const ParsedRecord& record) const {
  for (int index : source.fields) {
    const FieldValue& v = record.values[static_cast<std::size_t>(index)];
    if (v.kind != FieldValue::Kind::Absent) return &v;
  }
  return nullptr;
}

bool DescribedDecoder::integer(const Source& source, const ParsedRecord& record, std::int64_t& out, const char* what,
                                bool required) const {
  if (source.constant && !source.is_text) {
    out = source.number;
    return true;
  }
  const FieldValue* v = field_of(source, record);
  if (!v) {
    if (!source.given() || !required) return false;
    fail(record, std::string("no ") + what + " (its fields are absent)");
  }
  switch (v->kind) {
    case FieldValue::Kind::Int: out = v->i; return true;
    case FieldValue::Kind::UInt:
      if (v->u > static_cast<std::uint64_t>(INT64_MAX)) fail(record, std::string(what) + " " + std::to_string(v->u) + " is too large");
      out = static_cast<std::int64_t>(v->u);
      return true;
    default: fail(record, std::string(what) + " needs an integer field");
  }
}

std::string_view DescribedDecoder::text(const Source& source, const ParsedRecord& record, const char* what) const {
  if (source.constant && source.is_text) return source.text;
  const FieldValue* v = field_of(source, record);
  if (!v) fail(record, std::string("no ") + what + " (its fields are absent)");
  if (v->kind != FieldValue::Kind::Text) fail(record, std::string(what) + " needs a string field");
  return v->s;
}

Value DescribedDecoder::value(const Source& source, const ParsedRecord& record) {
  if (source.constant)
    return source.is_text ? Value::of_string(definitions_.strings.intern(source.text)) : Value::of_int(source.number);
  const FieldValue* v = field_of(source, record);
  if (!v) return Value();
  switch (v->kind) {
    case FieldValue::Kind::Int: return Value::of_int(v->i);
    case FieldValue::Kind::UInt: return Value::of_uint(v->u);
    case FieldValue::Kind::Float: return Value::of_float(v->f);
    case FieldValue::Kind::Text: return Value::of_string(definitions_.strings.intern(v->s));
    default: return Value();
  }
}

Location DescribedDecoder::location(const Source& source, const ParsedRecord& record, const char* what) const {
  std::int64_t value = 0;
  integer(source, record, value, what);
  if (value < 0) fail(record, std::string(what) + " " + std::to_string(value) + " is negative");
  if (declared_locations_ >= 0 && value >= declared_locations_)
    fail(record, std::string(what) + " " + std::to_string(value) + " is outside the " +
                     std::to_string(declared_locations_) + " locations the trace declares");
  if (value >= kMaxLocations)
    fail(record, std::string(what) + " " + std::to_string(value) + " is more than the " +
                     std::to_string(kMaxLocations) + " locations EARL reads");
  return static_cast<Location>(value);
}

Location DescribedDecoder::event_location(const RecordSpec& spec, const ParsedRecord& record) {
  const Location loc = location(spec.slots[kSlotLocation], record, "location");
  std::int64_t thread = 0;
  const bool paired = integer(spec.slots[kSlotThread], record, thread, "thread", false);
  // One numbering for the whole file: a record with a thread among ones without would
  // give two events the same location by different rules.
  if (paired ? unpaired_seen_ : !thread_locations_.empty())
    fail(record, "some records give a thread and some do not: locations cannot be numbered one way");
  if (!paired) {
    pending_ = Pairing::Unpaired;
    return loc;
  }
  if (thread < 0 || thread > UINT32_MAX) fail(record, "thread " + std::to_string(thread) + " is out of range");
  return event_location_of(loc, static_cast<std::uint32_t>(thread), record);
}

Location DescribedDecoder::event_location_of(Location loc, std::uint32_t thread, const ParsedRecord& record) {
  const std::uint64_t key = (static_cast<std::uint64_t>(loc) << 32) | thread;
  auto found = thread_locations_.find(key);
  if (found != thread_locations_.end()) return found->second;
  const auto next = static_cast<Location>(thread_locations_.size());
  if (next >= kMaxLocations) fail(record, "more than " + std::to_string(kMaxLocations) + " locations");
  pending_ = Pairing::NewPair;
  pending_pair_ = key;
  return next;
}

void DescribedDecoder::keep_location() {
  if (pending_ == Pairing::Unpaired) {
    unpaired_seen_ = true;
  } else if (pending_ == Pairing::NewPair) {
    const auto next = static_cast<Location>(thread_locations_.size());
    thread_locations_.emplace(pending_pair_, next);
    definitions_.name_location(next, "process " + std::to_string(pending_pair_ >> 32) + " thread " +
                                         std::to_string(pending_pair_ & UINT32_MAX));
  }
  pending_ = Pairing::None;
}

double DescribedDecoder::time(const RecordSpec& spec, const ParsedRecord& record) const {
  const Source& source = spec.slots[kSlotTime];
  int index = -1;
  for (int i : source.fields)
    if (record.values[static_cast<std::size_t>(i)].kind != FieldValue::Kind::Absent) {
      index = i;
      break;
    }
  if (index < 0) fail(record, "no time (its fields are absent)");
  const FieldValue& v = record.values[static_cast<std::size_t>(index)];
  const double rate = fields_of_[static_cast<std::size_t>(record.record)][static_cast<std::size_t>(index)].ticks_per_second;
  std::int64_t cycle = 0;
  if (spec.slots[kSlotCycle].given()) integer(spec.slots[kSlotCycle], record, cycle, "cycle");
  if (cycle != 0 && wrap_period_ < 0)
    fail(record, "cycle " + std::to_string(cycle) + " without a time_wrap definition (the cycle's period)");
  if (v.kind == FieldValue::Kind::Float) return (v.f + double(cycle) * double(wrap_period_)) / rate;
  std::int64_t ticks = v.i, wrapped = 0;
  // A hostile cycle number must not overflow.
  if (cycle != 0 && (__builtin_mul_overflow(cycle, wrap_period_, &wrapped) || __builtin_add_overflow(ticks, wrapped, &ticks)))
    fail(record, "cycle " + std::to_string(cycle) + " of period " + std::to_string(wrap_period_) + " puts the time " +
                     std::to_string(v.i) + " beyond 2^63 ticks");
  return ticks_to_seconds(ticks, rate);
}

SymbolId DescribedDecoder::region(const RecordSpec& spec, const ParsedRecord& record) {
  if (spec.slots[kSlotRegion].given()) {
    const std::string_view name = text(spec.slots[kSlotRegion], record, "region");
    SymbolId id;
    if (definitions_.regions.find(name, id)) return id;
    return definitions_.define_region(std::string(name), kGroup);
  }
  std::int64_t number = 0;
  integer(spec.slots[kSlotRegionId], record, number, "region_id");
  auto found = region_ids_.find(number);
  if (found != region_ids_.end()) return found->second;
  fail(record, "region id " + std::to_string(number) + " is not defined (no define = \"region\" record gives it)");
}

void DescribedDecoder::decode(const ParsedRecord& record, Event& event) {
  const RecordSpec& spec = d_.records[static_cast<std::size_t>(record.record)];
  event = Event();
  pending_ = Pairing::None;
  event.time = time(spec, record);
  event.loc = event_location(spec, record);
  event.peer = -1;
  if (spec.role == RecordRole::ByCode) {
    std::int64_t number = 0;
    integer(spec.slots[kSlotCode], record, number, "code");
    const Code* meaning = code(number);
    if (!meaning) fail(record, "code " + std::to_string(number) + " is not defined (no define = \"code\" record gives it)");
    event.kind = meaning->kind;
    event.type = meaning->type;
    event.region = meaning->region;
    if (meaning->kind == EventKind::Other) {
      event.data1 = value(spec.slots[kSlotData1], record);
      event.data2 = value(spec.slots[kSlotData2], record);
    }
  } else {
    event.kind = spec.kind;
    std::int64_t number = 0;
    switch (spec.kind) {
      case EventKind::Enter:
      case EventKind::Exit:
        event.type = spec.kind == EventKind::Enter ? kEnterType : kExitType;
        event.region = region(spec, record);
        break;
      case EventKind::Send:
      case EventKind::Recv:
      case EventKind::CollectiveExit:
        if (spec.kind == EventKind::CollectiveExit) {
          event.type = kExitType;
          if (integer(spec.slots[kSlotPeer], record, number, "peer", false) && number >= 0)
            event.peer = location(spec.slots[kSlotPeer], record, "peer");
        } else {
          event.type = spec.kind == EventKind::Send ? kSendType : kRecvType;
          event.peer = location(spec.slots[kSlotPeer], record, spec.kind == EventKind::Send ? "destination" : "source");
        }
        if (integer(spec.slots[kSlotTag], record, number, "tag", false)) event.tag = number;
        if (integer(spec.slots[kSlotCom], record, number, "com", false)) event.com = number;
        if (integer(spec.slots[kSlotLen], record, number, "len", false)) {
          if (number < 0) fail(record, "negative message length " + std::to_string(number));
          event.len = static_cast<std::uint64_t>(number);
        }
        // Last: a new region's definition is kept only for a record read whole.
        if (spec.kind == EventKind::CollectiveExit) event.region = region(spec, record);
        break;
      case EventKind::Metric: {
        const std::string_view name = text(spec.slots[kSlotLabel], record, "label");
        auto& metrics = definitions_.metrics;
        std::size_t index = 0;
        while (index < metrics.size() && metrics[index].name != name) ++index;
        event.data2 = value(spec.slots[kSlotValue], record);
        if (index == metrics.size()) {
          MetricDefinition metric;
          metric.name = std::string(name);
          metric.mode = "absolute_point";
          metric.source = "other";
          metric.value_type = event.data2.kind == Value::Kind::Float  ? "double"
                              : event.data2.kind == Value::Kind::UInt ? "uint64"
                                                                      : "int64";
          metrics.push_back(std::move(metric));
        }
        event.type = record_types_[static_cast<std::size_t>(record.record)];
        event.tag = static_cast<std::int64_t>(index);
        event.data1 = Value::of_string(definitions_.strings.intern(name));
        break;
      }
      default: {
        const Source& type = spec.slots[kSlotType];
        event.type = type.given() && !type.constant ? definitions_.types.intern(text(type, record, "type"))
                                                    : record_types_[static_cast<std::size_t>(record.record)];
        event.data1 = value(spec.slots[kSlotData1], record);
        event.data2 = value(spec.slots[kSlotData2], record);
      }
    }
  }
  // Only a record read whole adds its locations: a damaged one leaves no trace.
  keep_location();
  definitions_.ensure_location(event.loc);
  if (event.peer >= 0) definitions_.ensure_location(event.peer);
}

bool DescribedDecoder::next_event(ParsedRecord& record) {
  for (;;) {
    if (damage_ && input_->offset() >= damage_->offset) return false;  // nothing from the damage on
    if (!input_->next(record)) return false;
    if (record.record < 0) continue;
    const RecordSpec& spec = d_.records[static_cast<std::size_t>(record.record)];
    if (is_event(spec.role)) return true;
    if (!is_definition(spec.role)) continue;
    if (!d_.definitions_anywhere)
      fail(record, "definition record '" + spec.name + "' after the first event record (definitions come first)");
    // Read at open, but for the one that failed there: it fails again, here.
    if (record.offset == failed_definition_) define(spec, record);
  }
}

bool DescribedDecoder::read_event(Event& event) {
  try {
    if (!next_event(record_)) return false;
    decode(record_, event);
  } catch (const BadRecord& error) {
    if (strict_ || events_counted_ == 0) throw;  // a bad first event record: not this format
    // Met again after a seek (through the lines skipped before it): kept as first found.
    if (!damage_) {
      Damage damage;
      damage.offset = record_.offset;
      damage.events_before = events_counted_;
      damage.message = std::string(error.what()) + "; " + events_read_before(events_counted_) + ", " +
                       input_->unread_from(record_);
      damage_ = std::move(damage);
    }
    input_->seek(record_.offset, record_.number - 1);  // position() stays before the damage
    return false;
  }
  if (record_.offset >= counted_until_) {  // first met: not a record read again after a seek
    ++events_counted_;
    counted_until_ = record_.offset + 1;
  }
  return true;
}

std::vector<StreamDamage> DescribedDecoder::damage() const {
  if (!damage_) return {};
  StreamDamage entry;
  entry.loc = -1;
  entry.record = damage_->events_before + 1;
  entry.announced = 0;
  entry.message = damage_->message;
  return {entry};
}

bool DescribedDecoder::read(Event& event) {
  if (sorted_.active()) {
    const TimeSortedIndex::Entry* entry = sorted_.next();
    if (!entry) return false;
    input_->seek(entry->offset, entry->number);
    if (!next_event(record_)) throw EarlError(path_ + ": changed while being read");
    decode(record_, event);
    return true;
  }
  if (!read_event(event)) return false;
  if (sorted_.out_of_order(event.time)) {
    build_sorted_index();
    throw DecoderRestart{};
  }
  return true;
}

// Every event record before the end or the damage, in time order (TimeSortedIndex).
void DescribedDecoder::build_sorted_index() {
  sorted_.clear();
  input_->seek(first_event_offset_, first_event_number_);
  Event event;
  for (;;) {
    // Where reading starts for it: skipped records before it are read again, harmlessly.
    const std::uint64_t offset = input_->offset();
    const std::uint64_t number = input_->number();
    if (!read_event(event)) break;
    sorted_.add(event.time, offset, number);
  }
  sorted_.activate();
}

DecoderPosition DescribedDecoder::position() const {
  if (sorted_.active()) return sorted_.position();
  return DecoderPosition{{input_->offset(), input_->number()}};
}

DecoderPosition DescribedDecoder::start_position() const {
  if (sorted_.active()) return DecoderPosition{{0}};
  return DecoderPosition{{first_event_offset_, first_event_number_}};
}

void DescribedDecoder::seek(const DecoderPosition& position) {
  if (sorted_.active()) return sorted_.seek(position, path_);
  if (position.words.size() != 2) throw EarlError(path_ + ": invalid decoder position");
  input_->seek(position.words[0], position.words[1]);
  sorted_.restart_order();
}

double DescribedDecoder::progress() const {
  if (sorted_.active()) return sorted_.progress();
  return input_->size() == 0 ? 1.0 : double(input_->offset()) / double(input_->size());
}

bool DescribedDecoder::save_state(DecoderState& state) const {
  state.definitions = definitions_;
  sorted_.save(state);
  // Then the (location, thread) pairs, by location number.
  std::vector<std::uint64_t> pairs(thread_locations_.size());
  for (const auto& [key, loc] : thread_locations_) pairs[static_cast<std::size_t>(loc)] = key;
  state.tables.push_back(std::move(pairs));
  return true;
}

void DescribedDecoder::restore_state(DecoderState& state) {
  if (state.tables.size() != 3) throw EarlError(path_ + ": invalid saved decoder state");
  sorted_.restore(state, input_->size(), path_);
  thread_locations_.clear();
  for (std::size_t loc = 0; loc < state.tables[2].size(); ++loc)
    thread_locations_.emplace(state.tables[2][loc], static_cast<Location>(loc));
  definitions_ = std::move(state.definitions);
}

}  // namespace earl
