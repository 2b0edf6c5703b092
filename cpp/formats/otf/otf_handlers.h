#pragma once
#include "formats/otf/otf_archive.h"

namespace earl {

// libotf calls C handlers; these fill an archive's raw definitions (otf_definitions.cpp)
// and map event and marker records onto EARL events (otf_records.cpp). No handler throws
// (libotf is C): they note the first error on the archive and ask libotf to stop.
void install_definition_handlers(struct_OTF_HandlerArray* handlers, OtfArchive::Raw* raw);
void install_event_handlers(struct_OTF_HandlerArray* handlers, OtfArchive* archive);
void install_marker_handlers(struct_OTF_HandlerArray* handlers, OtfArchive* archive);

}  // namespace earl
