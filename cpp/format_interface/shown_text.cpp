#include "format_interface/shown_text.h"

namespace earl {

std::string shown_text(std::string_view token) {
  constexpr std::size_t kMost = 40;
  std::string out;
  for (char c : token.substr(0, kMost)) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      static const char* const kHex = "0123456789abcdef";
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  if (token.size() > kMost) out += "...";
  return out;
}

std::string non_text_bytes(std::string_view part, std::size_t column) {
  for (std::size_t i = 0; i < part.size(); ++i) {
    const auto c = static_cast<unsigned char>(part[i]);
    const bool blank = c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
    if ((c < 0x20 && !blank) || c == 0x7f)
      return "bytes that are not text (byte " + std::to_string(column + i + 1) + " of the line is " +
             shown_text(part.substr(i, 1)) + ")";
  }
  return "";
}

}  // namespace earl
