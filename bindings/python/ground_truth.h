#pragma once
// The generator's ground truth as the Python dict that `earl gen` writes as JSON.
#include <pybind11/pybind11.h>

#include "gen/generator.h"

namespace earl::bindings {

// The keys and their order are those of OUT.truth.json (docs/api-contract.md): first how
// the trace was made, then what it contains. JSON-ready: lists, str keys, None.
pybind11::dict truth_to_python(const gen::GenOptions& options, const gen::GenResult& result);

}  // namespace earl::bindings
