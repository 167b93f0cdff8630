// Included by the tests that are built once per Highway target (tests/CMakeLists.txt,
// SHADE_TEST_ALL_TARGETS): a per-target build must really be compiled for the target it is
// named after, or its passing would prove nothing about that target.
#ifndef SHADE_TESTS_PER_TARGET_CHECK_H_
#define SHADE_TESTS_PER_TARGET_CHECK_H_

#ifdef SHADE_EXPECT_TARGET
#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <string>

TEST(PerTarget, CompiledForTheNamedTarget) {
  const std::string name = hwy::TargetName(HWY_STATIC_TARGET);
  const std::string expected = SHADE_EXPECT_TARGET;
  EXPECT_NE(("|" + expected + "|").find("|" + name + "|"), std::string::npos)
      << "compiled for " << name << ", expected " << expected;
}
#endif

#endif  // SHADE_TESTS_PER_TARGET_CHECK_H_
