// NumPy's floating-point error state (ndarray/float_errors.h) on the dynamic evaluator.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "shade/backend/cpu/parallel.h"
#include "shade/ndarray/creation.h"
#include "shade/ndarray/float_errors.h"
#include "shade/ndarray/ops.h"

namespace shade {
namespace {

struct Recorder {
  std::vector<std::string> messages;
  std::vector<unsigned> flags;
};

// Installs a handler recording warn/call/log reports for the test's duration.
class FloatErrorsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SetFloatErrorPolicy(FloatErrorPolicy::NumPyDefaults());
    saved_ = SetFloatErrorHandler(
        [this](FloatErrorAction, const std::string& m, const char*, unsigned f) {
          rec_.messages.push_back(m);
          rec_.flags.push_back(f);
        });
  }
  void TearDown() override {
    SetFloatErrorHandler(saved_);
    SetFloatErrorPolicy(FloatErrorPolicy());
  }
  Recorder rec_;
  FloatErrorHandler saved_;
};

TEST_F(FloatErrorsTest, DefaultsAreNumPys) {
  const FloatErrorPolicy d;
  EXPECT_EQ(d.divide, FloatErrorAction::kIgnore);  // off by default (float_errors.h)
  EXPECT_EQ(d.invalid, FloatErrorAction::kIgnore);
  const FloatErrorPolicy p = GetFloatErrorPolicy();
  EXPECT_EQ(p.divide, FloatErrorAction::kWarn);
  EXPECT_EQ(p.over, FloatErrorAction::kWarn);
  EXPECT_EQ(p.under, FloatErrorAction::kIgnore);
  EXPECT_EQ(p.invalid, FloatErrorAction::kWarn);
  EXPECT_EQ(ParseFloatErrorAction("raise"), FloatErrorAction::kRaise);
  EXPECT_STREQ(FloatErrorActionName(FloatErrorAction::kLog), "log");
  EXPECT_THROW(ParseFloatErrorAction("loud"), ValueError);
}

TEST_F(FloatErrorsTest, WarnsOncePerEvaluationWithNumPysText) {
  const NDArray one = ones({8}, kFloat64), zero = zeros({8}, kFloat64);
  NDArray r = true_divide(one, zero);
  ASSERT_EQ(rec_.messages.size(), 1u);
  EXPECT_EQ(rec_.messages[0], "divide by zero encountered in true_divide");
  EXPECT_EQ(rec_.flags[0], fp::kDivide);
  r = sqrt(full({3}, -1.0, kFloat32));
  ASSERT_EQ(rec_.messages.size(), 2u);
  EXPECT_EQ(rec_.messages[1], "invalid value encountered in sqrt");
  r = multiply(full({2}, 1e308, kFloat64), 10.0);
  ASSERT_EQ(rec_.messages.size(), 3u);
  EXPECT_EQ(rec_.messages[2], "overflow encountered in multiply");
  // Underflow is ignored by default; fine values report nothing.
  r = multiply(full({2}, 1e-308, kFloat64), 1e-100);
  r = add(one, one);
  EXPECT_EQ(rec_.messages.size(), 3u);
  // Integers never raise flags in NumPy's sense here.
  r = add(ones({4}, kInt32), 1);
  EXPECT_EQ(rec_.messages.size(), 3u);
}

TEST_F(FloatErrorsTest, RaiseIgnoreScopeAndThreads) {
  const NDArray one = ones({8}, kFloat64), zero = zeros({8}, kFloat64);
  {
    FloatErrorPolicy p;
    p.divide = FloatErrorAction::kRaise;
    FloatErrorScope scope(p);
    EXPECT_THROW({ NDArray r = true_divide(one, zero); }, FloatingPointError);
    NDArray out = zeros({8}, kFloat64);
    EXPECT_THROW(true_divide(one, zero, out), FloatingPointError);
    try {
      NDArray r = true_divide(one, zero);
    } catch (const FloatingPointError& e) {
      EXPECT_EQ(std::string(e.what()), "divide by zero encountered in true_divide");
    }
  }
  EXPECT_EQ(GetFloatErrorPolicy().divide, FloatErrorAction::kWarn);  // restored
  {
    FloatErrorPolicy p;
    p.divide = p.over = p.invalid = FloatErrorAction::kIgnore;
    FloatErrorScope scope(p);
    NDArray r = true_divide(one, zero);
    EXPECT_TRUE(rec_.messages.empty());
  }
  // The policy is per thread: another thread has the defaults (ignore).
  {
    FloatErrorPolicy p;
    p.divide = FloatErrorAction::kRaise;
    FloatErrorScope scope(p);
    FloatErrorAction seen = FloatErrorAction::kRaise;
    std::thread t([&]() { seen = GetFloatErrorPolicy().divide; });
    t.join();
    EXPECT_EQ(seen, FloatErrorAction::kIgnore);
  }
  // Flags raised in worker threads reach the evaluation's thread (one report).
  const int threads = GetNumThreads();
  SetNumThreads(4);
  const index_t n = index_t(1) << 20;
  NDArray big = ones({n}, kFloat32);
  big.narrow(0, n - 1, 1).Fill(0.0);  // only the last chunk divides by zero
  NDArray r = true_divide(ones({n}, kFloat32), big);
  SetNumThreads(threads);
  ASSERT_EQ(rec_.messages.size(), 1u);
  EXPECT_EQ(rec_.flags[0], fp::kDivide);
}

}  // namespace
}  // namespace shade
