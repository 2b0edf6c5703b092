#pragma once
#include <otf2/otf2.h>

#include <string>

namespace earl {

// The name of an OTF2 region role as OTF2 spells it ("FUNCTION", "COLL_ALL2ALL",
// "POINT2POINT", ...); "ROLE_<n>" for a value this libotf2 does not know.
std::string otf2_role_name(OTF2_RegionRole role);

}  // namespace earl
