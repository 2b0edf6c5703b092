// The one main() of every C++ unit test executable (see CMakeLists.txt in this folder).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
