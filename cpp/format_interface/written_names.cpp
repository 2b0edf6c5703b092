#include "format_interface/written_names.h"

namespace earl {

namespace {

// The blanks the ALOG reader trims from both ends of a comment (alog_decoder.cpp).
bool alog_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

}  // namespace

std::string escaped_byte(unsigned char byte) {
  static const char* const kHex = "0123456789abcdef";
  return std::string{'\\', 'x', kHex[byte >> 4], kHex[byte & 15]};
}

std::string alog_name(const std::string& name, bool region) {
  if (name.empty()) return region ? "\"\"" : "";
  std::size_t first = 0, last = name.size();  // [first, last): what no trim can reach
  while (first < last && alog_blank(name[first])) ++first;
  while (last > first && alog_blank(name[last - 1])) --last;
  std::string out;
  out.reserve(name.size());
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (i < first || i >= last || c == '\n' || c == '\r')
      out += escaped_byte(static_cast<unsigned char>(c));
    else
      out += c;
  }
  return out;
}

std::string otf_name(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (c == '\0' || c == '\n' || c == '\r' || c == '"')
      out += escaped_byte(static_cast<unsigned char>(c));
    else
      out += c;
  }
  return out;
}

std::string otf2_name(const std::string& name) {
  if (name.find('\0') == std::string::npos) return name;
  std::string out;
  for (char c : name) {
    if (c == '\0')
      out += escaped_byte(0);
    else
      out += c;
  }
  return out;
}

std::string RenamedNames::note(const char* kind, const std::string& name, std::string written) {
  if (written != name) {
    std::size_t i = 0;
    while (i < counts_.size() && counts_[i].first != kind) ++i;
    if (i == counts_.size()) counts_.emplace_back(kind, 0);
    ++counts_[i].second;
  }
  return written;
}

}  // namespace earl
