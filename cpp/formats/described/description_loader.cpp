#include "formats/described/description_loader.h"

#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>

#include "format_interface/toml_ascii.h"
#include "model/error.h"

#ifdef EARL_HAVE_TOMLPP
#include <toml++/toml.h>
#endif

namespace earl {

namespace {

// The keys of each table a description may hold; one source for the checker and for
// description_keys() (the template documents each).
const std::map<std::string, std::vector<std::string>>& allowed_keys() {
  static const std::map<std::string, std::vector<std::string>> keys = {
      {"", {"format", "text", "binary", "records", "field", "record"}},
      {"format", {"name", "summary", "kind"}},
      {"text", {"separator", "quote", "comment", "skip_lines", "header"}},
      {"binary", {"byte_order", "header_bytes", "magic", "record_bytes", "length_field"}},
      {"records", {"key", "unmatched", "definitions"}},
      {"field", {"name", "type", "column", "group", "rest", "optional", "drop_word_with", "size", "unit",
                 "rate", "bits", "when", "verify"}},
      {"field.when", {"field", "values", "bit"}},
      {"record", {"name", "match", "match_from", "regex", "event", "define", "skip", "field", "codes",
                  "location", "time", "cycle", "region", "region_id", "type", "peer", "tag", "com", "len",
                  "data1", "data2", "code", "id", "label", "value", "count", "thread"}},
      {"record.codes", {"code", "event"}},
  };
  return keys;
}

const char* const kSlotLabels[kSlotCount_] = {"location", "time", "cycle", "region", "region_id", "type",
                                               "peer", "tag", "com", "len", "data1", "data2", "code",
                                               "id", "label", "count", "value", "thread"};

}  // namespace

std::vector<std::string> description_keys() {
  std::vector<std::string> out;
  for (const auto& [table, keys] : allowed_keys())
    for (const std::string& key : keys) out.push_back(table.empty() ? key : table + "." + key);
  return out;
}

#ifndef EARL_HAVE_TOMLPP

bool descriptions_available() { return false; }
const char* descriptions_unavailable() {
  return "this build reads no format descriptions: toml++ was not found (Debian/Ubuntu: apt-get install "
         "libtomlplusplus-dev; `make setup` does this where apt is available)";
}
Description load_description(const std::string& path) { throw EarlError(path + ": " + descriptions_unavailable()); }
Description parse_description(std::string_view, const std::string& path) {
  throw EarlError(path + ": " + descriptions_unavailable());
}

#else

bool descriptions_available() { return true; }
const char* descriptions_unavailable() { return ""; }

namespace {

class Loader {
 public:
  explicit Loader(const std::string& path) : path_(path) {}

  Description load(const toml::table& root) {
    d_.path = path_;
    check_keys(root, "");
    const toml::table* format = table_at(root, "format", true);
    d_.name = string_at(*format, "name", true);
    d_.summary = string_at(*format, "summary", false);
    const std::string kind = string_at(*format, "kind", true);
    if (kind != "text" && kind != "binary") fail(*format->get("kind"), "kind must be \"text\" or \"binary\"");
    d_.binary = kind == "binary";
    if (const toml::table* text = table_at(root, "text", false)) {
      if (d_.binary) fail(*root.get("text"), "a binary format has no [text] table");
      load_text(*text);
    }
    const toml::table* binary = table_at(root, "binary", false);
    if (binary && !d_.binary) fail(*root.get("binary"), "a text format has no [binary] table");
    if (const toml::node* fields = root.get("field")) d_.fields = load_fields(*fields, {}, true);
    if (binary) load_binary(*binary);
    if (d_.binary && d_.record_bytes == 0 && d_.length_field < 0)
      fail(binary ? static_cast<const toml::node&>(*binary) : static_cast<const toml::node&>(root),
           "a binary format needs record_bytes (fixed size) or length_field (variable size)");
    if (const toml::table* records = table_at(root, "records", false)) load_records(*records);
    const toml::node* records = root.get("record");
    if (!records) fail_at(1, 1, "no [[record]] kinds: the description defines nothing to read");
    const toml::array* list = records->as_array();
    if (!list) fail(*records, "record must be an array of tables ([[record]])");
    for (const toml::node& node : *list) {
      if (!node.is_table()) fail(node, "each record must be a table ([[record]])");
      d_.records.push_back(load_record(*node.as_table()));
    }
    return std::move(d_);
  }

