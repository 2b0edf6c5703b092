#include "format_interface/toml_ascii.h"

namespace earl {

// TOML allows characters beyond ASCII only in strings and comments. toml++ 3.3 checks
// others for being Unicode whitespace, and for some (U+00A1..U+0499, U+FBB6..U+FEFE) that
// check reaches its __builtin_unreachable (found by fuzz/described_description_fuzzer.cpp):
// they are refused before toml++ sees them.
std::optional<TextPlace> non_ascii_outside_strings(std::string_view text) {
  std::uint32_t line = 1, column = 0;
  enum { kNormal, kComment, kBasic, kLiteral, kMultiBasic, kMultiLiteral } state = kNormal;
  const std::string_view kQuotes = "\"\"\"", kApostrophes = "'''";
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) != 0x80) ++column;  // a UTF-8 continuation byte is no column of its own
    if (c == '\n') {
      ++line;
      column = 0;
      if (state == kComment || state == kBasic || state == kLiteral) state = kNormal;
      continue;
    }
    const std::string_view rest = text.substr(i, 3);
    switch (state) {
      case kNormal:
        if (c == '#') {
          state = kComment;
        } else if (rest == kQuotes || rest == kApostrophes) {
          state = rest == kQuotes ? kMultiBasic : kMultiLiteral;
          i += 2;
          column += 2;
        } else if (c == '"' || c == '\'') {
          state = c == '"' ? kBasic : kLiteral;
        } else if (c >= 0x80) {
          return TextPlace{line, column};
        }
        break;
      case kBasic:
      case kMultiBasic:
        if (c == '\\') {
          ++i;  // the escaped character, whatever it is (a newline is counted with it)
          if (i < text.size() && text[i] == '\n') {
            ++line;
            column = 0;
          }
        } else if (state == kBasic ? c == '"' : rest == kQuotes) {
          if (state == kMultiBasic) i += 2;
          state = kNormal;
        }
        break;
      case kLiteral:
        if (c == '\'') state = kNormal;
        break;
      case kMultiLiteral:
        if (rest == kApostrophes) {
          i += 2;
          state = kNormal;
        }
        break;
      case kComment:
        break;
    }
  }
  return std::nullopt;
}

}  // namespace earl
