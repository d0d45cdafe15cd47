//===- RegionDispatchTest.cpp - The region dispatcher's code cache --------===//
//
// vrir_rt_region_enter with a scripted specializer: which calls compile, which
// hit, what the specializer is told (shapes, values, noalias), and least
// recently used eviction.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Runtime/VRIRRegions.h"

#include <gtest/gtest.h>

#include <cstring>

#include <string>
#include <vector>

namespace {
std::vector<std::string> compiled;
int sentinel[16];

void *recordingSpecializer(const char *, const char *, const char *,
                           const char *facts, vrir_rt_compile_report *report) {
  compiled.push_back(facts);
  report->compileMs = 1.0;
  report->checks = 4;
  report->proven = 3;
  return &sentinel[compiled.size() % 16];
}

/// Checks left in the loops of a version with shapes and without: what a
/// per-region choice decides on.
int keptWithShapes = 0, keptWithoutShapes = 0;
void *provingSpecializer(const char *, const char *, const char *,
                         const char *facts, vrir_rt_compile_report *report) {
  compiled.push_back(facts);
  bool shapes = std::strstr(facts, "shape") != nullptr;
  report->compileMs = 1.0;
  report->checks = 4;
  report->kept = shapes ? keptWithShapes : keptWithoutShapes;
  report->proven = 4 - report->kept;
  return &sentinel[compiled.size() % 16];
}

void *failingSpecializer(const char *, const char *, const char *, const char *,
                         vrir_rt_compile_report *) {
  compiled.push_back("failed");
  return nullptr;
}

/// A region f(A: 2-D f64 array, critical shape; B: 1-D f64 array; n: i64,
/// critical value; x: f64).
struct RegionDispatchTest : public ::testing::Test {
  void SetUp() override {
    compiled.clear();
    vrir_rt_set_specializer(recordingSpecializer);
    vrir_rt_set_specialization(1, 5);
  }
  void TearDown() override { vrir_rt_set_specializer(nullptr); }

  /// The facts of a call: A (rows x cols, row-major) at `a`, B (len) at `b`.
  static std::vector<int64_t> facts(const double *a, int64_t rows, int64_t cols,
                                    const double *b, int64_t length, int64_t n,
                                    double x) {
    int64_t bits;
    static_assert(sizeof(bits) == sizeof(x));
    std::memcpy(&bits, &x, sizeof(x));
    // The last slot is the dispatcher's (the call's start).
    return {reinterpret_cast<int64_t>(a),
            0,
            rows,
            cols,
            cols,
            1,
            reinterpret_cast<int64_t>(b),
            0,
            length,
            1,
            n,
            bits,
            0};
  }

  vrir_rt_region_stats stats() {
    // The latest region of that name (an earlier test's may share it).
    for (int i = vrir_rt_region_count() - 1; i >= 0; --i) {
      vrir_rt_region_stats result;
      if (!vrir_rt_region_get_stats(i, &result) &&
          std::strcmp(result.name, region.name) == 0)
        return result;
    }
    return {};
  }

