#include "query/rules_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string_view>

#include "model/error.h"

#ifdef EARL_HAVE_TOMLPP
#define TOML_EXCEPTIONS 0
#include <toml++/toml.h>
#endif

namespace earl::query {

#ifdef EARL_HAVE_TOMLPP
namespace {

constexpr std::string_view kKeys[] = {"name", "language", "when", "assert"};

std::string place(const std::string& path, const toml::source_region& where) {
  return path + ": line " + std::to_string(where.begin.line) + ", column " + std::to_string(where.begin.column);
}

}  // namespace

std::vector<Rule> parse_rules(std::string_view text, const std::string& path) {
  toml::parse_result parsed = toml::parse(text, path);
  if (!parsed) {
    const toml::parse_error& error = parsed.error();
    throw EarlError(place(path, error.source()) + ": " + std::string(error.description()));
  }
  const toml::table& table = parsed.table();
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
  }
  return out;
}
#else
std::vector<Rule> parse_rules(std::string_view, const std::string& path) {
  throw EarlError(path + ": rules files need toml++ (Debian/Ubuntu: libtomlplusplus-dev) when EARL is built");
}
#endif

std::vector<Rule> load_rules(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw EarlError(path + ": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_rules(text.str(), path);
}

}  // namespace earl::query
