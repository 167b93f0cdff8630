// Helpers for tests that check shade::Error messages.
#ifndef SHADE_TESTS_ERROR_TEST_UTIL_H_
#define SHADE_TESTS_ERROR_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <string>

#include "shade/base/error.h"

namespace shade_test {

/*! \brief The message of the shade::Error `fn` throws ("" and a test failure when none). */
template <typename Fn>
std::string ErrorOf(Fn&& fn) {
  try {
    fn();
  } catch (const shade::Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no shade::Error thrown";
  return "";
}

/*! \brief Whether `s` contains `part`. */
inline bool Contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace shade_test

#endif  // SHADE_TESTS_ERROR_TEST_UTIL_H_
