#pragma once
// The generator's options, described once: name, type (from the GenOptions member the row
// points to), default (that member in a default-constructed GenOptions), help text and
// valid range. GenOptions::validate, the Python binding's keyword parsing and defaults,
// `earl gen --help` and the "options" of the ground truth all read this table.
#include <cstdint>
#include <limits>
#include <string>
#include <variant>
#include <vector>

#include "gen/generator.h"

namespace earl::gen {

// Locations of a run, worker threads included: one round of 2^16 locations is ~100 MB of
// events.
constexpr int kMaxLocations = 1 << 16;

using OptionField =
    std::variant<int GenOptions::*, std::int64_t GenOptions::*, std::uint64_t GenOptions::*,
                 double GenOptions::*, std::string GenOptions::*, bool GenOptions::*>;

enum class OptionGroup {
  Run,    // what is generated: size, seed, format, layout of processes and threads
  Model,  // the program model and the injected inefficiencies (the truth's "options")
};

struct OptionSpec {
  const char* name;
  OptionField field;
  OptionGroup group;
  const char* help;
  // Numbers: the inclusive range a value must lie in.
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  // Strings: the allowed values, comma-separated ("" = any; the format is checked against
  // the writers this build has).
  const char* choices = "";
  // 0 stands for "not given" (None in Python); a given value must lie in [min, max].
  bool zero_is_unset = false;
};

// Every option of GenOptions: the Run group first, then the Model group in the order the
// ground truth lists them.
const std::vector<OptionSpec>& option_table();

// The row named `name`, or nullptr.
const OptionSpec* find_option(const std::string& name);

// The allowed values of a string option (empty: any).
std::vector<std::string> option_choices(const OptionSpec& spec);

// EarlError ("earl gen: NAME must be ...") when the option's value in `options` is outside
// the row's range or choices.
void check_option(const OptionSpec& spec, const GenOptions& options);

}  // namespace earl::gen
