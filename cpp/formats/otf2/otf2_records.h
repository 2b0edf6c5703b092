#pragma once
#include <otf2/otf2.h>

namespace earl {

// The EARL type of each OTF2 record that has one (index into otf2_record_type_names()).
enum Otf2Record : int {
#define EARL_OTF2_RECORD(id, name) id,
#include "formats/otf2/otf2_record_list.h"
#undef EARL_OTF2_RECORD
  kOtf2RecordCount
};

const char* otf2_record_type_name(int record);

// Registers a callback for every event record type libotf2 knows.
void set_otf2_record_callbacks(OTF2_EvtReaderCallbacks* callbacks);

}  // namespace earl
