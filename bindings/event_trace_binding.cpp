// Placeholder until this part lands.
#include "bindings/bindings.h"
namespace earl::bindings {
void bind_event_trace(pybind11::module_&) {}
}  // namespace earl::bindings
