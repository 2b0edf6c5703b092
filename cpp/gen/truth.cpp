#include "gen/truth.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "model/error.h"

namespace earl::gen {

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string json_double(double v) {
  // 17 significant digits round-trip every double exactly (Python's float() reads them back).
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // keep it a float in JSON
  return s;
}

TruthCollector::TruthCollector(int send_region, int recv_region, std::vector<int> collectives,
                               std::int64_t list_limit)
    : send_region_(send_region),
      recv_region_(recv_region),
      collectives_(std::move(collectives)),
      list_limit_(list_limit < 0 ? 0 : list_limit) {}

void TruthCollector::fail(const std::string& what) const {
  throw EarlError("generator internal error: " + what);
}

void TruthCollector::begin(const TraceHeader& header) {
  header_ = header;
  n_ = header.locations;
  threads_ = header.threads > 0 ? header.threads : 1;
  processes_ = n_ / threads_;
  nregions_ = static_cast<int>(header.regions.size());
  stacks_.assign(n_, {});
  region_time_.assign(static_cast<std::size_t>(n_) * nregions_, RegionTime{});
  in_flight_.assign(n_, {});
  bytes_received_.assign(n_, 0);
  bytes_sent_.assign(n_, 0);
  last_time_.assign(n_, -1);
  coll_enter_.assign(processes_, -1);
  is_collective_.assign(nregions_, 0);
  for (int r : collectives_)
    if (r >= 0 && r < nregions_) is_collective_[r] = 1;
}

void TruthCollector::write(const GenEvent* events, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    const GenEvent& e = events[i];
    if (e.loc < 0 || e.loc >= n_) fail("location out of range");
    if (e.time <= last_time_[e.loc]) fail("times not strictly increasing on a location");
    if (e.time < final_time_) fail("times decrease in output order");
    last_time_[e.loc] = e.time;
    if (first_time_ < 0) first_time_ = e.time;
    final_time_ = e.time;
    ++events_;
    auto& stack = stacks_[e.loc];
    switch (e.kind) {
      case GenKind::Enter: {
        if (e.region < 0 || e.region >= nregions_) fail("region out of range");
        stack.push_back({e.region, e.time});
        if (is_collective_[e.region]) {
          // Collectives involve the master threads, one per process.
          if (e.loc % threads_ != 0) fail("collective on a location that is no master thread");
          const int p = e.loc / threads_;
          if (coll_enter_[p] >= 0) fail("collective entered twice");
          if (coll_pending_ == 0) coll_region_ = e.region;
          coll_enter_[p] = e.time;
          if (++coll_pending_ == processes_) {
            const std::int64_t latest = *std::max_element(coll_enter_.begin(), coll_enter_.end());
            CollectiveWait instance{coll_instances_, coll_region_, seconds(latest), {}};
            instance.waits.reserve(processes_);
            for (int l = 0; l < processes_; ++l) {
              const double wait = seconds(latest) - seconds(coll_enter_[l]);
              imbalance_total_ += wait;
              instance.waits.push_back(wait);
            }
            if (static_cast<std::int64_t>(imbalance_.size()) < list_limit_)
              imbalance_.push_back(std::move(instance));
            ++coll_instances_;
            coll_pending_ = 0;
            std::fill(coll_enter_.begin(), coll_enter_.end(), -1);
          }
        }
        break;
      }
      case GenKind::Exit: {
        if (stack.empty() || stack.back().region != e.region) fail("exit does not match enter");
        const Frame frame = stack.back();
        stack.pop_back();
        // Seed 004 section 9: incl/excl += diff; the caller's excl -= diff.
        const double diff = seconds(e.time) - seconds(frame.enter);
        RegionTime& rt = region_time_[static_cast<std::size_t>(e.loc) * nregions_ + e.region];
        rt.incl += diff;
        rt.excl += diff;
        ++rt.count;
        if (!stack.empty())
          region_time_[static_cast<std::size_t>(e.loc) * nregions_ + stack.back().region].excl -= diff;
        break;
      }
      case GenKind::Send: {
        if (e.peer < 0 || e.peer >= n_) fail("send destination out of range");
        const int region = stack.empty() ? -1 : stack.back().region;
        const std::int64_t enter = stack.empty() ? 0 : stack.back().enter;
        in_flight_[e.peer].push_back({e.loc, e.tag, region, enter});
        bytes_sent_[e.loc] += e.len;
        ++messages_;
        break;
      }
      case GenKind::Recv: {
        if (e.peer < 0 || e.peer >= n_) fail("receive source out of range");
        auto& queue = in_flight_[e.loc];
        std::size_t match = queue.size();
        std::uint64_t older = 0;
        int oldest_tag = 0;
        for (std::size_t j = 0; j < queue.size(); ++j) {
          if (queue[j].src != e.peer) continue;
          if (queue[j].tag == e.tag) {
            match = j;
            break;
          }
          if (older++ == 0) oldest_tag = queue[j].tag;
        }
        if (match == queue.size()) fail("receive without a matching send");
        const InFlight sent = queue[match];
        queue.erase(queue.begin() + static_cast<std::ptrdiff_t>(match));
        bytes_received_[e.loc] += e.len;
        ++receives_;
        // Seed 004 section 8: every older unreceived message from the same source.
        if (older > 0) {
          ++ooo_count_;
          ooo_reports_ += older;
          if (static_cast<std::int64_t>(ooo_.size()) < list_limit_)
            ooo_.push_back({e.peer, e.loc, oldest_tag, e.tag, seconds(e.time)});
        }
        // Seed 004 section 7: MPI_Send enter - MPI_Recv enter, when positive.
        if (!stack.empty() && stack.back().region == recv_region_ && sent.send_region == send_region_) {
          const double wait = seconds(sent.send_enter) - seconds(stack.back().enter);
          if (wait > 0) {
            late_total_ += wait;
            ++late_count_;
            if (static_cast<std::int64_t>(late_.size()) < list_limit_)
              late_.push_back({e.peer, e.loc, e.tag, seconds(sent.send_enter),
                               seconds(stack.back().enter), wait});
          }
        }
        break;
      }
      case GenKind::Fork:
      case GenKind::Join:
        break;  // no part of any ground-truth figure
    }
  }
}

