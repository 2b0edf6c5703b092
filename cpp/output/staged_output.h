#pragma once
// Outputs are staged: every file EARL writes (a trace by `earl convert` or `earl gen`) is
// written under a temporary name in its target directory and renamed to its final name
// only when it is whole and flushed to disk. A reader of the final name sees the old file
// or the whole new one, never a part; after a failure (no room, an error, Ctrl-C) the
// temporary is removed and an old file under the final name is untouched. A process
// killed outright (kill -9) can leave its temporary behind ("NAME.earl-partial-PID-N",
// visible, so that it can be found and deleted), never a part under NAME.
// The Python outputs (python/earl/output_paths.py) follow the same rule and naming.
#include <cstdio>
#include <string>

namespace earl::output {

// A name for staging `path` that no file has now: "<path>.earl-partial-<pid>-<n>" (for an
// OTF2 archive, `path` is the archive's name without .otf2; the writer adds its parts).
// `taken(name)` says whether a candidate is in use (default: a file of that name exists).
std::string staging_name(const std::string& path, bool (*taken)(const std::string&) = nullptr);

// Flushes the file `path` to disk; EarlError "cannot write 'shown': ..." when it cannot.
void sync_file(const std::string& path, const std::string& shown);

// EarlError "cannot write 'shown': it is a character device, ..." when `path` names a
// device, pipe or socket, which the rename into place would replace.
void refuse_special_target(const std::string& path, const std::string& shown);

// Renames `from` to `to` (replacing a file there); EarlError naming `shown` when it cannot,
// or when `to` is a device, pipe or socket (refuse_special_target).
void move_into_place(const std::string& from, const std::string& to, const std::string& shown);

// Flushes the directory holding `path` (so that a rename in it reaches the disk).
void sync_directory_of(const std::string& path) noexcept;

// One output file, staged: created (empty) under a staging name beside `final_path`;
// commit() flushes it to disk and renames it into place; anything else removes it.
class StagedFile {
 public:
  explicit StagedFile(std::string final_path);  // EarlError "cannot write 'PATH': why"
  ~StagedFile();                                // discard() unless committed
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;

  std::FILE* stream() const { return file_; }
  const std::string& final_path() const { return final_; }
  const std::string& staged_path() const { return staged_; }
  // Flushes, syncs, closes and renames into place; EarlError (and the temporary removed)
  // when any of it fails.
  void commit();
  // Closes and removes the temporary (idempotent, never throws).
  void discard() noexcept;

 private:
  [[noreturn]] void fail(const std::string& what);

  std::string final_, staged_;
  std::FILE* file_ = nullptr;
  bool done_ = false;
};

}  // namespace earl::output
