#pragma once
// The byte layout of CLOG2 files (MPE's logging format, CLOG-02.xx), as MPE's
// clog_preamble.h, clog_record.h, clog_commset.h and clog_uuid.h publish it; the one place
// the decoder and the writer take it from.
//
// A merged file: a 1024-byte preamble (NUL-terminated strings: the version, then
// "title=" / value pairs), then blocks of `block_size` bytes, each a run of records ended
// by an end-of-block record (the last block by the end-of-log record) and padding, then
// the communicator table at `commtable_fptr`. Every record is a 24-byte header (double
// time, int32 icomm, rank, thread, rectype) and a body whose size its type fixes. Numbers
// are in the byte order the preamble names (MPE's merger always writes big-endian).
#include <cstdint>
#include <cstring>

#include "format_interface/byte_order.h"

namespace earl::clog2 {

constexpr std::uint64_t kPreambleSize = 1024;
constexpr std::size_t kVersionLength = 12;  // CLOG_VERSION_STRLEN: "CLOG-02.44" and its NUL
constexpr const char kVersionPrefix[] = "CLOG-02.";
constexpr const char kWrittenVersion[] = "CLOG-02.44";  // MPE 1.x's, the one this writer claims

constexpr std::uint64_t kHeaderSize = 24;

// Record types (CLOG_REC_*).
enum RecordType : std::int32_t {
  kEndLog = 0,
  kEndBlock = 1,
  kStateDef = 2,
  kEventDef = 3,
  kConstDef = 4,
  kBareEvt = 5,
  kCargoEvt = 6,
  kMsgEvt = 7,
  kCollEvt = 8,
  kCommEvt = 9,
  kSrcLoc = 10,
  kTimeshift = 11,
};
constexpr std::int32_t kRecordTypes = 12;

// Fixed string fields (sizes in bytes; NUL-terminated where shorter).
constexpr std::size_t kColorSize = 24;
constexpr std::size_t kNameSize = 32;     // CLOG_Str_Desc_t
constexpr std::size_t kFormatSize = 40;   // CLOG_Str_Format_t
constexpr std::size_t kFileSize = 40;     // CLOG_Str_File_t
constexpr std::size_t kCargoSize = 32;    // CLOG_Str_Bytes_t
constexpr std::size_t kUuidSize = 32;     // int32 rand, double time, 20 name bytes

// Body sizes by record type (header excluded).
constexpr std::uint64_t kBodySize[kRecordTypes] = {
    0,                                      // end of log
    0,                                      // end of block
    16 + kColorSize + kNameSize + kFormatSize,  // state: id, start, final, pad, strings
    8 + kColorSize + kNameSize + kFormatSize,   // event: etype, pad, strings
    8 + kNameSize,                          // const: etype, value, name
    8,                                      // bare: etype, pad
    8 + kCargoSize,                         // cargo: etype, pad, bytes
    24,                                     // message: etype, icomm, rank, tag, size, pad
    16,                                     // collective: etype, root, size, pad
    16 + kUuidSize,                         // communicator: etype, icomm, rank, wrank, gcomm
    8 + kFileSize,                          // source location: id, line, file
    8,                                      // time shift: double
};

// Body offsets of the fields the decoder and the writer use.
namespace state_def { constexpr std::size_t id = 0, start = 4, final = 8, color = 16, name = 40, format = 72; }
namespace event_def { constexpr std::size_t etype = 0, color = 8, name = 32, format = 64; }
namespace msg_evt { constexpr std::size_t etype = 0, icomm = 4, rank = 8, tag = 12, size = 16; }
namespace coll_evt { constexpr std::size_t etype = 0, root = 4, size = 8; }
namespace comm_evt { constexpr std::size_t etype = 0, icomm = 4, rank = 8, wrank = 12, gcomm = 16; }
namespace cargo_evt { constexpr std::size_t etype = 0, bytes = 8; }

// Message event types (CLOG_EVT_SENDMSG, CLOG_EVT_RECVMSG).
constexpr std::int32_t kSendMsg = -101;
constexpr std::int32_t kRecvMsg = -102;

// Communicator event types (CLOG_COMM_*): those that make a communicator and name one of
// its members; CLOG_COMM_FREE (10) ends one.
constexpr std::int32_t kCommWorldCreate = 0;
constexpr std::int32_t kCommSelfCreate = 1;
constexpr std::int32_t kCommFree = 10;
constexpr std::int32_t kCommKindIntra = 1;  // CLOG_COMM_KIND_INTRA, in the table at the end

// One entry of the communicator table at commtable_fptr: gcomm, local id, kind.
constexpr std::uint64_t kCommTableEntry = kUuidSize + 8;

// End-of-log records carry CLOG_MAXTIME, later than all times.
constexpr double kMaxTime = 100000000.0;

// Id ranges of MPE's preamble (clog.h): the writer's states use the user range.
constexpr std::int32_t kKnownEventIdStart = 0;
constexpr std::int32_t kUserEventIdStart = 600;
constexpr std::int32_t kKnownSoloEventIdStart = -10;
constexpr std::int32_t kUserSoloEventIdStart = 5000;
constexpr std::int32_t kUserStateIdStart = 300;
constexpr std::uint32_t kDefaultBlockSize = 65536;  // CLOG_DEFAULT_BLOCK_SIZE (32-bit hosts)
constexpr std::uint32_t kDefaultBufferedBlocks = 128;

// Fixed-width numbers: read in the file's byte order, written big-endian as MPE merges
// (format_interface/byte_order.h).
inline std::uint32_t load_u32(const unsigned char* p, bool big) { return load_uint<std::uint32_t>(p, big); }
inline std::int32_t load_i32(const unsigned char* p, bool big) {
  return static_cast<std::int32_t>(load_u32(p, big));
}
inline void store_u32(unsigned char* p, std::uint32_t v) { store_uint(p, v, true); }
inline void store_f64(unsigned char* p, double value) { earl::store_f64(p, value, true); }

}  // namespace earl::clog2
