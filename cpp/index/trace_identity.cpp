#include "index/trace_identity.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "index/index_hash.h"
#include "model/error.h"

namespace earl {

namespace {

std::string directory_of(const std::string& path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

std::size_t read_at(int fd, char* out, std::size_t size, std::uint64_t offset) {
  std::size_t done = 0;
  while (done < size) {
    ssize_t n = ::pread(fd, out + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  return done;
}

FileIdentity identify_file(const std::string& path, const std::string& base) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw EarlError(path + ": cannot open: " + std::strerror(errno));
  struct stat info;
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    throw EarlError(path + ": is not a regular file");
  }
  FileIdentity id;
  id.path = path.compare(0, base.size(), base) == 0 ? path.substr(base.size()) : path;
  id.size = static_cast<std::uint64_t>(info.st_size);
  id.mtime_ns = static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1000000000 + info.st_mtim.tv_nsec;
  std::string bytes(std::min<std::uint64_t>(id.size, 2 * kHeadTailBytes), '\0');
  std::size_t got;
  if (id.size <= 2 * kHeadTailBytes) {
    got = read_at(fd, &bytes[0], bytes.size(), 0);
  } else {
    got = read_at(fd, &bytes[0], kHeadTailBytes, 0);
    got += read_at(fd, &bytes[kHeadTailBytes], kHeadTailBytes, id.size - kHeadTailBytes);
  }
  ::close(fd);
  if (got != bytes.size()) throw EarlError(path + ": cannot be read (it shrank while being read)");
  id.head_tail = index_hash(bytes.data(), bytes.size(), id.size);
  return id;
}

}  // namespace

TraceIdentity stat_trace(const std::vector<std::string>& files) {
  TraceIdentity out;
  for (const std::string& path : files) {
    FileIdentity id;
    id.path = path;
    struct stat info;
    if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
      id.head_tail = kGoneFile;
    } else {
      id.size = static_cast<std::uint64_t>(info.st_size);
      id.mtime_ns = static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1000000000 + info.st_mtim.tv_nsec;
    }
    out.files.push_back(id);
  }
  return out;
}

std::uint64_t TraceIdentity::bytes() const {
  std::uint64_t total = 0;
  for (const FileIdentity& file : files) total += file.size;
  return total;
}

std::string TraceIdentity::difference(const TraceIdentity& saved) const {
  if (files.size() != saved.files.size()) return "the trace's files changed";
  for (std::size_t i = 0; i < files.size(); ++i) {
    const FileIdentity& now = files[i];
    const FileIdentity& then = saved.files[i];
    if (now.path != then.path) return "the trace's files changed";
    if (now.head_tail == kGoneFile && then.head_tail != kGoneFile) return now.path + " is gone or no longer a file";
    if (now.size != then.size) return now.path + " changed size";
    if (now.mtime_ns != then.mtime_ns) return now.path + " was modified";
    if (now.head_tail != then.head_tail) return now.path + " changed content";
  }
  return "";
}

std::uint64_t trace_bytes(const std::vector<std::string>& files) {
  std::uint64_t total = 0;
  for (const std::string& file : files) {
    struct stat info;
    if (::stat(file.c_str(), &info) == 0 && S_ISREG(info.st_mode)) total += static_cast<std::uint64_t>(info.st_size);
  }
  return total;
}

TraceIdentity identify_trace(const std::vector<std::string>& files) {
  TraceIdentity identity;
  if (files.empty()) return identity;
  const std::string base = directory_of(files[0]);
  for (const std::string& file : files) identity.files.push_back(identify_file(file, base));
  return identity;
}

}  // namespace earl
