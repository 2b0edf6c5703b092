#include "registry/format_registry.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "cache/cached_decoder.h"
#include "format_interface/file_kind.h"
#include "formats/alog/alog_format.h"
#include "formats/clog2/clog2_format.h"
#include "formats/chrome/chrome_format.h"
#include "formats/described/described_format.h"
#include "formats/epilog/epilog_format.h"
#include "formats/otf2/otf2_format.h"
#include "formats/otf/otf_format.h"
#include "model/error.h"

namespace earl {

namespace {

// Bytes of a file the sniffers see.
constexpr std::size_t kHeadBytes = 4096;

std::string listing(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

const std::vector<const TraceFormat*>& trace_formats() {
  static const std::vector<const TraceFormat*> formats = {&alog_format(), &otf2_format(), &otf_format(), &clog2_format(), &chrome_format(), &epilog_format(), &described_format()};
  return formats;
}

std::vector<std::string> readable_formats() {
  std::vector<std::string> names;
  for (const TraceFormat* format : trace_formats())
    if (format->open_reader) names.push_back(format->name);
  return names;
}

std::vector<std::string> writable_formats() {
  std::vector<std::string> names;
  for (const TraceFormat* format : trace_formats())
    if (format->open_writer) names.push_back(format->name);
  return names;
}

namespace {
// The row `name` names, directly or as one of its aliases; null when none does.
const TraceFormat* row_named(const std::string& name) {
  for (const TraceFormat* format : trace_formats()) {
    if (name == format->name) return format;
    for (const std::string& alias : format->aliases)
      if (name == alias) return format;
  }
  return nullptr;
}
}  // namespace

const TraceFormat& trace_format(const std::string& name) {
  if (const TraceFormat* format = row_named(name)) return *format;
  throw EarlError("unknown format '" + name + "' (known formats: " + listing(readable_formats()) + ")");
}

std::string format_for_path(const std::string& path) {
  for (const TraceFormat* format : trace_formats())
    for (const std::string& extension : format->extensions)
      if (ends_with(path, extension)) return format->name;
  return "";
}

std::string detect_format(const std::string& path) {
  struct stat info;
  if (::stat(path.c_str(), &info) != 0) throw EarlError(path + ": cannot open: " + std::strerror(errno));
  refuse_special_file(path);
  const bool directory = S_ISDIR(info.st_mode);
  std::string head;
  if (!directory) {
    std::ifstream in(path, std::ios::binary);
    head.resize(kHeadBytes);
    in.read(&head[0], static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
  }
  for (const TraceFormat* format : trace_formats())
    if (format->sniff(path, directory, head)) return format->name;
  if (directory)
    throw EarlError(path + ": is a directory holding no trace this build can read (known formats: " +
                    listing(readable_formats()) + ")");
  if (head.empty()) throw EarlError(path + ": empty file, not a trace");
  throw EarlError(path + ": cannot detect the trace format (known formats: " + listing(readable_formats()) + ")");
}

namespace {
const TraceFormat& readable_row(const std::string& file, const std::string& format) {
  refuse_special_file(file);
  const std::string chosen = format.empty() ? detect_format(file) : format;
  const TraceFormat* row = row_named(chosen);
  if (!row)
    throw EarlError(file + ": unknown format '" + chosen + "' (known formats: " + listing(readable_formats()) + ")");
  if (!row->open_reader) throw EarlError(file + ": is " + row->name + ", but " + row->unavailable);
  return *row;
}
}  // namespace

std::unique_ptr<TraceDecoder> open_decoder(const std::string& file, const std::string& format, bool cache,
                                           const ReadOptions& read) {
  // "described:DESC.toml": one row, its parameter the description (formats/described).
  if (is_described_format(format)) {
    refuse_special_file(file);
    return open_described(file, format, read);
  }
  const TraceFormat& row = readable_row(file, format);
  if (cache && row.open_import) return std::make_unique<CachedDecoder>(row.open_import(file, read));
  return row.open_reader(file, read);
}

std::unique_ptr<TraceDecoder> open_decoder(const std::string& file, const std::string& format, bool cache,
                                           DecoderState& restored, const ReadOptions& read) {
  if (is_described_format(format)) {
    refuse_special_file(file);
    std::unique_ptr<TraceDecoder> decoder = open_described(file, format, read);
    decoder->restore_state(restored);
    return decoder;
  }
  const TraceFormat& row = readable_row(file, format);
  if (cache && row.open_import) return std::make_unique<CachedDecoder>(row.open_import(file, read), restored);
  std::unique_ptr<TraceDecoder> decoder = row.open_reader(file, read);
  decoder->restore_state(restored);
  return decoder;
}

std::string resolve_format(const std::string& file, const std::string& format) {
  // The description's file is part of the name: indexes of the trace read through
  // another description are another decoder's.
  if (is_described_format(format)) {
    refuse_special_file(file);
    return resolved_described_format(format);
  }
  return readable_row(file, format).name;
}

std::vector<std::string> trace_files(const std::string& file, const std::string& format) {
  // A described trace is its file and its description: a changed description is a
  // changed trace (the persisted index goes stale).
  if (is_described_format(format)) return {file, description_file(format)};
  const TraceFormat& row = readable_row(file, format);
  if (row.files) return row.files(file);
  return {file};
}

std::string why_not_writable(const std::string& format) {
  if (const TraceFormat* row = row_named(format)) {
    if (row->open_writer) return "";
    return "cannot write format '" + format + "' (supported: " + listing(writable_formats()) + ")" +
           (row->unavailable ? std::string(": ") + row->unavailable : std::string());
  }
  return "cannot write format '" + format + "' (supported: " + listing(writable_formats()) + ")";
}

std::unique_ptr<TraceWriter> open_writer(const std::string& format, const std::string& path,
                                              const WriterOptions& options) {
  const std::string why = why_not_writable(format);
  if (!why.empty()) throw EarlError(why);
  return trace_format(format).open_writer(path, options);
}

}  // namespace earl
