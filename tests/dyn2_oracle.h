// The one reader of the NumPy oracle files (tests/data/dyn/ and tests/data/dyn2/; the
// make_oracle.py scripts describe the format), the comparison helpers, the non-contiguous
// layouts every oracle case also runs on, and the oracle loop body shared by
// test_dyn_elementwise/reduce/linalg/shape_ops/indexing.
#ifndef SHADE_TESTS_DYN2_ORACLE_H_
#define SHADE_TESTS_DYN2_ORACLE_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "shade/ndarray/ndarray.h"
#include "shade/ndarray/promotion.h"

namespace shade {
namespace dyn2 {

/*! One oracle case: op, parameters, inputs, outputs (none when NumPy raised). */
struct Case {
  std::string op;
  std::map<std::string, std::string> params;
  std::vector<NDArray> in;
  std::vector<NDArray> out;
  bool error = false;
  int line = 0;
  std::string Where() const {
    std::ostringstream os;
    os << "case " << op << " at line " << line;
    for (const auto& kv : params) os << ' ' << kv.first << '=' << kv.second;
    return os.str();
  }
};

inline int FlagOf(const std::string& name) {
  for (int f = 0; f < kNumTypeFlags; ++f) {
    if (name == TypeFlagName(f)) return f;
  }
  ADD_FAILURE() << "unknown dtype " << name;
  return kFloat32;
}

inline std::vector<std::string> Words(const std::string& line) {
  std::istringstream is(line);
  std::vector<std::string> w;
  std::string s;
  while (is >> s) w.push_back(s);
  return w;
}

// "in float32 2 2 3 | v v ..." -> a contiguous NDArray with exactly those values.
inline NDArray ParseArray(const std::vector<std::string>& w) {
  const int flag = FlagOf(w[1]);
  const int nd = std::stoi(w[2]);
  std::vector<index_t> shape;
  for (int d = 0; d < nd; ++d) shape.push_back(std::stoll(w[3 + d]));
  NDArray a = NDArray::Empty(shape, flag);
  const std::size_t first = 3 + static_cast<std::size_t>(nd) + 1;
  EXPECT_EQ(w.size() - first, static_cast<std::size_t>(a.numel()));
  DispatchDType(flag, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = static_cast<T*>(a.data_ptr());
    for (index_t i = 0; i < a.numel(); ++i) {
      const char* s = w[first + i].c_str();
      if constexpr (std::is_same<T, bool>::value) {
        p[i] = s[0] == '1';
      } else if constexpr (std::is_integral<T>::value && std::is_signed<T>::value) {
        p[i] = static_cast<T>(std::strtoll(s, nullptr, 10));
      } else if constexpr (std::is_integral<T>::value) {
        p[i] = static_cast<T>(std::strtoull(s, nullptr, 10));
      } else {
        p[i] = T(std::strtod(s, nullptr));  // exact: the value was printed from this dtype
      }
    }
  });
  return a;
}

inline std::vector<Case> ReadCases(const std::string& file) {
  std::ifstream in(std::string(SHADE_TEST_DATA_DIR) + "/dyn2/" + file);
  EXPECT_TRUE(in.good()) << "cannot open " << file;
  std::vector<Case> cases;
  std::string line;
  int lineno = 0;
  Case cur;
  while (std::getline(in, line)) {
    ++lineno;
    const std::vector<std::string> w = Words(line);
    if (w.empty()) continue;
    if (w[0] == "case") {
      cur = Case();
      cur.op = w[1];
      cur.line = lineno;
      for (std::size_t i = 2; i < w.size(); ++i) {
        const auto eq = w[i].find('=');
        cur.params[w[i].substr(0, eq)] = w[i].substr(eq + 1);
      }
    } else if (w[0] == "in") {
      cur.in.push_back(ParseArray(w));
    } else if (w[0] == "out") {
      if (w[1] == "error") {
        cur.error = true;
      } else {
        cur.out.push_back(ParseArray(w));
      }
    } else if (w[0] == "end") {
      cases.push_back(cur);
    }
  }
  return cases;
}

/*! "0,2" -> {0, 2}; "empty" -> {}. */
inline std::vector<index_t> IntList(const std::string& s) {
  std::vector<index_t> out;
  if (s == "empty" || s.empty()) return out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(std::stoll(item));
  return out;
}

/*! Element i (row-major) of any array, as double. */
inline double At(const NDArray& a, index_t flat) {
  std::vector<index_t> idx(a.ndim());
  for (int d = a.ndim() - 1; d >= 0; --d) {
    idx[d] = flat % a.size(d);
    flat /= a.size(d);
  }
  return a.get(idx);
}

/*! Exact text of element i (64-bit integers do not fit a double). */
inline std::string ExactAt(const NDArray& a, index_t flat) {
  std::vector<index_t> idx(a.ndim());
  for (int d = a.ndim() - 1; d >= 0; --d) {
    idx[d] = flat % a.size(d);
    flat /= a.size(d);
  }
  return DispatchDType(a.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::ostringstream os;
    const T v = a.at<T>(IndexSpan(idx));
    if constexpr (std::is_integral<T>::value && std::is_signed<T>::value) {
      os << static_cast<long long>(v);  // NOLINT(runtime/int)
    } else if constexpr (std::is_integral<T>::value) {
      os << static_cast<unsigned long long>(v);  // NOLINT(runtime/int)
    } else {
      os << static_cast<double>(static_cast<float>(v));
    }
    return os.str();
  });
}

