#pragma once
#include <string>

namespace earl {

// Opening a named pipe blocks until a writer appears (forever, and Ctrl-C cannot end a
// blocked open()); a device or socket is no trace either. Every format asks before it
// opens a file of a trace.

// What `path` is when it is neither a regular file, nor a directory, nor absent:
// "a named pipe (FIFO)", "a socket", "a character device", "a block device"; else "".
// Symbolic links are followed.
std::string special_file_kind(const std::string& path);

// Throws EarlError("<path>: is a named pipe (FIFO), not a trace file") when `path` is
// special (see above); returns quietly otherwise.
void refuse_special_file(const std::string& path);

}  // namespace earl
