#include "index/index_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "index/index_hash.h"
#include "index/path_parts.h"
#include "model/error.h"

namespace earl {

namespace {

constexpr char kMagic[8] = {'E', 'A', 'R', 'L', 'I', 'D', 'X', '\0'};
constexpr std::uint32_t kByteOrder = 0x01020304;
constexpr std::size_t kCopyBytes = std::size_t(1) << 20;
// Seeds keep the three checksums from agreeing on swapped parts.
constexpr std::uint64_t kKeySeed = 1, kDataSeed = 2, kHeaderSeed = 3;

struct Header {
  std::uint32_t version = kIndexVersion;
  std::uint32_t byte_order = kByteOrder;
  std::uint64_t key_bytes = 0, payload_bytes = 0, data_bytes = 0;
  std::uint64_t key_payload_sum = 0, data_sum = 0;
};

void put(char* at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) at[i] = static_cast<char>((v >> (8 * i)) & 0xFF);
}
std::uint64_t get(const char* at) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= std::uint64_t(static_cast<unsigned char>(at[i])) << (8 * i);
  return v;
}

void encode(const Header& h, char* out) {
  std::memcpy(out, kMagic, 8);
  put(out + 8, h.version | std::uint64_t(h.byte_order) << 32);
  put(out + 16, h.key_bytes);
  put(out + 24, h.payload_bytes);
  put(out + 32, h.data_bytes);
  put(out + 40, h.key_payload_sum);
  put(out + 48, h.data_sum);
  put(out + 56, 0);  // reserved
  put(out + 64, index_hash(out, 64, kHeaderSeed));
}

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "host";
  std::string host(name);
  for (char& c : host)
    if (c == '/' || c == '.') c = '_';  // one component of a file name, no dots inside
  return host.empty() ? "host" : host;
}