/*! Unit in the last place of dtype `flag` at magnitude |v| (subnormals: the smallest normal's). */
inline double Ulp(int flag, double v) {
  const double min_normal = flag == kFloat16                        ? 6.1e-5
                            : flag == kFloat32 || flag == kBfloat16 ? 1.18e-38
                                                                    : 2.3e-308;
  const int bits = flag == kFloat16 ? 10 : flag == kBfloat16 ? 7 : flag == kFloat32 ? 23 : 52;
  int e;
  std::frexp(std::max(std::fabs(v), min_normal), &e);
  return std::ldexp(1.0, e - 1 - bits);
}

/*!
 * Same dtype, shape and values: integers and bool exactly; floats within `ulps` units in the last
 * place of max(|expected|, scale) (NaN must match NaN, infinities exactly).
 */
inline void ExpectClose(const NDArray& got, const NDArray& want, double ulps, double scale, const std::string& what) {
  ASSERT_TRUE(got.defined()) << what;
  ASSERT_EQ(std::string(TypeFlagName(got.type_flag())), std::string(TypeFlagName(want.type_flag()))) << what;
  ASSERT_EQ(got.sizes(), want.sizes()) << what;
  const bool is_float = KindOf(want.type_flag()) == DTypeKind::kFloat;
  for (index_t i = 0; i < want.numel(); ++i) {
    if (!is_float) {
      ASSERT_EQ(ExactAt(got, i), ExactAt(want, i)) << what << " element " << i;
      continue;
    }
    const double g = At(got, i), e = At(want, i);
    if (std::isnan(e)) {
      ASSERT_TRUE(std::isnan(g)) << what << " element " << i << ": got " << g << ", NumPy nan";
    } else if (std::isinf(e)) {
      ASSERT_EQ(g, e) << what << " element " << i;
    } else {
      const double tol = ulps * Ulp(want.type_flag(), std::max(std::fabs(e), scale));
      ASSERT_NEAR(g, e, tol) << what << " element " << i;
    }
  }
}

/*! The same values stored transposed (reversed dimension order): a non-contiguous view. */
inline NDArray Transposed(const NDArray& a) {
  std::vector<index_t> rev(a.sizes().begin(), a.sizes().end());
  std::reverse(rev.begin(), rev.end());
  std::vector<index_t> perm;
  for (int d = a.ndim() - 1; d >= 0; --d) perm.push_back(d);
  NDArray store = NDArray::Empty(rev, a.type_flag());
  NDArray v = store.permute(perm);
  v.copy_(a);
  return v;
}

/*! The same values as every other element of a longer last dimension, from offset 1. */
inline NDArray Strided(const NDArray& a) {
  if (a.ndim() == 0) return a;
  std::vector<index_t> big = a.sizes().vec();
  big.back() = big.back() * 2 + 1;
  NDArray store = NDArray::Empty(big, a.type_flag());
  store.Fill(0);
  NDArray v = store.slice(a.ndim() - 1, 1, big.back(), 2);
  v.copy_(a);
  return v;
}

/*! The message of the shade::Error `f` throws, or "no error". */
template <typename F>
std::string ErrorMessage(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return std::string(e.what());
  }
  return std::string("no error");
}

inline std::vector<NDArray> AsList(NDArray a) {
  return {std::move(a)};
}
inline std::vector<NDArray> AsList(std::vector<NDArray> a) {
  return a;
}

/*!
 * One oracle case on one input layout: when NumPy raised, `run` must throw shade::Error;
 * otherwise it must not throw and its results must match NumPy's outputs (ExpectClose with
 * ulps / scale). With `paths_to_one_result`, `run` computes NumPy's single output in several
 * ways and every result must match it.
 */
template <typename Run>
void CheckOracleCase(const Case& c, const std::string& what, Run&& run, double ulps, double scale,
                     bool paths_to_one_result = false) {
  if (c.error) {
    EXPECT_THROW(run(), Error) << what;
    return;
  }
  std::vector<NDArray> got;
  try {
    got = AsList(run());
  } catch (const Error& e) {
    ADD_FAILURE() << what << ": threw " << e.what();
    return;
  }
  if (paths_to_one_result) {
    ASSERT_EQ(c.out.size(), 1u) << what;
  } else {
    ASSERT_EQ(got.size(), c.out.size()) << what;
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    ExpectClose(got[i], c.out[paths_to_one_result ? 0 : i], ulps, scale,
                what + " result " + std::to_string(i));
  }
}

}  // namespace dyn2
}  // namespace shade

#endif  // SHADE_TESTS_DYN2_ORACLE_H_
