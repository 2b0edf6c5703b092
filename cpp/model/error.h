#pragma once
#include <stdexcept>
#include <string>

namespace earl {

// The one error class of EARL: bad input, bad arguments, positions that do not exist.
class EarlError : public std::runtime_error {
 public:
  explicit EarlError(const std::string& message) : std::runtime_error(message) {}
};

// Raised when a progress callback asks a long scan to stop (Ctrl-C in the front end).
// The object that was scanning stays usable: scans stop between two events.
class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("interrupted") {}
};

}  // namespace earl