 private:
  [[noreturn]] void fail_at(std::uint32_t line, std::uint32_t column, const std::string& problem) const {
    throw EarlError(path_ + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + problem);
  }
  [[noreturn]] void fail(const toml::node& node, const std::string& problem) const {
    fail_at(node.source().begin.line, node.source().begin.column, problem);
  }
  [[noreturn]] void fail(const toml::key& key, const std::string& problem) const {
    fail_at(key.source().begin.line, key.source().begin.column, problem);
  }

  void check_keys(const toml::table& table, const std::string& where) const {
    const auto& allowed = allowed_keys().at(where);
    for (auto&& [key, value] : table) {
      bool known = false;
      for (const std::string& name : allowed) known = known || key.str() == name;
      if (!known) {
        std::string list;
        for (const std::string& name : allowed) list += (list.empty() ? "" : ", ") + name;
        fail(key, "unknown key '" + std::string(key.str()) + "'" +
                      (where.empty() ? "" : " in " + where) + " (known: " + list + ")");
      }
    }
  }

  const toml::table* table_at(const toml::table& table, const char* key, bool required) const {
    const toml::node* node = table.get(key);
    if (!node) {
      if (required) fail_at(table.source().begin.line, table.source().begin.column, std::string("missing [") + key + "]");
      return nullptr;
    }
    if (!node->is_table()) fail(*node, std::string(key) + " must be a table");
    check_keys(*node->as_table(), key);
    return node->as_table();
  }

  std::string string_at(const toml::table& table, const char* key, bool required) const {
    const toml::node* node = table.get(key);
    if (!node) {
      if (required) fail(table, std::string("missing key '") + key + "'");
      return "";
    }
    if (!node->is_string()) fail(*node, std::string(key) + " must be a string");
    return node->value<std::string>().value();
  }

  std::int64_t integer_at(const toml::table& table, const char* key, std::int64_t otherwise, std::int64_t least = 0) const {
    const toml::node* node = table.get(key);
    if (!node) return otherwise;
    if (!node->is_integer()) fail(*node, std::string(key) + " must be an integer");
    std::int64_t value = node->value<std::int64_t>().value();
    if (value < least) fail(*node, std::string(key) + " must be at least " + std::to_string(least));
    return value;
  }

  bool bool_at(const toml::table& table, const char* key) const {
    const toml::node* node = table.get(key);
    if (!node) return false;
    if (!node->is_boolean()) fail(*node, std::string(key) + " must be true or false");
    return node->value<bool>().value();
  }

  void load_text(const toml::table& text) {
    if (const toml::node* node = text.get("separator")) {
      std::string sep = string_at(text, "separator", false);
      if (sep == "blanks") sep = " ";
      else if (sep.size() != 1 || sep == " ") fail(*node, "separator must be \"blanks\" or one character");
      d_.separator = sep;
    }
    // CSV quotes fields by default (RFC 4180; pipit's CSV quotes C++ names holding commas).
    d_.quote = d_.separator == "," ? '"' : 0;
    if (const toml::node* node = text.get("quote")) {
      const std::string quote = string_at(text, "quote", false);
      if (quote.size() > 1 || quote == " " || quote == "\t" || quote == d_.separator)
        fail(*node, "quote must be one character other than a blank and the separator, or \"\" for none");
      d_.quote = quote.empty() ? 0 : quote[0];
    }
    d_.comment = string_at(text, "comment", false);
    d_.skip_lines = static_cast<std::uint64_t>(integer_at(text, "skip_lines", 0));
    d_.header = bool_at(text, "header");
  }

