#include "formats/otf2/otf2_decoder.h"

#include <algorithm>

namespace earl {

namespace {
constexpr std::size_t kWordsPerStream = 11;  // record, digest, taken, collective (7), open rma ops

// FNV-1a over what a record decoded to. libotf2 seeks by the event numbers in the chunk
// headers, which it never checks against the records while reading forward: in a damaged
// event file OTF2_EvtReader_Seek lands on another record and says nothing. A position
// keeps the digest of the record it names, so a seek that lands elsewhere is found.
class Digest {
 public:
  void add(std::uint64_t word) {
    for (int i = 0; i < 8; ++i, word >>= 8) value_ = (value_ ^ (word & 0xff)) * 0x100000001b3ull;
  }
  std::uint64_t value() const { return value_; }

 private:
  std::uint64_t value_ = 0xcbf29ce484222325ull;
};

// The events of the stream's batch as the record callbacks made them (met ids).
std::uint64_t batch_digest(const Otf2Archive::Stream& stream) {
  Digest d;
  for (std::size_t i = 0; i < stream.pending.size(); ++i) {
    const Event& e = stream.pending[i];
    d.add(stream.pending_ticks[i]);
    d.add(static_cast<std::uint64_t>(e.kind));
    d.add(e.type);
    d.add(e.region);
    d.add(static_cast<std::uint64_t>(e.loc));
    d.add(static_cast<std::uint64_t>(e.peer));
    d.add(static_cast<std::uint64_t>(e.com));
    d.add(static_cast<std::uint64_t>(e.tag));
    d.add(e.len);
    d.add(e.flags);
    d.add(static_cast<std::uint64_t>(e.data1.kind));
    d.add(static_cast<std::uint64_t>(e.data1.integer));
    d.add(static_cast<std::uint64_t>(e.data2.kind));
    d.add(static_cast<std::uint64_t>(e.data2.integer));
  }
  return d.value();
}
}  // namespace

Otf2Decoder::Otf2Decoder(const std::string& path, const ReadOptions& options)
    : archive_(path, options), merge_(static_cast<std::uint32_t>(archive_.location_count())) {
  order_ = std::make_unique<AppearanceOrder>(archive_.met_definitions(), archive_.met_definitions());
  for (std::size_t loc = 0; loc < archive_.location_count(); ++loc) {
    Location l = static_cast<Location>(loc);
    if (archive_.read_next(l))
      merge_.set(static_cast<std::uint32_t>(loc), archive_.stream(l).timestamp);
    else
      merge_.end(static_cast<std::uint32_t>(loc));
  }
  merge_.rebuild();
  start_ = position();
}

// The lookahead of loc was used up: read its next record (or end it) and re-merge.
void Otf2Decoder::advance(Location loc) {
  std::uint32_t leaf = static_cast<std::uint32_t>(loc);
  if (archive_.read_next(loc))
    merge_.set(leaf, archive_.stream(loc).timestamp);
  else
    merge_.end(leaf);
  merge_.replay(leaf);
}

bool Otf2Decoder::read(Event& event) {
  if (merge_.done()) return false;
  Location loc = static_cast<Location>(merge_.winner());
  Otf2Archive::Stream& stream = archive_.stream(loc);
  event = stream.pending[stream.taken];
  event.time = archive_.seconds(stream.pending_ticks[stream.taken++]);
  order_->publish(event);
  if (stream.taken == stream.pending.size()) advance(loc);
  return true;
}

DecoderPosition Otf2Decoder::position() const {
  DecoderPosition position;
  for (std::size_t loc = 0; loc < archive_.location_count(); ++loc) {
    const Otf2Archive::Stream& stream = archive_.stream(static_cast<Location>(loc));
    const Otf2Archive::Carry& carry = stream.carry_changed ? stream.carry_before : stream.carry;
    bool live = !stream.exhausted && stream.taken < stream.pending.size();
    position.words.push_back(live ? stream.pending_record : 0);
    position.words.push_back(live ? batch_digest(stream) : 0);
    position.words.push_back(stream.taken);
    position.words.push_back(carry.collective.valid);
    position.words.push_back(static_cast<std::uint64_t>(carry.collective.com));
    position.words.push_back(static_cast<std::uint64_t>(carry.collective.root));
    position.words.push_back(static_cast<std::uint64_t>(carry.collective.sent));
    position.words.push_back(static_cast<std::uint64_t>(carry.collective.recvd));
    position.words.push_back(carry.collective.begin);
    position.words.push_back(carry.collective.end);
    position.words.push_back(carry.rma.size());
    for (const Otf2Archive::OpenRmaOp& op : carry.rma) {
      position.words.push_back(static_cast<std::uint64_t>(op.window));
      position.words.push_back(static_cast<std::uint64_t>(op.id));
      position.words.push_back(static_cast<std::uint64_t>(op.peer));
      position.words.push_back(static_cast<std::uint64_t>(op.bytes));
      position.words.push_back(op.is_get);
    }
  }
  return position;
}

void Otf2Decoder::seek(const DecoderPosition& position) {
  const auto& w = position.words;
  std::size_t at = 0;
  auto word = [&]() -> std::uint64_t {
    if (at >= w.size()) archive_.fail("invalid decoder position");
    return w[at++];
  };
  for (std::size_t index = 0; index < archive_.location_count(); ++index) {
    Location loc = static_cast<Location>(index);
    if (w.size() - at < kWordsPerStream) archive_.fail("invalid decoder position");
    std::uint64_t record = word();
    std::uint64_t digest = word();
    std::size_t taken = static_cast<std::size_t>(word());
    Otf2Archive::Carry carry;
    carry.collective.valid = word() != 0;
    carry.collective.com = static_cast<std::int64_t>(word());
    carry.collective.root = static_cast<std::int64_t>(word());
    carry.collective.sent = static_cast<std::int64_t>(word());
    carry.collective.recvd = static_cast<std::int64_t>(word());
    carry.collective.begin = word();
    carry.collective.end = word();
    std::uint64_t open = word();
    for (std::uint64_t i = 0; i < open; ++i) {
      Otf2Archive::OpenRmaOp op;
      op.window = static_cast<std::int64_t>(word());
      op.id = static_cast<std::int64_t>(word());
      op.peer = static_cast<std::int64_t>(word());
      op.bytes = static_cast<std::int64_t>(word());
      op.is_get = word() != 0;
      carry.rma.push_back(op);
    }
    archive_.restore(loc, record, carry);
    if (record == 0) {
      merge_.end(static_cast<std::uint32_t>(index));
      continue;
    }
    const Otf2Archive::Stream& stream = archive_.stream(loc);
    if (!archive_.read_next(loc) || stream.pending_record != record || taken >= stream.pending.size())
      archive_.fail("location " + std::to_string(loc) + ": event record " + std::to_string(record) +
                    " is not where a saved position says (was the archive changed?)");
    if (batch_digest(stream) != digest)
      archive_.fail("location " + std::to_string(loc) + ": event record " + std::to_string(record) +
                    " reads differently after a seek than when it was read in order: the event file's "
                    "chunk headers number its records wrongly (is the event file damaged?)");
    archive_.stream(loc).taken = taken;
    merge_.set(static_cast<std::uint32_t>(index), stream.timestamp);
  }
  merge_.rebuild();
}

double Otf2Decoder::progress() const {
  std::uint64_t total = archive_.total_records();
  if (total == 0) return 0.0;
  return std::min(1.0, static_cast<double>(archive_.records_read()) / static_cast<double>(total));
}

}  // namespace earl
