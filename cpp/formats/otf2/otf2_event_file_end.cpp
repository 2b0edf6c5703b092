#include "formats/otf2/otf2_event_file_end.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vector>

namespace earl {

namespace {

// libotf2's buffer layout (its OTF2_Buffer.h and otf2_events_int.h).
constexpr std::uint8_t kEndOfChunk = 0, kEndOfFile = 2, kChunkHeader = 3, kTimestamp = 5, kAttributeList = 6;
constexpr std::uint8_t kFirstEventType = 10;
constexpr std::uint8_t kLittleEndian = 0x42, kBigEndian = 0x23;
constexpr std::size_t kHeaderBytes = 18;  // type, endianness, first and last record number
constexpr std::size_t kTimestampBytes = 9;

// Enter, Leave, MpiIsendComplete, MpiIrecvRequest, MpiRequestTest, MpiRequestCancelled,
// OmpFork, OmpTaskCreate, OmpTaskSwitch, OmpTaskComplete: one compressed value, no length.
bool one_value_record(std::uint8_t type) {
  switch (type) {
    case 12: case 13: case 16: case 17: case 20: case 21: case 24: case 28: case 29: case 30: return true;
    default: return false;
  }
}

std::uint64_t word(const std::uint8_t* p, bool big) {
  std::uint64_t value = 0;
  for (int i = 0; i < 8; ++i) value |= std::uint64_t(p[big ? 7 - i : i]) << (8 * i);
  return value;
}

bool read_at(int fd, std::uint64_t offset, std::size_t bytes, std::vector<std::uint8_t>& out) {
  out.resize(bytes);
  std::size_t done = 0;
  while (done < bytes) {
    ssize_t got = ::pread(fd, out.data() + done, bytes - done, static_cast<off_t>(offset + done));
    if (got <= 0) return false;
    done += static_cast<std::size_t>(got);
  }
  return true;
}

struct ChunkHeader {
  bool valid = false;
  bool big = false;
  std::uint64_t first = 0, last = 0;
};

ChunkHeader header_of(const std::vector<std::uint8_t>& chunk) {
  ChunkHeader header;
  if (chunk.size() < kHeaderBytes || chunk[0] != kChunkHeader) return header;
  if (chunk[1] != kLittleEndian && chunk[1] != kBigEndian) return header;
  header.valid = true;
  header.big = chunk[1] == kBigEndian;
  header.first = word(&chunk[2], header.big);
  header.last = word(&chunk[10], header.big);
  return header;
}

std::string record_name(std::uint64_t record) { return "record " + std::to_string(record); }

// The last chunk, from its header on: whole when it ends with the end-of-file marker.
EventFileEnd walk(const std::vector<std::uint8_t>& chunk, const ChunkHeader& header) {
  EventFileEnd end;
  end.whole = false;
  std::uint64_t records = 0;
  std::size_t at = kHeaderBytes;
  const std::size_t size = chunk.size();
  auto stop = [&](const std::string& why) {
    end.readable = header.first > 0 ? header.first - 1 + records : records;
    end.why = why + " " + record_name(end.readable + 1);
    return end;
  };
  const std::string cut = "the event file is cut short inside or before";
  for (;;) {
    if (at >= size) return stop(cut);
    const std::uint8_t type = chunk[at];
    if (type == kEndOfFile) {
      end.whole = true;
      return end;
    }
    if (type == kEndOfChunk)
      return stop("the event file ends at the end of a chunk without its end-of-file marker (cut short "
                  "at a chunk boundary?), before");
    if (type == kTimestamp) {
      if (size - at < kTimestampBytes) return stop(cut);
      at += kTimestampBytes;
      continue;
    }
    if (type != kAttributeList && type < kFirstEventType)
      return stop("the event file is damaged (a byte " + std::to_string(type) + " where a record begins) at");
    std::size_t length_bytes = 2;
    std::uint64_t payload = 0;
    if (size - at < 2) return stop(cut);
    if (type != kAttributeList && one_value_record(type)) {
      payload = chunk[at + 1] == 0xff ? 0 : chunk[at + 1];
      if (payload > 8) return stop("the event file is damaged (a bad number) at");
    } else {
      payload = chunk[at + 1];
      if (payload == 0xff) {
        length_bytes = 10;
        if (size - at < length_bytes) return stop(cut);
        payload = word(&chunk[at + 2], header.big);
      }
    }
    if (payload > size - at - length_bytes) return stop(cut);
    at += length_bytes + static_cast<std::size_t>(payload);
    if (type != kAttributeList) ++records;
  }
}

}  // namespace

EventFileEnd event_file_end(const std::string& path, std::uint64_t chunk_bytes) {
  EventFileEnd end;
  if (chunk_bytes == 0) return end;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return end;  // libotf2 says so when it opens the file
  struct stat info;
  std::vector<std::uint8_t> bytes;
  if (::fstat(fd, &info) != 0 || info.st_size < 0) {
    ::close(fd);
    return end;
  }
  const auto size = static_cast<std::uint64_t>(info.st_size);
  // What libotf2 writes last: the end-of-file marker and the end of its buffer.
  if (size >= 2 && read_at(fd, size - 2, 2, bytes) && bytes[0] == kEndOfFile && bytes[1] == 1) {
    ::close(fd);
    return end;
  }
  end.whole = false;
  if (size == 0) {
    end.why = "the event file is empty: it ends before record 1";
    ::close(fd);
    return end;
  }
  const std::uint64_t offset = (size - 1) / chunk_bytes * chunk_bytes;
  ChunkHeader header;
  if (read_at(fd, offset, static_cast<std::size_t>(size - offset), bytes)) header = header_of(bytes);
  if (header.valid) {
    ::close(fd);
    return walk(bytes, header);
  }
  // The file ends inside a chunk header (or the last chunk is not one): what is readable
  // is what the chunk before holds.
  std::vector<std::uint8_t> previous;
  ChunkHeader before;
  if (offset >= chunk_bytes && read_at(fd, offset - chunk_bytes, kHeaderBytes, previous)) before = header_of(previous);
  ::close(fd);
  end.readable = before.valid ? before.last : 0;
  end.why = "the event file is cut short or damaged at the start of the chunk holding " +
            record_name(end.readable + 1);
  return end;
}

}  // namespace earl