  void load_binary(const toml::table& binary) {
    const std::string order = string_at(binary, "byte_order", false);
    if (!order.empty() && order != "little" && order != "big")
      fail(*binary.get("byte_order"), "byte_order must be \"little\" or \"big\"");
    d_.big_endian = order == "big";
    d_.header_bytes = static_cast<std::uint64_t>(integer_at(binary, "header_bytes", 0));
    d_.magic = string_at(binary, "magic", false);
    if (d_.magic.size() > d_.header_bytes && binary.get("magic"))
      fail(*binary.get("magic"), "the magic bytes must lie within header_bytes");
    d_.record_bytes = static_cast<std::uint64_t>(integer_at(binary, "record_bytes", 0, 1));
    if (const toml::node* node = binary.get("length_field")) {
      d_.length_field = field_index(*node, string_at(binary, "length_field", false), d_.fields);
      if (d_.fields[d_.length_field].type != FieldType::Length)
        fail(*node, "length_field must name a common field of type \"length\"");
      if (d_.record_bytes) fail(*node, "give record_bytes or length_field, not both");
    }
    std::uint64_t common = 0;
    for (const FieldSpec& f : d_.fields) common += static_cast<std::uint64_t>(f.size);
    if (d_.record_bytes && common > d_.record_bytes)
      fail(binary, "the common fields take " + std::to_string(common) + " bytes, more than record_bytes");
  }

  void load_records(const toml::table& records) {
    if (const toml::node* node = records.get("key")) {
      d_.key_field = field_index(*node, string_at(records, "key", false), d_.fields);
      FieldType type = d_.fields[d_.key_field].type;
      if (type != FieldType::Int && type != FieldType::UInt && type != FieldType::String)
        fail(*node, "the key must be a field of type int, uint or string");
    }
    const std::string unmatched = string_at(records, "unmatched", false);
    if (!unmatched.empty() && unmatched != "skip" && unmatched != "error")
      fail(*records.get("unmatched"), "unmatched must be \"skip\" or \"error\"");
    d_.skip_unmatched = unmatched == "skip";
    const std::string definitions = string_at(records, "definitions", false);
    if (!definitions.empty() && definitions != "first" && definitions != "anywhere")
      fail(*records.get("definitions"), "definitions must be \"first\" or \"anywhere\"");
    d_.definitions_anywhere = definitions == "anywhere";
  }

  // The index of field `name` among `known` (defined before the reference).
  int field_index(const toml::node& node, const std::string& name, const std::vector<FieldSpec>& known) const {
    for (std::size_t i = 0; i < known.size(); ++i)
      if (known[i].name == name) return static_cast<int>(i);
    fail(node, "field '" + name + "' is not defined before this point");
  }

  std::vector<FieldSpec> load_fields(const toml::node& node, const std::vector<FieldSpec>& before, bool common) {
    const toml::array* list = node.as_array();
    if (!list) fail(node, "field must be an array of tables ([[field]])");
    std::vector<FieldSpec> all = before;
    std::vector<FieldSpec> out;
    for (const toml::node& item : *list) {
      if (!item.is_table()) fail(item, "each field must be a table");
      FieldSpec f = load_field(*item.as_table(), all);
      for (const FieldSpec& other : all)
        if (other.name == f.name) fail(item, "field '" + f.name + "' is defined twice");
      all.push_back(f);
      out.push_back(std::move(f));
    }
    return out;
  }

