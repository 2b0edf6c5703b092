#pragma once
#include <otf2/otf2.h>

#include <optional>
#include <string>

namespace earl {

// OTF2 paradigms and the region group names EARL gives them (upper case, as OTF2 spells
// them: "MPI", "OPENMP", "USER", ...). One table serves the reader and the writer, so a
// group written is the group read back.
std::string otf2_paradigm_name(OTF2_Paradigm paradigm);
std::optional<OTF2_Paradigm> otf2_paradigm_named(const std::string& name);

}  // namespace earl
