#include "trace/open_options.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

#include "access/random_access_trace.h"
#include "index/index_settings.h"
#include "model/error.h"

namespace earl {

namespace {

constexpr const char* kCacheEnv = "EARL_CACHE";
constexpr const char* kMemoryEnv = "EARL_MEMORY";

std::string number_text(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

// A tri-state (-1 unset, 0, 1) as an option value.
OptionValue tri_state(int value) {
  if (value < 0) return std::monostate{};
  return value != 0;
}

std::string no_problem(const OptionValue&) { return ""; }

// "123", "64K", "256M", "2G" (binary multiples).
std::uint64_t parse_memory(const std::string& text, const std::string& where) {
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  std::string suffix = text.substr(digits);
  int shift = suffix.empty() ? 0 : suffix == "K" || suffix == "k" ? 10 : suffix == "M" || suffix == "m" ? 20
              : suffix == "G" || suffix == "g" ? 30 : -1;
  if (digits == 0 || digits > 15 || shift < 0)
    throw EarlError(where + " must be a number of bytes, optionally with K, M or G, got '" + text + "'");
  std::uint64_t value = std::stoull(text.substr(0, digits)) << shift;
  if (value == 0) throw EarlError(where + " must be positive, got '" + text + "'");
  return value;
}

}  // namespace

const std::vector<OpenOption>& open_options() {
  using T = OptionType;
  static const std::vector<OpenOption> table = {
      {"format", "-format", "-format", T::Text, "format", true, nullptr,
       "the trace format (default: detected from the content)",
       [](const OpenOptions& o) -> OptionValue {
         if (o.format.empty()) return std::monostate{};
         return o.format;
       },
       [](OpenOptions& o, const OptionValue& v) { o.format = std::get<std::string>(v); }, no_problem},
      {"bdist", "-bdist", "-mark", T::Integer, "n", true, nullptr,
       "events between two bookmarks: any event is at most this many decodings away",
       [](const OpenOptions& o) -> OptionValue { return o.bdist; },
       [](OpenOptions& o, const OptionValue& v) { o.bdist = std::get<std::int64_t>(v); },
       [](const OptionValue& v) -> std::string {
         std::int64_t n = std::get<std::int64_t>(v);
         return n < 0 ? "must be a nonnegative integer, got " + std::to_string(n) : "";
       }},
      {"hsize", "-hsize", "-hist", T::Integer, "n", true, nullptr,
       "events kept in the history window (following pointers from them costs no re-read)",
       [](const OpenOptions& o) -> OptionValue { return o.hsize; },
       [](OpenOptions& o, const OptionValue& v) { o.hsize = std::get<std::int64_t>(v); },
       [](const OptionValue& v) -> std::string {
         std::int64_t n = std::get<std::int64_t>(v);
         return n < 1 ? "must be a positive integer, got " + std::to_string(n) : "";
       }},
      {"cache", "-cache", nullptr, T::Boolean, "boolean", true, kCacheEnv,
       "read slow-seeking formats (OTF2) once into EARL's event cache (default: yes unless EARL_CACHE=0)",
       [](const OpenOptions& o) { return tri_state(o.cache); },
       [](OpenOptions& o, const OptionValue& v) { o.cache = std::get<bool>(v) ? 1 : 0; }, no_problem},
      {"memory", "-memory", nullptr, T::Integer, "bytes", true, kMemoryEnv,
       "bytes the bookmarks may hold (default: $EARL_MEMORY, bytes or with K/M/G, else 256 MiB)",
       [](const OpenOptions& o) -> OptionValue {
         if (!o.memory) return std::monostate{};
         return *o.memory;
       },
       [](OpenOptions& o, const OptionValue& v) { o.memory = std::get<std::int64_t>(v); },
       [](const OptionValue& v) -> std::string {
         std::int64_t n = std::get<std::int64_t>(v);
         return n <= 0 ? "must be a positive number of bytes, got " + std::to_string(n) : "";
       }},
      {"index", "-index", nullptr, T::Boolean, "boolean", true, kIndexEnv,
       "keep the opening scan in a persisted index beside the trace (default: traces of at least "
       "$EARL_INDEX_MIN_BYTES unless EARL_INDEX=0)",
       [](const OpenOptions& o) { return tri_state(o.index); },
       [](OpenOptions& o, const OptionValue& v) { o.index = std::get<bool>(v) ? 1 : 0; }, no_problem},
      {"time_correct", "-timecorrect", nullptr, T::Boolean, "boolean", false, nullptr,
       "correct clock-condition violations by the controlled logical clock",
       [](const OpenOptions& o) -> OptionValue { return o.time_correct; },
       [](OpenOptions& o, const OptionValue& v) { o.time_correct = std::get<bool>(v); }, no_problem},
      {"min_latency", "-minlatency", nullptr, T::Number, "seconds", false, nullptr,
       "the least time, in seconds, a message takes when clocks are corrected",
       [](const OpenOptions& o) -> OptionValue { return o.clock.min_latency; },
       [](OpenOptions& o, const OptionValue& v) { o.clock.min_latency = std::get<double>(v); },
       [](const OptionValue& v) -> std::string {
         double x = std::get<double>(v);
         return std::isfinite(x) && x >= 0 ? "" : "must be a number of seconds >= 0, got " + number_text(x);
       }},
      {"strict", "-strict", nullptr, T::Boolean, "boolean", false, nullptr,
       "fail on a damaged trace instead of reading up to the damage and reporting what was lost",
       [](const OpenOptions& o) -> OptionValue { return o.strict; },
       [](OpenOptions& o, const OptionValue& v) { o.strict = std::get<bool>(v); }, no_problem},
  };
  return table;
}

const OpenOption* find_open_option(const std::string& name) {
  for (const OpenOption& option : open_options())
    if (name == option.name) return &option;
  return nullptr;
}

OptionValue option_default(const OpenOption& option) { return option.get(OpenOptions{}); }

const char* option_type_words(OptionType type) {
  switch (type) {
    case OptionType::Text: return "a string";
    case OptionType::Integer: return "an integer";
    case OptionType::Boolean: return "a boolean";
    case OptionType::Number: return "a number";
  }
  return "a value";
}

void set_open_option(OpenOptions& options, const OpenOption& option, const OptionValue& value,
                     const std::string& spelled) {
  if (std::holds_alternative<std::monostate>(value)) return;
  const std::size_t wanted = static_cast<std::size_t>(option.type) + 1;  // the variant's order
  if (value.index() != wanted) throw EarlError(spelled + " must be " + option_type_words(option.type));
  std::string problem = option.problem(value);
  if (!problem.empty()) throw EarlError(spelled + " " + problem);
  option.put(options, value);
}

void check_open_options(const OpenOptions& options) {
  for (const OpenOption& option : open_options()) {
    OptionValue value = option.get(options);
    if (std::holds_alternative<std::monostate>(value)) continue;
    std::string problem = option.problem(value);
    if (!problem.empty()) throw EarlError(std::string(option.name) + " " + problem);
  }
  if (options.cache < -1 || options.cache > 1)
    throw EarlError("cache must be -1 (automatic), 0 or 1, got " + std::to_string(options.cache));
  if (options.index < -1 || options.index > 1)
    throw EarlError("index must be -1 (automatic), 0 or 1, got " + std::to_string(options.index));
}

bool use_event_cache(const OpenOptions& options) {
  if (options.cache >= 0) return options.cache != 0;
  const char* setting = std::getenv(kCacheEnv);
  if (!setting) return true;
  std::string value(setting);
  auto first = value.find_first_not_of(" \t\n");
  auto last = value.find_last_not_of(" \t\n");
  return first == std::string::npos || value.substr(first, last - first + 1) != "0";
}

std::uint64_t memory_budget(std::optional<std::int64_t> memory) {
  if (memory) {
    if (*memory > 0) return static_cast<std::uint64_t>(*memory);
    throw EarlError("memory must be a positive number of bytes, got " + std::to_string(*memory));
  }
  const char* env = std::getenv(kMemoryEnv);
  if (env && *env) return parse_memory(env, kMemoryEnv);
  return RandomAccessTrace::kDefaultMemory;
}

}  // namespace earl
