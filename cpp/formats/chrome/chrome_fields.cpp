#include "formats/chrome/chrome_fields.h"

#include <cstring>

namespace earl {

std::string ChromeScalar::key() const {
  switch (kind) {
    case Kind::Int: return "n" + std::to_string(integer);
    case Kind::UInt: return "n" + std::to_string(unsigned_integer);
    case Kind::Double: return "d" + text;
    case Kind::String: return "s" + text;
    default: return "";
  }
}

void ChromeFields::clear() {
  for (ChromeScalar* f : {&ph, &name, &cat, &pid, &tid, &ts, &dur, &id, &id2, &bind_id, &flow_in, &flow_out, &scope}) {
    f->kind = ChromeScalar::Kind::Absent;
    f->text.clear();
  }
  args.clear();
}

const ChromeScalar* ChromeFields::arg(const char* key) const {
  for (const auto& member : args)
    if (member.first == key) return &member.second;
  return nullptr;
}

}  // namespace earl
