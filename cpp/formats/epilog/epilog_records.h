#pragma once
// EPILOG's published layout (KOJAK / Scalasca 1.x, elg_defs.h): the numbers the reader
// and the writer share. A file is a 10-byte header ("EPILOG\0", major, minor, byte order)
// and then records: one byte body length, one byte type, the body. Numbers are unsigned
// 1, 4 or 8 bytes or IEEE doubles in the header's byte order.
#include <cstddef>
#include <cstdint>

namespace earl::epilog {

constexpr char kMagic[] = "EPILOG";         // written with its NUL: 7 bytes
constexpr std::size_t kHeaderBytes = 10;
constexpr std::uint8_t kLittleEndian = 1, kBigEndian = 2;
constexpr std::uint8_t kWrittenMajor = 1, kWrittenMinor = 9;  // Scalasca 1.4's version
constexpr std::uint32_t kNoId = 0xFFFFFFFF;

// Versions (major * 1000 + minor) from which a field or meaning applies.
constexpr std::uint32_t kNodeClockRateSince = 1001;  // NODE carries a clock rate (d8)
constexpr std::uint32_t kCommModeSince = 1003;       // MPI_COMM carries a mode byte
constexpr std::uint32_t kLocalRanksSince = 1008;     // peers are ranks of the communicator
constexpr std::uint32_t kTopologyNamesSince = 1009;  // CART_TOPOLOGY names its dimensions

enum Record : std::uint8_t {
  // definitions (< 100)
  STRING = 1, STRING_CNT = 2, MACHINE = 3, NODE = 4, PROCESS = 5, THREAD = 6, LOCATION = 7,
  FILE_DEF = 8, REGION = 9, METRIC = 10, MPI_COMM = 11, OFFSET = 12, LAST_DEF = 13,
  NUM_EVENTS = 14, CALL_SITE = 15, CART_TOPOLOGY = 16, CART_COORDS = 17, MPI_WIN = 18,
  MPI_COMM_CNT = 19, CALL_PATH = 20, EVENT_TYPES = 21, EVENT_COUNTS = 22, MAP_SECTION = 23,
  MAP_OFFSET = 24, IDMAP = 25, IDMAP_CNT = 26, MPI_GROUP = 27, MPI_GROUP_CNT = 28,
  MPI_COMM_REF = 29, MPI_COMM_DIST = 30,
  // attributes of the next event
  ATTR_UI1 = 60, ATTR_UI4 = 61,
  // events (>= 100)
  ENTER = 101, EXIT = 102, MPI_SEND = 103, MPI_RECV = 104, MPI_COLLEXIT = 105, OMP_FORK = 106,
  OMP_JOIN = 107, OMP_ALOCK = 108, OMP_RLOCK = 109, OMP_COLLEXIT = 110, ENTER_CS = 111,
  MPI_PUT_1TS = 112, MPI_PUT_1TE = 113, MPI_GET_1TS = 114, MPI_GET_1TE = 115, MPI_GET_1TO = 116,
  MPI_WINEXIT = 117, MPI_WINCOLLEXIT = 118, MPI_WIN_LOCK = 119, MPI_WIN_UNLOCK = 120,
  MPI_PUT_1TE_REMOTE = 121, MPI_GET_1TS_REMOTE = 122, PUT_1TS = 123, PUT_1TE = 124,
  GET_1TS = 125, GET_1TE = 126, PUT_1TE_REMOTE = 127, GET_1TS_REMOTE = 128, COLLEXIT = 129,
  ALOCK = 130, RLOCK = 131, MPI_SEND_COMPLETE = 132, MPI_RECV_REQUEST = 133,
  MPI_REQUEST_TESTED = 134, MPI_CANCELLED = 135, LOG_OFF = 201, LOG_ON = 202,
  ENTER_TRACING = 203, EXIT_TRACING = 204,
};

constexpr std::uint8_t kFirstEvent = 100;
constexpr std::uint8_t kMpi2LockExclusive = 1;
// MPI_COMM/MPI_GROUP mode bits: the group is MPI_COMM_WORLD (ranks 0..n-1); bits 2..5 name
// the encoding of the member list (0: the bit string of world ranks).
constexpr std::uint8_t kGroupWorld = 1;
inline std::uint8_t group_encoding(std::uint8_t mode) { return (mode >> 2) & 15; }

}  // namespace earl::epilog
