#pragma once
// The parts of a damage message (StreamDamage::message) of a trace read in one stream up
// to its damage (ALOG, described formats): "...; the 12 event records before it were
// read, lines 30 to 41 (12 of the file's 41) were not".
#include <cstdint>
#include <string>

namespace earl {

// "the event record before it was read", "the 12 event records before it were read".
std::string events_read_before(std::uint64_t events);
// What was not read from line `line` on, `left` lines with it: "line 41, the file's last,
// was not", "lines 30 to 41 (12 of the file's 41) were not".
std::string lines_not_read(std::uint64_t line, std::uint64_t left);

}  // namespace earl
