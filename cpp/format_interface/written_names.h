#pragma once
// How the writers put EARL's names into a format (docs/robustness.md, "Names": the table of
// every output). A name EARL reads is a string of any bytes, the empty string included:
// formats hold names so (OTF2 strings, ALOG comments), and EARL carries them unchanged (to
// Python as surrogate escapes, as os.fsdecode does). A writer writes every byte its format
// holds as it is; a byte it cannot hold is written visibly as "\xNN" (two lower-case hex
// digits), never dropped, and the writer counts the names it changed per kind ("region",
// "location", "process", "thread"), which `earl convert` reports.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace earl {

// "\x0a" for the byte 0x0a.
std::string escaped_byte(unsigned char byte);

// ALOG: a name is the rest of its line after the six integer fields, read with the blanks
// at both ends (space, tab, CR, vertical tab, form feed) trimmed. The line carries every byte
// but the line ends LF and CR, so those and the blanks at either end are escaped; a region
// definition needs a name, so an empty region name is written as `""`. Empty location
// names are written as no name (what reads back as "").
std::string alog_name(const std::string& name, bool region);

// OTF2: strings are NUL-terminated byte strings, so NUL is escaped; anything else, the
// empty string included, is written as it is.
std::string otf2_name(const std::string& name);

// OTF (version 1): names are quoted on one line of a text file, so NUL, the line ends LF
// and CR and the quote '"' (which libotf would turn into a blank) are escaped; anything
// else, the empty string included, is written as it is.
std::string otf_name(const std::string& name);

// Names a writer changed, counted per kind in the order first met.
class RenamedNames {
 public:
  // `written` as the writer writes it; counts `kind` when it differs from `name`.
  std::string note(const char* kind, const std::string& name, std::string written);
  const std::vector<std::pair<std::string, std::uint64_t>>& counts() const { return counts_; }

 private:
  std::vector<std::pair<std::string, std::uint64_t>> counts_;
};

}  // namespace earl
