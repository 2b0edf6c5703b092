#pragma once
#include <memory>
#include <string>

#include "format_interface/trace_format.h"

namespace earl {

// The registry's row for described formats: named "described", read only through a
// description, "described:SPEC" (registry/format_registry.cpp resolves the parameter).
const TraceFormat& described_format();

// Whether a format name is "described:SPEC".
bool is_described_format(const std::string& format);
// The description file SPEC names: a path, or the short name of a description found in
// the folders of EARL_DESCRIPTIONS (colon-separated; the Python package adds its shipped
// ones), e.g. "alog" for alog.toml. Absolute. EarlError naming SPEC when there is none.
std::string description_file(const std::string& format);
// "described:" and the absolute description file: the name the trace's identity and its
// persisted index are keyed by.
std::string resolved_described_format(const std::string& format);
// A decoder of the trace at `path` through the description `format` names.
std::unique_ptr<TraceDecoder> open_described(const std::string& path, const std::string& format,
                                              const ReadOptions& options);

}  // namespace earl
