// The table of open options (trace/open_options.h): values reach OpenOptions only through
// set_open_option, which refuses another type and out-of-range values naming the option as
// the caller spelled it; the environment decides what is left unset (EARL_CACHE,
// EARL_MEMORY), read in this one place.
#include <cstdlib>
#include <set>
#include <string>

#include <doctest/doctest.h>

#include "model/error.h"
#include "trace/open_options.h"

using namespace earl;

namespace {

std::string error_of(OpenOptions& options, const char* name, const OptionValue& value, const std::string& spelled) {
  try {
    set_open_option(options, *find_open_option(name), value, spelled);
  } catch (const EarlError& error) {
    return error.what();
  }
  return "";
}

// Sets an environment variable for one scope.
class Environment {
 public:
  Environment(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    if (value) ::setenv(name, value, 1); else ::unsetenv(name);
  }
  ~Environment() {
    if (had_) ::setenv(name_, old_.c_str(), 1); else ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

}  // namespace

TEST_CASE("every option has one name per language, and the Tcl flags are distinct") {
  std::set<std::string> names, flags;
  for (const OpenOption& option : open_options()) {
    CHECK(names.insert(option.name).second);
    CHECK(std::string(option.tcl).rfind('-', 0) == 0);
    CHECK(flags.insert(option.tcl).second);
    CHECK(find_open_option(option.name) == &option);
  }
  CHECK(find_open_option("bsize") == nullptr);
}

TEST_CASE("values are set, checked and refused naming the option as spelled") {
  OpenOptions options;
  CHECK(error_of(options, "bdist", std::int64_t(7), "bdist") == "");
  CHECK(options.bdist == 7);
  CHECK(error_of(options, "bdist", std::monostate{}, "bdist") == "");  // not given: unchanged
  CHECK(options.bdist == 7);
  CHECK(error_of(options, "bdist", std::int64_t(-1), "-bdist") == "-bdist must be a nonnegative integer, got -1");
  CHECK(error_of(options, "hsize", std::int64_t(0), "hsize") == "hsize must be a positive integer, got 0");
  CHECK(error_of(options, "memory", std::int64_t(0), "memory") == "memory must be a positive number of bytes, got 0");
  CHECK(error_of(options, "min_latency", -1.0, "EventTrace: -minlatency") ==
        "EventTrace: -minlatency must be a number of seconds >= 0, got -1");
  CHECK(error_of(options, "strict", std::string("yes"), "strict") == "strict must be a boolean");
  CHECK(error_of(options, "strict", true, "strict") == "");
  CHECK(options.strict);
  CHECK(error_of(options, "cache", false, "cache") == "");
  CHECK(options.cache == 0);
  CHECK(options.bdist == 7);  // refused values changed nothing
  CHECK(options.hsize == 1000);
}

TEST_CASE("check_open_options refuses what C++ callers set directly") {
  OpenOptions options;
  CHECK_NOTHROW(check_open_options(options));
  options.hsize = 0;
  CHECK_THROWS_WITH_AS(check_open_options(options), "hsize must be a positive integer, got 0", EarlError);
  options.hsize = 1;
  options.index = 2;
  CHECK_THROWS_AS(check_open_options(options), EarlError);
}

TEST_CASE("EARL_CACHE decides the cache where the option is not given") {
  OpenOptions options;
  {
    Environment unset("EARL_CACHE", nullptr);
    CHECK(use_event_cache(options));
  }
  {
    Environment off("EARL_CACHE", " 0\n");
    CHECK_FALSE(use_event_cache(options));
    options.cache = 1;  // the option overrules the environment
    CHECK(use_event_cache(options));
    options.cache = -1;
  }
  Environment on("EARL_CACHE", "1");
  CHECK(use_event_cache(options));
  options.cache = 0;
  CHECK_FALSE(use_event_cache(options));
}

TEST_CASE("EARL_MEMORY decides the bookmark budget where memory is not given") {
  {
    Environment unset("EARL_MEMORY", nullptr);
    CHECK(memory_budget(std::nullopt) == (std::uint64_t(256) << 20));
  }
  Environment set("EARL_MEMORY", "64K");
  CHECK(memory_budget(std::nullopt) == 65536);
  CHECK(memory_budget(1000) == 1000);
  // Only "not given" falls back: every given value is checked, -1 like -2 (it was once the
  // sentinel for "not given" and slipped through).
  for (std::int64_t given : {std::int64_t(0), std::int64_t(-1), std::int64_t(-2), INT64_MIN})
    CHECK_THROWS_WITH_AS(memory_budget(given), ("memory must be a positive number of bytes, got " + std::to_string(given)).c_str(),
                         EarlError);
  OpenOptions given;
  given.memory = -1;
  CHECK_THROWS_WITH_AS(check_open_options(given), "memory must be a positive number of bytes, got -1", EarlError);
  Environment bad("EARL_MEMORY", "12X");
  CHECK_THROWS_WITH_AS(memory_budget(std::nullopt), "EARL_MEMORY must be a number of bytes, optionally with K, M or G, got '12X'",
                       EarlError);
}
