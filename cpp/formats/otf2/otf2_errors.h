#pragma once
// libotf2 reports every error through one process-wide callback (by default it prints
// them). EARL installs its own once, for the reader and the writer: it keeps this thread's
// last message for EARL's own error, and counts the errors of the code an
// Otf2ErrorWatch covers, because some errors libotf2 reports only there: a failed write
// of a full event buffer (no room on the disk) is reported while the calls that caused it
// still return OTF2_SUCCESS.
#include <otf2/otf2.h>

#include <cstdint>
#include <string>

namespace earl {

void install_otf2_error_handler();

// The description of `code` with libotf2's last message, which is then forgotten.
std::string otf2_problem(OTF2_ErrorCode code);

// libotf2's last message on this thread ("" when none), then forgotten.
std::string take_otf2_message();

// What an Otf2ErrorWatch saw: how many errors, and the first (the cause; libotf2 then
// reports what failed because of it).
struct Otf2Errors {
  std::uint64_t count = 0;
  std::string first;  // "description: message"
};

// While it lives, libotf2's errors on this thread are noted in `errors` (the innermost
// watch notes; the writer watches its own calls, not those of a reader between them).
class Otf2ErrorWatch {
 public:
  explicit Otf2ErrorWatch(Otf2Errors& errors);
  ~Otf2ErrorWatch();
  Otf2ErrorWatch(const Otf2ErrorWatch&) = delete;
  Otf2ErrorWatch& operator=(const Otf2ErrorWatch&) = delete;

 private:
  Otf2Errors* outer_;
};

}  // namespace earl
