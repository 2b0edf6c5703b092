#pragma once
#include <memory>
#include <string>
#include <vector>

#include "format_interface/trace_format.h"

namespace earl {

// The one table of trace formats (a row per folder under formats/). Opening a trace,
// detecting its format, `earl convert`, `earl gen` and every message that lists formats
// read it.
const std::vector<const TraceFormat*>& trace_formats();

// The row named `name`; EarlError listing the known formats when there is none.
const TraceFormat& trace_format(const std::string& name);

// Names of the formats this build reads / writes, in table order.
std::vector<std::string> readable_formats();
std::vector<std::string> writable_formats();

// The format a file name implies by its ending ("" when none does).
std::string format_for_path(const std::string& path);

// The format of the trace at `path`, judged by its content. EarlError naming the file
// when it cannot be opened or no format recognises it.
std::string detect_format(const std::string& path);

// Opens `file` with the reader of `format`, or of the format its content shows when
// `format` is empty. With `cache`, a format that offers an import (slow seeks: OTF2) is
// read once into EARL's event cache, which then serves every position. `read`: how damage
// is treated (ReadOptions).
std::unique_ptr<TraceDecoder> open_decoder(const std::string& file, const std::string& format, bool cache = true,
                                           const ReadOptions& read = {});
// The same, restored from a state the decoder saved after a full pass over this trace
// (TraceDecoder::save_state): no pass, no import.
std::unique_ptr<TraceDecoder> open_decoder(const std::string& file, const std::string& format, bool cache,
                                           DecoderState& restored, const ReadOptions& read = {});

// The format's name of the trace at `file` (`format`, or detected when empty).
std::string resolve_format(const std::string& file, const std::string& format);
// The files the trace consists of, the one naming it first (TraceFormat::files).
std::vector<std::string> trace_files(const std::string& file, const std::string& format);

// Why `format` cannot be written ("cannot write format 'x' (supported: alog, otf2)" and
// what is missing), or "" when it can.
std::string why_not_writable(const std::string& format);

// A writer of `format` to `path`; EarlError when the format cannot be written.
std::unique_ptr<TraceWriter> open_writer(const std::string& format, const std::string& path,
                                              const WriterOptions& options);

}  // namespace earl
