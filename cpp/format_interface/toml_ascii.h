#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace earl {

// For the readers of TOML through toml++ (format descriptions, rules files of earl check):
// the first character beyond ASCII outside a string or comment, which toml++ 3.3 must not
// see (toml_ascii.cpp says why); nullopt where there is none. Line and column 1-based,
// columns in code points.
struct TextPlace {
  std::uint32_t line = 0, column = 0;
};
std::optional<TextPlace> non_ascii_outside_strings(std::string_view text);

// What the readers say of it, after the file's name and place.
inline constexpr const char* kNonAsciiOutsideStrings =
    "a character beyond ASCII outside a string or comment (TOML keys are ASCII; quote it)";

}  // namespace earl
