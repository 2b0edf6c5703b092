#pragma once
#include <memory>
#include <string>
#include <vector>

#include "format_interface/import_source.h"
#include "format_interface/trace_decoder.h"
#include "format_interface/trace_writer.h"

namespace earl {

// One row of the format registry (registry/format_registry.h): everything EARL knows of a
// trace format. Each format folder (formats/alog, formats/otf2, ...) defines its row;
// opening, detection, `earl convert`, `earl gen` and every error message listing formats
// read the registry, so adding a format is adding a folder and a row.
struct TraceFormat {
  const char* name;         // lower case, as users pass it ("alog")
  const char* description;  // for listings ("ALOG: MPE's text traces")
  std::vector<std::string> extensions;  // file name endings that imply it (".alog")

  // True when `path` holds a trace of this format, judged by content. `head` holds the
  // first bytes of a regular file (empty for a directory).
  bool (*sniff)(const std::string& path, bool directory, const std::string& head);

  // Null where this build cannot read or write the format; `unavailable` then says why
  // and what to install.
  std::unique_ptr<TraceDecoder> (*open_reader)(const std::string& path, const ReadOptions& options);
  // For formats whose own seeks are slow: an import into EARL's event cache, which then
  // serves every position (null: the reader seeks well enough).
  std::unique_ptr<ImportSource> (*open_import)(const std::string& path, const ReadOptions& options);
  std::unique_ptr<TraceWriter> (*open_writer)(const std::string& path, const WriterOptions& options);
  const char* unavailable;
  // The files the trace at `path` consists of, the one that names it (its anchor) first;
  // null: the file alone. A change of any of them is a change of the trace.
  std::vector<std::string> (*files)(const std::string& path);
  // Other names users may pass for it (historical ones: "vampir" for OTF); opening
  // resolves them to `name`.
  std::vector<std::string> aliases = {};
};

}  // namespace earl
