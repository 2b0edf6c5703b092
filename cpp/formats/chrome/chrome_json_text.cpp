#include "formats/chrome/chrome_json_text.h"

#include <cstdio>

#include "format_interface/written_names.h"

namespace earl {

namespace {

// Length of the well-formed UTF-8 sequence at s[i] (RFC 3629: no overlongs, no
// surrogates, at most U+10FFFF), 0 where there is none.
std::size_t utf8_length(const std::string& s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  std::size_t n;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  if (b(i + 1) < lo || b(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
  return n;
}

}  // namespace

std::string chrome_json_string(const std::string& name, bool& changed) {
  std::string out = "\"";
  changed = false;
  for (std::size_t i = 0; i < name.size();) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    const std::size_t n = utf8_length(name, i);
    if (n == 0) {
      out += "\\\\x" + escaped_byte(c).substr(2);  // the text \xNN, its backslash escaped
      changed = true;
      ++i;
      continue;
    }
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      char code[8];
      std::snprintf(code, sizeof code, "\\u%04x", c);
      out += code;
    } else {
      out.append(name, i, n);
    }
    i += n;
  }
  out += '"';
  return out;
}

}  // namespace earl
