#include "format_interface/appearance_order.h"

#include <string>

#include "model/error.h"

namespace earl {

namespace {
std::unique_lock<std::mutex> hold(std::mutex* guard) {
  return guard ? std::unique_lock<std::mutex>(*guard) : std::unique_lock<std::mutex>();
}
}  // namespace

AppearanceOrder::AppearanceOrder(const Definitions& declared, const Definitions& met, std::mutex* guard)
    : published_(declared),
      met_(met),
      guard_(guard),
      declared_types_(static_cast<SymbolId>(declared.types.size())),
      declared_regions_(static_cast<SymbolId>(declared.regions.size())),
      declared_strings_(static_cast<SymbolId>(declared.strings.size())) {}

SymbolId& AppearanceOrder::slot(std::vector<SymbolId>& map, SymbolId index) {
  if (map.size() <= index) map.resize(index + 1, kUnpublished);
  return map[index];
}

SymbolId AppearanceOrder::published_symbol(std::vector<SymbolId>& map, SymbolId declared,
                                           const SymbolTable& met_table, SymbolTable& published_table,
                                           SymbolId met) {
  SymbolId& id = slot(map, met - declared);
  if (id == kUnpublished) {
    std::string name;
    {
      auto lock = hold(guard_);
      name = met_table.name(met);
    }
    id = published_table.intern(name);
  }
  return id;
}

SymbolId AppearanceOrder::published_type(SymbolId met) {
  return published_symbol(types_, declared_types_, met_.types, published_.types, met);
}

SymbolId AppearanceOrder::published_string(SymbolId met) {
  return published_symbol(strings_, declared_strings_, met_.strings, published_.strings, met);
}

SymbolId AppearanceOrder::published_region(SymbolId met) {
  SymbolId& id = slot(regions_, met - declared_regions_);
  if (id == kUnpublished) {
    std::string name, group;
    {
      auto lock = hold(guard_);
      name = met_.regions.name(met);
      group = met_.groups.name(met_.region_group.at(met));
    }
    id = published_.define_region(name, group);
  }
  return id;
}

std::vector<std::vector<std::uint64_t>> AppearanceOrder::maps() const {
  auto widen = [](const std::vector<SymbolId>& map) {
    return std::vector<std::uint64_t>(map.begin(), map.end());
  };
  return {widen(types_), widen(regions_), widen(strings_)};
}

void AppearanceOrder::restore(Definitions published, const std::vector<std::uint64_t>& types,
                              const std::vector<std::uint64_t>& regions,
                              const std::vector<std::uint64_t>& strings) {
  // A published id outside its table would name nothing: the state is not this trace's.
  auto narrow = [](const std::vector<std::uint64_t>& map, std::size_t table, std::vector<SymbolId>& out) {
    out.clear();
    for (std::uint64_t id : map) {
      if (id != kUnpublished && id >= table) throw EarlError("invalid saved appearance order");
      out.push_back(static_cast<SymbolId>(id));
    }
  };
  narrow(types, published.types.size(), types_);
  narrow(regions, published.regions.size(), regions_);
  narrow(strings, published.strings.size(), strings_);
  if (published.region_group.size() < published.regions.size())
    throw EarlError("invalid saved appearance order");
  published_ = std::move(published);
}

}  // namespace earl