bool write_all(int fd, const char* data, std::size_t size, std::uint64_t offset) {
  std::size_t done = 0;
  while (done < size) {
    ssize_t n = ::pwrite(fd, data + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) errno = ENOSPC;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// Bytes read (short only at the end of the file), or -1 with errno.
long long read_all(int fd, char* out, std::size_t size, std::uint64_t offset) {
  std::size_t done = 0;
  while (done < size) {
    ssize_t n = ::pread(fd, out + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  return static_cast<long long>(done);
}

class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

}  // namespace

void write_index_file(const std::string& path, const IndexContents& contents) {
  std::string temporary = path + ".tmp." + host_name() + "." + std::to_string(::getpid()) + ".XXXXXX";
  Descriptor fd(::mkstemp(&temporary[0]));
  auto fail = [&](const std::string& what) {
    int error = errno;
    if (fd.get() >= 0) ::unlink(temporary.c_str());
    throw EarlError(path + ": the index cannot be " + what + ": " + std::strerror(error));
  };
  if (fd.get() < 0) fail("created");
  ::fchmod(fd.get(), 0644);  // readable by whoever may read the trace beside it

  Header header;
  header.key_bytes = contents.key.size();
  header.payload_bytes = contents.payload.size();
  header.data_bytes = contents.data_bytes;
  IndexHash key_payload(kKeySeed);
  key_payload.update(contents.key);
  key_payload.update(contents.payload);
  header.key_payload_sum = key_payload.value();
  std::uint64_t at = kHeaderBytes;
  if (!write_all(fd.get(), contents.key.data(), contents.key.size(), at)) fail("written");
  at += contents.key.size();
  if (!write_all(fd.get(), contents.payload.data(), contents.payload.size(), at)) fail("written");
  at += contents.payload.size();
  IndexHash data(kDataSeed);
  std::unique_ptr<char[]> buffer(new char[kCopyBytes]);
  for (std::uint64_t done = 0; done < contents.data_bytes;) {
    std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(kCopyBytes, contents.data_bytes - done));
    long long got = read_all(contents.data_fd, buffer.get(), want, contents.data_offset + done);
    if (got != static_cast<long long>(want)) {
      if (got >= 0) errno = EIO;
      fail("written (its data cannot be read)");
    }
    data.update(buffer.get(), want);
    if (!write_all(fd.get(), buffer.get(), want, at)) fail("written");
    at += want;
    done += want;
  }
  header.data_sum = data.value();
  char head[kHeaderBytes];
  encode(header, head);
  // The header goes last: a file cut anywhere before has none that checks.
  if (!write_all(fd.get(), head, sizeof head, 0)) fail("written");
  if (::fsync(fd.get()) != 0) fail("flushed to disk");
  if (::rename(temporary.c_str(), path.c_str()) != 0) fail("renamed into place");
  // The rename itself reaches the disk with the directory.
  Descriptor directory(::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (directory.get() >= 0) ::fsync(directory.get());
}

std::string read_index_file(const std::string& path, IndexContents& contents) {
  Descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) return errno == ENOENT ? "none" : std::string("it cannot be opened: ") + std::strerror(errno);
  struct stat info;
  if (::fstat(fd.get(), &info) != 0 || !S_ISREG(info.st_mode)) return "it is not a regular file";
  char head[kHeaderBytes];
  long long got = read_all(fd.get(), head, sizeof head, 0);
  if (got < 0) return std::string("it cannot be read: ") + std::strerror(errno);
  if (got < static_cast<long long>(sizeof head)) return "it is truncated (no whole header)";
  if (std::memcmp(head, kMagic, 8) != 0) return "it is not an EARL index (wrong magic)";
  if (get(head + 64) != index_hash(head, 64, kHeaderSeed)) return "its header is damaged (checksum)";
  std::uint64_t word = get(head + 8);
  if (static_cast<std::uint32_t>(word >> 32) != kByteOrder) return "it was written with another byte order";
  if (static_cast<std::uint32_t>(word) != kIndexVersion)
    return "it has version " + std::to_string(static_cast<std::uint32_t>(word)) + ", this EARL writes " +
           std::to_string(kIndexVersion);
  Header h;
  h.key_bytes = get(head + 16);
  h.payload_bytes = get(head + 24);
  h.data_bytes = get(head + 32);
  h.key_payload_sum = get(head + 40);
  h.data_sum = get(head + 48);
  const std::uint64_t file_bytes = static_cast<std::uint64_t>(info.st_size);
  const std::uint64_t rest = file_bytes - kHeaderBytes;
  if (h.key_bytes > rest || h.payload_bytes > rest - h.key_bytes ||
      h.data_bytes != rest - h.key_bytes - h.payload_bytes)
    return "it is truncated or has extra bytes (" + std::to_string(file_bytes) + " bytes, the header says " +
           std::to_string(kHeaderBytes + h.key_bytes + h.payload_bytes + h.data_bytes) + ")";
  contents.key.resize(static_cast<std::size_t>(h.key_bytes));
  contents.payload.resize(static_cast<std::size_t>(h.payload_bytes));
  if (read_all(fd.get(), &contents.key[0], contents.key.size(), kHeaderBytes) !=
          static_cast<long long>(contents.key.size()) ||
      read_all(fd.get(), &contents.payload[0], contents.payload.size(), kHeaderBytes + h.key_bytes) !=
          static_cast<long long>(contents.payload.size()))
    return "it is truncated";
  IndexHash key_payload(kKeySeed);
  key_payload.update(contents.key);
  key_payload.update(contents.payload);
  if (key_payload.value() != h.key_payload_sum) return "it is damaged (checksum of its bookmarks)";
  contents.data_offset = kHeaderBytes + h.key_bytes + h.payload_bytes;
  contents.data_bytes = h.data_bytes;
  IndexHash data(kDataSeed);
  std::unique_ptr<char[]> buffer(new char[kCopyBytes]);
  for (std::uint64_t done = 0; done < h.data_bytes;) {
    std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(kCopyBytes, h.data_bytes - done));
    if (read_all(fd.get(), buffer.get(), want, contents.data_offset + done) != static_cast<long long>(want))
      return "it is truncated";
    data.update(buffer.get(), want);
    done += want;
  }
  if (data.value() != h.data_sum) return "it is damaged (checksum of its event cache)";
  contents.data_fd = fd.release();
  return "";
}

std::vector<std::string> stale_temporary_files(const std::string& path, bool all) {
  std::vector<std::string> found;
  const std::string prefix = base_of(path) + ".tmp.";
  const std::string host = host_name();
  DIR* dir = ::opendir(directory_of(path).c_str());
  if (!dir) return found;
  while (dirent* entry = ::readdir(dir)) {
    std::string name = entry->d_name;
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    // <prefix><host>.<pid>.<XXXXXX>
    std::string rest = name.substr(prefix.size());
    std::size_t last = rest.rfind('.');
    std::size_t middle = last == std::string::npos || last == 0 ? std::string::npos : rest.rfind('.', last - 1);
    if (middle == std::string::npos) continue;
    bool gone = all;
    if (!gone && rest.substr(0, middle) == host) {
      std::string pid = rest.substr(middle + 1, last - middle - 1);
      char* end = nullptr;
      long number = std::strtol(pid.c_str(), &end, 10);
      gone = end && *end == '\0' && number > 0 && ::kill(static_cast<pid_t>(number), 0) != 0 && errno == ESRCH;
    }
    if (gone) found.push_back(directory_of(path) + "/" + name);
  }
  ::closedir(dir);
  return found;
}

}  // namespace earl
