#pragma once
#include <string>
#include <string_view>

namespace earl {

// A token of a text trace as an error message shows it: control bytes as \xNN, at most 40
// bytes of it, "..." where it was longer (ALOG, described text formats).
std::string shown_text(std::string_view token);

}  // namespace earl
