#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "query/checker.h"

namespace earl::query {

// Reads a rules file of `earl check --rules` (TOML, one [[rule]] table per assertion with
// name, language, when, assert: docs/cli.md, "earl check") for the bindings that have no
// TOML reader of their own (Lua, Tcl); Python reads it with tomllib (earl.validation).
// EarlError "<path>: line L, column C: ..." for what is not such a file.
std::vector<Rule> load_rules(const std::string& path);
// The same on the file's text; `path` names it in messages.
std::vector<Rule> parse_rules(std::string_view text, const std::string& path);

}  // namespace earl::query