void TruthCollector::finish() {
  for (int l = 0; l < n_; ++l) {
    if (!stacks_[l].empty()) fail("region instances left open");
    if (!in_flight_[l].empty()) fail("messages left unreceived");
  }
  if (coll_pending_ != 0) fail("collective instance incomplete");
}

namespace {

class JsonFile {
 public:
  explicit JsonFile(const std::string& path) : path_(path) {
    file_ = std::fopen(path.c_str(), "wb");
    if (!file_) throw EarlError("cannot write '" + path + "': " + std::strerror(errno));
  }
  ~JsonFile() {
    if (file_) std::fclose(file_);
  }
  void put(const std::string& s) {
    if (std::fwrite(s.data(), 1, s.size(), file_) != s.size())
      throw EarlError("cannot write '" + path_ + "': " + std::strerror(errno));
  }
  void close() {
    std::FILE* f = file_;
    file_ = nullptr;
    if (std::fclose(f) != 0) throw EarlError("cannot write '" + path_ + "': " + std::strerror(errno));
  }

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
};

std::string num(std::int64_t v) { return std::to_string(v); }
std::string num(std::uint64_t v) { return std::to_string(v); }
std::string boolean(bool b) { return b ? "true" : "false"; }

}  // namespace

void TruthCollector::write_json(const std::string& path,
                                const std::vector<std::pair<std::string, std::string>>& meta) const {
  JsonFile out(path);
  bool first_key = true;
  auto key = [&](const std::string& k) {
    out.put(first_key ? "{\n  " : ",\n  ");
    first_key = false;
    out.put(json_string(k) + ": ");
  };
  for (const auto& [k, v] : meta) {
    key(k);
    out.put(v);
  }
  key("events");
  out.put(num(events_));
  key("start");
  out.put(json_double(first_time_ < 0 ? 0.0 : seconds(first_time_)));
  key("end");
  out.put(json_double(final_time_ < 0 ? 0.0 : seconds(final_time_)));

  key("regions");
  out.put("[");
  for (int r = 0; r < nregions_; ++r)
    out.put((r ? ", " : "") + json_string(header_.regions[r].name));
  out.put("]");
  key("location_names");
  out.put("[");
  for (int l = 0; l < n_; ++l) out.put((l ? ", " : "") + json_string(header_.location_names[l]));
  out.put("]");

  key("messages");
  out.put(num(messages_));
  key("list_limit");
  out.put(num(list_limit_));

  key("late_sender_count");
  out.put(num(late_count_));
  key("late_sender_wait_total");
  out.put(json_double(late_total_));
  key("late_senders");
  out.put("[");
  for (std::size_t i = 0; i < late_.size(); ++i) {
    const LateSender& x = late_[i];
    out.put(std::string(i ? ",\n    " : "\n    ") + "{\"src\": " + num(std::int64_t{x.src}) +
            ", \"dest\": " + num(std::int64_t{x.dest}) + ", \"tag\": " + num(std::int64_t{x.tag}) +
            ", \"send_enter\": " + json_double(x.send_enter) +
            ", \"recv_enter\": " + json_double(x.recv_enter) + ", \"wait\": " + json_double(x.wait) +
            "}");
  }
  out.put(late_.empty() ? "]" : "\n  ]");

  key("out_of_order_count");
  out.put(num(ooo_count_));
  key("out_of_order_reports");
  out.put(num(ooo_reports_));
  key("out_of_order");
  out.put("[");
  for (std::size_t i = 0; i < ooo_.size(); ++i) {
    const OutOfOrder& x = ooo_[i];
    out.put(std::string(i ? ",\n    " : "\n    ") + "{\"src\": " + num(std::int64_t{x.src}) +
            ", \"dest\": " + num(std::int64_t{x.dest}) + ", \"tags\": [" +
            num(std::int64_t{x.first_sent}) + ", " + num(std::int64_t{x.first_received}) +
            "], \"time\": " + json_double(x.time) + "}");
  }
  out.put(ooo_.empty() ? "]" : "\n  ]");

  key("collectives");
  out.put(num(coll_instances_));
  key("imbalance_wait_total");
  out.put(json_double(imbalance_total_));
  key("imbalance");
  out.put("[");
  for (std::size_t i = 0; i < imbalance_.size(); ++i) {
    const CollectiveWait& x = imbalance_[i];
    std::string line = std::string(i ? ",\n    " : "\n    ") + "{\"index\": " + num(x.index) +
                       ", \"region\": " + json_string(header_.regions[x.region].name) +
                       ", \"enter_max\": " + json_double(x.enter_max) + ", \"waits\": [";
    for (std::size_t l = 0; l < x.waits.size(); ++l) line += (l ? ", " : "") + json_double(x.waits[l]);
    out.put(line + "]}");
  }
  out.put(imbalance_.empty() ? "]" : "\n  ]");

  key("truncated");
  out.put(std::string("{\"late_senders\": ") + boolean(late_count_ > late_.size()) +
          ", \"out_of_order\": " + boolean(ooo_count_ > ooo_.size()) +
          ", \"imbalance\": " + boolean(static_cast<std::uint64_t>(coll_instances_) > imbalance_.size()) +
          "}");

  key("bytes_received_per_location");
  out.put("[");
  for (int l = 0; l < n_; ++l) out.put((l ? ", " : "") + num(bytes_received_[l]));
  out.put("]");
  key("bytes_sent_per_location");
  out.put("[");
  for (int l = 0; l < n_; ++l) out.put((l ? ", " : "") + num(bytes_sent_[l]));
  out.put("]");

  key("region_time");
  out.put("{");
  for (int l = 0; l < n_; ++l) {
    out.put(std::string(l ? ",\n    " : "\n    ") + json_string(std::to_string(l)) + ": {");
    bool first = true;
    for (int r = 0; r < nregions_; ++r) {
      const RegionTime& rt = region_time_[static_cast<std::size_t>(l) * nregions_ + r];
      if (rt.count == 0) continue;
      out.put(std::string(first ? "\n      " : ",\n      ") + json_string(header_.regions[r].name) +
              ": {\"incl\": " + json_double(rt.incl) + ", \"excl\": " + json_double(rt.excl) +
              ", \"count\": " + num(rt.count) + "}");
      first = false;
    }
    out.put(first ? "}" : "\n    }");
  }
  out.put(n_ ? "\n  }" : "}");
  out.put("\n}\n");
  out.close();
}

}  // namespace earl::gen
