#include "query/rules_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string_view>
#include <tuple>
#include <utility>

#include "format_interface/toml_ascii.h"
#include "model/error.h"

#ifdef EARL_HAVE_TOMLPP
// toml++'s default configuration (exceptions), as formats/described uses it: one program
// holding both must see one definition of its inline functions.
#include <toml++/toml.h>
#endif

namespace earl::query {

#ifdef EARL_HAVE_TOMLPP
namespace {

constexpr std::string_view kKeys[] = {"name", "language", "when", "assert"};

std::string place(const std::string& path, const toml::source_region& where) {
  return path + ": line " + std::to_string(where.begin.line) + ", column " + std::to_string(where.begin.column);
}

// Where the text of the string value at `where` starts: toml++ places a value at its
// opening quote; a multi-line string's text starts on the next line where the quote ends
// its line (TOML drops that newline). Columns count code points, as toml++'s do.
std::pair<int, int> text_start(std::string_view text, const toml::source_position& where) {
  std::size_t at = 0;
  for (toml::source_index line = 1; line < where.line && at < text.size(); ++line) {
    at = text.find('\n', at);
    at = at == std::string_view::npos ? text.size() : at + 1;
  }
  for (toml::source_index column = 1; column < where.column && at < text.size(); ++column)
    do ++at; while (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80);
  const std::string_view quote = text.substr(at, 3);
  if (quote != "\"\"\"" && quote != "'''") return {int(where.line), int(where.column) + 1};
  std::string_view rest = text.substr(at + 3);
  rest = rest.substr(0, rest.find('\n'));
  if (rest.empty() || rest == "\r") return {int(where.line) + 1, 1};
  return {int(where.line), int(where.column) + 3};
}

}  // namespace

std::vector<Rule> parse_rules(std::string_view text, const std::string& path, std::vector<RulePlaces>* places) {
  if (const std::optional<TextPlace> at = non_ascii_outside_strings(text))
    throw EarlError(path + ": line " + std::to_string(at->line) + ", column " + std::to_string(at->column) + ": " +
                    kNonAsciiOutsideStrings);
  toml::table table;
  try {
    table = toml::parse(text, path);
  } catch (const toml::parse_error& error) {
    throw EarlError(place(path, error.source()) + ": " + std::string(error.description()));
  }
  for (const auto& [key, value] : table)
    if (key.str() != "rule")
      throw EarlError(place(path, value.source()) + ": unknown table or key '" + std::string(key.str()) +
                      "' (only [[rule]] tables)");
  const toml::array* rules = table["rule"].as_array();
  if (!rules || rules->empty()) throw EarlError(path + ": no [[rule]] table");
  std::vector<Rule> out;
  for (std::size_t index = 0; index < rules->size(); ++index) {
    const toml::node& node = (*rules)[index];
    const std::string at = place(path, node.source()) + ": rule " + std::to_string(index + 1);
    const toml::table* rule = node.as_table();
    if (!rule) throw EarlError(at + ": not a table");
    for (const auto& [key, value] : *rule) {
      bool known = false;
      for (std::string_view k : kKeys) known = known || key.str() == k;
      if (!known) throw EarlError(at + ": unknown key '" + std::string(key.str()) + "' (keys: name, language, when, assert)");
      if (!value.is_string()) throw EarlError(at + ": " + std::string(key.str()) + " must be a string");
    }
    if (!rule->contains("assert")) throw EarlError(at + ": no assert");
    Rule r;
    r.name = (*rule)["name"].value_or(std::string("rule ") + std::to_string(index + 1));
    std::string language = (*rule)["language"].value_or(std::string("python"));
    if (language != "python" && language != "lua")
      throw EarlError(at + ": language '" + language + "' (python or lua)");
    r.language = language_named(language);
    r.when = (*rule)["when"].value_or(std::string());
    r.assertion = (*rule)["assert"].value_or(std::string());
    out.push_back(std::move(r));
    if (places) {
      RulePlaces p;
      if (const toml::node* when = rule->get("when"))
        std::tie(p.when_line, p.when_column) = text_start(text, when->source().begin);
      std::tie(p.assert_line, p.assert_column) = text_start(text, rule->get("assert")->source().begin);
      places->push_back(p);
    }
  }
  return out;
}
#else
std::vector<Rule> parse_rules(std::string_view, const std::string& path, std::vector<RulePlaces>*) {
  throw EarlError(path + ": rules files need toml++ (Debian/Ubuntu: libtomlplusplus-dev) when EARL is built");
}
#endif

std::vector<Rule> load_rules(const std::string& path, std::vector<RulePlaces>* places) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw EarlError(path + ": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_rules(text.str(), path, places);
}

}  // namespace earl::query
