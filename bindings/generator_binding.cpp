// Placeholder until this part lands.
#include "bindings/bindings.h"
namespace earl::bindings {
void bind_generator(pybind11::module_&) {}
}  // namespace earl::bindings
