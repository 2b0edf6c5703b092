#pragma once
// How the Chrome writer puts a name into a JSON string: quotes, backslashes and control
// characters escaped as JSON has them (read back as the same bytes); bytes that are not
// UTF-8 (which JSON text must be) written visibly as "\xNN" text (format_interface/
// written_names.h), which changes the name.
#include <string>

namespace earl {

// The JSON string literal (with its quotes) of `name`; `changed` set when a byte was not UTF-8.
std::string chrome_json_string(const std::string& name, bool& changed);

}  // namespace earl
