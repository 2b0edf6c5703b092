#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace earl {

// The one place the persisted index's settings are named and defaulted (every language
// and the CLI go through here).
constexpr const char* kIndexEnv = "EARL_INDEX";                    // "0": no index
constexpr const char* kIndexDirEnv = "EARL_INDEX_DIR";             // where indexes go
constexpr const char* kIndexMinBytesEnv = "EARL_INDEX_MIN_BYTES";  // smaller traces get none
constexpr std::uint64_t kDefaultIndexMinBytes = std::uint64_t(64) << 20;
constexpr const char* kIndexSuffix = ".earlidx";

// What the caller asked for: the default (index traces of at least the minimum size unless
// $EARL_INDEX is 0), always, or never.
enum class IndexMode { Automatic, On, Off };

struct IndexPolicy {
  bool enabled = false;
  std::uint64_t min_bytes = 0;
  std::string why_off;  // when not enabled
};

// EarlError for a malformed $EARL_INDEX or $EARL_INDEX_MIN_BYTES.
IndexPolicy index_policy(IndexMode mode);

// Where the index of the trace named by `anchor` lives: $EARL_INDEX_DIR when set; else
// <anchor>.earlidx when the anchor's directory is writable; else the user's cache
// directory ($XDG_CACHE_HOME/earl, else ~/.cache/earl). The last two are named by a hash
// of the anchor's absolute path. Creates the chosen directory when it is missing; "" when
// there is nowhere to put it.
std::string index_path_for(const std::string& anchor);

// Every place an index of `anchor` may be (beside it, in $EARL_INDEX_DIR, in the user's
// cache directory), existing or not.
std::vector<std::string> index_places(const std::string& anchor);

// The directories holding indexes named by hash: $EARL_INDEX_DIR and the user's cache
// directory (those that are set).
std::vector<std::string> index_directories();

// Removes the index files (and writers' leftovers) at `index` ; returns what it removed.
std::vector<std::string> remove_index(const std::string& index);
// Removes every index file in `directory` (not below it); returns what it removed.
std::vector<std::string> remove_indexes_in(const std::string& directory);

}  // namespace earl
