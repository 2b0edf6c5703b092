#pragma once
#include <string>

namespace earl {

// Whether `head` (a file's first bytes, gzip-compressed or not) begins a Chrome trace:
// after blanks, `[{` (the bare event array) or `{` with a "traceEvents" key in view.
// A file named *.json or *.json.gz that starts an object counts too: producers may write
// other keys first (PyTorch: schemaVersion, deviceProperties) beyond the bytes looked at.
bool looks_like_chrome_trace(const std::string& head, bool json_name = false);

}  // namespace earl
