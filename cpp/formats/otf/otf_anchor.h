#pragma once
#include <string>
#include <vector>

namespace earl {

// An OTF (version 1) trace is named by its master control file NAME.otf, a short text of
// lines "stream:process,process,..." in hexadecimal; NAME.0.def, NAME.<stream>.events
// (and .marker, .stats, .snaps, each possibly compressed as .z) sit beside it. These
// checks need no libotf, so builds without it still recognise the format.

// True when `text` (the start of a file) reads as a master control file.
bool looks_like_otf_master(const std::string& text);

// The master control file of `path`: the file itself, or the one NAME.otf in a directory;
// empty when `path` is no OTF trace. EarlError when a directory holds several. An empty
// NAME.otf (a trace without events) counts when NAME.0.def holds definitions.
std::string find_otf_anchor(const std::string& path);

// libotf's name stub of an anchor: the path without ".otf".
std::string otf_name_stub(const std::string& anchor);

// Every file of the trace named by `anchor`: the anchor first, then the files
// NAME.<...> beside it that libotf reads, sorted.
std::vector<std::string> otf_archive_files(const std::string& anchor);

}  // namespace earl
