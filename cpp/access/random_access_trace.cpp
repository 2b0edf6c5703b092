#include "access/random_access_trace.h"

#include <algorithm>
#include <string>

#include "model/error.h"

namespace earl {

namespace {

constexpr std::uint64_t kProgressInterval = 1 << 16;
constexpr std::size_t kFirstProblemPositions = 10;

void report(const ProgressCallback& progress, double fraction) {
  if (progress && !progress(fraction)) throw Interrupted();
}

void note(ProblemKind& kind, Position pos) {
  ++kind.count;
  if (kind.first.size() < kFirstProblemPositions) kind.first.push_back(pos);
}

}  // namespace

RandomAccessTrace::RandomAccessTrace(std::unique_ptr<TraceDecoder> decoder,
                                     std::uint64_t bdist, std::uint64_t hsize,
                                     const ProgressCallback& progress)
    : decoder_(std::move(decoder)), bdist_(bdist), hsize_(hsize) {
  if (hsize_ == 0) throw EarlError("hsize must be a positive integer, got 0");
  scan(progress);
}

// The ring grows with the trace, up to the first power of two above hsize, so a short
// trace with a huge hsize costs only its own length.
void RandomAccessTrace::grow_ring(Position pos) {
  std::uint64_t wanted = std::min<std::uint64_t>(pos, hsize_ + 1);
  std::uint64_t capacity = 1;
  while (capacity < wanted) capacity <<= 1;
  if (capacity <= window_.size()) return;
  std::vector<Slot> grown(capacity);
  for (Position p = first_; p <= last_ && p != 0; ++p)
    grown[(p - 1) & (capacity - 1)] = window_[(p - 1) & ring_mask_];
  window_.swap(grown);
  ring_mask_ = capacity - 1;
}

bool RandomAccessTrace::decode_next(Anomaly& anomaly) {
  Position pos = last_ + 1;
  if (pos > window_.size() && window_.size() <= hsize_) grow_ring(pos);
  Slot& target = slot(pos);  // outside the window: capacity > hsize
  if (!decoder_->read(target.event)) return false;
  target.event.pos = pos;
  anomaly = state_.apply(target.event, target.retired, target.has_retired);
  last_ = pos;
  if (last_ - first_ + 1 > hsize_) first_ = last_ - hsize_ + 1;
  return true;
}

void RandomAccessTrace::scan(const ProgressCallback& progress) {
  for (;;) {
    try {
      state_.clear();
      bookmarks_.clear();
      problems_ = Problems();
      first_ = 1;
      last_ = 0;
      decoder_->seek(decoder_->start_position());
      std::uint64_t until_bookmark = 0;  // a countdown: a division per event costs ~10 ns
      for (;;) {
        Position pos = last_ + 1;
        if (until_bookmark == 0) {
          if (pos == 1 || bdist_ > 0)
            bookmarks_.push_back(Bookmark{pos, decoder_->position(), state_.snapshot()});
          until_bookmark = bdist_ > 0 ? bdist_ : ~std::uint64_t(0);
        }
        --until_bookmark;
        Anomaly anomaly = Anomaly::None;
        if (!decode_next(anomaly)) break;
        switch (anomaly) {
          case Anomaly::None: break;
          case Anomaly::UnmatchedRecv: note(problems_.unmatched_recv, pos); break;
          case Anomaly::ExitOnEmptyStack: note(problems_.exit_on_empty_stack, pos); break;
          case Anomaly::MismatchedExit: note(problems_.mismatched_exit, pos); break;
          case Anomaly::UnresolvedReference: note(problems_.unresolved_reference, pos); break;
        }
        if (pos % kProgressInterval == 0) report(progress, decoder_->progress());
      }
      break;
    } catch (const DecoderRestart&) {
      // The decoder reorganised its input (an unsorted file): scan again in its new order.
    }
  }
  size_ = last_;
  if (bookmarks_.size() > 1 && bookmarks_.back().next > size_) bookmarks_.pop_back();
  report(progress, 1.0);
}

void RandomAccessTrace::restore(const Bookmark& bookmark) {
  decoder_->seek(bookmark.where);
  state_.restore(bookmark.state);
  first_ = bookmark.next;
  last_ = bookmark.next - 1;
}

void RandomAccessTrace::seek_to(Position pos, const ProgressCallback& progress) {
  if (in_window(pos)) return;
  std::size_t index = bdist_ == 0 ? 0 : static_cast<std::size_t>((pos - 1) / bdist_);
  index = std::min(index, bookmarks_.size() - 1);
  const Bookmark& bookmark = bookmarks_[index];
  // Decoding on from where we stand beats restoring when no bookmark lies in between, or
  // when the distance costs less than the decoder's seek.
  bool decode_on = last_ < pos && (last_ + 1 >= bookmark.next ||
                                   pos - last_ <= decoder_->seek_cost_in_events());
  if (!decode_on) restore(bookmark);
  Position start = last_;
  Anomaly anomaly;
  while (last_ < pos) {
    if (!decode_next(anomaly))
      throw EarlError(decoder_->file() + ": trace ended at event " + std::to_string(last_) +
                      " while seeking event " + std::to_string(pos) +
                      " (was the file changed after opening?)");
    if ((last_ - start) % kProgressInterval == 0)
      report(progress, double(last_ - start) / double(pos - start));
  }
  if (last_ - start >= kProgressInterval) report(progress, 1.0);
}

void RandomAccessTrace::check_position(Position pos, bool allow_zero) const {
  if ((pos == 0 && !allow_zero) || pos > size_)
    throw EarlError("no event at position " + std::to_string(pos) + " (the trace has " +
                    std::to_string(size_) + " events, numbered from 1)");
}

void RandomAccessTrace::check_location(Location loc, bool allow_any, const char* argument) const {
  if (allow_any && loc == -1) return;
  Location count = definitions().location_count;
  if (loc < 0 || loc >= count)
    throw EarlError(std::string(argument) + " " + std::to_string(loc) +
                    " is not a location (the trace has locations 0.." +
                    std::to_string(count - 1) + (allow_any ? ", or -1 for any)" : ")"));
}

bool RandomAccessTrace::is_cheap(Position pos) const {
  return in_window(pos) || (pos > last_ && pos - last_ <= 64);
}

const Event& RandomAccessTrace::event(Position pos, const ProgressCallback& progress) {
  check_position(pos, false);
  if (in_window(pos)) return slot(pos).event;
  if (pos < first_) {  // older than the window: it may still be held by the state
    if (const Event* open = state_.find(pos)) return *open;
    for (Position p = last_; p >= first_ && p != 0; --p) {
      const Slot& recent = slot(p);
      if (recent.has_retired && recent.retired.pos == pos) return recent.retired;
    }
  }
  seek_to(pos, progress);
  return slot(pos).event;
}

std::vector<Position> RandomAccessTrace::stack(Location loc, Position pos,
                                               const ProgressCallback& progress) {
  check_location(loc, false, "loc");
  check_position(pos, true);
  if (pos == 0) return {};
  seek_to(pos, progress);
  std::vector<Position> positions;
  for (const Event& enter : state_.stack(loc)) positions.push_back(enter.pos);
  // Undo the events after pos: the state after last_ becomes the state after pos.
  for (Position p = last_; p > pos; --p) {
    const Event& later = slot(p).event;
    if (later.loc != loc) continue;
    if (later.kind == EventKind::Enter) positions.pop_back();
    else if (is_exit(later.kind) && later.enterptr != 0) positions.push_back(later.enterptr);
  }
  return positions;
}

std::vector<Position> RandomAccessTrace::queue(Location src, Location dest, Position pos,
                                               const ProgressCallback& progress) {
  check_location(src, true, "src");
  check_location(dest, true, "dest");
  check_position(pos, true);
  if (pos == 0) return {};
  seek_to(pos, progress);
  struct Pending {
    Position pos;
    Location src, dest;
  };
  std::vector<Pending> pending;
  for (const Event& send : state_.queue()) pending.push_back({send.pos, send.loc, send.peer});
  auto by_position = [](const Pending& entry, Position p) { return entry.pos < p; };
  for (Position p = last_; p > pos; --p) {
    const Event& later = slot(p).event;
    if (later.kind == EventKind::Send) {
      auto found = std::lower_bound(pending.begin(), pending.end(), later.pos, by_position);
      pending.erase(found);
    } else if (later.kind == EventKind::Recv && later.sendptr != 0) {
      auto at = std::lower_bound(pending.begin(), pending.end(), later.sendptr, by_position);
      pending.insert(at, Pending{later.sendptr, later.peer, later.loc});
    }
  }
  std::vector<Position> positions;
  for (const Pending& entry : pending)
    if ((src == -1 || entry.src == src) && (dest == -1 || entry.dest == dest))
      positions.push_back(entry.pos);
  return positions;
}

}  // namespace earl
