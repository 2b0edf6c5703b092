#include "formats/chrome/chrome_parser.h"

#include <cerrno>
#include <cstdlib>

#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include "formats/chrome/chrome_input.h"
#include "model/error.h"

namespace earl {

namespace {

// Deeper nesting is no trace: each level costs the iterative reader memory, so a file of
// brackets must not take memory in proportion to its size.
constexpr int kMaxDepth = 1000;

// Which field a scalar at the event's own level fills.
ChromeScalar* field_named(ChromeFields& f, const std::string& key) {
  if (key == "ph") return &f.ph;
  if (key == "name") return &f.name;
  if (key == "cat") return &f.cat;
  if (key == "pid") return &f.pid;
  if (key == "tid") return &f.tid;
  if (key == "ts") return &f.ts;
  if (key == "dur") return &f.dur;
  if (key == "id") return &f.id;
  if (key == "bind_id") return &f.bind_id;
  if (key == "flow_in") return &f.flow_in;
  if (key == "flow_out") return &f.flow_out;
  if (key == "s") return &f.scope;
  return nullptr;
}

class Handler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Handler> {
 public:
  Handler(const std::string& path, ChromeInput& input, const std::function<void(const ChromeFields&)>& on_event)
      : path_(path), input_(input), on_event_(on_event) {}

  enum class Form { Unknown, Container, Array };
  Form form = Form::Unknown;
  int depth = 0;
  int events_depth = -1;  // depth inside the event array; -1: not (yet) in it
  bool saw_events = false;
  std::uint64_t count = 0;
  ChromeFields fields;

  bool in_event() const { return events_depth >= 0 && depth > events_depth; }

  [[noreturn]] void fail(const std::string& what) const {
    throw EarlError(path_ + ": event " + std::to_string(fields.index) + " (byte " + std::to_string(fields.offset) +
                    "): " + what);
  }

  bool scalar(ChromeScalar&& value) {
    if (depth == 0) throw EarlError(path_ + ": not a Chrome trace: neither an object nor an array");
    if (events_depth >= 0 && depth == events_depth) {
      // A scalar is reported once read: the byte after it.
      throw EarlError(path_ + ": event " + std::to_string(count) + " (ending at byte " + std::to_string(input_.Tell()) +
                      "): not an object");
    }
    if (events_depth < 0 && form == Form::Container && depth == 1 && key_ == "traceEvents")
      throw EarlError(path_ + ": byte " + std::to_string(input_.Tell()) + ": traceEvents is not an array");
    if (!in_event()) return true;
    if (depth == events_depth + 1) {
      if (ChromeScalar* f = field_named(fields, key_)) *f = std::move(value);
    } else if (depth == events_depth + 2 && in_args_) {
      fields.args.emplace_back(arg_key_, std::move(value));
    } else if (depth == events_depth + 2 && in_id2_ && (arg_key_ == "local" || arg_key_ == "global")) {
      fields.id2 = std::move(value);
    }
    return true;
  }

  bool Null() { ChromeScalar v; v.kind = ChromeScalar::Kind::Null; return scalar(std::move(v)); }
  bool Bool(bool b) { ChromeScalar v; v.kind = ChromeScalar::Kind::Bool; v.flag = b; return scalar(std::move(v)); }
  bool Int(int i) { return Int64(i); }
  bool Uint(unsigned u) { return Uint64(u); }
  bool Int64(std::int64_t i) { ChromeScalar v; v.kind = ChromeScalar::Kind::Int; v.integer = i; return scalar(std::move(v)); }
  bool Uint64(std::uint64_t u) {
    ChromeScalar v;
    if (u <= static_cast<std::uint64_t>(INT64_MAX)) {
      v.kind = ChromeScalar::Kind::Int;
      v.integer = static_cast<std::int64_t>(u);
    } else {
      v.kind = ChromeScalar::Kind::UInt;
      v.unsigned_integer = u;
    }
    return scalar(std::move(v));
  }
  bool Double(double d) { ChromeScalar v; v.kind = ChromeScalar::Kind::Double; v.real = d; return scalar(std::move(v)); }
  // Numbers come as their text (kParseNumbersAsStringsFlag), kept beside the value so that
  // timestamps convert to nanoseconds exactly (a double holds epoch microseconds only to
  // a quarter microsecond).
  bool RawNumber(const char* s, rapidjson::SizeType n, bool) {
    ChromeScalar v;
    v.text.assign(s, n);
    const bool real = v.text.find_first_of(".eE") != std::string::npos;
    errno = 0;
    if (!real && v.text[0] == '-') {
      v.integer = std::strtoll(v.text.c_str(), nullptr, 10);
      v.kind = errno == ERANGE ? ChromeScalar::Kind::Double : ChromeScalar::Kind::Int;
    } else if (!real) {
      const unsigned long long u = std::strtoull(v.text.c_str(), nullptr, 10);
      if (errno == ERANGE) {
        v.kind = ChromeScalar::Kind::Double;
      } else if (u <= static_cast<unsigned long long>(INT64_MAX)) {
        v.kind = ChromeScalar::Kind::Int;
        v.integer = static_cast<std::int64_t>(u);
      } else {
        v.kind = ChromeScalar::Kind::UInt;
        v.unsigned_integer = u;
      }
    } else {
      v.kind = ChromeScalar::Kind::Double;
    }
    if (v.kind == ChromeScalar::Kind::Double) v.real = std::strtod(v.text.c_str(), nullptr);
    return scalar(std::move(v));
  }
  bool String(const char* s, rapidjson::SizeType n, bool) {
    ChromeScalar v;
    v.kind = ChromeScalar::Kind::String;
    v.text.assign(s, n);
    return scalar(std::move(v));
  }

