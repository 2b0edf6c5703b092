// Seeds of the event_codec fuzz target: `event_codec_seeds TRACE DIR` writes, for each
// location of TRACE, its events encoded as the event cache stores them (each timestamp a
// delta to the location's previous one) to DIR/<location>.bin.
#include <cstdio>
#include <fstream>
#include <map>
#include <vector>

#include "cache/event_codec.h"
#include "model/error.h"
#include "registry/format_registry.h"

int main(int argc, char** argv) {
  using namespace earl;
  if (argc != 3) {
    std::fprintf(stderr, "usage: event_codec_seeds TRACE DIR\n");
    return 2;
  }
  try {
    auto decoder = open_decoder(argv[1], "", false);
    struct Stream {
      std::vector<std::uint8_t> bytes;
      std::uint64_t tick = 0;
    };
    std::map<Location, Stream> streams;
    Event event;
    std::uint8_t buffer[kMaxEncodedEvent];
    while (decoder->read(event)) {
      Stream& stream = streams[event.loc];
      // Nanosecond ticks, as the OTF2 import's timer would give for these times.
      const auto tick = static_cast<std::uint64_t>(event.time * 1e9);
      const std::size_t length = encode_event(event, tick, stream.tick, buffer);
      stream.bytes.insert(stream.bytes.end(), buffer, buffer + length);
      stream.tick = tick;
    }
    for (const auto& [loc, stream] : streams) {
      std::ofstream out(std::string(argv[2]) + "/" + std::to_string(loc) + ".bin", std::ios::binary);
      out.write(reinterpret_cast<const char*>(stream.bytes.data()), static_cast<std::streamsize>(stream.bytes.size()));
    }
  } catch (const EarlError& error) {
    std::fprintf(stderr, "event_codec_seeds: %s\n", error.what());
    return 1;
  }
  return 0;
}
