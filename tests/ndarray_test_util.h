// Helpers shared by the NDArray tests (test_ndarray, test_ndarray_views, test_apply and the
// Caffe2 seed note).
#ifndef SHADE_TESTS_NDARRAY_TEST_UTIL_H_
#define SHADE_TESTS_NDARRAY_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <string>

#include "shade/base/error.h"

namespace shade_test {

/*! Runs `f` and expects a shade::Error whose message contains `needle`. */
template <typename F>
void ExpectErrorContaining(F&& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "no shade::Error thrown; expected one containing: " << needle;
  } catch (const shade::Error& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

}  // namespace shade_test

#endif  // SHADE_TESTS_NDARRAY_TEST_UTIL_H_
