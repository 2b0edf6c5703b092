// Placeholder until this part lands.
#include "bindings/bindings.h"
namespace earl::bindings {
void bind_p2_statistic(pybind11::module_&) {}
}  // namespace earl::bindings
