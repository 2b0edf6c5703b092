#pragma once
#include <string>

namespace earl {

// Recognising an OTF2 archive needs no libotf2: its anchor file starts with the magic
// "OTF2" in its first bytes. This is the one check every part of EARL uses (detection,
// the reader, the writer replacing an archive, builds without libotf2).
bool has_otf2_magic(const std::string& file);

// The anchor file of `path`: the file itself when it has the magic, or the one *.otf2
// file with the magic in a directory; empty when `path` is no OTF2 archive. EarlError
// when a directory holds several anchors.
std::string find_otf2_anchor(const std::string& path);

}  // namespace earl
