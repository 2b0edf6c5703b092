#pragma once
#include <string>
#include <string_view>

namespace earl {

// A token of a text trace as an error message shows it: control bytes as \xNN, at most 40
// bytes of it, "..." where it was longer (ALOG, described text formats).
std::string shown_text(std::string_view token);

// What is wrong with `part` of a text trace's line, which starts at `column` (0-based) of
// the line: "bytes that are not text (byte N of the line is \x00)" naming its first
// control byte other than the blanks (a NUL block, what a crash often leaves where a
// file's end was being written, or binary junk); "" when it has none.
std::string non_text_bytes(std::string_view part, std::size_t column = 0);

}  // namespace earl
