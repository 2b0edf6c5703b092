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

}  // namespace earl
