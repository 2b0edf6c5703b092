// The OTF master control file, recognised without libotf (formats/otf/otf_anchor.h).
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "formats/otf/otf_anchor.h"
#include "model/error.h"

using namespace earl;

TEST_CASE("a master control file is lines of hexadecimal stream:processes") {
  CHECK(looks_like_otf_master("1:1\n2:2\n"));
  CHECK(looks_like_otf_master("1:1,2,a,F\r\n\n"));
  CHECK(looks_like_otf_master("1:"));
  CHECK_FALSE(looks_like_otf_master(""));
  CHECK_FALSE(looks_like_otf_master("\n\n"));
  CHECK_FALSE(looks_like_otf_master(":1\n"));
  CHECK_FALSE(looks_like_otf_master("1 1\n"));
  CHECK_FALSE(looks_like_otf_master("1:1\nOTF2 x\n"));
  CHECK_FALSE(looks_like_otf_master(std::string("1:1\0", 4)));
}

TEST_CASE("the anchor of a file or a directory, and the trace's files") {
  char pattern[] = "/tmp/earl-otf-anchor-XXXXXX";
  REQUIRE(mkdtemp(pattern));
  const std::string dir = pattern;
  auto write = [&](const std::string& name, const std::string& text) { std::ofstream(dir + "/" + name) << text; };
  write("t.otf", "1:1,2\n");
  write("t.0.def", "DTR3e8\n");
  write("t.1.events.z", "x");
  write("t.notes", "not a part");
  write("u.otf", "not hexadecimal\n");
  CHECK(find_otf_anchor(dir + "/t.otf") == dir + "/t.otf");
  CHECK(find_otf_anchor(dir + "/u.otf").empty());
  CHECK(find_otf_anchor(dir) == dir + "/t.otf");
  CHECK(otf_name_stub(dir + "/t.otf") == dir + "/t");
  CHECK(otf_archive_files(dir + "/t.otf") ==
        std::vector<std::string>{dir + "/t.otf", dir + "/t.0.def", dir + "/t.1.events.z"});
  write("v.otf", "2:3\n");
  CHECK_THROWS_AS(find_otf_anchor(dir), EarlError);
  for (const char* name : {"t.otf", "t.0.def", "t.1.events.z", "t.notes", "u.otf", "v.otf"})
    std::remove((dir + "/" + name).c_str());
  ::rmdir(dir.c_str());
}
