#include "access/random_access_trace.h"

#include <algorithm>
#include <string>

#include "access/time_checks.h"
#include "model/error.h"

namespace earl {

namespace {

constexpr std::uint64_t kProgressInterval = 1 << 16;
void report(const ProgressCallback& progress, double fraction) {
  if (progress && !progress(fraction)) throw Interrupted();
}

void note(ProblemKind& kind, Position pos) { note_problem(kind, pos); }

}  // namespace

RandomAccessTrace::RandomAccessTrace(std::unique_ptr<TraceDecoder> decoder,
                                     std::uint64_t bdist, std::uint64_t hsize,
                                     const ProgressCallback& progress, std::uint64_t memory,
                                     const ScanObserver& observer)
    : decoder_(std::move(decoder)),
      requested_bdist_(bdist),
      bdist_(bdist),
      hsize_(hsize),
      memory_(memory) {
  if (hsize_ == 0) throw EarlError("hsize must be a positive integer, got 0");
  scan(progress, observer);
}

RandomAccessTrace::RandomAccessTrace(std::unique_ptr<TraceDecoder> decoder, std::uint64_t bdist,
                                     std::uint64_t hsize, std::uint64_t memory, ScanResult restored)
    : decoder_(std::move(decoder)),
      requested_bdist_(bdist),
      bdist_(restored.bdist),
      hsize_(hsize),
      memory_(memory),
      bookmarks_(std::move(restored.bookmarks)),
      size_(restored.size),
      problems_(std::move(restored.problems)) {
  if (hsize_ == 0) throw EarlError("hsize must be a positive integer, got 0");
  // The grid the scan leaves: bookmark k before event k * bdist + 1 (one bookmark when
  // bdist is 0), the first a checkpoint, none past the end.
  auto invalid = [&](const char* why) {
    return EarlError(decoder_->file() + ": saved bookmarks do not fit this trace (" + why + ")");
  };
  if (bookmarks_.empty() || !bookmarks_[0].checkpoint) throw invalid("no first checkpoint");
  if ((bdist_ == 0) != (requested_bdist_ == 0) || (bdist_ != 0 && (bdist_ < requested_bdist_ ||
                                                                   bdist_ % requested_bdist_ != 0)))
    throw invalid("bookmark distance");
  if (bdist_ == 0 && bookmarks_.size() != 1) throw invalid("bookmark count");
  for (std::size_t i = 0; i < bookmarks_.size(); ++i) {
    Bookmark& bookmark = bookmarks_[i];
    if (bookmark.next != static_cast<Position>(i) * bdist_ + 1 || (i > 0 && bookmark.next > size_))
      throw invalid("bookmark position");
    if (bookmark.checkpoint) {  // an index holds the queue without its channel links
      state_.restore(*bookmark.checkpoint);
      *bookmark.checkpoint = state_.snapshot();
    }
    bookmark.bytes = measure(bookmark);
    bookmark_bytes_ += bookmark.bytes;
  }
  restore(0);
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

void RandomAccessTrace::scan(const ProgressCallback& progress, const ScanObserver& observer) {
  TimeChecks time_checks(definitions());
  read_from_start(*decoder_, [&] {
    time_checks.clear();
    state_.clear();
    state_.set_journaling(true);
    bookmarks_.clear();
    bookmark_bytes_ = 0;
    delta_bytes_since_checkpoint_ = 0;
    carried_.reset();
    checkpoint_next_ = false;
    bdist_ = requested_bdist_;
    problems_ = Problems();
    first_ = 1;
    last_ = 0;
    std::uint64_t until_bookmark = 0;  // a countdown: a division per event costs ~10 ns
    for (;;) {
      Position pos = last_ + 1;
      if (until_bookmark == 0) {
        if (pos == 1 || bdist_ > 0) take_bookmark(pos);
        // Widening may have moved the grid: the next bookmark is on the new one.
        until_bookmark = bdist_ > 0 ? bdist_ - (pos - 1) % bdist_ : ~std::uint64_t(0);
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
      const Slot& decoded = slot(pos);
      time_checks.check(decoded.event, decoded.has_retired ? &decoded.retired : nullptr,
                        problems_.time_order, problems_.clock_condition);
      if (observer) observer(decoded.event);
      if (pos % kProgressInterval == 0) report(progress, decoder_->progress());
    }
  });
  problems_.damaged = decoder_->damage();  // complete after the full pass
  state_.set_journaling(false);
  carried_.reset();
  size_ = last_;
  if (bookmarks_.size() > 1 && bookmarks_.back().next > size_) {
    bookmark_bytes_ -= bookmarks_.back().bytes;
    bookmarks_.pop_back();
  }
  report(progress, 1.0);
}

std::uint64_t RandomAccessTrace::measure(const Bookmark& bookmark) const {
  return sizeof(Bookmark) + bookmark.where.words.capacity() * sizeof(std::uint64_t) +
         (bookmark.checkpoint ? memory_of(*bookmark.checkpoint) : memory_of(bookmark.delta));
}

std::size_t RandomAccessTrace::checkpoint_count() const {
  std::size_t count = 0;
  for (const Bookmark& bookmark : bookmarks_) count += bookmark.checkpoint != nullptr;
  return count;
}

// At a grid point of the scan: the changes since the previous bookmark, or the whole
// state when the changes since the last checkpoint outweigh it (a restore then replays at
// most about twice the state) and the budget holds it. Checkpoints were once held within
// half the budget: at 32768 locations the late deltas then chained ever longer (a profile
// of random access: 63% of its time applying them); where checkpoints crowd the budget,
// widening thins the bookmarks instead.
void RandomAccessTrace::take_bookmark(Position next) {
  Bookmark bookmark{next, decoder_->position(), nullptr, state_.take_delta()};
  if (carried_) {
    bookmark.delta = compose(*carried_, bookmark.delta);
    carried_.reset();
  }
  std::uint64_t delta_bytes = memory_of(bookmark.delta);
  std::uint64_t state_bytes = state_.records() * sizeof(Event) +
                              definitions().location_count * sizeof(std::vector<Event>);
  bool full = next == 1 || checkpoint_next_ ||
              (delta_bytes_since_checkpoint_ + delta_bytes > state_bytes &&
               bookmark_bytes_ + state_bytes <= memory_);
  if (full) {
    bookmark.checkpoint = std::make_unique<StateSnapshot>(state_.snapshot());
    bookmark.delta = StateDelta();
    delta_bytes_since_checkpoint_ = 0;
    checkpoint_next_ = false;
  } else {
    delta_bytes_since_checkpoint_ += delta_bytes;
  }
  bookmark.bytes = measure(bookmark);
  store_bookmark(std::move(bookmark));
}

void RandomAccessTrace::store_bookmark(Bookmark bookmark) {
  bookmark_bytes_ += bookmark.bytes;
  bookmarks_.push_back(std::move(bookmark));
  while (bookmark_bytes_ > memory_ && bookmarks_.size() > 1) widen();
}

// Doubles bdist: keeps the bookmarks on the new grid (even indices) and folds each dropped
// one's changes into its successor. A dropped newest bookmark leaves its changes for the
// next one the scan takes.
void RandomAccessTrace::widen() {
  std::vector<Bookmark> kept;
  kept.reserve(bookmarks_.size() / 2 + 1);
  bookmark_bytes_ = 0;
  for (std::size_t i = 0; i < bookmarks_.size(); ++i) {
    Bookmark& bookmark = bookmarks_[i];
    if (i % 2 == 1) {
      if (i + 1 == bookmarks_.size()) {
        if (bookmark.checkpoint) {
          checkpoint_next_ = true;
          carried_.reset();
        } else if (carried_) {
          *carried_ = compose(bookmark.delta, *carried_);
        } else {
          carried_ = std::make_unique<StateDelta>(std::move(bookmark.delta));
        }
        continue;
      }
      Bookmark& successor = bookmarks_[i + 1];
      if (!successor.checkpoint) {
        if (bookmark.checkpoint) {
          TraceState merged;
          merged.restore(*bookmark.checkpoint);
          merged.apply_delta(successor.delta);
          successor.checkpoint = std::make_unique<StateSnapshot>(merged.snapshot());
          successor.delta = StateDelta();
        } else {
          successor.delta = compose(bookmark.delta, successor.delta);
        }
        successor.bytes = measure(successor);
      }
      continue;
    }
    bookmark_bytes_ += bookmark.bytes;
    kept.push_back(std::move(bookmark));
  }
  bookmarks_.swap(kept);
  bdist_ *= 2;
}

void RandomAccessTrace::restore(std::size_t index) {
  std::size_t base = index;
  while (!bookmarks_[base].checkpoint) --base;  // bookmark 0 always is one
  state_.restore(*bookmarks_[base].checkpoint);
  for (std::size_t i = base + 1; i <= index; ++i) state_.apply_delta(bookmarks_[i].delta);
  const Bookmark& bookmark = bookmarks_[index];
  decoder_->seek(bookmark.where);
  first_ = bookmark.next;
  last_ = bookmark.next - 1;
}

void RandomAccessTrace::seek_to(Position pos, const ProgressCallback& progress) {
  if (in_window(pos) && !restore_next_) return;
  // Once changed, always changed: the decoder may have reorganised itself around the new
  // bytes (an ALOG reader that sorted them), so no bookmark fits it any more.
  if (!input_changed_.empty()) throw EarlError(input_changed_);
  try {
    decode_to(pos, progress);
  } catch (const Interrupted&) {
    throw;  // stopped between two events: everything is in step
  } catch (const DecoderRestart&) {
    // The input is no longer sorted as it was when scanned.
    fail_reread();
    input_changed_ = decoder_->file() + " changed since it was opened (its events are in another order)";
    throw EarlError(input_changed_);
  } catch (const std::exception&) {
    fail_reread();
    throw;
  }
}

// After a failure while re-reading: nothing decoded since the last restore is trusted,
// and a changed input is named as such (check_input throws) rather than by the symptom.
void RandomAccessTrace::fail_reread() {
  restore_next_ = true;
  first_ = 1;
  last_ = 0;
  check_input();
}

void RandomAccessTrace::check_input() {
  if (!input_check_) return;
  try {
    input_check_();
  } catch (const EarlError& changed) {
    input_changed_ = changed.what();
    throw;
  }
}

void RandomAccessTrace::decode_to(Position pos, const ProgressCallback& progress) {
  std::size_t index = bdist_ == 0 ? 0 : static_cast<std::size_t>((pos - 1) / bdist_);
  index = std::min(index, bookmarks_.size() - 1);
  const Bookmark& bookmark = bookmarks_[index];
  // Decoding on from where we stand beats restoring when no bookmark lies in between, or
  // when the distance costs less than the decoder's seek.
  bool decode_on = !restore_next_ && last_ < pos &&
                   (last_ + 1 >= bookmark.next || pos - last_ <= decoder_->seek_cost_in_events());
  if (!decode_on) {
    check_input();
    restore(index);
    restore_next_ = false;
  }
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
    if (const Event* queued = state_.find_send(pos)) return *queued;
    // An open enter is found on the stack of a window event that points to it.
    Location owner = -1;
    for (Position p = last_; p >= first_ && p != 0; --p) {
      const Slot& recent = slot(p);
      if (recent.has_retired && recent.retired.pos == pos) return recent.retired;
      if (recent.event.enterptr == pos) owner = recent.event.loc;
    }
    if (owner != -1)
      if (const Event* open = state_.find_enter(owner, pos)) return *open;
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
  // The state after last_ answers; the window's events after pos are then undone.
  std::vector<Position> positions = state_.queue(src, dest);
  auto wanted = [&](Location from, Location to) {
    return (src == -1 || from == src) && (dest == -1 || to == dest);
  };
  std::vector<Position> sent_later, received_later;
  for (Position p = last_; p > pos; --p) {
    const Event& later = slot(p).event;
    if (later.kind == EventKind::Send && wanted(later.loc, later.peer))
      sent_later.push_back(later.pos);
    else if (later.kind == EventKind::Recv && later.sendptr != 0 && later.sendptr <= pos &&
             wanted(later.peer, later.loc))
      received_later.push_back(later.sendptr);
  }
  if (!sent_later.empty()) {
    std::sort(sent_later.begin(), sent_later.end());
    positions.erase(std::remove_if(positions.begin(), positions.end(),
                                   [&](Position p) {
                                     return std::binary_search(sent_later.begin(),
                                                               sent_later.end(), p);
                                   }),
                    positions.end());
  }
  if (!received_later.empty()) {
    positions.insert(positions.end(), received_later.begin(), received_later.end());
    std::sort(positions.begin(), positions.end());
  }
  return positions;
}

}  // namespace earl
