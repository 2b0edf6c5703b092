// What a description defines, for `earl describe --check`: the layout, then one line per
// record kind with how it is selected, what it means and its fields.
#include "formats/described/description_loader.h"

namespace earl {

namespace {

const char* type_name(FieldType type) {
  switch (type) {
    case FieldType::Int: return "int";
    case FieldType::UInt: return "uint";
    case FieldType::Float: return "float";
    case FieldType::String: return "string";
    case FieldType::Time: return "time";
    case FieldType::Flags: return "flags";
    case FieldType::Length: return "length";
    case FieldType::Checksum: return "checksum";
    case FieldType::Filler: return "filler";
  }
  return "?";
}

const char* kind_name(EventKind kind) {
  switch (kind) {
    case EventKind::Enter: return "enter";
    case EventKind::Exit: return "exit";
    case EventKind::Send: return "send";
    case EventKind::Recv: return "recv";
    case EventKind::Metric: return "metric";
    case EventKind::CollectiveExit: return "collective_exit";
    default: return "other";
  }
}

std::string fields_text(const std::vector<FieldSpec>& fields) {
  std::string out;
  for (const FieldSpec& f : fields) {
    out += (out.empty() ? "" : ", ") + f.name + ":" + type_name(f.type);
    if (f.when_field >= 0) out += "?";
  }
  return out.empty() ? "-" : out;
}

std::string meaning(const RecordSpec& r) {
  switch (r.role) {
    case RecordRole::Event: return std::string("event ") + kind_name(r.kind);
    case RecordRole::ByCode: return "event by code";
    case RecordRole::DefineRegion: return "defines region names";
    case RecordRole::DefineLocation: return "defines location names";
    case RecordRole::DefineCode: return "defines codes";
    case RecordRole::LocationCount: return "declares the location count";
    case RecordRole::TimeWrap: return "defines the time's cycle period";
    case RecordRole::Skip: return "skipped";
  }
  return "";
}

std::string selector(const Description& d, const RecordSpec& r) {
  if (!r.regex.empty()) return "regex " + r.regex;
  std::string out;
  const std::string key = d.key_field >= 0 ? d.fields[static_cast<std::size_t>(d.key_field)].name : "key";
  for (const KeyValue& v : r.match) out += (out.empty() ? "" : ", ") + (v.is_text ? "'" + v.text + "'" : std::to_string(v.number));
  if (!out.empty()) out = key + " in {" + out + "}";
  if (r.match_from) out += (out.empty() ? "" : " or ") + key + " >= " + std::to_string(r.match_from_value);
  return out;
}

}  // namespace

std::string description_outline(const Description& d) {
  std::string out = d.path + ": format '" + d.name + "'" + (d.summary.empty() ? "" : " (" + d.summary + ")") + "\n";
  if (d.binary) {
    out += "  binary, " + std::string(d.big_endian ? "big" : "little") + "-endian, header " +
           std::to_string(d.header_bytes) + " bytes, records " +
           (d.record_bytes ? std::to_string(d.record_bytes) + " bytes each"
                           : "sized by field " + d.fields[static_cast<std::size_t>(d.length_field)].name) + "\n";
  } else {
    out += "  text, separator " + std::string(d.separator == " " ? "blanks" : "'" + d.separator + "'") +
           (d.quote ? std::string(", fields may be quoted with '") + d.quote + "'" : "") +
           (d.header ? ", header line names the columns" : "") +
           (d.comment.empty() ? "" : ", comments start with '" + d.comment + "'") + "\n";
  }
  out += "  common fields: " + fields_text(d.fields) + "\n";
  out += "  records (" + std::to_string(d.records.size()) + "):\n";
  for (const RecordSpec& r : d.records)
    out += "    " + r.name + ": " + meaning(r) + "; " + selector(d, r) + "; fields: " + fields_text(r.fields) + "\n";
  if (d.key_field >= 0) out += std::string("  other records: ") + (d.skip_unmatched ? "skipped" : "an error") + "\n";
  if (d.definitions_anywhere) out += "  definitions: anywhere (the whole file is scanned for them at open)\n";
  return out;
}

}  // namespace earl
