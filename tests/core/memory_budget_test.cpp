// MemoryBudget (core/memory_budget.hpp): the sums a refusal compares, the overflow it names and the
// detail text users read.
#include <gtest/gtest.h>

#include <limits>

#include "core/errors.hpp"
#include "core/memory_budget.hpp"

namespace {

TEST(MemoryBudget, SumsEachSidesTermsAndListsThemLargestFirstDroppingThoseUnderOnePercent) {
  ks::MemoryBudget b("toy");
  b.host("64 cells", 64, 100).host("a table", 1, 1000).host("crumbs", 10, 1).device("f", 1000, 8).device("none", 0, 8);
  const ks::MemoryEstimate m = b.estimate();
  EXPECT_EQ(m.host_bytes, 6400u + 1000u + 10u);
  EXPECT_EQ(m.device_bytes, 8000u);
  EXPECT_EQ(m.detail, "host: 64 cells x 100 B = " + ks::format_bytes(6400) + ", a table = " + ks::format_bytes(1000) +
                          "; device: f x 8 B = " + ks::format_bytes(8000));
}

TEST(MemoryBudget, AFirstPhaseCountsWhereItIsLargerAndNotesComeLast) {
  ks::MemoryBudget b("toy");
  b.host("cells", 10, 10).host_before("reading the file", 500).note("another way needs less");
  const ks::MemoryEstimate m = b.estimate();
  EXPECT_EQ(m.host_bytes, 500u);
  EXPECT_EQ(m.detail, "host: cells x 10 B = " + ks::format_bytes(100) + "; reading the file first: " + ks::format_bytes(500) +
                          "; another way needs less");
  EXPECT_EQ(ks::MemoryBudget("toy").host("cells", 10, 100).host_before("reading", 500).estimate().host_bytes, 1000u);
}

TEST(MemoryBudget, AnOverflowIsRefusedNamingTheTerm) {
  ks::MemoryBudget b("toy");
  try {
    b.host("nx x ny cells", std::numeric_limits<std::int64_t>::max() / 2, 3);
    FAIL() << "no overflow reported";
  } catch (const ks::Error& e) {
    EXPECT_NE(std::string(e.what()).find("toy bytes of nx x ny cells"), std::string::npos) << e.what();
  }
  const std::int64_t half = std::numeric_limits<std::int64_t>::max() / 2 + 1;
  b.host("a", half, 1).host("b", half, 1);
  EXPECT_THROW(b.estimate(), ks::Error);
}

}  // namespace