  FieldSpec load_field(const toml::table& t, const std::vector<FieldSpec>& before) {
    check_keys(t, "field");
    FieldSpec f;
    f.line = static_cast<int>(t.source().begin.line);
    f.name = string_at(t, "name", true);
    const std::string type = string_at(t, "type", true);
    static const std::map<std::string, FieldType> kTypes = {
        {"int", FieldType::Int},       {"uint", FieldType::UInt},     {"float", FieldType::Float},
        {"string", FieldType::String}, {"time", FieldType::Time},     {"flags", FieldType::Flags},
        {"length", FieldType::Length}, {"checksum", FieldType::Checksum}, {"filler", FieldType::Filler}};
    auto found = kTypes.find(type);
    if (found == kTypes.end())
      fail(*t.get("type"), "unknown field type '" + type +
                               "' (known: int, uint, float, string, time, flags, length, checksum, filler)");
    f.type = found->second;
    f.column = string_at(t, "column", false);
    f.group = static_cast<int>(integer_at(t, "group", 0));
    f.rest = bool_at(t, "rest");
    f.optional = bool_at(t, "optional");
    f.drop_word_with = string_at(t, "drop_word_with", false);
    f.size = static_cast<int>(integer_at(t, "size", 0));
    f.verify = bool_at(t, "verify");
    if (f.type == FieldType::Time) {
      const std::string unit = string_at(t, "unit", true);
      static const std::map<std::string, double> kUnits = {{"s", 1.0}, {"ms", 1e3}, {"us", 1e6}, {"ns", 1e9}};
      if (unit == "ticks") {
        const toml::node* rate = t.get("rate");
        if (!rate) fail(*t.get("unit"), "unit \"ticks\" needs rate (ticks per second)");
        if (!rate->is_number()) fail(*rate, "rate must be a number");
        f.ticks_per_second = rate->value<double>().value();
        if (!(f.ticks_per_second > 0) || !std::isfinite(f.ticks_per_second)) fail(*rate, "rate must be positive");
      } else if (kUnits.count(unit)) {
        f.ticks_per_second = kUnits.at(unit);
      } else {
        fail(*t.get("unit"), "unknown time unit '" + unit + "' (known: s, ms, us, ns, ticks)");
      }
    } else if (t.get("unit") || t.get("rate")) {
      fail(*(t.get("unit") ? t.get("unit") : t.get("rate")), "only time fields have a unit or rate");
    }
    if (const toml::node* bits = t.get("bits")) {
      if (f.type != FieldType::Flags) fail(*bits, "only flags fields name bits");
      if (!bits->is_array()) fail(*bits, "bits must be an array of names");
      for (const toml::node& bit : *bits->as_array()) {
        if (!bit.is_string()) fail(bit, "each bit's name must be a string");
        f.bits.push_back(bit.value<std::string>().value());
      }
    }
    if (const toml::node* when = t.get("when")) load_when(*when, f, before);
    if (d_.binary) {
      bool ok = true;
      switch (f.type) {
        case FieldType::Int: case FieldType::UInt: case FieldType::Time: case FieldType::Flags:
        case FieldType::Length: case FieldType::Checksum:
          ok = f.size == 1 || f.size == 2 || f.size == 4 || f.size == 8; break;
        case FieldType::Float: ok = f.size == 4 || f.size == 8; break;
        default: ok = f.size > 0;
      }
      if (!ok) fail(t.get("size") ? *t.get("size") : static_cast<const toml::node&>(t),
                    "field '" + f.name + "' needs a size in bytes (integers 1, 2, 4 or 8; floats 4 or 8)");
    } else if (f.type == FieldType::Length || f.type == FieldType::Checksum || f.type == FieldType::Filler) {
      if (f.type != FieldType::Filler) fail(*t.get("type"), "length and checksum fields are for binary formats");
    }
    if (f.rest && f.type != FieldType::String) fail(*t.get("rest"), "only a string field takes the rest of the line");
    return f;
  }

  KeyValue key_value(const toml::node& node) const {
    KeyValue v;
    if (node.is_integer()) {
      v.number = node.value<std::int64_t>().value();
    } else if (node.is_string()) {
      v.is_text = true;
      v.text = node.value<std::string>().value();
    } else {
      fail(node, "a value to match must be an integer or a string");
    }
    return v;
  }

