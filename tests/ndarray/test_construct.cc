// Construction and shape helpers (ndarray/construct.h, ndarray/put_take.h) and the read-only
// flag, against naive loops over the elements (and, where NumPy's iteration is irregular, values
// printed by NumPy 1.24 and stored here).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "ndarray_test_util.h"
#include "shade/ndarray/construct.h"
#include "shade/ndarray/creation.h"
#include "shade/ndarray/indexing.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/put_take.h"
#include "shade/ndarray/shape_ops.h"

namespace {

using shade::index_t;
using shade::NDArray;

// Row-major values as doubles (any dtype, any layout).
std::vector<double> Values(const NDArray& a) {
  const NDArray c = shade::astype(a, shade::kFloat64).contiguous();
  const double* p = static_cast<const double*>(c.data_ptr());
  return std::vector<double>(p, p + c.numel());
}

NDArray Seq(std::vector<index_t> shape, int dtype = shade::kFloat64, double start = 1) {
  index_t n = 1;
  for (index_t s : shape) n *= s;
  NDArray a = shade::arange(start, start + static_cast<double>(n), 1.0).reshape({-1});
  return shade::astype(a, dtype).reshape(shape).Clone();
}

NDArray FromVec(const std::vector<double>& v, int dtype = shade::kFloat64) {
  NDArray a = NDArray::Empty({static_cast<index_t>(v.size())}, shade::kFloat64);
  if (!v.empty()) std::memcpy(a.data_ptr(), v.data(), v.size() * sizeof(double));
  return shade::astype(a, dtype).Clone();
}

std::vector<index_t> Shape(const NDArray& a) {
  return a.sizes().vec();
}

// ------------------------------------------------------------------ read-only flag

TEST(Construct, ReadOnlyFlagBlocksEveryWritePath) {
  NDArray a = Seq({3, 4});
  EXPECT_TRUE(a.writeable());
  a.set_writeable(false);
  const NDArray v = a.narrow(1, 1, 2);
  EXPECT_FALSE(v.writeable()) << "views inherit the flag";
  const char* msg = "assignment destination is read-only";
  shade_test::ExpectErrorContaining([&] { a.Fill(0); }, msg);
  shade_test::ExpectErrorContaining([&] { v.copy_(Seq({3, 2})); }, msg);
  shade_test::ExpectErrorContaining([&] { shade::add(a, 1, a); }, msg);
  shade_test::ExpectErrorContaining([&] { shade::add(a, a, a); }, msg);  // the direct binary path
  shade_test::ExpectErrorContaining(
      [&] { shade::index_put_(a, {FromVec({0}, shade::kInt64)}, Seq({4})); }, msg);
  shade_test::ExpectErrorContaining([&] { shade::put(a, FromVec({0}, shade::kInt64), Seq({1})); },
                                    msg);
  shade_test::ExpectErrorContaining([&] { shade::copyto(a, Seq({3, 4})); }, msg);
  try {
    a.Fill(0);
  } catch (const shade::ValueError&) {
    SUCCEED();
  }
  EXPECT_EQ(Values(a), Values(Seq({3, 4}))) << "nothing was written";
  EXPECT_TRUE(a.Clone().writeable()) << "a copy is writeable";
  a.set_writeable(true);
  a.Fill(2);
  EXPECT_EQ(Values(a)[5], 2);
}

// ------------------------------------------------------------------ diagonals and triangles

TEST(Construct, DiagonalMatchesLoopOnStridedInput) {
  for (int dtype : {shade::kFloat32, shade::kInt32}) {
    const NDArray base = Seq({4, 5, 3}, dtype);
    const NDArray a = base.permute({2, 0, 1});  // (3, 4, 5), not contiguous
    const std::vector<double> av = Values(a);
    for (index_t off : {-5, -2, 0, 1, 3, 7}) {
      const NDArray d = shade::diagonal(a, off, 1, 2);
      EXPECT_FALSE(d.writeable());
      const index_t n = std::max<index_t>(
          0, off >= 0 ? std::min<index_t>(4, 5 - off) : std::min<index_t>(4 + off, 5));
      ASSERT_EQ(Shape(d), (std::vector<index_t>{3, n})) << off;
      std::vector<double> want;
      for (index_t b = 0; b < 3; ++b) {
        for (index_t i = 0; i < n; ++i) {
          const index_t r = off >= 0 ? i : i - off, c = off >= 0 ? i + off : i;
          want.push_back(av[static_cast<std::size_t>(b * 20 + r * 5 + c)]);
        }
      }
      EXPECT_EQ(Values(d), want) << off;
    }
  }
  shade_test::ExpectErrorContaining([] { shade::diagonal(Seq({3}), 0); }, "at least two");
  shade_test::ExpectErrorContaining(
      [] {
        shade::diagonal(Seq({3, 3}), 0, 1, -1);
      },
      "cannot be the same");
}

TEST(Construct, DiagTraceAndTriangles) {
  const NDArray v = FromVec({1, 2, 3}, shade::kInt16);
  for (index_t k : {-2, 0, 1}) {
    const NDArray m = shade::diag(v, k);
    const index_t n = 3 + (k < 0 ? -k : k);
    ASSERT_EQ(Shape(m), (std::vector<index_t>{n, n}));
    EXPECT_EQ(m.type_flag(), shade::kInt16);
    const std::vector<double> mv = Values(m);
    for (index_t i = 0; i < n; ++i) {
      for (index_t j = 0; j < n; ++j) {
        const double want = j - i == k ? (k >= 0 ? i + 1 : j + 1) : 0;
        EXPECT_EQ(mv[static_cast<std::size_t>(i * n + j)], want) << k << " " << i << " " << j;
      }
    }
    EXPECT_EQ(Values(shade::diag(m, k)), Values(v));
  }
  EXPECT_EQ(Shape(shade::diagflat(Seq({2, 2}))), (std::vector<index_t>{4, 4}));
  shade_test::ExpectErrorContaining([] { shade::diag(Seq({2, 2, 2})); }, "1- or 2-d");

  const NDArray t = shade::trace(Seq({3, 4}, shade::kInt32), 1);
  EXPECT_EQ(t.type_flag(), shade::kInt64);
  EXPECT_EQ(Values(t)[0], 2 + 7 + 12);
  EXPECT_EQ(Values(shade::trace(Seq({2, 3, 3}), 0, 1, 2)),
            (std::vector<double>{1 + 5 + 9, 10 + 14 + 18}));

  const NDArray m = Seq({2, 3, 4}, shade::kInt64);
  const std::vector<double> mv = Values(m);
  for (index_t k : {-1, 0, 2}) {
    const std::vector<double> lo = Values(shade::tril(m, k)), up = Values(shade::triu(m, k));
    const std::vector<double> tr = Values(shade::tri(3, 4, k, shade::kInt32));
    for (index_t b = 0; b < 2; ++b) {
      for (index_t i = 0; i < 3; ++i) {
        for (index_t j = 0; j < 4; ++j) {
          const std::size_t at = static_cast<std::size_t>(b * 12 + i * 4 + j);
          EXPECT_EQ(lo[at], j - i <= k ? mv[at] : 0);
          EXPECT_EQ(up[at], j - i >= k ? mv[at] : 0);
          if (b == 0) {
            EXPECT_EQ(tr[at], j - i <= k ? 1 : 0);
          }
        }
      }
    }
  }
  EXPECT_EQ(Shape(shade::tril(Seq({3}))), (std::vector<index_t>{3, 3})) << "1-D broadcasts (NumPy)";
  EXPECT_EQ(Values(shade::identity(2, shade::kUint8)), (std::vector<double>{1, 0, 0, 1}));
}

// ------------------------------------------------------------------ grids, axes, stacking

TEST(Construct, MeshgridIndicesAndBroadcast) {
  const NDArray x = FromVec({1, 2, 3}), y = FromVec({10, 20});
  const auto xy = shade::meshgrid({x, y});
  ASSERT_EQ(Shape(xy[0]), (std::vector<index_t>{2, 3}));
  const auto ij = shade::meshgrid({x, y}, false);
  ASSERT_EQ(Shape(ij[0]), (std::vector<index_t>{3, 2}));
  const std::vector<double> gx = Values(xy[0]), gy = Values(xy[1]), hx = Values(ij[0]),
                            hy = Values(ij[1]);
  for (index_t i = 0; i < 2; ++i) {
    for (index_t j = 0; j < 3; ++j) {
      EXPECT_EQ(gx[static_cast<std::size_t>(i * 3 + j)], j + 1);
      EXPECT_EQ(gy[static_cast<std::size_t>(i * 3 + j)], 10 * (i + 1));
      EXPECT_EQ(hx[static_cast<std::size_t>(j * 2 + i)], j + 1);
      EXPECT_EQ(hy[static_cast<std::size_t>(j * 2 + i)], 10 * (i + 1));
    }
  }
  const auto sp = shade::meshgrid({x, y, x}, true, true);
  EXPECT_EQ(Shape(sp[0]), (std::vector<index_t>{1, 3, 1}));
  EXPECT_EQ(Shape(sp[1]), (std::vector<index_t>{2, 1, 1}));
  EXPECT_EQ(Shape(sp[2]), (std::vector<index_t>{1, 1, 3}));

  const NDArray g = shade::indices({2, 3}, shade::kInt32);
  EXPECT_EQ(Values(g), (std::vector<double>{0, 0, 0, 1, 1, 1, 0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(Shape(shade::indices({0, 2})), (std::vector<index_t>{2, 0, 2}));

  EXPECT_EQ(shade::broadcast_shapes({{2, 1}, {3}, {}}), (std::vector<index_t>{2, 3}));
  shade_test::ExpectErrorContaining(
      [] {
        shade::broadcast_shapes({{2}, {3}});
      },
      "Mismatch is between arg 0 with shape (2,) and arg 1 with shape (3,)");
  const NDArray b = shade::broadcast_to(x, {2, 3});
  EXPECT_FALSE(b.writeable());
  EXPECT_EQ(Values(b), (std::vector<double>{1, 2, 3, 1, 2, 3}));
  shade_test::ExpectErrorContaining([&] { shade::broadcast_to(x, {4}); }, "could not be broadcast");
  const auto ba = shade::broadcast_arrays({x, y.reshape({2, 1})});
  EXPECT_EQ(Values(ba[1]), (std::vector<double>{10, 10, 10, 20, 20, 20}));
}

TEST(Construct, AxesAndStacking) {
  const NDArray a = Seq({2, 3, 4});
  EXPECT_EQ(Shape(shade::moveaxis(a, {0}, {-1})), (std::vector<index_t>{3, 4, 2}));
  EXPECT_EQ(Shape(shade::moveaxis(a, {0, 1}, {-1, -2})), (std::vector<index_t>{4, 3, 2}));
  EXPECT_EQ(Shape(shade::rollaxis(a, 2)), (std::vector<index_t>{4, 2, 3}));
  EXPECT_EQ(Shape(shade::rollaxis(a, 0, 3)), (std::vector<index_t>{3, 4, 2}));
  shade_test::ExpectErrorContaining([&] { shade::moveaxis(a, {0, 0}, {1, 2}); }, "repeated axis");
  shade_test::ExpectErrorContaining([&] { shade::rollaxis(a, 0, 5); }, "'start' arg requires");
  EXPECT_THROW(shade::moveaxis(a, {3}, {0}), shade::IndexError);

  const NDArray s = shade::full({}, 5.0);
  EXPECT_EQ(Shape(shade::atleast_1d(s)), (std::vector<index_t>{1}));
  EXPECT_EQ(Shape(shade::atleast_2d(Seq({3}))), (std::vector<index_t>{1, 3}));
  EXPECT_EQ(Shape(shade::atleast_3d(Seq({3}))), (std::vector<index_t>{1, 3, 1}));
  EXPECT_EQ(Shape(shade::atleast_3d(Seq({2, 3}))), (std::vector<index_t>{2, 3, 1}));

  const NDArray p = FromVec({1, 2}), q = FromVec({3, 4});
  EXPECT_EQ(Values(shade::hstack({p, q})), (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(Shape(shade::vstack({p, q})), (std::vector<index_t>{2, 2}));
  EXPECT_EQ(Values(shade::column_stack({p, q})), (std::vector<double>{1, 3, 2, 4}));
  EXPECT_EQ(Shape(shade::dstack({p, q})), (std::vector<index_t>{1, 2, 2}));
  EXPECT_EQ(Values(shade::dstack({p, q})), (std::vector<double>{1, 3, 2, 4}));
  EXPECT_EQ(shade::hsplit(Seq({2, 4}), 2)[1].size(1), 2);
  EXPECT_EQ(shade::vsplit(Seq({4, 2}), std::vector<index_t>{1})[1].size(0), 3);
  shade_test::ExpectErrorContaining([] { shade::vsplit(Seq({4}), 2); }, "2 or more dimensions");
  shade_test::ExpectErrorContaining([] { shade::dsplit(Seq({4, 2}), 2); }, "3 or more dimensions");
}

// ------------------------------------------------------------------ pad

// Index of padded position p (of an axis of n elements padded by `left`) for the regular modes.
index_t SourceIndex(shade::PadMode mode, index_t p, index_t left, index_t n) {
  index_t i = p - left;
  switch (mode) {
    case shade::PadMode::kEdge:
      return std::min(std::max<index_t>(i, 0), n - 1);
    case shade::PadMode::kWrap:
      return ((i % n) + n) % n;
    case shade::PadMode::kSymmetric: {
      const index_t m = ((i % (2 * n)) + 2 * n) % (2 * n);
      return m < n ? m : 2 * n - 1 - m;
    }
    default: {  // reflect
      const index_t per = 2 * (n - 1);
      const index_t m = ((i % per) + per) % per;
      return m < n ? m : per - m;
    }
  }
}

TEST(Construct, PadRegularModesMatchIndexMaps) {
  const NDArray a = Seq({3, 4}, shade::kInt32).transpose(0, 1);  // (4, 3), strided
  const std::vector<double> av = Values(a);
  const shade::PadPairs pw = {{2, 1}, {1, 2}};  // within one period: NumPy's iteration is regular
  for (auto mode : {shade::PadMode::kEdge, shade::PadMode::kWrap, shade::PadMode::kSymmetric,
                    shade::PadMode::kReflect}) {
    const NDArray r = shade::pad(a, pw, mode);
    ASSERT_EQ(Shape(r), (std::vector<index_t>{7, 6}));
    EXPECT_EQ(r.type_flag(), shade::kInt32);
    const std::vector<double> rv = Values(r);
    for (index_t i = 0; i < 7; ++i) {
      for (index_t j = 0; j < 6; ++j) {
        const index_t si = SourceIndex(mode, i, 2, 4), sj = SourceIndex(mode, j, 1, 3);
        EXPECT_EQ(rv[static_cast<std::size_t>(i * 6 + j)],
                  av[static_cast<std::size_t>(si * 3 + sj)])
            << static_cast<int>(mode) << " " << i << " " << j;
      }
    }
  }
  shade::PadOptions opt;
  opt.constant_values = {{7, 8}};
  const std::vector<double> c =
      Values(shade::pad(FromVec({1, 2}), {{1, 2}}, shade::PadMode::kConstant, opt));
  EXPECT_EQ(c, (std::vector<double>{7, 1, 2, 8, 8}));
}

TEST(Construct, PadIrregularModesMatchNumPy) {
  // Values printed by NumPy 1.24.
  EXPECT_EQ(Values(shade::pad(FromVec({0, 1, 2}, shade::kInt64), {{5, 1}}, shade::PadMode::kWrap)),
            (std::vector<double>{2, 0, 0, 1, 2, 0, 1, 2, 0}));
  shade::PadOptions odd;
  odd.reflect_odd = true;
  EXPECT_EQ(Values(shade::pad(FromVec({1, 2, 3}), {{7, 7}}, shade::PadMode::kReflect, odd)),
            (std::vector<double>{-6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  // np.pad(int8 [1,2,3,4], 2, 'mean'): the mean 2.5 rounds half to even.
  EXPECT_EQ(
      Values(shade::pad(FromVec({1, 2, 3, 4}, shade::kInt8), {{2, 2}}, shade::PadMode::kMean)),
      (std::vector<double>{2, 2, 1, 2, 3, 4, 2, 2}));
  // np.pad([1, 5, 2, 9], (1, 2), 'median', stat_length=(2, 3)) -> [3, 1, 5, 2, 9, 5, 5]
  shade::PadOptions st;
  st.stat_length = {{2, 3}};
  EXPECT_EQ(Values(shade::pad(FromVec({1, 5, 2, 9}), {{1, 2}}, shade::PadMode::kMedian, st)),
            (std::vector<double>{3, 1, 5, 2, 9, 5, 5}));
  EXPECT_EQ(Values(shade::pad(FromVec({1, 5, 2, 9}), {{1, 1}}, shade::PadMode::kMaximum)),
            (std::vector<double>{9, 1, 5, 2, 9, 9}));
  // np.pad(np.array([5, 6], np.int32), (3, 2), 'linear_ramp', end_values=(-1, 0))
  //   -> [-1, 1, 3, 5, 6, 3, 0]
  shade::PadOptions ramp;
  ramp.end_values = {{-1, 0}};
  EXPECT_EQ(Values(shade::pad(FromVec({5, 6}, shade::kInt32), {{3, 2}}, shade::PadMode::kLinearRamp,
                              ramp)),
            (std::vector<double>{-1, 1, 3, 5, 6, 3, 0}));
  shade_test::ExpectErrorContaining(
      [] {
        shade::pad(NDArray::Empty({0, 2}, shade::kFloat32), {{1, 0}, {0, 0}},
                   shade::PadMode::kEdge);
      },
      "can't extend empty axis 0");
  EXPECT_EQ(Shape(shade::pad(NDArray::Empty({0, 2}, shade::kFloat32), {{1, 0}, {0, 0}})),
            (std::vector<index_t>{1, 2}));
  shade_test::ExpectErrorContaining([] { shade::pad(Seq({2}), {{-1, 0}}); }, "negative");
  shade_test::ExpectErrorContaining([] { shade::ParsePadMode("nope"); }, "not supported");
}

// ------------------------------------------------------------------ flat indices and bits

TEST(Construct, RavelUnravelRoundTrip) {
  const std::vector<index_t> dims = {3, 4, 5};
  const NDArray flat = shade::arange(0, 60, 7);
  for (bool f : {false, true}) {
    const auto coords = shade::unravel_index(flat, dims, f);
    const std::vector<double> fv = Values(flat);
    for (std::size_t i = 0; i < fv.size(); ++i) {
      index_t x = static_cast<index_t>(fv[i]);
      std::vector<index_t> want(3);
      for (int k = 0; k < 3; ++k) {
        const int d = f ? k : 2 - k;
        want[d] = x % dims[d];
        x /= dims[d];
      }
      for (int d = 0; d < 3; ++d) EXPECT_EQ(Values(coords[d])[i], want[d]);
    }
    EXPECT_EQ(Values(shade::ravel_multi_index(coords, dims, {shade::IndexMode::kRaise}, f)), fv);
  }
  shade_test::ExpectErrorContaining(
      [] {
        shade::unravel_index(FromVec({60}, shade::kInt64), {3, 4, 5});
      },
      "index 60 is out of bounds for array with size 60");
  EXPECT_THROW(shade::unravel_index(FromVec({1.5}), {3}), shade::TypeError);
  const std::vector<NDArray> bad = {FromVec({5, -1}, shade::kInt64),
                                    FromVec({0, 0}, shade::kInt64)};
  shade_test::ExpectErrorContaining(
      [&] {
        shade::ravel_multi_index(bad, {4, 2});
      },
      "invalid entry");
  EXPECT_EQ(Values(shade::ravel_multi_index(bad, {4, 2}, {shade::IndexMode::kWrap})),
            (std::vector<double>{2, 6}));
  EXPECT_EQ(Values(shade::ravel_multi_index(bad, {4, 2}, {shade::IndexMode::kClip})),
            (std::vector<double>{6, 0}));
}

TEST(Construct, PackAndUnpackBits) {
  const NDArray bits = FromVec({1, 0, 1, 1, 0, 0, 0, 1, 1, 1, 0}, shade::kInt32);
  const std::vector<double> bv = Values(bits);
  for (bool little : {false, true}) {
    const NDArray packed = shade::packbits(bits, true, 0, little);
    ASSERT_EQ(Shape(packed), (std::vector<index_t>{2}));
    EXPECT_EQ(packed.type_flag(), shade::kUint8);
    const std::vector<double> pv = Values(packed);
    for (int byte = 0; byte < 2; ++byte) {
      int want = 0;
      for (int t = 0; t < 8 && byte * 8 + t < 11; ++t) {
        if (bv[static_cast<std::size_t>(byte * 8 + t)] != 0) want |= little ? 1 << t : 0x80 >> t;
      }
      EXPECT_EQ(pv[static_cast<std::size_t>(byte)], want);
    }
    const NDArray back = shade::unpackbits(packed, true, 0, true, 11, little);
    EXPECT_EQ(Values(back), bv);
  }
  const NDArray m = Seq({3, 2}, shade::kUint8);
  EXPECT_EQ(Shape(shade::unpackbits(m, false, 1)), (std::vector<index_t>{3, 16}));
  EXPECT_EQ(Shape(shade::packbits(shade::unpackbits(m, false, 0), false, 0)),
            (std::vector<index_t>{3, 2}));
  EXPECT_EQ(Values(shade::packbits(shade::unpackbits(m, false, 0), false, 0)), Values(m));
  EXPECT_THROW(shade::packbits(Seq({3})), shade::TypeError);
  EXPECT_THROW(shade::unpackbits(Seq({3}, shade::kInt8)), shade::TypeError);
}

// ------------------------------------------------------------------ dtype views, put / take

TEST(Construct, ViewDtypeSharesMemory) {
  NDArray f = FromVec({1.5, -2}, shade::kFloat32);
  const NDArray i = shade::view_dtype(f, shade::kInt32);
  std::int32_t bits;
  const float one_half = 1.5f;
  std::memcpy(&bits, &one_half, 4);
  EXPECT_EQ(i.at<std::int32_t>(0), bits);
  const NDArray bytes = shade::view_dtype(f, shade::kUint8);
  EXPECT_EQ(Shape(bytes), (std::vector<index_t>{8}));
  const NDArray back = shade::frombuffer(bytes, shade::kFloat32, 1, 4);
  EXPECT_EQ(back.at<float>(0), -2.0f);
  back.at<float>(0) = 3;
  EXPECT_EQ(f.at<float>(1), 3.0f) << "a view writes the original";
  shade_test::ExpectErrorContaining(
      [&] { shade::view_dtype(Seq({3}, shade::kInt8), shade::kInt16); }, "divisor");
  shade_test::ExpectErrorContaining(
      [&] {
        shade::view_dtype(Seq({2, 2}, shade::kInt16).transpose(0, 1), shade::kInt8);
      },
      "last axis must be contiguous");
  shade_test::ExpectErrorContaining([&] { shade::frombuffer(bytes, shade::kFloat64, 2); },
                                    "smaller than requested");
}

TEST(Construct, PutPlacePutmaskAlongAxisCopyto) {
  NDArray a = Seq({2, 3});
  const NDArray at = a.transpose(0, 1);  // non-contiguous destination: (3, 2)
  shade::put(at, FromVec({0, -1, 7}, shade::kInt64), FromVec({-1, -2}), shade::IndexMode::kWrap);
  // at.flat positions 0, 5, 1 (7 wraps) get -1, -2, -1.
  EXPECT_EQ(Values(at), (std::vector<double>{-1, -1, 2, 5, 3, -2}));
  EXPECT_THROW(shade::put(a, FromVec({6}, shade::kInt64), FromVec({0})), shade::IndexError);

  NDArray b = Seq({5});
  shade::place(b, FromVec({1, 0, 1, 1, 0}, shade::kBool), FromVec({9, 8}));
  EXPECT_EQ(Values(b), (std::vector<double>{9, 2, 8, 9, 5}));
  shade_test::ExpectErrorContaining(
      [&] {
        shade::place(b, FromVec({1, 0, 0, 0, 0}, shade::kBool), FromVec({}));
      },
      "Cannot insert from an empty array");
  NDArray c = Seq({5});
  shade::putmask(c, FromVec({0, 1, 0, 1, 1}, shade::kBool), FromVec({10, 20}));
  EXPECT_EQ(Values(c), (std::vector<double>{1, 20, 3, 20, 10}));

  const NDArray m = Seq({2, 3});
  const NDArray idx = FromVec({2, 0, 1, 1}, shade::kInt64).reshape({2, 2});
  EXPECT_EQ(Values(shade::take_along_axis(m, idx, 1)), (std::vector<double>{3, 1, 5, 5}));
  EXPECT_EQ(Values(shade::take_along_axis(m, FromVec({-1}, shade::kInt64))),
            (std::vector<double>{6}));
  NDArray w = Seq({2, 3});
  shade::put_along_axis(w, idx, FromVec({0}), 1);
  EXPECT_EQ(Values(w), (std::vector<double>{0, 2, 0, 4, 0, 6}));
  shade_test::ExpectErrorContaining(
      [&] { shade::take_along_axis(m, FromVec({0}, shade::kInt64), 0); },
      "same number of dimensions");
  EXPECT_THROW(shade::take_along_axis(m, FromVec({0}).reshape({1, 1}), 0), shade::IndexError);

  NDArray d = shade::zeros({2, 2}, shade::kInt32);
  EXPECT_THROW(shade::copyto(d, Seq({2})), shade::TypeError);  // float64 -> int32 is not same_kind
  shade::copyto(d, Seq({2}, shade::kInt64), shade::Casting::kSameKind,
                FromVec({1, 0}, shade::kBool));
  EXPECT_EQ(Values(d), (std::vector<double>{1, 0, 1, 0}));
  shade::copyto(d, Seq({2}), shade::Casting::kUnsafe);
  EXPECT_EQ(Values(d), (std::vector<double>{1, 2, 1, 2}));
}

TEST(Construct, EmptyAndRankZeroInputs) {
  const NDArray e = NDArray::Empty({0, 3}, shade::kInt16);
  EXPECT_EQ(Shape(shade::diagonal(e)), (std::vector<index_t>{0}));
  EXPECT_EQ(Shape(shade::tril(e)), (std::vector<index_t>{0, 3}));
  EXPECT_EQ(Shape(shade::diag(NDArray::Empty({0}, shade::kFloat32))), (std::vector<index_t>{0, 0}));
  EXPECT_EQ(Values(shade::trace(e)), (std::vector<double>{0}));
  EXPECT_EQ(Shape(shade::packbits(e)), (std::vector<index_t>{0}));
  EXPECT_EQ(Shape(shade::unpackbits(NDArray::Empty({0}, shade::kUint8), true, 0, true, 3)),
            (std::vector<index_t>{3}));
  EXPECT_EQ(Shape(shade::meshgrid({NDArray::Empty({0}, shade::kFloat64), Seq({2})})[0]),
            (std::vector<index_t>{2, 0}));
  const NDArray s = shade::full({}, 3.0);
  EXPECT_EQ(Shape(shade::pad(s, {}, shade::PadMode::kEdge)), (std::vector<index_t>{}));
  EXPECT_EQ(Values(shade::packbits(shade::astype(s, shade::kInt8))), (std::vector<double>{128}));
  EXPECT_EQ(Shape(shade::broadcast_to(s, {2, 2})), (std::vector<index_t>{2, 2}));
  EXPECT_THROW(shade::view_dtype(s, shade::kInt32), shade::ValueError);
  EXPECT_EQ(shade::view_dtype(s, shade::kInt64).ndim(), 0);
  EXPECT_EQ(Values(shade::unravel_index(shade::full_int({}, 5, shade::kInt32), {2, 3})[1]),
            (std::vector<double>{2}));
  EXPECT_THROW(shade::moveaxis(s, {0}, {0}), shade::IndexError);
  EXPECT_EQ(Shape(shade::atleast_2d(s)), (std::vector<index_t>{1, 1}));
}

}  // namespace