  static int nextNumber() {
    static int number = 0;
    return number++;
  }
  // One region (and cache) per test.
  std::string name = "f_region" + std::to_string(nextNumber());
  vrir_rt_region region = {name.c_str(), "m2:8S,m1:8,i64V,f64", "cpu:1:1:1",
                           "module {}", nullptr};
  double a[64], b[16];
};

TEST_F(RegionDispatchTest, SameFactsCompileOnce) {
  auto call = facts(a, 4, 8, b, 16, 3, 1.0);
  void *first = vrir_rt_region_enter(&region, call.data());
  void *second = vrir_rt_region_enter(&region, call.data());
  EXPECT_NE(first, nullptr);
  EXPECT_EQ(first, second);
  ASSERT_EQ(compiled.size(), 1u);
  EXPECT_EQ(compiled[0],
            "[{rank = 2 : i64, shape = array<i64: 4, 8>, strides = array<i64: "
            "8, 1>, noalias}, {rank = 1 : i64, noalias}, {value = 3 : i64}, "
            "{}]");
  vrir_rt_region_stats counted = stats();
  EXPECT_EQ(counted.calls, 2u);
  EXPECT_EQ(counted.hits, 1u);
  EXPECT_EQ(counted.misses, 1u);
  EXPECT_EQ(counted.checks, 4u);
  EXPECT_EQ(counted.proven, 3u);
  EXPECT_EQ(counted.cached, 1u);
}

TEST_F(RegionDispatchTest, KeyHoldsCriticalFactsOnly) {
  vrir_rt_region_enter(&region, facts(a, 4, 8, b, 16, 3, 1.0).data());
  // Another non-critical scalar, another length of the non-critical B (no
  // overlap either way): the same version.
  vrir_rt_region_enter(&region, facts(a, 4, 8, b, 12, 3, 2.5).data());
  EXPECT_EQ(compiled.size(), 1u);
  // Another shape of A, another critical value: new versions.
  vrir_rt_region_enter(&region, facts(a, 8, 4, b, 16, 3, 1.0).data());
  vrir_rt_region_enter(&region, facts(a, 4, 8, b, 16, 4, 1.0).data());
  EXPECT_EQ(compiled.size(), 3u);
}

TEST_F(RegionDispatchTest, OverlappingArraysAreNotNoalias) {
  // B is a view of A's first row: neither is noalias.
  vrir_rt_region_enter(&region, facts(a, 4, 8, a, 8, 3, 1.0).data());
  ASSERT_EQ(compiled.size(), 1u);
  EXPECT_EQ(compiled[0].find("noalias"), std::string::npos) << compiled[0];
  // Arrays that merely touch (B just past A's end) do not overlap: another
  // key, whose version has both noalias.
  vrir_rt_region_enter(&region, facts(a, 4, 8, a + 32, 8, 3, 1.0).data());
  ASSERT_EQ(compiled.size(), 2u);
  EXPECT_NE(compiled[1].find("{rank = 1 : i64, noalias}"), std::string::npos)
      << compiled[1];
  // Separate arrays: the same pattern, the same version.
  vrir_rt_region_enter(&region, facts(a, 4, 8, b, 8, 3, 1.0).data());
  EXPECT_EQ(compiled.size(), 2u);
}

TEST_F(RegionDispatchTest, LeastRecentlyUsedOut) {
  for (int64_t rows = 1; rows <= 5; ++rows)
    vrir_rt_region_enter(&region, facts(a, rows, 2, b, 16, 3, 1.0).data());
  // Keep rows = 1 recent, then a sixth shape evicts rows = 2.
  vrir_rt_region_enter(&region, facts(a, 1, 2, b, 16, 3, 1.0).data());
  vrir_rt_region_enter(&region, facts(a, 6, 2, b, 16, 3, 1.0).data());
  EXPECT_EQ(compiled.size(), 6u);
  vrir_rt_region_enter(&region, facts(a, 1, 2, b, 16, 3, 1.0).data());
  EXPECT_EQ(compiled.size(), 6u);
  vrir_rt_region_enter(&region, facts(a, 2, 2, b, 16, 3, 1.0).data());
  EXPECT_EQ(compiled.size(), 7u);
  EXPECT_EQ(stats().cached, 5u);
}

TEST_F(RegionDispatchTest, FailedCompileRunsGenericOnce) {
  vrir_rt_set_specializer(failingSpecializer);
  auto call = facts(a, 4, 8, b, 16, 3, 1.0);
  EXPECT_EQ(vrir_rt_region_enter(&region, call.data()), nullptr);
  EXPECT_EQ(vrir_rt_region_enter(&region, call.data()), nullptr);
  EXPECT_EQ(compiled.size(), 1u);
  vrir_rt_region_stats counted = stats();
  EXPECT_EQ(counted.compileFailures, 1u);
  EXPECT_EQ(counted.generic, 2u);
}

TEST_F(RegionDispatchTest, AliasingOnlyKeysOnOverlaps) {
  vrir_rt_set_specialization(VRIR_RT_SPECIALIZE_ALIASING, 5);
  // Other shapes and critical values: one version, told the aliasing only.
  vrir_rt_region_enter(&region, facts(a, 4, 8, b, 16, 3, 1.0).data());
  vrir_rt_region_enter(&region, facts(a, 8, 4, b, 16, 4, 1.0).data());
  ASSERT_EQ(compiled.size(), 1u);
  EXPECT_EQ(compiled[0],
            "[{rank = 2 : i64, noalias}, {rank = 1 : i64, noalias}, {}, {}]");
  // B inside A: another version, without noalias.
  vrir_rt_region_enter(&region, facts(a, 4, 8, a, 8, 3, 1.0).data());
  ASSERT_EQ(compiled.size(), 2u);
  EXPECT_EQ(compiled[1], "[{rank = 2 : i64}, {rank = 1 : i64}, {}, {}]");
  vrir_rt_region_stats counted = stats();
  EXPECT_EQ(counted.hits, 1u);
  EXPECT_EQ(counted.misses, 2u);
  vrir_rt_set_specialization(VRIR_RT_SPECIALIZE_ALL, 5);
}

/// Per region: aliasing only unless constant extents leave fewer checks in
/// the loops; decided on the first call, kept after.
struct PerRegionTest : public RegionDispatchTest {
  void SetUp() override {
    RegionDispatchTest::SetUp();
    vrir_rt_set_specializer(provingSpecializer);
    vrir_rt_set_specialization(VRIR_RT_SPECIALIZE_PER_REGION, 5);
  }
  void TearDown() override {
    vrir_rt_set_specialization(VRIR_RT_SPECIALIZE_ALL, 5);
    RegionDispatchTest::TearDown();
  }
};

TEST_F(PerRegionTest, NothingKeptChoosesAliasingOnly) {
  keptWithShapes = keptWithoutShapes = 0;
  EXPECT_EQ(stats().facts, VRIR_RT_SPECIALIZE_OFF);
  void *first =
      vrir_rt_region_enter(&region, facts(a, 4, 8, b, 16, 3, 1.0).data());
  // Other shapes and values: the same version, one compile.
  void *second =
      vrir_rt_region_enter(&region, facts(a, 8, 4, b, 16, 5, 1.0).data());
  EXPECT_EQ(first, second);
  ASSERT_EQ(compiled.size(), 1u);
  EXPECT_EQ(compiled[0],
            "[{rank = 2 : i64, noalias}, {rank = 1 : i64, noalias}, {}, {}]");
  vrir_rt_region_stats counted = stats();
  EXPECT_EQ(counted.facts, VRIR_RT_SPECIALIZE_ALIASING);
  EXPECT_EQ(counted.compiles, 1u);
  EXPECT_EQ(counted.hits, 1u);
}

TEST_F(PerRegionTest, ChecksProvenByShapesChooseAllFacts) {
  keptWithShapes = 0;
  keptWithoutShapes = 2;
  void *first =
      vrir_rt_region_enter(&region, facts(a, 4, 8, b, 16, 3, 1.0).data());
  // Aliasing only tried first, then every fact: that version runs.
  ASSERT_EQ(compiled.size(), 2u);
  EXPECT_EQ(compiled[0].find("shape"), std::string::npos);
  EXPECT_NE(compiled[1].find("shape = array<i64: 4, 8>"), std::string::npos);
  EXPECT_EQ(first, &sentinel[2]);
  EXPECT_EQ(vrir_rt_region_enter(&region, facts(a, 4, 8, b, 16, 3, 1.0).data()),
            first);
  // Another shape: one compile, with every fact.
  vrir_rt_region_enter(&region, facts(a, 8, 4, b, 16, 3, 1.0).data());
  ASSERT_EQ(compiled.size(), 3u);
  EXPECT_NE(compiled[2].find("shape = array<i64: 8, 4>"), std::string::npos);
  vrir_rt_region_stats counted = stats();
  EXPECT_EQ(counted.facts, VRIR_RT_SPECIALIZE_ALL);
  EXPECT_EQ(counted.compiles, 3u);
  EXPECT_EQ(counted.misses, 2u);
  EXPECT_EQ(counted.hits, 1u);
  EXPECT_EQ(counted.cached, 2u);
  // The checks of the versions that ran, not of the one dropped.
  EXPECT_EQ(counted.checks, 8u);
  EXPECT_EQ(counted.proven, 8u);
  EXPECT_DOUBLE_EQ(counted.compileMs, 3.0);
}

TEST_F(PerRegionTest, ShapesThatProveNothingMoreKeepAliasingOnly) {
  keptWithShapes = keptWithoutShapes = 2;
  void *first =
      vrir_rt_region_enter(&region, facts(a, 4, 8, b, 16, 3, 1.0).data());
  ASSERT_EQ(compiled.size(), 2u);
  EXPECT_EQ(first, &sentinel[1]);
  vrir_rt_region_enter(&region, facts(a, 8, 4, b, 16, 3, 1.0).data());
  EXPECT_EQ(compiled.size(), 2u);
  vrir_rt_region_stats counted = stats();
  EXPECT_EQ(counted.facts, VRIR_RT_SPECIALIZE_ALIASING);
  EXPECT_EQ(counted.checks, 4u);
  EXPECT_EQ(counted.proven, 2u);
}

TEST_F(PerRegionTest, FailedCompileDecidesAliasingOnly) {
  vrir_rt_set_specializer(failingSpecializer);
  EXPECT_EQ(vrir_rt_region_enter(&region, facts(a, 4, 8, b, 16, 3, 1.0).data()),
            nullptr);
  EXPECT_EQ(compiled.size(), 1u);
  EXPECT_EQ(stats().facts, VRIR_RT_SPECIALIZE_ALIASING);
  EXPECT_EQ(stats().generic, 1u);
}

/// A call of the region that returns after `runMs`, as its wrapper reports
/// it; returns what the dispatcher gave.
void *timedCall(vrir_rt_region &region, std::vector<int64_t> call,
                double runMs) {
  void *function = vrir_rt_region_enter(&region, call.data());
  call.back() -= static_cast<int64_t>(runMs * 1e6);
  vrir_rt_region_exit(&region, call.data());
  return function;
}

TEST_F(RegionDispatchTest, ShortRegionsCompileInTheBackground) {
  // The first miss waits (no run time yet); the region then runs in about
  // a microsecond, less than its 1 ms compile: the next miss runs the
  // generic version while its version compiles.
  EXPECT_NE(timedCall(region, facts(a, 4, 8, b, 16, 3, 1.0), 0.0), nullptr);
  EXPECT_LT(stats().runMs, 1.0);
  EXPECT_EQ(timedCall(region, facts(a, 8, 4, b, 16, 3, 1.0), 0.0), nullptr);
  vrir_rt_region_wait();
  ASSERT_EQ(compiled.size(), 2u);
  EXPECT_NE(compiled[1].find("shape = array<i64: 8, 4>"), std::string::npos);
  void *ready = timedCall(region, facts(a, 8, 4, b, 16, 3, 1.0), 0.0);
  EXPECT_EQ(ready, &sentinel[2]);
  vrir_rt_region_stats counted = stats();
  EXPECT_EQ(counted.backgroundCompiles, 1u);
  EXPECT_EQ(counted.compiles, 2u);
  EXPECT_EQ(counted.misses, 2u);
  EXPECT_EQ(counted.hits, 1u);
  EXPECT_EQ(counted.generic, 1u);
  EXPECT_EQ(counted.checks, 8u);
}

TEST_F(RegionDispatchTest, LongRegionsAndSwitchedOffWait) {
  // A region that runs for longer than it compiles: misses wait.
  timedCall(region, facts(a, 4, 8, b, 16, 3, 1.0), 5.0);
  EXPECT_GE(stats().runMs, 5.0);
  EXPECT_NE(timedCall(region, facts(a, 8, 4, b, 16, 3, 1.0), 5.0), nullptr);
  // Short, but background compiles switched off: waits too.
  vrir_rt_set_background_compiles(0);
  timedCall(region, facts(a, 2, 8, b, 16, 3, 1.0), 0.0);
  EXPECT_NE(timedCall(region, facts(a, 8, 2, b, 16, 3, 1.0), 0.0), nullptr);
  vrir_rt_set_background_compiles(1);
  EXPECT_EQ(stats().backgroundCompiles, 0u);
  EXPECT_EQ(compiled.size(), 4u);
}

TEST_F(RegionDispatchTest, LargerShapesScaleTheRunTime) {
  // 0.1 ms on a 4x8 array (32 elements), under the 1 ms compile; a 40x80
  // array (100x the elements) would run for about 10 ms: that miss waits.
  timedCall(region, facts(a, 4, 8, b, 16, 3, 1.0), 0.1);
  EXPECT_NE(timedCall(region, facts(a, 40, 80, b, 16, 3, 1.0), 0.1), nullptr);
  EXPECT_EQ(stats().backgroundCompiles, 0u);
  // Scaled back down from that run (10 ms for 3200 elements) an 8x4 array
  // would run for about 0.1 ms: it compiles in the background.
  timedCall(region, facts(a, 40, 80, b, 16, 3, 1.0), 10.0);
  EXPECT_EQ(timedCall(region, facts(a, 8, 4, b, 16, 3, 1.0), 0.0), nullptr);
  vrir_rt_region_wait();
  EXPECT_EQ(stats().backgroundCompiles, 1u);
}

TEST_F(RegionDispatchTest, SwitchedOffRunsGeneric) {
  vrir_rt_set_specialization(0, 5);
  EXPECT_EQ(vrir_rt_region_enter(&region, facts(a, 4, 8, b, 16, 3, 1.0).data()),
            nullptr);
  EXPECT_TRUE(compiled.empty());
  vrir_rt_set_specialization(1, 5);
}
} // namespace
