#pragma once
// The generator's options (cpp/gen/options.h) between Python and C++: keyword values ->
// GenOptions, GenOptions -> Python values, and the table itself for `earl gen --help`.
#include <pybind11/pybind11.h>

#include "gen/generator.h"
#include "gen/options.h"

namespace earl::bindings {

// GenOptions from {name: value}; EarlError naming an unknown option or a value of the wrong
// type. Ranges are GenOptions::validate's job.
gen::GenOptions options_from(const pybind11::dict& given);

// The option's value in `options` as Python sees it (None for an unset optional number).
pybind11::object option_value(const gen::OptionSpec& spec, const gen::GenOptions& options);

// The table as a list of dicts: name, type, default, group, help, min, max, choices.
pybind11::list describe_options();

}  // namespace earl::bindings
