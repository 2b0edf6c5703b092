#pragma once
#include <string>

namespace earl {

// Whether `head` (a file's first bytes, gzip-compressed or not) begins a Chrome trace:
// after blanks, `[{` (the bare event array) or `{` with a "traceEvents" key in view.
bool looks_like_chrome_trace(const std::string& head);

}  // namespace earl