  void load_when(const toml::node& node, FieldSpec& f, const std::vector<FieldSpec>& before) {
    if (!node.is_table()) fail(node, "when must be a table: {field = \"...\", values = [...]} or {field, bit}");
    const toml::table& t = *node.as_table();
    check_keys(t, "field.when");
    const std::string name = string_at(t, "field", true);
    f.when_field = field_index(*t.get("field"), name, before);
    const FieldSpec& other = before[f.when_field];
    if (const toml::node* bit = t.get("bit")) {
      if (other.type != FieldType::Flags) fail(*bit, "bit needs a flags field");
      if (bit->is_integer()) {
        f.when_bit = static_cast<int>(bit->value<std::int64_t>().value());
      } else {
        const std::string bit_name = string_at(t, "bit", false);
        for (std::size_t i = 0; i < other.bits.size(); ++i)
          if (other.bits[i] == bit_name) f.when_bit = static_cast<int>(i);
        if (f.when_bit < 0) fail(*bit, "flags field '" + name + "' names no bit '" + bit_name + "'");
      }
      if (f.when_bit < 0 || f.when_bit > 63) fail(*bit, "bit must be 0..63");
    } else if (const toml::node* values = t.get("values")) {
      if (!values->is_array()) fail(*values, "values must be an array");
      for (const toml::node& v : *values->as_array()) f.when_values.push_back(key_value(v));
    } else {
      fail(node, "when needs values or bit");
    }
  }

  static EventKind event_kind(const std::string& name, bool& ok) {
    static const std::map<std::string, EventKind> kKinds = {
        {"enter", EventKind::Enter}, {"exit", EventKind::Exit}, {"send", EventKind::Send},
        {"recv", EventKind::Recv},   {"other", EventKind::Other}, {"metric", EventKind::Metric},
        {"collective_exit", EventKind::CollectiveExit}};
    auto found = kKinds.find(name);
    ok = found != kKinds.end();
    return ok ? found->second : EventKind::Other;
  }

  RecordSpec load_record(const toml::table& t) {
    check_keys(t, "record");
    RecordSpec r;
    r.line = static_cast<int>(t.source().begin.line);
    r.name = string_at(t, "name", true);
    if (const toml::node* match = t.get("match")) {
      if (match->is_array()) {
        for (const toml::node& v : *match->as_array()) r.match.push_back(key_value(v));
      } else {
        r.match.push_back(key_value(*match));
      }
      if (d_.key_field < 0) fail(*match, "match needs [records] key (the field whose value selects a kind)");
      const bool text_key = d_.fields[d_.key_field].type == FieldType::String;
      for (const KeyValue& v : r.match)
        if (v.is_text != text_key)
          fail(*match, std::string("the key field '") + d_.fields[d_.key_field].name + "' holds " +
                           (text_key ? "strings" : "integers") + ": match it with those");
    }
    if (const toml::node* from = t.get("match_from")) {
      if (d_.key_field < 0 || d_.fields[d_.key_field].type == FieldType::String)
        fail(*from, "match_from needs an integer [records] key");
      r.match_from = true;
      r.match_from_value = integer_at(t, "match_from", 0, INT64_MIN);
    }
    r.regex = string_at(t, "regex", false);
    if (!r.regex.empty()) {
      if (d_.binary) fail(*t.get("regex"), "a binary format's records are selected by the key, not a regex");
      try {
        std::regex compiled(r.regex, std::regex::ECMAScript);
      } catch (const std::regex_error& error) {
        fail(*t.get("regex"), "bad regular expression: " + std::string(error.what()));
      }
    }
    if (r.match.empty() && !r.match_from && r.regex.empty())
      fail(t, "record '" + r.name + "' has no match, match_from or regex: nothing selects it");
    if (const toml::node* fields = t.get("field")) r.fields = load_fields(*fields, d_.fields, false);
    std::vector<FieldSpec> all = d_.fields;
    all.insert(all.end(), r.fields.begin(), r.fields.end());
    if (!r.regex.empty())
      for (const FieldSpec& f : r.fields)
        if (f.group <= 0) fail(t, "field '" + f.name + "' of a regex record needs group (its capture group)");

    const int roles = (t.get("event") ? 1 : 0) + (t.get("define") ? 1 : 0) + (t.get("skip") ? 1 : 0);
    if (roles != 1) fail(t, "record '" + r.name + "' needs exactly one of event, define or skip");
    if (t.get("event")) {
      const std::string event = string_at(t, "event", false);
      bool ok = false;
      if (event == "by_code") {
        r.role = RecordRole::ByCode;
      } else {
        r.kind = event_kind(event, ok);
        if (!ok) fail(*t.get("event"), "unknown event '" + event +
                                           "' (known: enter, exit, send, recv, other, metric, collective_exit, by_code)");
      }
    } else if (t.get("define")) {
      const std::string what = string_at(t, "define", false);
      static const std::map<std::string, RecordRole> kRoles = {
          {"region", RecordRole::DefineRegion}, {"location", RecordRole::DefineLocation},
          {"code", RecordRole::DefineCode}, {"location_count", RecordRole::LocationCount},
          {"time_wrap", RecordRole::TimeWrap}};
      auto found = kRoles.find(what);
      if (found == kRoles.end())
        fail(*t.get("define"), "unknown definition '" + what +
                                   "' (known: region, location, code, location_count, time_wrap)");
      r.role = found->second;
    } else {
      if (!bool_at(t, "skip")) fail(*t.get("skip"), "skip must be true (or leave the key out)");
      r.role = RecordRole::Skip;
    }
    for (int slot = 0; slot < kSlotCount_; ++slot)
      if (const toml::node* node = t.get(kSlotLabels[slot])) r.slots[slot] = load_source(*node, all);
    if (const toml::node* codes = t.get("codes")) {
      if (r.role != RecordRole::DefineCode) fail(*codes, "codes belong to a define = \"code\" record");
      if (!codes->is_array()) fail(*codes, "codes must be an array of {code = FIELD, event = ...}");
      for (const toml::node& item : *codes->as_array()) {
        if (!item.is_table()) fail(item, "each code must be a table {code = FIELD, event = ...}");
        const toml::table& c = *item.as_table();
        check_keys(c, "record.codes");
        CodeDefinition def;
        def.code_field = field_index(c.get("code") ? *c.get("code") : item, string_at(c, "code", true), all);
        bool ok = false;
        const std::string event = string_at(c, "event", true);
        def.kind = event_kind(event, ok);
        if (!ok || (def.kind != EventKind::Enter && def.kind != EventKind::Exit && def.kind != EventKind::Other))
          fail(*c.get("event"), "a code means an enter, exit or other event");
        r.codes.push_back(def);
      }
    }
    check_mapping(t, r);
    return r;
  }

