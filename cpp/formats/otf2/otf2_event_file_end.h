#pragma once
// Where an OTF2 event file really ends. libotf2 reads a file chunk by chunk into one
// buffer per location and trusts the chunk to be whole: in a file cut short inside its
// last chunk it reads on past the cut into what the buffer held before (the previous
// chunk's bytes), handing out records that were never written there, and only fails
// (if at all) much later. So before reading, EARL looks at the file's last chunk itself:
// a whole event file ends with libotf2's end-of-file marker; in one that does not, the
// records wholly inside the file are counted, using the buffer layout libotf2 writes
// (chunk header: type 3, endianness, first and last record number; a record: optional
// timestamp (type 5, 8 bytes), optional attribute list (type 6), then the event record:
// its type, then either one compressed number (the ten one-value records of OTF2 1.1) or
// its length (one byte, or 0xff and 8 bytes) and that many bytes).
#include <cstdint>
#include <string>

namespace earl {

struct EventFileEnd {
  bool whole = true;  // ends with the end-of-file marker (or could not be looked at)
  // Otherwise: the records 1..readable lie wholly inside the file; `why` says how the
  // record after them is damaged (for a message: "... record N ...").
  std::uint64_t readable = 0;
  std::string why;
};

// `chunk_bytes`: the archive's event chunk size (0: unknown, nothing is checked).
EventFileEnd event_file_end(const std::string& path, std::uint64_t chunk_bytes);

}  // namespace earl
