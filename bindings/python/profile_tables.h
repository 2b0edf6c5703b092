#pragma once
// The profile layer's tables as dicts of NumPy arrays (earl/tables.py and earl/stats.py
// make DataFrames of them).
#include <pybind11/pybind11.h>

#include "profile/region_instances.h"
#include "profile/trace_profile.h"

namespace earl::bindings {

pybind11::dict instance_columns(const profile::RegionInstances& found);
pybind11::dict profile_columns(const profile::TraceProfile& found);

}  // namespace earl::bindings