  Source load_source(const toml::node& node, const std::vector<FieldSpec>& all) const {
    Source s;
    if (node.is_integer()) {
      s.constant = true;
      s.number = node.value<std::int64_t>().value();
    } else if (node.is_string()) {
      s.fields.push_back(field_index(node, node.value<std::string>().value(), all));
    } else if (node.is_array()) {
      for (const toml::node& item : *node.as_array()) {
        if (!item.is_string()) fail(item, "a list of fields holds field names");
        s.fields.push_back(field_index(item, item.value<std::string>().value(), all));
      }
      if (s.fields.empty()) fail(node, "an empty list of fields");
    } else if (node.is_table() && node.as_table()->get("text")) {
      const toml::node* text = node.as_table()->get("text");
      if (!text->is_string() || node.as_table()->size() != 1) fail(node, "a text constant is {text = \"...\"}");
      s.constant = s.is_text = true;
      s.text = text->value<std::string>().value();
    } else {
      fail(node, "an attribute takes a field name, a list of field names (the first present), an integer "
                 "or {text = \"...\"}");
    }
    return s;
  }

  void require(const toml::table& t, const RecordSpec& r, int slot, const char* why) const {
    if (!r.slots[slot].given())
      fail(t, "record '" + r.name + "' " + why + ": it needs " + kSlotLabels[slot] + " = FIELD");
  }

  void require_time_field(const toml::table& t, const RecordSpec& r, const std::vector<FieldSpec>& all) const {
    for (int index : r.slots[kSlotTime].fields)
      if (all[index].type != FieldType::Time)
        fail(*t.get("time"), "time must name fields of type time (they know their unit), not '" +
                                 all[index].name + "'");
    if (r.slots[kSlotTime].constant) fail(*t.get("time"), "time must name a field of type time");
  }