  bool Key(const char* s, rapidjson::SizeType n, bool) {
    if (depth == 1 || (events_depth >= 0 && depth == events_depth + 1)) key_.assign(s, n);
    else if (events_depth >= 0 && depth == events_depth + 2) arg_key_.assign(s, n);
    return true;
  }

  void deeper() {
    if (++depth > kMaxDepth)
      throw EarlError(path_ + ": byte " + std::to_string(input_.Tell()) + ": JSON nested deeper than " +
                      std::to_string(kMaxDepth) + " levels");
  }

  bool StartObject() {
    if (depth == 0) {
      form = Form::Container;
    } else if (events_depth >= 0 && depth == events_depth) {
      start_event();
    } else if (events_depth < 0 && form == Form::Container && depth == 1 && key_ == "traceEvents") {
      throw EarlError(path_ + ": byte " + std::to_string(input_.Tell()) + ": traceEvents is not an array");
    } else if (in_event() && depth == events_depth + 1) {
      in_args_ = key_ == "args";
      in_id2_ = key_ == "id2";
    }
    deeper();
    return true;
  }

  bool EndObject(rapidjson::SizeType) {
    --depth;
    if (events_depth >= 0 && depth == events_depth) {
      on_event_(fields);
      ++count;
    } else if (events_depth >= 0 && depth == events_depth + 1) {
      in_args_ = in_id2_ = false;
    }
    return true;
  }

  bool StartArray() {
    if (depth == 0) {
      form = Form::Array;
      events_depth = 1;
      saw_events = true;
    } else if (events_depth >= 0 && depth == events_depth) {
      start_event();
      fail("not an object");
    } else if (events_depth < 0 && form == Form::Container && depth == 1 && key_ == "traceEvents") {
      if (saw_events) throw EarlError(path_ + ": byte " + std::to_string(input_.Tell()) + ": a second traceEvents");
      events_depth = 2;
      saw_events = true;
    }
    deeper();
    return true;
  }

  bool EndArray(rapidjson::SizeType) {
    --depth;
    if (events_depth >= 0 && depth == events_depth - 1) events_depth = -1;
    return true;
  }

 private:
  void start_event() {
    fields.clear();
    fields.index = count;
    fields.offset = input_.Tell();  // the iterative reader calls StartObject before it takes the `{`
    in_args_ = in_id2_ = false;
  }

  const std::string& path_;
  ChromeInput& input_;
  const std::function<void(const ChromeFields&)>& on_event_;
  std::string key_, arg_key_;
  bool in_args_ = false, in_id2_ = false;
};

}  // namespace

ChromeParseResult parse_chrome_events(const std::string& path, bool strict,
                                      const std::function<void(const ChromeFields&)>& on_event) {
  ChromeInput input(path);
  Handler handler(path, input, on_event);
  rapidjson::Reader reader;
  // Iterative: nesting depth costs heap, not stack (a hostile file nests deeply).
  constexpr unsigned kFlags =
      rapidjson::kParseIterativeFlag | rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseTrailingCommasFlag;
  ChromeParseResult result;
  // Damage inside the event array after a whole event: the events before it are the trace
  // (unless strict), as a crashed writer leaves them.
  auto damaged = [&](const std::string& why) {
    if (strict || !handler.saw_events || handler.count == 0) return false;
    result.events = handler.count;
    result.damage = why;
    return true;
  };
  rapidjson::ParseResult ok;
  try {
    ok = reader.Parse<kFlags>(input, handler);
  } catch (const ChromeInputDamage& error) {
    if (damaged(error.what())) return result;
    throw;
  }
  result.events = handler.count;
  if (!ok) {
    // A bare array cut between two events (after a `}` or a `,`) is a whole trace.
    if (handler.form == Handler::Form::Array && handler.depth == 1 && input.at_end()) {
      result.unterminated = true;
      return result;
    }
    std::string where = path + ": byte " + std::to_string(ok.Offset());
    if (handler.in_event())
      where += " (in event " + std::to_string(handler.fields.index) + " from byte " +
               std::to_string(handler.fields.offset) + ")";
    std::string why = rapidjson::GetParseError_En(ok.Code());
    if (input.at_end() && ok.Offset() >= input.Tell()) why = "the file ends early (" + why + ")";
    if (damaged(where + ": " + why)) return result;
    throw EarlError(where + ": " + why);
  }
  if (handler.form == Handler::Form::Container && !handler.saw_events)
    throw EarlError(path + ": a JSON object without a traceEvents array, not a Chrome trace");
  return result;
}

}  // namespace earl
