#include "formats/alog/alog_decoder.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>

#include "format_interface/damage_text.h"
#include "format_interface/shown_text.h"
#include "model/clock.h"
#include "model/error.h"

namespace earl {

namespace {

constexpr std::int64_t kSmallTypes = 1 << 16;

enum AlogRecordType : std::int64_t {
  kProcessCount = -3,
  kTypeDefinition = -9,
  kRollover = -11,
  kRegionDefinition = -13,
  kLocationName = -15,
  kSendRecord = -101,
  kRecvRecord = -102,
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

bool is_blank(std::string_view text) { return trim(text).empty(); }

// Cuts the next whitespace-separated token off `text`.
std::string_view next_token(std::string_view& text) {
  std::size_t i = 0;
  while (i < text.size() && is_space(text[i])) ++i;
  std::size_t start = i;
  while (i < text.size() && !is_space(text[i])) ++i;
  std::string_view token = text.substr(start, i - start);
  text.remove_prefix(i);
  return token;
}

bool parse_integer(std::string_view token, std::int64_t& value) {
  if (token.empty()) return false;
  const char* begin = token.data();
  if (*begin == '+') ++begin;
  auto [end, error] = std::from_chars(begin, token.data() + token.size(), value);
  return error == std::errc() && end == token.data() + token.size();
}

bool is_definition(std::int64_t type) {
  return type == kProcessCount || type == kTypeDefinition || type == kRollover ||
         type == kRegionDefinition || type == kLocationName;
}

bool is_event_record(std::int64_t type) {
  return type >= 0 || type == kSendRecord || type == kRecvRecord;
}

}  // namespace

bool AlogDecoder::looks_like(std::string_view text) {
  // The first non-blank line has at least six integer fields.
  while (!text.empty()) {
    std::size_t end = text.find_first_of("\r\n");
    std::string_view line = text.substr(0, end);
    if (!is_blank(line)) {
      for (int field = 0; field < 6; ++field) {
        std::int64_t value;
        if (!parse_integer(next_token(line), value)) return false;
      }
      return true;
    }
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return false;
}

AlogDecoder::AlogDecoder(const std::string& path, const ReadOptions& options)
    : path_(path), strict_(options.strict), reader_(path) {
  definitions_.groups.intern("All");
  read_header();
}

void AlogDecoder::fail(const std::string& problem) const { fail_at(line_, problem); }

void AlogDecoder::fail_at(std::uint64_t line, const std::string& problem) const {
  throw BadLine(path_ + ": line " + std::to_string(line) + ": " + problem);
}

AlogDecoder::Record AlogDecoder::parse(std::string_view text) const {
  static const char* const kFieldNames[] = {"type", "process", "task",
                                            "data", "cycle",   "timestamp"};
  Record record;
  std::int64_t* fields[] = {&record.type, &record.process, &record.task,
                            &record.data, &record.cycle,   &record.timestamp};
  for (int i = 0; i < 6; ++i) {
    std::string_view token = next_token(text);
    if (token.empty())
      fail("truncated record: " + std::to_string(i) +
           " of the 6 fields 'type process task data cycle timestamp'");
    if (!parse_integer(token, *fields[i]))
      fail(std::string("field ") + kFieldNames[i] + " is not an integer: '" + shown_text(token) + "'");
  }
  record.comment = trim(text);
  return record;
}

void AlogDecoder::read_header() {
  std::string_view text;
  bool any_record = false;
  for (;;) {
    std::uint64_t offset = reader_.offset();
    if (!reader_.next(text)) {
      first_event_offset_ = offset;
      first_event_line_ = line_ + 1;
      break;
    }
    ++line_;
    if (is_blank(text)) continue;
    Record record = parse(text);
    any_record = true;
    if (is_event_record(record.type)) {
      first_event_offset_ = offset;
      first_event_line_ = line_;
      break;
    }
    if (is_definition(record.type)) define(record);
  }
  if (!any_record) throw EarlError(path_ + ": no ALOG records in the file");
  finish_definitions();
  seek(start_position());
}

void AlogDecoder::define(const Record& record) {
  switch (record.type) {
    case kProcessCount:
      if (record.data < 0) fail("negative process count " + std::to_string(record.data));
      if (record.data > kMaxLocations)
        fail("the -3 record declares " + std::to_string(record.data) +
             " processes, more than the " + std::to_string(kMaxLocations) +
             " locations EARL reads (a damaged header?)");
      declared_locations_ = record.data;
      if (record.data > 0) definitions_.ensure_location(static_cast<Location>(record.data - 1));
      break;
    case kRollover:
      if (record.timestamp <= 0) fail("roll-over point must be positive");
      rollover_ = record.timestamp;
      break;
    case kTypeDefinition:
      if (record.data < 0) fail("type number must be nonnegative, got " + std::to_string(record.data));
      if (record.comment.empty()) fail("type definition without a name");
      if (!type_numbers_.count(record.data)) type_order_.push_back(record.data);
      type_numbers_[record.data] = std::string(record.comment);
      break;
    case kRegionDefinition: {
      if (record.task < 0 || record.data < 0)
        fail("region enter/exit type numbers must be nonnegative");
      std::string_view name = record.comment;
      std::string_view rest = name;
      std::string_view first = next_token(rest);
      // "color:pattern Name": the display prefix is not part of the name.
      if (first.find(':') != std::string_view::npos && !trim(rest).empty()) name = trim(rest);
      if (name.empty()) fail("region definition without a name");
      SymbolId region = definitions_.define_region(std::string(name), "All");
      region_numbers_[record.task] = {region, true};
      region_numbers_[record.data] = {region, false};
      break;
    }
    case kLocationName: {
      definitions_.name_location(location(record.process, "process"), std::string(record.comment));
      break;
    }
  }
}

void AlogDecoder::finish_definitions() {
  auto set_entry = [this](std::int64_t number, const TypeEntry& entry) {
    if (number < kSmallTypes) {
      if (small_types_.size() <= static_cast<std::size_t>(number)) {
        small_types_.resize(number + 1);
        small_defined_.resize(number + 1, false);
      }
      small_types_[number] = entry;
      small_defined_[number] = true;
    } else {
      other_types_[number] = entry;
    }
  };
  // Trace-defined types in definition order; -13 wins over -9 for the same number.
  for (std::int64_t number : type_order_) {
    if (region_numbers_.count(number)) continue;
    TypeEntry entry;
    entry.kind = EventKind::Other;
    entry.type = definitions_.types.intern(type_numbers_[number]);
    set_entry(number, entry);
  }
  for (const auto& [number, meaning] : region_numbers_) {
    TypeEntry entry;
    entry.kind = meaning.second ? EventKind::Enter : EventKind::Exit;
    entry.type = meaning.second ? kEnterType : kExitType;
    entry.region = meaning.first;
    set_entry(number, entry);
  }
}

const AlogDecoder::TypeEntry* AlogDecoder::lookup(std::int64_t number) const {
  if (number < kSmallTypes) {
    if (static_cast<std::size_t>(number) < small_defined_.size() && small_defined_[number])
      return &small_types_[number];
    return nullptr;
  }
  auto found = other_types_.find(number);
  return found == other_types_.end() ? nullptr : &found->second;
}

Location AlogDecoder::location(std::int64_t value, const char* field) const {
  if (value < 0) fail(std::string(field) + " " + std::to_string(value) + " is negative");
  if (declared_locations_ >= 0 && value >= declared_locations_)
    fail(std::string(field) + " " + std::to_string(value) + " is outside the " +
         std::to_string(declared_locations_) + " processes declared by the -3 record");
  if (value >= kMaxLocations)
    fail(std::string(field) + " " + std::to_string(value) + " is more than the " +
         std::to_string(kMaxLocations) + " locations EARL reads");
  return static_cast<Location>(value);
}

double AlogDecoder::time_of(const Record& record) const {
  std::int64_t ticks = record.timestamp;
  if (record.cycle != 0 && rollover_ < 0)
    fail("cycle " + std::to_string(record.cycle) + " without a -11 roll-over record");
  // A hostile cycle number must not overflow (found by fuzz/alog_decoder_fuzzer.cpp).
  std::int64_t rolled = 0;
  if (record.cycle != 0 && (__builtin_mul_overflow(record.cycle, rollover_, &rolled) ||
                            __builtin_add_overflow(ticks, rolled, &ticks)))
    fail("cycle " + std::to_string(record.cycle) + " of the roll-over point " + std::to_string(rollover_) +
         " puts the timestamp " + std::to_string(record.timestamp) + " beyond 2^63 microseconds");
  return ticks_to_seconds(ticks, kMicrosecondsPerSecond);
}

void AlogDecoder::reject_non_text(std::string_view part, std::size_t column) const {
  const std::string problem = non_text_bytes(part, column);
  if (!problem.empty()) fail(problem);
}

bool AlogDecoder::read_file_order(Record& record, std::uint64_t& offset) {
  std::string_view text;
  for (;;) {
    offset = reader_.offset();
    if (damage_ && offset >= damage_->offset) return false;  // nothing from the damage on
    if (!reader_.next(text)) break;
    ++line_;
    if (is_blank(text)) continue;
    try {
      record = parse(text);
    } catch (const BadLine&) {
      reject_non_text(text, 0);  // the better reason where it applies
      throw;
    }
    // Six integers hold no such bytes: only the comment may.
    reject_non_text(record.comment, static_cast<std::size_t>(record.comment.data() - text.data()));
    if (is_event_record(record.type)) return true;
    if (is_definition(record.type))
      fail("definition record " + std::to_string(record.type) +
           " after the first event record (definitions must come first)");
  }
  return false;
}

void AlogDecoder::decode(const Record& record, Event& event) {
  event = Event();
  event.time = time_of(record);
  event.loc = location(record.process, "process");
  event.sendptr = 0;
  if (record.type == kSendRecord || record.type == kRecvRecord) {
    bool send = record.type == kSendRecord;
    std::string_view comment = record.comment;
    std::int64_t tag, length;
    std::string_view tag_token = next_token(comment);
    std::string_view length_token = next_token(comment);
    if (!parse_integer(tag_token, tag) || !parse_integer(length_token, length))
      fail(std::string(send ? "send" : "recv") + " record needs 'tag len' as its comment, got '" +
           shown_text(record.comment) + "'");
    event.kind = send ? EventKind::Send : EventKind::Recv;
    event.type = send ? kSendType : kRecvType;
    event.peer = location(record.data, send ? "destination" : "source");
    event.tag = tag;
    if (length < 0) fail("negative message length " + std::to_string(length));
    event.len = static_cast<std::uint64_t>(length);
    event.com = -1;
  } else {
    const TypeEntry* entry = lookup(record.type);
    if (!entry) fail("event type " + std::to_string(record.type) + " is not defined in the header");
    event.kind = entry->kind;
    event.type = entry->type;
    event.region = entry->region;
    event.peer = -1;
    if (entry->kind == EventKind::Other) {
      event.data1 = Value::of_int(record.data);
      event.data2 = Value();
    }
  }
  // Only a line read whole adds its locations: a damaged one leaves no trace.
  definitions_.ensure_location(event.loc);
  if (event.peer >= 0) definitions_.ensure_location(event.peer);
}

bool AlogDecoder::read_event(Event& event, std::uint64_t& offset) {
  offset = reader_.offset();
  try {
    Record record;
    if (!read_file_order(record, offset)) return false;
    decode(record, event);
  } catch (const BadLine& error) {
    if (strict_ || offset == first_event_offset_) throw;
    stop_at_damage(offset, error);
    return false;
  }
  if (offset >= counted_until_) {  // first met: not a line read again after a seek
    ++events_counted_;
    counted_until_ = offset + 1;
  }
  return true;
}

void AlogDecoder::stop_at_damage(std::uint64_t offset, const BadLine& error) {
  Damage damage;
  damage.offset = offset;
  damage.line = line_;
  damage.events_before = events_counted_;
  damage.error = error.what();
  reader_.seek(offset);
  std::string_view text;
  while (reader_.next(text)) ++damage.lines_left;
  reader_.seek(offset);  // position() stays before the damage, and a read there ends
  line_ = damage.line - 1;
  damage_ = std::move(damage);
}

std::vector<StreamDamage> AlogDecoder::damage() const {
  if (!damage_) return {};
  const Damage& d = *damage_;
  StreamDamage entry;
  entry.loc = -1;
  entry.record = d.events_before + 1;
  entry.announced = 0;
  entry.message = d.error + "; " + events_read_before(d.events_before) + ", " + lines_not_read(d.line, d.lines_left);
  return {entry};
}

bool AlogDecoder::read(Event& event) {
  if (sorted_.active()) {
    const TimeSortedIndex::Entry* entry = sorted_.next();
    if (!entry) return false;
    reader_.seek(entry->offset);
    std::string_view text;
    line_ = entry->number;
    if (!reader_.next(text)) fail("file changed while being read");
    decode(parse(text), event);
    return true;
  }
  std::uint64_t offset;
  if (!read_event(event, offset)) return false;
  if (sorted_.out_of_order(event.time)) {
    build_sorted_index();
    throw DecoderRestart{};
  }
  return true;
}

// Every event line before the end or the damage, in time order (stable: file order
// within equal times). Each line is decoded now, while its number is known.
void AlogDecoder::build_sorted_index() {
  sorted_.clear();
  reader_.seek(first_event_offset_);
  line_ = first_event_line_ - 1;
  Event event;
  std::uint64_t offset;
  while (read_event(event, offset)) sorted_.add(event.time, offset, line_);
  sorted_.activate();
}

DecoderPosition AlogDecoder::position() const {
  if (sorted_.active()) return sorted_.position();
  return DecoderPosition{{reader_.offset(), line_}};
}

DecoderPosition AlogDecoder::start_position() const {
  if (sorted_.active()) return DecoderPosition{{0}};
  return DecoderPosition{{first_event_offset_, first_event_line_ - 1}};
}

void AlogDecoder::seek(const DecoderPosition& position) {
  if (sorted_.active()) return sorted_.seek(position, path_);
  if (position.words.size() != 2 || position.words[0] > reader_.size())
    throw EarlError(path_ + ": invalid decoder position");
  reader_.seek(position.words[0]);
  line_ = position.words[1];
  sorted_.restart_order();
}

double AlogDecoder::progress() const {
  if (sorted_.active()) return sorted_.progress();
  return reader_.size() == 0 ? 1.0 : double(reader_.offset()) / double(reader_.size());
}

bool AlogDecoder::save_state(DecoderState& state) const {
  state.definitions = definitions_;
  sorted_.save(state);
  return true;
}

void AlogDecoder::restore_state(DecoderState& state) {
  sorted_.restore(state, reader_.size(), path_);
  definitions_ = std::move(state.definitions);
}

}  // namespace earl
