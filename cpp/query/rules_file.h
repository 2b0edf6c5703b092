#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "query/checker.h"

namespace earl::query {

// Reads a rules file of `earl check --rules` (TOML, one [[rule]] table per assertion with
// name, language, when, assert: docs/cli.md, "earl check") for the bindings that have no
// TOML reader of their own (Lua, Tcl) and for Python (earl.validation, through _core).
// EarlError "<path>: line L, column C: ..." for what is not such a file; without toml++
// at build time, an EarlError saying what to install.
//
// `places`, where given, receives per rule where the text of its when and assert values
// starts in the file (line, column, 1-based; 0 where the rule has no such key), so that
// errors inside an expression can name the file's line and column.
struct RulePlaces {
  int when_line = 0, when_column = 0;
  int assert_line = 0, assert_column = 0;
};
std::vector<Rule> load_rules(const std::string& path, std::vector<RulePlaces>* places = nullptr);
// The same on the file's text; `path` names it in messages.
std::vector<Rule> parse_rules(std::string_view text, const std::string& path,
                              std::vector<RulePlaces>* places = nullptr);

}  // namespace earl::query
