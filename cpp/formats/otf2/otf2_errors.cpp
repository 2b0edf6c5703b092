#include "formats/otf2/otf2_errors.h"

#include <cstdarg>
#include <cstdio>

namespace earl {

namespace {

thread_local std::string last_otf2_message;
thread_local Otf2Errors* watched_errors = nullptr;  // the innermost Otf2ErrorWatch's

OTF2_ErrorCode remember_otf2_error(void*, const char*, uint64_t, const char*, OTF2_ErrorCode code,
                                   const char* format, va_list arguments) {
  char text[512];
  std::vsnprintf(text, sizeof(text), format ? format : "", arguments);
  last_otf2_message = text;
  if (watched_errors && watched_errors->count++ == 0)
    watched_errors->first = std::string(OTF2_Error_GetDescription(code)) + ": " + text;
  return code;
}

}  // namespace

void install_otf2_error_handler() {
  static bool installed = [] {
    OTF2_Error_RegisterCallback(remember_otf2_error, nullptr);
    return true;
  }();
  (void)installed;
}

std::string otf2_problem(OTF2_ErrorCode code) {
  std::string text = OTF2_Error_GetDescription(code);
  const std::string message = take_otf2_message();
  if (!message.empty()) text += " (" + message + ")";
  return text;
}

std::string take_otf2_message() {
  std::string message;
  message.swap(last_otf2_message);
  return message;
}

Otf2ErrorWatch::Otf2ErrorWatch(Otf2Errors& errors) : outer_(watched_errors) { watched_errors = &errors; }

Otf2ErrorWatch::~Otf2ErrorWatch() { watched_errors = outer_; }

}  // namespace earl
