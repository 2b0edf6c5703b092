// The writer factory: one place that knows every format the generator and `earl convert`
// can write.
#include "gen/trace_writer.h"

#include "gen/alog_writer.h"
#include "model/error.h"
#ifdef EARL_HAVE_OTF2
#include "gen/otf2_writer.h"
#endif

namespace earl::gen {

std::vector<std::string> writer_formats() {
#ifdef EARL_HAVE_OTF2
  return {"alog", "otf2"};
#else
  return {"alog"};
#endif
}

std::unique_ptr<TraceWriter> make_trace_writer(const std::string& format, const std::string& path,
                                               const WriterOptions& options) {
  if (format == "alog") return std::make_unique<AlogWriter>(path, options);
#ifdef EARL_HAVE_OTF2
  if (format == "otf2") return std::make_unique<Otf2Writer>(path, options);
#endif
  std::string known;
  for (const auto& f : writer_formats()) known += (known.empty() ? "" : ", ") + f;
  std::string hint;
#ifndef EARL_HAVE_OTF2
  if (format == "otf2") hint = "; this EARL was built without libotf2";
#endif
  throw EarlError("cannot write format '" + format + "' (supported: " + known + ")" + hint);
}

}  // namespace earl::gen
