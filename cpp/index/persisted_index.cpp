#include "index/persisted_index.h"

#include <unistd.h>

#include "index/index_codec.h"
#include "index/index_file.h"

namespace earl {

namespace {

std::string encode_key(const IndexKey& key) {
  IndexWriter out;
  write_identity(out, key.identity);
  out.text(key.decoder);
  out.u64(key.bdist);
  out.u64(key.memory);
  return out.bytes();
}

// The events a checksum-valid index holds still have to name what its definitions define:
// a forged or foreign index must not make a later name lookup fail.
void check_names(const Event& e, const Definitions& d) {
  auto string_ok = [&](const Value& v) { return v.kind != Value::Kind::String || v.string < d.strings.size(); };
  if (e.type >= d.types.size() || e.loc >= d.location_count || e.peer < -1 ||
      ((e.kind == EventKind::Enter || is_exit(e.kind)) && e.region >= d.regions.size()) ||
      !string_ok(e.data1) || !string_ok(e.data2))
    throw IndexDamaged{"an event names something its definitions lack"};
}

void check_names(const RandomAccessTrace::ScanResult& scan, const Definitions& d) {
  for (const RandomAccessTrace::Bookmark& b : scan.bookmarks) {
    if (b.checkpoint) {
      for (const auto& stack : b.checkpoint->stacks)
        for (const Event& e : stack) check_names(e, d);
      for (const Event& e : b.checkpoint->queue) check_names(e, d);
    }
    for (const Event& e : b.delta.added) check_names(e, d);
  }
}

}  // namespace

bool load_index(const std::string& path, const IndexKey& key, LoadedIndex& out, std::string& why) {
  IndexContents contents;
  why = read_index_file(path, contents);
  if (!why.empty()) return false;
  try {
    IndexReader saved_key(contents.key.data(), contents.key.size());
    TraceIdentity identity = read_identity(saved_key);
    std::string decoder = saved_key.text();
    std::uint64_t bdist = saved_key.u64(), memory = saved_key.u64();
    if (!saved_key.done()) throw IndexDamaged{"its key has extra bytes"};
    std::string changed = key.identity.difference(identity);
    if (!changed.empty()) {
      why = "the trace changed since it was indexed: " + changed;
    } else if (decoder != key.decoder) {
      why = "it was made for another reader (" + decoder + ")";
    } else {
      if (bdist != key.bdist || memory != key.memory) {
        out.bookmarks_usable = false;
        why = "it was made for other options (bdist " + std::to_string(bdist) + ", memory " +
              std::to_string(memory) + "): bookmarks made again from its decoder state";
      }
      IndexReader in(contents.payload.data(), contents.payload.size());
      out.decoder.definitions = read_definitions(in);
      read_decoder_state(in, out.decoder);
      out.scan = read_scan(in);
      if (!in.done()) throw IndexDamaged{"it has extra bytes"};
      check_names(out.scan, out.decoder.definitions);
      if (out.decoder.data_bytes != contents.data_bytes) throw IndexDamaged{"its data length differs"};
      out.decoder.restored_fd = contents.data_fd;
      out.decoder.data_offset = contents.data_offset;
      if (!out.bookmarks_usable) out.scan = RandomAccessTrace::ScanResult();
      return true;
    }
  } catch (const IndexDamaged& damaged) {
    why = "it is damaged (" + damaged.what + ")";
  }
  ::close(contents.data_fd);
  return false;
}

void save_index(const std::string& path, const IndexKey& key, const RandomAccessTrace& access,
                const DecoderState& decoder) {
  IndexContents contents;
  contents.key = encode_key(key);
  IndexWriter out;
  write_definitions(out, decoder.definitions);
  write_decoder_state(out, decoder);
  write_scan(out, access);
  contents.payload = std::move(out.bytes());
  contents.data_fd = decoder.data_fd;
  contents.data_offset = decoder.data_offset;
  contents.data_bytes = decoder.data_fd >= 0 ? decoder.data_bytes : 0;
  // Leftovers of writers killed on this host would otherwise stay forever.
  for (const std::string& leftover : stale_temporary_files(path, false)) ::unlink(leftover.c_str());
  write_index_file(path, contents);
}

}  // namespace earl
