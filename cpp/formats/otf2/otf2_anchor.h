#pragma once
#include <string>
#include <vector>

namespace earl {

// Recognising an OTF2 archive needs no libotf2: its anchor file starts with the magic
// "OTF2" in its first bytes. This is the one check every part of EARL uses (detection,
// the reader, the writer replacing an archive, builds without libotf2).
bool has_otf2_magic(const std::string& file);

// The anchor file of `path`: the file itself when it has the magic, or the one *.otf2
// file with the magic in a directory; empty when `path` is no OTF2 archive. EarlError
// when a directory holds several anchors.
std::string find_otf2_anchor(const std::string& path);

// Every file of the archive whose anchor is `anchor`: the anchor, <stem>.def and the
// regular files under <stem>/, sorted (what a change of the archive touches).
std::vector<std::string> otf2_archive_files(const std::string& anchor);

}  // namespace earl
