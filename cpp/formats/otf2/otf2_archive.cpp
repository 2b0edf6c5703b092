#include "formats/otf2/otf2_archive.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>

#include "format_interface/file_kind.h"
#include "formats/otf2/otf2_anchor.h"
#include "formats/otf2/otf2_errors.h"
#include "formats/otf2/otf2_event_file_end.h"
#include "formats/otf2/otf2_records.h"
#include "model/error.h"

namespace earl {

void Otf2Archive::fail(const std::string& what) const { throw EarlError(path_ + ": " + what); }

std::string Otf2Archive::location_label(const Stream& stream) const {
  return "location " + std::to_string(stream.loc) + " (" + defs_.earl.location_name(stream.loc) + ")";
}

Otf2Archive::Otf2Archive(const std::string& path, const ReadOptions& options)
    : path_(path), strict_(options.strict) {
  install_otf2_error_handler();
  take_otf2_message();  // a message of an earlier archive is not this one's
  anchor_ = find_otf2_anchor(path);
  if (anchor_.empty()) fail("no OTF2 anchor file found");
  const std::string base = anchor_.substr(0, anchor_.size() - 5);
  refuse_special_file(base + ".def");
  reader_ = OTF2_Reader_Open(anchor_.c_str());
  if (!reader_) fail("libotf2 cannot open the archive: " + otf2_problem(OTF2_ERROR_FILE_CAN_NOT_OPEN));
  try {
    OTF2_Reader_SetSerialCollectiveCallbacks(reader_);
    read_otf2_definitions(reader_, path_, defs_);

    std::size_t count = defs_.location_ids.size();
    // libotf2 opens each location's files itself; a named pipe among them would block it.
    for (OTF2_LocationRef id : defs_.location_ids) {
      refuse_special_file(base + "/" + std::to_string(id) + ".evt");
      refuse_special_file(base + "/" + std::to_string(id) + ".def");
    }
    streams_.resize(count);
    for (std::size_t i = 0; i < count; ++i) OTF2_Reader_SelectLocation(reader_, defs_.location_ids[i]);
    bool have_definitions = OTF2_Reader_OpenDefFiles(reader_) == OTF2_SUCCESS;
    OTF2_ErrorCode status = OTF2_Reader_OpenEvtFiles(reader_);
    if (status != OTF2_SUCCESS) fail("cannot open the event files: " + otf2_problem(status));
    callbacks_ = OTF2_EvtReaderCallbacks_New();
    set_otf2_record_callbacks(callbacks_);
    for (std::size_t i = 0; i < count; ++i) {
      OTF2_LocationRef id = defs_.location_ids[i];
      // Local definitions hold the mapping tables that turn local into global ids.
      if (have_definitions) {
        if (OTF2_DefReader* local = OTF2_Reader_GetDefReader(reader_, id)) {
          uint64_t read = 0;
          status = OTF2_Reader_ReadAllLocalDefinitions(reader_, local, &read);
          OTF2_Reader_CloseDefReader(reader_, local);
          if (status != OTF2_SUCCESS)
            fail("local definitions of location " + std::to_string(i) + " are damaged: " + otf2_problem(status));
        }
      }
      Stream& stream = streams_[i];
      stream.loc = static_cast<Location>(i);
      stream.total_records = defs_.location_records[i];
      if (stream.total_records == 0) {
        // No count announced: a record takes at least one byte of its event file.
        std::string events = anchor_.substr(0, anchor_.size() - 5) + "/" + std::to_string(id) + ".evt";
        struct stat info;
        if (::stat(events.c_str(), &info) == 0) stream.record_limit = static_cast<std::uint64_t>(info.st_size);
      }
      stream.pending.reserve(4);
    }
    if (have_definitions) OTF2_Reader_CloseDefFiles(reader_);
    uint64_t definition_chunk_bytes = 0;
    if (OTF2_Reader_GetChunkSize(reader_, &event_chunk_bytes_, &definition_chunk_bytes) != OTF2_SUCCESS)
      event_chunk_bytes_ = 0;
    for (Stream& stream : streams_) {
      EventFileEnd end = event_file_end(base + "/" + std::to_string(defs_.location_ids[stream.loc]) + ".evt",
                                        event_chunk_bytes_);
      if (end.whole) continue;
      stream.readable = end.readable;
      stream.cut = end.why;
    }
    // Region ids are dense in practice: a table replaces the hash lookup per enter/exit.
    for (const auto& [ref, id] : defs_.region_of)
      if (ref < (1u << 20)) {
        if (region_by_ref_.size() <= ref) region_by_ref_.resize(ref + 1, kNoRegion);
        region_by_ref_[ref] = id;
      }
  } catch (...) {
    if (callbacks_) OTF2_EvtReaderCallbacks_Delete(callbacks_);
    OTF2_Reader_Close(reader_);
    throw;
  }
}

Otf2Archive::~Otf2Archive() { close(); }

void Otf2Archive::close() {
  if (callbacks_) OTF2_EvtReaderCallbacks_Delete(callbacks_);
  if (reader_) OTF2_Reader_Close(reader_);
  callbacks_ = nullptr;
  reader_ = nullptr;
  for (Stream& stream : streams_) {
    stream.reader = nullptr;
    stream.exhausted = true;
    stream.taken = 0;
    stream.pending = std::vector<Event>();
    stream.pending_ticks = std::vector<OTF2_TimeStamp>();
  }
}

SymbolId Otf2Archive::type_id(int record) {
  if (type_ids_.empty()) type_ids_.assign(kOtf2RecordCount, ~SymbolId(0));
  SymbolId& id = type_ids_[record];
  if (id == ~SymbolId(0)) id = defs_.earl.types.intern(otf2_record_type_name(record));
  return id;
}

SymbolId Otf2Archive::region(OTF2_RegionRef ref, Event& event) {
  if (ref < region_by_ref_.size() && region_by_ref_[ref] != kNoRegion) {
    SymbolId id = region_by_ref_[ref];
    if (id < undefined_region_.size() && undefined_region_[id]) event.flags |= kUnresolvedReference;
    return id;
  }
  auto found = defs_.region_of.find(ref);
  SymbolId id;
  if (found != defs_.region_of.end()) {
    id = found->second;
  } else {
    // A region the definitions lack: named after its id and counted as a problem.
    id = defs_.earl.define_region("region " + std::to_string(ref), "UNKNOWN");
    defs_.region_of[ref] = id;
    if (undefined_region_.size() <= id) undefined_region_.resize(id + 1, false);
    undefined_region_[id] = true;
  }
  if (id < undefined_region_.size() && undefined_region_[id]) event.flags |= kUnresolvedReference;
  return id;
}

Event& Otf2Archive::emit(OTF2_TimeStamp time, EventKind kind, SymbolId type) {
  Stream& stream = *current_;
  stream.timestamp = time;
  // Copying a default record is cheaper than value-initialising one (rep stos); the time
  // in seconds is computed when the event is handed out (an importer never needs it).
  static const Event kFresh;
  stream.pending.push_back(kFresh);
  stream.pending_ticks.push_back(time);
  Event& e = stream.pending.back();
  e.loc = stream.loc;
  e.kind = kind;
  e.type = type;
  return e;
}

void Otf2Archive::note_carry_change() {
  Stream& stream = *current_;
  if (!stream.carry_changed) {
    stream.carry_before = stream.carry;
    stream.carry_changed = true;
  }
}

// Empties loc's batch and makes its reader the one the record callbacks fill; false when
// loc has nothing more to read.
bool Otf2Archive::start_batch(Stream& stream) {
  stream.pending.clear();
  stream.pending_ticks.clear();
  stream.taken = 0;
  if (stream.exhausted) return false;
  if (!stream.reader && !move_to(stream, stream.next_record)) return false;
  current_ = &stream;
  return true;
}

std::uint64_t Otf2Archive::records_left(const Stream& stream) const {
  const std::uint64_t read = stream.next_record - 1;
  std::uint64_t limit = stream.total_records > 0 ? stream.total_records : stream.record_limit;
  if (limit == 0) limit = ~std::uint64_t(0);
  if (!stream.cut.empty()) limit = std::min(limit, stream.readable);
  return limit > read ? limit - read : 0;
}

bool Otf2Archive::at_end(Stream& stream) {
  if (!stream.cut.empty() && stream.next_record > stream.readable)
    return stop_at_damage(stream, stream.next_record, stream.cut);
  return beyond_announced(stream);
}

bool Otf2Archive::beyond_announced(Stream& stream) {
  const std::size_t before = stream.pending.size();
  const Carry carry = stream.carry;
  uint64_t read = 0;
  OTF2_ErrorCode status = OTF2_EvtReader_ReadEvents(stream.reader, 1, &read);
  if (status == OTF2_SUCCESS && read == 0) {
    stream.exhausted = true;
    close_reader(stream);  // its chunk buffer; a restore reopens it
    return false;
  }
  stream.pending.resize(before);
  stream.pending_ticks.resize(before);
  stream.carry = carry;
  if (status != OTF2_SUCCESS) otf2_problem(status);  // forget libotf2's message
  if (stream.total_records > 0)
    return stop_at_damage(stream, stream.next_record,
                          "more event records than the " + std::to_string(stream.total_records) +
                              " its definition announces (is the event file damaged or truncated?)");
  return stop_at_damage(stream, stream.next_record,
                        "more event records than its event file has bytes (is it damaged or truncated?)");
}

bool Otf2Archive::stop_at_damage(Stream& stream, std::uint64_t record, const std::string& reason) {
  if (strict_) fail(location_label(stream) + ": " + reason);
  stream.exhausted = true;
  close_reader(stream);
  if (stream.damaged) return false;  // met again after a seek back: noted the first time
  stream.damaged = true;
  const std::uint64_t announced = stream.total_records;
  const std::string before = record <= 1 ? "no record was read"
                             : record == 2 ? "record 1 was read"
                                           : "records 1 to " + std::to_string(record - 1) + " were read";
  std::string lost;
  if (announced > 0 && record <= 1)
    lost = "none of its " + std::to_string(announced) + " records was read";
  else if (announced > 0 && record == announced)
    lost = before + ", the last (" + std::to_string(record) + ") was not";
  else if (announced > 0 && record < announced)
    lost = before + ", " + std::to_string(record) + " to " + std::to_string(announced) + " (" +
           std::to_string(announced - record + 1) + " of its " + std::to_string(announced) + ") were not";
  else if (announced > 0)
    lost = "its " + std::to_string(announced) + " announced records were read, what follows them was not";
  else
    lost = before + ", those from " + std::to_string(record) + " on were not";
  StreamDamage damage;
  damage.loc = stream.loc;
  damage.record = record;
  damage.announced = announced;
  damage.message = path_ + ": " + location_label(stream) + ": " + reason + "; " + lost;
  damage_.push_back(std::move(damage));
  return false;
}

bool Otf2Archive::read_next(Location loc) {
  Stream& stream = this->stream(loc);
  if (!start_batch(stream)) return false;
  while (stream.pending.empty()) {
    stream.carry_changed = false;
    std::uint64_t record = stream.next_record;
    if (records_left(stream) == 0) return at_end(stream);
    uint64_t read = 0;
    OTF2_ErrorCode status = OTF2_EvtReader_ReadEvents(stream.reader, 1, &read);
    if (status != OTF2_SUCCESS)
      return stop_at_damage(stream, record, "event record " + std::to_string(record) +
                                                " cannot be read: " + otf2_problem(status));
    if (read == 0) {
      stream.exhausted = true;
      close_reader(stream);  // its chunk buffer; a restore reopens it
      return false;
    }
    ++stream.next_record;
    stream.pending_record = record;
  }
  return true;
}

bool Otf2Archive::read_batch(Location loc, std::size_t records) {
  Stream& stream = this->stream(loc);
  if (!start_batch(stream)) return false;
  const std::uint64_t left = records_left(stream);
  if (left == 0) return at_end(stream);
  const std::uint64_t wanted = std::min<std::uint64_t>(records, left);
  uint64_t read = 0;
  OTF2_ErrorCode status = OTF2_EvtReader_ReadEvents(stream.reader, wanted, &read);
  stream.next_record += read;  // the events of these records are in the batch
  if (status != OTF2_SUCCESS)
    return stop_at_damage(stream, stream.next_record, "event record " + std::to_string(stream.next_record) +
                                                          " cannot be read: " + otf2_problem(status));
  if (read < wanted) {
    stream.exhausted = true;
    close_reader(stream);
  }
  return !stream.exhausted;
}

void Otf2Archive::restore(Location loc, std::uint64_t record, const Carry& carry) {
  if (!reader_) fail("the archive was closed after its import");
  Stream& stream = this->stream(loc);
  stream.pending.clear();
  stream.pending_ticks.clear();
  stream.taken = 0;
  stream.carry = carry;
  stream.carry_changed = false;
  if (record == 0) {
    stream.exhausted = true;
    stream.next_record = std::max(stream.next_record, stream.total_records + 1);
    close_reader(stream);
    return;
  }
  if (!move_to(stream, record)) return;
  stream.exhausted = false;
  stream.next_record = record;
}

bool Otf2Archive::open_reader(Stream& stream, std::uint64_t record) {
  stream.reader = OTF2_Reader_GetEvtReader(reader_, defs_.location_ids[stream.loc]);
  if (!stream.reader)
    return stop_at_damage(stream, record, "cannot open its event reader: " + otf2_problem(OTF2_ERROR_INVALID));
  OTF2_EvtReader_SetCallbacks(stream.reader, callbacks_, this);
  return true;
}

void Otf2Archive::close_reader(Stream& stream) {
  if (stream.reader) OTF2_Reader_CloseEvtReader(reader_, stream.reader);
  stream.reader = nullptr;
}

// Positions the stream's reader so that the next read returns `record`; false when the
// event file cannot be opened (a damaged stream, ended).
bool Otf2Archive::move_to(Stream& stream, std::uint64_t record) {
  if (stream.reader && record == stream.next_record && !stream.exhausted) return true;
  // libotf2 3.0.2 frees a chunk buffer twice when a reader that has read past a chunk
  // seeks back into it (OTF2_Buffer_ReadSeekChunk, then OTF2_Buffer_Delete), and cannot
  // seek to record 1 at all from a later chunk. A fresh reader seeks safely.
  close_reader(stream);
  if (!open_reader(stream, record)) return false;
  if (record == 1) return true;
  OTF2_ErrorCode status = OTF2_EvtReader_Seek(stream.reader, record);
  if (status != OTF2_SUCCESS)
    fail("location " + std::to_string(stream.loc) + ": cannot seek to event record " +
         std::to_string(record) + ": " + otf2_problem(status));
  return true;
}

void Otf2Archive::release_batch(Location loc) {
  Stream& stream = this->stream(loc);
  stream.pending = std::vector<Event>();
  stream.pending_ticks = std::vector<OTF2_TimeStamp>();
  stream.taken = 0;
}

std::size_t Otf2Archive::readers_within(std::uint64_t bytes) const {
  if (event_chunk_bytes_ == 0) return streams_.size();
  return static_cast<std::size_t>(std::max<std::uint64_t>(1, bytes / event_chunk_bytes_));
}

std::uint64_t Otf2Archive::records_read() const {
  std::uint64_t read = 0;
  for (const Stream& stream : streams_) read += stream.next_record - 1;
  return read;
}

std::uint64_t Otf2Archive::total_records() const {
  std::uint64_t total = 0;
  for (const Stream& stream : streams_) total += stream.total_records;
  return total;
}

}  // namespace earl
