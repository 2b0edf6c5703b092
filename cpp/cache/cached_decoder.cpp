#include "cache/cached_decoder.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "cache/event_codec.h"
#include "model/clock.h"
#include "model/error.h"

namespace earl {

namespace {
// state, block, byte, timestamp before, next timestamp; state: kEnded, kKnown (the next
// timestamp is valid) or kUnknown (read the location to learn it: the start position).
constexpr std::size_t kWordsPerStream = 5;
constexpr std::uint64_t kEnded = 0, kKnown = 1, kUnknown = 2;
// What a restore reads at most, over all locations (a portion per location).
constexpr std::size_t kRestoreBytes = 1u << 20;
constexpr std::size_t kMinPortion = 512;
}  // namespace

CachedDecoder::CachedDecoder(std::unique_ptr<ImportSource> source, const std::string& cache_directory,
                             std::size_t block_size, std::size_t portion_size)
    : source_(std::move(source)),
      cache_(std::make_unique<EventCache>(source_->location_count(), cache_directory, block_size)),
      order_(source_->declared_definitions(), source_->met_definitions(), &source_->met_guard()),
      streams_(source_->location_count()),
      merge_(static_cast<std::uint32_t>(source_->location_count())),
      tick_offset_(source_->tick_offset()),
      ticks_per_second_(static_cast<double>(source_->ticks_per_second())) {
  portion_ = portion_size;
  size_portions();
  source_->start(*cache_);
}

namespace {
// DecoderState::tables: the appearance order's three maps, then the block size and each
// location's block count, then every block's offset and length, then (where the source
// gives them) its restorable facts.
constexpr std::size_t kCountTable = 3, kBlockTable = 4, kFactsTable = 5;

// The source, told its facts first when the state holds them (so it need not read its input).
std::unique_ptr<ImportSource> told_facts(std::unique_ptr<ImportSource> source, const DecoderState& restored) {
  if (restored.tables.size() == kFactsTable + 1) source->restore_facts(restored.tables[kFactsTable], restored.definitions);
  return source;
}
}  // namespace

CachedDecoder::CachedDecoder(std::unique_ptr<ImportSource> source, DecoderState& restored)
    : source_(told_facts(std::move(source), restored)),
      order_(source_->declared_definitions(), source_->met_definitions(), &source_->met_guard()),
      streams_(source_->location_count()),
      merge_(static_cast<std::uint32_t>(source_->location_count())),
      tick_offset_(source_->tick_offset()),
      ticks_per_second_(static_cast<double>(source_->ticks_per_second())),
      importing_(false) {
  const auto& t = restored.tables;
  auto invalid = [&] {
    return EarlError(source_->file() + ": invalid saved event cache state");
  };
  if ((t.size() != kBlockTable + 1 && t.size() != kFactsTable + 1) || t[kCountTable].size() != streams_.size() + 1 || restored.restored_fd < 0)
    throw invalid();
  std::vector<std::vector<EventCache::Block>> blocks(streams_.size());
  std::size_t next = 0;
  const auto& flat = t[kBlockTable];
  for (std::size_t loc = 0; loc < streams_.size(); ++loc) {
    std::uint64_t count = t[kCountTable][loc + 1];
    if (count > (flat.size() - next) / 2) throw invalid();
    for (std::uint64_t k = 0; k < count; ++k, next += 2) {
      if (flat[next] > restored.data_bytes || flat[next + 1] > restored.data_bytes - flat[next] ||
          flat[next + 1] > UINT32_MAX)
        throw invalid();
      blocks[loc].push_back(EventCache::Block{flat[next], static_cast<std::uint32_t>(flat[next + 1])});
    }
  }
  if (next != flat.size() || t[kCountTable][0] == 0 || t[kCountTable][0] > (1u << 30)) throw invalid();
  order_.restore(std::move(restored.definitions), t[0], t[1], t[2]);
  cache_ = std::make_unique<EventCache>(restored.restored_fd, restored.data_offset, std::move(blocks),
                                        static_cast<std::size_t>(t[kCountTable][0]));
  restored.restored_fd = -1;  // the cache owns it now
  size_portions();
}

bool CachedDecoder::save_state(DecoderState& state) const {
  if (importing_) return false;  // only after the full pass
  state.definitions = order_.published();
  state.tables = order_.maps();
  std::vector<std::vector<EventCache::Block>> blocks = cache_->blocks();
  std::vector<std::uint64_t> counts{cache_->block_size()}, flat;
  for (const auto& location : blocks) {
    counts.push_back(location.size());
    for (const EventCache::Block& block : location) flat.insert(flat.end(), {block.offset, block.bytes});
  }
  state.tables.push_back(std::move(counts));
  state.tables.push_back(std::move(flat));
  if (std::vector<std::uint64_t> facts = source_->restorable_facts(); !facts.empty())
    state.tables.push_back(std::move(facts));
  state.data_fd = cache_->fd();
  state.data_offset = cache_->base();
  state.data_bytes = cache_->bytes();
  return true;
}

void CachedDecoder::size_portions() {
  portion_ = portion_ ? std::max(portion_, kMaxEncodedEvent)
                      : std::clamp(kRestoreBytes / std::max<std::size_t>(1, streams_.size()),
                                   kMinPortion, std::max(kMinPortion, cache_->block_size()));
  for (Stream& s : streams_) s.bytes = std::make_unique<std::uint8_t[]>(portion_);
}

CachedDecoder::~CachedDecoder() {
  source_->stop();
  source_->wait();
}

void CachedDecoder::damaged(std::uint32_t loc) const {
  throw EarlError(source_->file() + ": EARL's event cache is damaged at location " +
                  std::to_string(loc) + ", block " + std::to_string(streams_[loc].block));
}

void CachedDecoder::end_stream(std::uint32_t loc) {
  Stream& s = streams_[loc];
  s.live = false;
  s.size = 0;
  s.at = 0;
  s.loaded = false;
  merge_.end(loc);
}

// Reads a portion of block `block` of loc from byte `from` on; its next event is there.
void CachedDecoder::load(std::uint32_t loc, std::size_t block, std::uint32_t from) {
  Stream& s = streams_[loc];
  EventCache::Block where;
  s.block = block;
  if (!cache_->block(static_cast<Location>(loc), block, where)) return end_stream(loc);
  s.size = cache_->read(where, from, s.bytes.get(), portion_);
  s.block_bytes = where.bytes;
  s.base = from;
  s.at = 0;
  s.live = true;
  s.loaded = true;
  peek(loc);
}

// Sets loc's merge key from its next event, reading on where the portion ends.
void CachedDecoder::peek(std::uint32_t loc) {
  Stream& s = streams_[loc];
  if (s.size - s.at < kMaxEncodedEvent && s.base + s.size < s.block_bytes)
    return load(loc, s.block, static_cast<std::uint32_t>(s.base + s.at));  // no event cut
  if (s.at == s.size) return load(loc, s.block + 1, 0);
  std::uint64_t tick;
  if (!peek_tick(s.bytes.get() + s.at, s.bytes.get() + s.size, s.tick_before, tick))
    damaged(loc);
  s.next_tick = tick;
  merge_.set(loc, tick);
}

bool CachedDecoder::read(Event& event) {
  if (merge_.done()) {
    if (importing_) {
      source_->wait();
      importing_ = false;
    }
    return false;
  }
  std::uint32_t winner = merge_.winner();
  Stream& s = streams_[winner];
  if (!s.loaded) load(winner, s.block, s.base);  // its key stays: the same next event
  std::uint64_t tick = 0;
  std::size_t used = decode_event(s.bytes.get() + s.at, s.bytes.get() + s.size,
                                  s.tick_before, event, tick);
  if (used == 0) damaged(winner);
  event.loc = static_cast<Location>(winner);
  order_.publish(event);
  // The same expression as the format's decoder: identical doubles either way.
  event.time = ticks_to_seconds(tick, tick_offset_, ticks_per_second_);
  s.at += used;
  s.tick_before = tick;
  ++decoded_;
  peek(winner);
  merge_.replay(winner);
  return true;
}

DecoderPosition CachedDecoder::position() const {
  DecoderPosition position;
  position.words.reserve(kWordsPerStream * streams_.size() + 1);
  for (const Stream& s : streams_) {
    position.words.push_back(s.live ? kKnown : kEnded);
    position.words.push_back(s.block);
    position.words.push_back(s.base + s.at);
    position.words.push_back(s.tick_before);
    position.words.push_back(s.next_tick);
  }
  position.words.push_back(decoded_);
  return position;
}

DecoderPosition CachedDecoder::start_position() const {
  DecoderPosition position;
  for (std::size_t i = 0; i < streams_.size(); ++i)
    position.words.insert(position.words.end(), {kUnknown, 0, 0, 0, 0});
  position.words.push_back(0);
  return position;
}

void CachedDecoder::seek(const DecoderPosition& position) {
  const auto& w = position.words;
  if (w.size() != kWordsPerStream * streams_.size() + 1)
    throw EarlError(source_->file() + ": invalid decoder position");
  for (std::uint32_t loc = 0; loc < streams_.size(); ++loc) {
    const std::uint64_t* at = &w[kWordsPerStream * loc];
    Stream& s = streams_[loc];
    s.block = static_cast<std::size_t>(at[1]);
    if (at[0] == kEnded) {
      end_stream(loc);
      continue;
    }
    s.tick_before = at[3];
    if (at[0] == kUnknown) {
      load(loc, s.block, static_cast<std::uint32_t>(at[2]));
      continue;
    }
    s.live = true;
    s.loaded = false;
    s.size = 0;
    s.at = 0;
    s.base = static_cast<std::uint32_t>(at[2]);
    s.next_tick = at[4];
    merge_.set(loc, s.next_tick);
  }
  decoded_ = w.back();
  merge_.rebuild();
}

double CachedDecoder::progress() const {
  std::uint64_t expected = source_->expected_events();
  if (expected == 0) return importing_ ? 0.0 : 1.0;
  return std::min(1.0, static_cast<double>(decoded_) / static_cast<double>(expected));
}

}  // namespace earl
