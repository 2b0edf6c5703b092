#include "output/staged_output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <utility>

#include "model/error.h"
#include "model/path_check.h"

namespace earl::output {

namespace {

std::atomic<unsigned> counter{0};

bool exists(const std::string& path) {
  struct stat info;
  return ::lstat(path.c_str(), &info) == 0;
}

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

std::string why(int error) { return std::strerror(error); }

}  // namespace

// A device, pipe or socket under the final name would be replaced by the rename (as root,
// /dev/null itself): such a name is refused. A symbolic link is replaced, not followed.
void refuse_special_target(const std::string& path, const std::string& shown) {
  struct stat info;
  if (::lstat(path.c_str(), &info) != 0 || S_ISREG(info.st_mode) || S_ISLNK(info.st_mode) || S_ISDIR(info.st_mode))
    return;
  const char* kind = S_ISFIFO(info.st_mode)  ? "a named pipe (FIFO)"
                     : S_ISSOCK(info.st_mode) ? "a socket"
                     : S_ISCHR(info.st_mode)  ? "a character device"
                     : S_ISBLK(info.st_mode)  ? "a block device"
                                              : "a special file";
  throw EarlError("cannot write '" + shown + "': it is " + kind +
                  ", not a regular file (EARL writes a new file and renames it into place)");
}

std::string staging_name(const std::string& path, bool (*taken)(const std::string&)) {
  if (!taken) taken = exists;
  const std::string stem = path + ".earl-partial-" + std::to_string(::getpid()) + "-";
  for (;;) {
    std::string name = stem + std::to_string(counter.fetch_add(1));
    if (!taken(name)) return name;  // a leftover of a killed process of the same pid is skipped
  }
}

void sync_file(const std::string& path, const std::string& shown) {
  Descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0 || ::fsync(fd.get()) != 0)
    throw EarlError("cannot write '" + shown + "': flushing to disk failed: " + why(errno));
}

void move_into_place(const std::string& from, const std::string& to, const std::string& shown) {
  refuse_special_target(to, shown);
  if (::rename(from.c_str(), to.c_str()) != 0)
    throw EarlError("cannot write '" + shown + "': renaming into place failed: " + why(errno));
}

void sync_directory_of(const std::string& path) noexcept {
  Descriptor fd(::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() >= 0) ::fsync(fd.get());
}

StagedFile::StagedFile(std::string final_path) : final_(std::move(final_path)) {
  check_path(final_, "output");  // a name cut at a NUL would be another file's
  struct stat info;
  if (::stat(final_.c_str(), &info) == 0 && S_ISDIR(info.st_mode))  // said now, not after writing
    throw EarlError("cannot write '" + final_ + "': " + why(EISDIR));
  refuse_special_target(final_, final_);
  int fd = -1;
  for (int tries = 0; fd < 0 && tries < 100; ++tries) {
    staged_ = staging_name(final_);
    // 0666 less the umask, as the file would get if written in place.
    fd = ::open(staged_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) throw EarlError("cannot write '" + final_ + "': " + why(errno));
  file_ = ::fdopen(fd, "wb");
  if (!file_) {
    const int error = errno;
    ::close(fd);
    ::unlink(staged_.c_str());
    throw EarlError("cannot write '" + final_ + "': " + why(error));
  }
}

StagedFile::~StagedFile() { discard(); }

void StagedFile::fail(const std::string& what) {
  discard();
  throw EarlError("cannot write '" + final_ + "': " + what);
}

void StagedFile::commit() {
  if (done_ || !file_) fail("the file is already closed");
  if (std::fflush(file_) != 0) fail(why(errno));
  if (::fsync(::fileno(file_)) != 0) fail("flushing to disk failed: " + why(errno));
  std::FILE* file = file_;
  file_ = nullptr;
  if (std::fclose(file) != 0) fail(why(errno));
  try {
    refuse_special_target(final_, final_);  // made since the file was opened
  } catch (const EarlError&) {
    discard();
    throw;
  }
  if (::rename(staged_.c_str(), final_.c_str()) != 0) fail("renaming into place failed: " + why(errno));
  done_ = true;
  sync_directory_of(final_);
}

void StagedFile::discard() noexcept {
  if (file_) std::fclose(file_);
  file_ = nullptr;
  if (!done_) ::unlink(staged_.c_str());
  done_ = true;
}

}  // namespace earl::output
