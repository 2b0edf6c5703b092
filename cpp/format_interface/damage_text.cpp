#include "format_interface/damage_text.h"

namespace earl {

std::string events_read_before(std::uint64_t events) {
  return events == 1 ? "the event record before it was read"
                     : "the " + std::to_string(events) + " event records before it were read";
}

std::string lines_not_read(std::uint64_t line, std::uint64_t left) {
  const std::uint64_t lines = line - 1 + left;
  if (left == 1) return "line " + std::to_string(line) + ", the file's last, was not";
  return "lines " + std::to_string(line) + " to " + std::to_string(lines) + " (" + std::to_string(left) +
         " of the file's " + std::to_string(lines) + ") were not";
}

}  // namespace earl
