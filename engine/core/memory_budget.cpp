#include "memory_budget.hpp"

#include <algorithm>
#include <utility>

#include "checked.hpp"

namespace ks {

MemoryBudget& MemoryBudget::add(bool device, std::string what, std::int64_t count, std::int64_t bytes) {
  const std::int64_t total = checked_mul(count, bytes, method_ + " bytes of " + what);
  if (total > 0) terms_.push_back({device, std::move(what), count, bytes, total});
  return *this;
}

MemoryBudget& MemoryBudget::host(std::string what, std::int64_t count, std::int64_t bytes) {
  return add(false, std::move(what), count, bytes);
}

MemoryBudget& MemoryBudget::device(std::string what, std::int64_t count, std::int64_t bytes) {
  return add(true, std::move(what), count, bytes);
}

MemoryBudget& MemoryBudget::host_before(std::string what, std::int64_t bytes) {
  before_what_ = std::move(what);
  before_bytes_ = bytes;
  return *this;
}

MemoryBudget& MemoryBudget::note(std::string text) {
  notes_.push_back(std::move(text));
  return *this;
}

MemoryEstimate MemoryBudget::estimate() const {
  std::int64_t sum[2] = {0, 0};
  for (const Term& t : terms_) sum[t.device] = checked_add(sum[t.device], t.total, method_ + (t.device ? " device bytes" : " host bytes"));
  MemoryEstimate m;
  m.host_bytes = std::uint64_t(std::max(sum[0], before_bytes_));
  m.device_bytes = std::uint64_t(sum[1]);
  std::vector<std::string> parts;
  for (const bool device : {false, true}) {
    std::vector<const Term*> listed;
    for (const Term& t : terms_)
      if (t.device == device) listed.push_back(&t);
    std::stable_sort(listed.begin(), listed.end(), [](const Term* a, const Term* b) { return a->total > b->total; });
    std::string side;
    for (const Term* t : listed) {
      if (!side.empty() && 100 * t->total < sum[device]) break;  // the largest is always listed
      side += (side.empty() ? "" : ", ") + t->what;
      if (t->count > 1 && t->bytes > 1) side += " x " + std::to_string(t->bytes) + " B";
      side += " = " + format_bytes(std::uint64_t(t->total));
    }
    if (!side.empty()) parts.push_back((device ? "device: " : "host: ") + side);
  }
  if (before_bytes_ > 0) parts.push_back(before_what_ + " first: " + format_bytes(std::uint64_t(before_bytes_)));
  parts.insert(parts.end(), notes_.begin(), notes_.end());
  for (const std::string& p : parts) m.detail += (m.detail.empty() ? "" : "; ") + p;
  return m;
}

}  // namespace ks
