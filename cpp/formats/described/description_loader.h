#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "formats/described/description.h"

namespace earl {

// Reads and checks the TOML description at `path`: EarlError "PATH:LINE:COLUMN: problem"
// for bad TOML, an unknown key, a value of the wrong type, a field used before it is
// defined, a record kind without the attributes its event needs, a bad regular expression.
Description load_description(const std::string& path);
// The same for a description held in memory (`path` names it in messages).
Description parse_description(std::string_view text, const std::string& path);

// Whether this build reads descriptions (toml++ was found); when not, what to install.
bool descriptions_available();
const char* descriptions_unavailable();

// Every key a description may use, as "table.key" ("format.name", "record.field.type"):
// `earl describe --template` documents each one (tests/test_described_errors.py).
std::vector<std::string> description_keys();

// What a description defines, one line per record kind (`earl describe --check`).
std::string description_outline(const Description& description);

}  // namespace earl