  // Each role needs some attributes; an attribute the role does not use is an error too
  // (a misspelt intention should not pass silently).
  void check_mapping(const toml::table& t, const RecordSpec& r) const {
    std::vector<FieldSpec> all = d_.fields;
    all.insert(all.end(), r.fields.begin(), r.fields.end());
    std::set<int> allowed;
    auto allow = [&](std::initializer_list<int> slots) { allowed.insert(slots); };
    switch (r.role) {
      case RecordRole::Event:
      case RecordRole::ByCode:
        require(t, r, kSlotLocation, "is an event");
        require(t, r, kSlotTime, "is an event");
        require_time_field(t, r, all);
        allow({kSlotLocation, kSlotTime, kSlotCycle, kSlotThread});
        if (r.role == RecordRole::ByCode) {
          require(t, r, kSlotCode, "takes its meaning from a code");
          allow({kSlotCode, kSlotData1, kSlotData2});
        } else if (r.kind == EventKind::Enter || r.kind == EventKind::Exit) {
          if (!r.slots[kSlotRegion].given() && !r.slots[kSlotRegionId].given())
            fail(t, "record '" + r.name + "' is an enter or exit: it needs region = FIELD (a name) or region_id = FIELD");
          allow({kSlotRegion, kSlotRegionId});
        } else if (r.kind == EventKind::Send || r.kind == EventKind::Recv) {
          require(t, r, kSlotPeer, "is a message");
          allow({kSlotPeer, kSlotTag, kSlotCom, kSlotLen});
        } else if (r.kind == EventKind::CollectiveExit) {
          if (!r.slots[kSlotRegion].given() && !r.slots[kSlotRegionId].given())
            fail(t, "record '" + r.name + "' is a collective exit: it needs region or region_id");
          allow({kSlotRegion, kSlotRegionId, kSlotPeer, kSlotTag, kSlotCom, kSlotLen});
        } else if (r.kind == EventKind::Metric) {
          require(t, r, kSlotLabel, "is a metric sample");
          require(t, r, kSlotValue, "is a metric sample");
          allow({kSlotLabel, kSlotValue});
        } else {
          allow({kSlotType, kSlotData1, kSlotData2});
        }
        break;
      case RecordRole::DefineRegion:
      case RecordRole::DefineLocation:
        require(t, r, kSlotId, "defines a name for an id");
        require(t, r, kSlotLabel, "defines a name");
        allow({kSlotId, kSlotLabel});
        break;
      case RecordRole::DefineCode:
        if (r.codes.empty()) fail(t, "record '" + r.name + "' defines codes: it needs codes = [{code = FIELD, event = ...}]");
        allow({kSlotRegion, kSlotType});
        for (const CodeDefinition& c : r.codes) {
          if (c.kind == EventKind::Other) require(t, r, kSlotType, "defines an other code");
          else require(t, r, kSlotRegion, "defines enter or exit codes");
        }
        break;
      case RecordRole::LocationCount:
        require(t, r, kSlotCount, "declares the number of locations");
        allow({kSlotCount});
        break;
      case RecordRole::TimeWrap:
        require(t, r, kSlotValue, "gives the period of the time's cycle counter");
        allow({kSlotValue});
        break;
      case RecordRole::Skip:
        break;
    }
    for (int slot = 0; slot < kSlotCount_; ++slot)
      if (r.slots[slot].given() && !allowed.count(slot))
        fail(*t.get(kSlotLabels[slot]), std::string("record '") + r.name + "' does not use " + kSlotLabels[slot] +
                                          " (its event or definition has no such attribute)");
  }

  std::string path_;
  Description d_;
};

}  // namespace

Description parse_description(std::string_view text, const std::string& path) {
  if (const std::optional<TextPlace> at = non_ascii_outside_strings(text))
    throw EarlError(path + ":" + std::to_string(at->line) + ":" + std::to_string(at->column) + ": " + kNonAsciiOutsideStrings);
  toml::table root;
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& error) {
    throw EarlError(path + ":" + std::to_string(error.source().begin.line) + ":" +
                    std::to_string(error.source().begin.column) + ": " + std::string(error.description()));
  }
  return Loader(path).load(root);
}

Description load_description(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw EarlError(path + ": cannot open the format description");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parse_description(text, path);
}

#endif

}  // namespace earl
