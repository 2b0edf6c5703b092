#pragma once
// The streaming side of the Chrome reader: RapidJSON's SAX reader over ChromeInput walks
// either container form, `{"traceEvents": [...], ...}` or a bare array `[...]`, and hands
// each element of the event array to `on_event` as soon as it is complete. Nothing but one
// event's fields is held. A bare array may lack its closing `]` (the format's own rule for
// traces of processes that ended abruptly): input that ends between two events is then the
// whole trace, and the result says so. Damage (JSON that cannot be read: cut short,
// corrupted, bad gzip data) inside the event array after at least one whole event ends the
// trace there unless `strict`: the result keeps the events before it and says why.
#include <functional>
#include <string>

#include "formats/chrome/chrome_fields.h"

namespace earl {

struct ChromeParseResult {
  std::uint64_t events = 0;   // elements of the event array
  bool unterminated = false;  // a bare array without its `]`
  std::string damage;         // why the events stop early ("" when they do not)
};

// Throws EarlError "<path>: byte B: <what>" (with the event's index where inside one).
ChromeParseResult parse_chrome_events(const std::string& path, bool strict,
                                      const std::function<void(const ChromeFields&)>& on_event);

}  // namespace earl
