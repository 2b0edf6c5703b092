#pragma once
#include <stdexcept>
#include <string>

namespace earl {

// The one error class of EARL: bad input, bad arguments, positions that do not exist.
// A NUL byte in the message (from a path or a name) is kept as the two characters \0:
// every language reads what() as a C string, which would end there (a message "a").
class EarlError : public std::runtime_error {
 public:
  explicit EarlError(const std::string& message) : std::runtime_error(without_nul(message)) {}

 private:
  static std::string without_nul(const std::string& message) {
    if (message.find('\0') == std::string::npos) return message;
    std::string shown;
    for (char c : message) shown += c == '\0' ? std::string("\\0") : std::string(1, c);
    return shown;
  }
};

// Raised when a progress callback asks a long scan to stop (Ctrl-C in the front end).
// The object that was scanning stays usable: scans stop between two events.
class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("interrupted") {}
};

}  // namespace earl
