#include "formats/chrome/chrome_sniff.h"

#include <zlib.h>

#include <cstring>

namespace earl {

namespace {

// The text at the start of a gzip stream, as far as `compressed` reaches.
std::string inflated_head(const std::string& compressed) {
  std::string text(4096, '\0');
  z_stream z;
  std::memset(&z, 0, sizeof z);
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return "";
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  z.avail_in = static_cast<uInt>(compressed.size());
  z.next_out = reinterpret_cast<Bytef*>(&text[0]);
  z.avail_out = static_cast<uInt>(text.size());
  inflate(&z, Z_SYNC_FLUSH);
  text.resize(text.size() - z.avail_out);
  inflateEnd(&z);
  return text;
}

std::size_t skip_blanks(const std::string& s, std::size_t at) {
  while (at < s.size() && (s[at] == ' ' || s[at] == '\t' || s[at] == '\n' || s[at] == '\r')) ++at;
  return at;
}

}  // namespace

bool looks_like_chrome_trace(const std::string& head, bool json_name) {
  if (head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f && static_cast<unsigned char>(head[1]) == 0x8b)
    return looks_like_chrome_trace(inflated_head(head), json_name);
  std::size_t at = head.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  at = skip_blanks(head, at);
  if (at >= head.size()) return false;
  if (head[at] == '[') {
    at = skip_blanks(head, at + 1);
    return at < head.size() && head[at] == '{';
  }
  return head[at] == '{' && (json_name || head.find("\"traceEvents\"", at) != std::string::npos);
}

}  // namespace earl
