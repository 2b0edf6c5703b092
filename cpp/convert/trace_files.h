#pragma once
// Whether writing a file would overwrite a trace: compared by file identity (device and
// inode) where both exist, so that a hard link, a symbolic link or another spelling of a
// path counts, and by the cleaned path where one does not exist yet. The files of a trace:
// its path, and for an OTF2 anchor its definitions (STEM.def) and archive directory
// (STEM/); an output ending in .otf2 writes those three too.
#include <string>

namespace earl::convert {

bool overwrites_trace(const std::string& trace, const std::string& output);

}  // namespace earl::convert
