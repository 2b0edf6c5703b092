#pragma once
// The options of opening a trace, described once: name in each language, type, default
// (that of a default-constructed OpenOptions), the environment variable that decides when
// the option is not given, and a one-line help. EventTrace checks them here; the Python,
// Lua and Tcl mappings and the command line read this table for names, order and
// defaults, and only convert values of their language into OptionValue.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "timecorrect/clock_corrections.h"

namespace earl {

struct OpenOptions {
  std::string format;  // empty = detect
  std::int64_t bdist = 10000;
  std::int64_t hsize = 1000;
  // Read slow-seeking formats (OTF2) once into EARL's event cache: 1 yes, 0 no, -1 unless
  // $EARL_CACHE is 0.
  int cache = -1;
  // Bytes the bookmarks may hold; not given: $EARL_MEMORY (bytes, or with a K/M/G suffix),
  // else 256 MiB. An optional, not a sentinel: every given value is checked, so -1 is an
  // error like -2 rather than "not given".
  std::optional<std::int64_t> memory;
  // The persisted index (index/index_settings.h): -1 automatic ($EARL_INDEX, traces of
  // at least $EARL_INDEX_MIN_BYTES), 0 never, 1 always. Off with time_correct.
  int index = -1;
  // Correct clock-condition violations by the controlled logical clock (timecorrect/):
  // every event's time is then its corrected time; positions stay the same.
  bool time_correct = false;
  ClockCorrectionOptions clock;
  // A damaged part of the trace (an event file cut or corrupted) is an error, instead of
  // a problem reported after reading everything before the damage.
  bool strict = false;
};

enum class OptionType { Text, Integer, Boolean, Number };

// A value as a language mapping converted it: of the row's type, or monostate for "not
// given" (the default, or the environment, decides).
using OptionValue = std::variant<std::monostate, std::string, std::int64_t, bool, double>;

struct OpenOption {
  const char* name;   // Python keyword, Lua key
  const char* tcl;    // the EARL 2.0 Tcl flag
  const char* tcl98;  // the 1998 `earl open` flag, or nullptr where that dialect has none
  OptionType type;
  const char* metavar;  // what a value is, for usage lines ("n", "bytes", "seconds")
  // May be given by position after the file, in table order (Python and Lua).
  bool positional;
  const char* env;  // consulted when the option is not given, or nullptr
  const char* help;
  OptionValue (*get)(const OpenOptions&);  // monostate: not set
  void (*put)(OpenOptions&, const OptionValue&);
  // What is wrong with a value of the row's type ("must be ..., got ..."), or "".
  std::string (*problem)(const OptionValue&);
};

const std::vector<OpenOption>& open_options();

// The row named `name` (its Python/Lua name), or nullptr.
const OpenOption* find_open_option(const std::string& name);

// The default of a row: its value in a default-constructed OpenOptions.
OptionValue option_default(const OpenOption& option);

// "a string", "an integer", "a boolean", "a number".
const char* option_type_words(OptionType type);

// Sets one option from a converted value; nothing for monostate. EarlError naming
// `spelled` (the option as the caller's language spells it) for a value of another type
// or out of range.
void set_open_option(OpenOptions& options, const OpenOption& option, const OptionValue& value,
                     const std::string& spelled);

// EarlError naming the first option whose value is out of range.
void check_open_options(const OpenOptions& options);

// Whether to use the event cache: `cache`, or when unset $EARL_CACHE (anything but 0: yes).
bool use_event_cache(const OpenOptions& options);

// The bookmark budget `memory` stands for (EarlError for a bad value or $EARL_MEMORY).
std::uint64_t memory_budget(std::optional<std::int64_t> memory);

}  // namespace earl
