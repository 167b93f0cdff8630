// numpy.linalg (ndarray/lapack.h) checked by reconstruction against naive loops in double: A x = b
// residuals, A inv(A) = I, U S Vh = A, Q R = A, L L^T = A, A v = v w, determinants by
// elimination, norms by their definitions. Several shapes, batches, empty matrices (NumPy's
// results, e.g. det of 0x0 is 1), non-contiguous (transposed) inputs, float32 and float64, and
// the errors: LinAlgError for singular / non-square / rank < 2, TypeError for float16.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "shade/ndarray/creation.h"
#include "shade/ndarray/einsum.h"
#include "shade/ndarray/lapack.h"
#include "shade/ndarray/linalg.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/shape_ops.h"

namespace shade {
namespace {

using V = std::vector<double>;

NDArray Rand(std::vector<index_t> shape, int dtype, std::uint64_t seed) {
  NDArray a = NDArray::Empty(shape, kFloat64);
  double* p = static_cast<double*>(a.data_ptr());
  for (index_t i = 0; i < a.numel(); ++i) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    p[i] = static_cast<double>(seed >> 11) / 9007199254740992.0 * 2 - 1;
  }
  return astype(a, dtype);
}

// Random batch of well-conditioned square matrices (diagonal dominant).
NDArray RandSquare(std::vector<index_t> batch, index_t n, int dtype, std::uint64_t seed) {
  batch.push_back(n);
  batch.push_back(n);
  NDArray a = astype(Rand(batch, kFloat64, seed), kFloat64).Clone();
  double* p = static_cast<double*>(a.data_ptr());
  for (index_t i = 0; i < (n == 0 ? 0 : a.numel() / (n * n)); ++i) {
    for (index_t j = 0; j < n; ++j) p[i * n * n + j * n + j] += n + 1;
  }
  return astype(a, dtype);
}

V Values(const NDArray& a) {
  const NDArray c = astype(a, kFloat64).contiguous();
  const double* p = static_cast<const double*>(c.data_ptr());
  return V(p, p + c.numel());
}

double Tol(int dtype) {
  return dtype == kFloat32 ? 2e-3 : 1e-9;
}

// c = a (m x k) * b (k x n), one batch element each.
V MatMul(const V& a, const V& b, index_t m, index_t k, index_t n, index_t oa = 0, index_t ob = 0) {
  V c(static_cast<std::size_t>(m * n), 0.0);
  for (index_t i = 0; i < m; ++i)
    for (index_t j = 0; j < n; ++j)
      for (index_t l = 0; l < k; ++l) c[i * n + j] += a[oa + i * k + l] * b[ob + l * n + j];
  return c;
}

void ExpectNear(const V& x, const V& y, double tol, const char* what) {
  ASSERT_EQ(x.size(), y.size()) << what;
  for (std::size_t i = 0; i < x.size(); ++i) {
    EXPECT_NEAR(x[i], y[i], tol * (1 + std::abs(y[i]))) << what << " at " << i;
  }
}

// Naive determinant by elimination with partial pivoting (double).
double NaiveDet(V m, index_t n, index_t off) {
  double det = 1;
  for (index_t c = 0; c < n; ++c) {
    index_t piv = c;
    for (index_t r = c + 1; r < n; ++r)
      if (std::abs(m[off + r * n + c]) > std::abs(m[off + piv * n + c])) piv = r;
    if (m[off + piv * n + c] == 0) return 0;
    if (piv != c) {
      for (index_t j = 0; j < n; ++j) std::swap(m[off + c * n + j], m[off + piv * n + j]);
      det = -det;
    }
    det *= m[off + c * n + c];
    for (index_t r = c + 1; r < n; ++r) {
      const double f = m[off + r * n + c] / m[off + c * n + c];
      for (index_t j = c; j < n; ++j) m[off + r * n + j] -= f * m[off + c * n + j];
    }
  }
  return det;
}

const std::vector<int> kTypes = {kFloat32, kFloat64};
const std::vector<std::vector<index_t>> kBatches = {{}, {3}, {2, 2}};

TEST(LinalgLapack, SolveResidual) {
  for (int t : kTypes) {
    for (const auto& batch : kBatches) {
      for (index_t n : {1, 4, 9}) {
        const NDArray a = RandSquare(batch, n, t, 1 + n);
        std::vector<index_t> bs = batch;
        bs.push_back(n);
        bs.push_back(2);
        const NDArray b = Rand(bs, t, 7 + n);
        const NDArray x = linalg::solve(a, b);
        EXPECT_EQ(x.type_flag(), t);
        EXPECT_EQ(x.sizes(), b.sizes());
        const V av = Values(a), bv = Values(b), xv = Values(x);
        const index_t count = a.numel() / (n * n);
        for (index_t i = 0; i < count; ++i) {
          const V ax = MatMul(av, xv, n, n, 2, i * n * n, i * n * 2);
          ExpectNear(ax, V(bv.begin() + i * n * 2, bv.begin() + (i + 1) * n * 2), Tol(t),
                     "A x = b");
        }
        // Vector right-hand side (b.ndim == a.ndim - 1) and a transposed (non-contiguous) a.
        const NDArray bvec = b.select(b.ndim() - 1, 0);
        const NDArray at = a.transpose(a.ndim() - 1, a.ndim() - 2);
        const NDArray y = linalg::solve(at, bvec);
        EXPECT_EQ(y.sizes(), bvec.sizes());
        const V atv = Values(at), yv = Values(y), b0 = Values(bvec);
        for (index_t i = 0; i < count; ++i) {
          const V ay = MatMul(atv, yv, n, n, 1, i * n * n, i * n);
          ExpectNear(ay, V(b0.begin() + i * n, b0.begin() + (i + 1) * n), Tol(t), "At y = b");
        }
      }
    }
  }
}

TEST(LinalgLapack, SolveBroadcastAndErrors) {
  const NDArray a = RandSquare({2, 1}, 3, kFloat64, 3);
  const NDArray b = Rand({1, 4, 3, 1}, kFloat64, 4);
  EXPECT_EQ(linalg::solve(a, b).sizes(), IndexSpan({2, 4, 3, 1}));
  EXPECT_THROW(linalg::solve(zeros({3, 3}), ones({3})), LinAlgError);
  EXPECT_THROW(linalg::solve(ones({3, 2}), ones({3})), LinAlgError);
  EXPECT_THROW(linalg::solve(ones({3}), ones({3})), LinAlgError);
  EXPECT_THROW(linalg::solve(eye(3), ones({4})), ShapeError);
  EXPECT_THROW(linalg::solve(eye(3, -1, 0, kFloat16), ones({3})), TypeError);
  // int inputs compute in float64; float32 with float64 gives float64.
  EXPECT_EQ(linalg::solve(astype(eye(2), kInt32), ones({2}, kInt64)).type_flag(), kFloat64);
  EXPECT_EQ(linalg::solve(eye(2, -1, 0, kFloat32), ones({2}, kFloat64)).type_flag(), kFloat64);
}

TEST(LinalgLapack, InvDetSlogdet) {
  for (int t : kTypes) {
    for (const auto& batch : kBatches) {
      for (index_t n : {1, 3, 6}) {
        const NDArray a0 = RandSquare(batch, n, t, 11 + n);
        const NDArray a = a0.transpose(a0.ndim() - 1, a0.ndim() - 2);  // non-contiguous
        const NDArray ai = linalg::inv(a);
        EXPECT_EQ(ai.sizes(), a.sizes());
        const V av = Values(a), iv = Values(ai);
        const index_t count = a.numel() / (n * n);
        V id(static_cast<std::size_t>(n * n), 0.0);
        for (index_t j = 0; j < n; ++j) id[j * n + j] = 1;
        const NDArray d = linalg::det(a);
        NDArray sign, logdet;
        std::tie(sign, logdet) = linalg::slogdet(a);
        EXPECT_EQ(d.sizes(), IndexSpan(batch));
        EXPECT_EQ(d.type_flag(), t);
        const V dv = Values(d), sv = Values(sign), lv = Values(logdet);
        for (index_t i = 0; i < count; ++i) {
          ExpectNear(MatMul(av, iv, n, n, n, i * n * n, i * n * n), id, Tol(t), "A inv(A)");
          const double nd = NaiveDet(av, n, i * n * n);
          EXPECT_NEAR(dv[i], nd, Tol(t) * std::abs(nd));
          EXPECT_EQ(sv[i], nd < 0 ? -1.0 : 1.0);
          EXPECT_NEAR(lv[i], std::log(std::abs(nd)), Tol(t) * 10);
        }
      }
    }
  }
  // Empty and singular matrices: NumPy's results.
  EXPECT_EQ(item<double>(linalg::det(zeros({0, 0}))), 1.0);
  EXPECT_EQ(linalg::det(zeros({2, 0, 0})).sizes(), IndexSpan({2}));
  EXPECT_EQ(linalg::inv(zeros({2, 0, 0})).sizes(), IndexSpan({2, 0, 0}));
  NDArray s, l;
  std::tie(s, l) = linalg::slogdet(ones({2, 2}));
  EXPECT_EQ(item<double>(s), 0.0);
  EXPECT_EQ(item<double>(l), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(item<double>(linalg::det(ones({3, 3}))), 0.0);
  EXPECT_THROW(linalg::inv(ones({3, 3})), LinAlgError);
  EXPECT_THROW(linalg::inv(ones({2, 3})), LinAlgError);
  EXPECT_THROW(linalg::det(ones({3})), LinAlgError);
  EXPECT_THROW(linalg::det(ones({2, 2}, kFloat16)), TypeError);
}

TEST(LinalgLapack, Cholesky) {
  for (int t : kTypes) {
    for (const auto& batch : kBatches) {
      const index_t n = 5;
      const NDArray r = RandSquare(batch, n, kFloat64, 21);
      // a = r r^T is positive definite.
      const NDArray a = astype(matmul(r, r.transpose(r.ndim() - 1, r.ndim() - 2)), t);
      const NDArray lo = linalg::cholesky(a);
      const V lv = Values(lo), av = Values(a);
      const index_t count = a.numel() / (n * n);
      for (index_t i = 0; i < count; ++i) {
        V lt(static_cast<std::size_t>(n * n));
        for (index_t x = 0; x < n; ++x)
          for (index_t y = 0; y < n; ++y) {
            lt[x * n + y] = lv[i * n * n + y * n + x];
            if (y > x) {
              EXPECT_EQ(lv[i * n * n + x * n + y], 0.0);
            }
          }
        ExpectNear(MatMul(lv, lt, n, n, n, i * n * n, 0),
                   V(av.begin() + i * n * n, av.begin() + (i + 1) * n * n), Tol(t), "L L^T");
      }
    }
  }
  EXPECT_THROW(linalg::cholesky(negative(eye(2)).eval()), LinAlgError);
  EXPECT_EQ(linalg::cholesky(zeros({0, 0})).sizes(), IndexSpan({0, 0}));
}

TEST(LinalgLapack, QR) {
  for (int t : kTypes) {
    for (auto mn : std::vector<std::pair<index_t, index_t>>{{5, 3}, {3, 5}, {4, 4}, {3, 0}}) {
      const index_t m = mn.first, n = mn.second, k = std::min(m, n);
      const NDArray a = Rand({2, m, n}, t, 31 + m);
      for (const char* mode : {"reduced", "complete"}) {
        NDArray q, r;
        std::tie(q, r) = linalg::qr(a, mode);
        const index_t qc = std::string(mode) == "complete" ? m : k;
        EXPECT_EQ(q.sizes(), IndexSpan({2, m, qc}));
        EXPECT_EQ(r.sizes(), IndexSpan({2, qc, n}));
        const V qv = Values(q), rv = Values(r), av = Values(a);
        for (index_t i = 0; i < 2; ++i) {
          ExpectNear(MatMul(qv, rv, m, qc, n, i * m * qc, i * qc * n),
                     V(av.begin() + i * m * n, av.begin() + (i + 1) * m * n), Tol(t), "Q R");
          for (index_t x = 0; x < qc; ++x)
            for (index_t y = 0; y < std::min(x, n); ++y) EXPECT_EQ(rv[i * qc * n + x * n + y], 0);
          // Q^T Q = I.
          for (index_t x = 0; x < qc; ++x)
            for (index_t y = 0; y < qc; ++y) {
              double acc = 0;
              for (index_t l = 0; l < m; ++l)
                acc += qv[i * m * qc + l * qc + x] * qv[i * m * qc + l * qc + y];
              EXPECT_NEAR(acc, x == y ? 1.0 : 0.0, Tol(t));
            }
        }
      }
      EXPECT_EQ(std::get<0>(linalg::qr(a, "r")).sizes(), IndexSpan({2, k, n}));
      EXPECT_EQ(std::get<1>(linalg::qr(a, "raw")).sizes(), IndexSpan({2, k}));
    }
  }
  EXPECT_THROW(linalg::qr(ones({2, 2}), "bogus"), ValueError);
}

TEST(LinalgLapack, SVD) {
  for (int t : kTypes) {
    for (auto mn : std::vector<std::pair<index_t, index_t>>{{6, 4}, {4, 6}, {5, 5}, {1, 3}}) {
      const index_t m = mn.first, n = mn.second, k = std::min(m, n);
      const NDArray a0 = Rand({3, n, m}, t, 41 + m);
      const NDArray a = a0.transpose(1, 2);  // non-contiguous [3, m, n]
      for (bool full : {true, false}) {
        const linalg::SVDResult d = linalg::svd(a, full);
        const index_t uc = full ? m : k, vr = full ? n : k;
        EXPECT_EQ(d.u.sizes(), IndexSpan({3, m, uc}));
        EXPECT_EQ(d.s.sizes(), IndexSpan({3, k}));
        EXPECT_EQ(d.vh.sizes(), IndexSpan({3, vr, n}));
        const V uv = Values(d.u), sv = Values(d.s), vv = Values(d.vh), av = Values(a);
        for (index_t i = 0; i < 3; ++i) {
          V us(static_cast<std::size_t>(m * k));
          for (index_t x = 0; x < m; ++x)
            for (index_t y = 0; y < k; ++y)
              us[x * k + y] = uv[i * m * uc + x * uc + y] * sv[i * k + y];
          V vk(vv.begin() + i * vr * n, vv.begin() + i * vr * n + k * n);
          ExpectNear(MatMul(us, vk, m, k, n),
                     V(av.begin() + i * m * n, av.begin() + (i + 1) * m * n), Tol(t), "U S Vh");
          for (index_t y = 1; y < k; ++y) EXPECT_GE(sv[i * k + y - 1], sv[i * k + y]);
        }
      }
      const NDArray s = linalg::svd(a, true, false).s;
      ExpectNear(Values(s), Values(linalg::svd(a).s), Tol(t), "s without uv");
    }
  }
  const linalg::SVDResult e = linalg::svd(zeros({3, 0}));
  EXPECT_EQ(e.u.sizes(), IndexSpan({3, 3}));
  ExpectNear(Values(e.u), Values(eye(3)), 0, "empty svd u is the identity");
  EXPECT_EQ(e.s.sizes(), IndexSpan({0}));
  EXPECT_EQ(e.vh.sizes(), IndexSpan({0, 0}));
  // hermitian=true: same singular values as the general path.
  const NDArray sym = RandSquare({}, 4, kFloat64, 5);
  const NDArray h = add(sym, sym.transpose(0, 1)).eval();
  ExpectNear(Values(linalg::svd(h, true, false, true).s), Values(linalg::svd(h, true, false).s),
             1e-9, "hermitian s");
  const linalg::SVDResult hd = linalg::svd(h, true, true, true);
  const V hu = Values(hd.u), hs = Values(hd.s), hv = Values(hd.vh);
  V us(16);
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) us[x * 4 + y] = hu[x * 4 + y] * hs[y];
  ExpectNear(MatMul(us, hv, 4, 4, 4), Values(h), 1e-9, "hermitian U S Vh");
}

TEST(LinalgLapack, EighAndEig) {
  for (int t : kTypes) {
    for (const auto& batch : kBatches) {
      const index_t n = 5;
      const NDArray r = RandSquare(batch, n, kFloat64, 51);
      const NDArray a = astype(add(r, r.transpose(r.ndim() - 1, r.ndim() - 2)).eval(), t);
      NDArray w, v;
      std::tie(w, v) = linalg::eigh(a);
      const V wv = Values(w), vv = Values(v), av = Values(a);
      const index_t count = a.numel() / (n * n);
      for (index_t i = 0; i < count; ++i) {
        const V avv = MatMul(av, vv, n, n, n, i * n * n, i * n * n);
        V vw(static_cast<std::size_t>(n * n));
        for (index_t x = 0; x < n; ++x)
          for (index_t y = 0; y < n; ++y) vw[x * n + y] = vv[i * n * n + x * n + y] * wv[i * n + y];
        ExpectNear(avv, vw, Tol(t) * 10, "A v = v w");
        for (index_t y = 1; y < n; ++y) EXPECT_LE(wv[i * n + y - 1], wv[i * n + y]);
      }
      ExpectNear(Values(linalg::eigvalsh(a)), wv, Tol(t) * 10, "eigvalsh");
      ExpectNear(Values(linalg::eigvalsh(a, "U")), wv, Tol(t) * 10, "eigvalsh U");
    }
  }
  // Triangular matrices have real eigenvalues: their diagonal.
  NDArray tri = zeros({3, 3});
  const double vals[3][3] = {{2, 1, 4}, {0, -3, 5}, {0, 0, 7}};
  for (int x = 0; x < 3; ++x)
    for (int y = 0; y < 3; ++y) tri.set({x, y}, vals[x][y]);
  NDArray w, v;
  std::tie(w, v) = linalg::eig(tri);
  V wv = Values(w);
  std::sort(wv.begin(), wv.end());
  ExpectNear(wv, V{-3, 2, 7}, 1e-12, "eig of a triangular matrix");
  const V trv = Values(tri), vv = Values(v), ew = Values(w);
  const V av = MatMul(trv, vv, 3, 3, 3);
  for (int x = 0; x < 3; ++x)
    for (int y = 0; y < 3; ++y) EXPECT_NEAR(av[x * 3 + y], vv[x * 3 + y] * ew[y], 1e-12);
  EXPECT_EQ(linalg::eigvals(tri).sizes(), IndexSpan({3}));
  // A rotation has complex eigenvalues: not representable yet.
  NDArray rot = zeros({2, 2});
  rot.set({0, 1}, -1);
  rot.set({1, 0}, 1);
  EXPECT_THROW(linalg::eig(rot), NotImplementedError);
  EXPECT_THROW(linalg::eigh(eye(2), "X"), ValueError);
  EXPECT_EQ(std::get<1>(linalg::eigh(zeros({2, 0, 0}))).sizes(), IndexSpan({2, 0, 0}));
}

TEST(LinalgLapack, LstsqPinvRank) {
  for (int t : kTypes) {
    const index_t m = 7, n = 3;
    const NDArray a = Rand({m, n}, t, 61), b = Rand({m, 2}, t, 62);
    const linalg::LstsqResult r = linalg::lstsq(a, b);
    EXPECT_EQ(r.rank, n);
    EXPECT_EQ(r.x.sizes(), IndexSpan({n, 2}));
    EXPECT_EQ(r.residuals.sizes(), IndexSpan({2}));
    // Normal equations: A^T (A x - b) = 0, and residuals = |A x - b|^2 per column.
    const V av = Values(a), bv = Values(b), xv = Values(r.x), rv = Values(r.residuals);
    const V ax = MatMul(av, xv, m, n, 2);
    for (index_t c = 0; c < 2; ++c) {
      double res = 0;
      for (index_t i = 0; i < m; ++i)
        res += (ax[i * 2 + c] - bv[i * 2 + c]) * (ax[i * 2 + c] - bv[i * 2 + c]);
      EXPECT_NEAR(rv[c], res, Tol(t) * 10);
      for (index_t j = 0; j < n; ++j) {
        double g = 0;
        for (index_t i = 0; i < m; ++i) g += av[i * n + j] * (ax[i * 2 + c] - bv[i * 2 + c]);
        EXPECT_NEAR(g, 0, Tol(t) * 10);
      }
    }
    const linalg::LstsqResult rvec = linalg::lstsq(a, b.select(1, 0));
    EXPECT_EQ(rvec.x.sizes(), IndexSpan({n}));
    EXPECT_EQ(rvec.residuals.sizes(), IndexSpan({1}));
    // Underdetermined: no residuals.
    EXPECT_EQ(linalg::lstsq(a.transpose(0, 1), Rand({n}, t, 3)).residuals.sizes(), IndexSpan({0}));
    // pinv: A pinv(A) A = A (batched, rank deficient too).
    const NDArray ab = Rand({2, 4, 6}, t, 71);
    const NDArray p = linalg::pinv(ab);
    EXPECT_EQ(p.sizes(), IndexSpan({2, 6, 4}));
    const V abv = Values(ab), pv = Values(p);
    for (index_t i = 0; i < 2; ++i) {
      const V ap = MatMul(abv, pv, 4, 6, 4, i * 24, i * 24);
      ExpectNear(MatMul(ap, abv, 4, 4, 6, 0, i * 24),
                 V(abv.begin() + i * 24, abv.begin() + (i + 1) * 24), Tol(t) * 10, "A pinv(A) A");
    }
    EXPECT_EQ(linalg::pinv(zeros({3, 0}, t)).sizes(), IndexSpan({0, 3}));
  }
  // matrix_rank: an outer product has rank 1; batched; vectors.
  const NDArray u = Rand({5, 1}, kFloat64, 81), w = Rand({1, 4}, kFloat64, 82);
  EXPECT_EQ(item<std::int64_t>(linalg::matrix_rank(matmul(u, w))), 1);
  EXPECT_EQ(item<std::int64_t>(linalg::matrix_rank(eye(4))), 4);
  const NDArray rk = linalg::matrix_rank(stack({eye(3), zeros({3, 3})}));
  EXPECT_EQ(Values(rk), V({3, 0}));
  EXPECT_EQ(rk.type_flag(), kInt64);
  EXPECT_EQ(item<std::int64_t>(linalg::matrix_rank(zeros({3}))), 0);
  EXPECT_EQ(item<std::int64_t>(linalg::matrix_rank(ones({3}))), 1);
  EXPECT_THROW(linalg::lstsq(ones({3, 2}), ones({4})), LinAlgError);
  EXPECT_THROW(linalg::lstsq(ones({2, 3, 2}), ones({3})), LinAlgError);
}

TEST(LinalgLapack, Norm) {
  for (int t : kTypes) {
    const NDArray x = Rand({3, 4}, t, 91);
    const V xv = Values(x);
    double fro = 0, l1 = 0, linf = 0, mx = 0, mn = 1e300, c1 = 0, r1 = 0, l3 = 0;
    for (double v : xv) {
      fro += v * v;
      l1 += std::abs(v);
      l3 += std::pow(std::abs(v), 3);
      mx = std::max(mx, std::abs(v));
      mn = std::min(mn, std::abs(v));
    }
    for (int j = 0; j < 4; ++j) {
      double s = 0;
      for (int i = 0; i < 3; ++i) s += std::abs(xv[i * 4 + j]);
      c1 = std::max(c1, s);
    }
    for (int i = 0; i < 3; ++i) {
      double s = 0;
      for (int j = 0; j < 4; ++j) s += std::abs(xv[i * 4 + j]);
      r1 = std::max(r1, s);
    }
    (void)linf;
    const double tol = Tol(t);
    EXPECT_NEAR(item<double>(linalg::norm(x)), std::sqrt(fro), tol);
    EXPECT_NEAR(item<double>(linalg::norm(x, linalg::NormOrder::Named("fro"))), std::sqrt(fro),
                tol);
    EXPECT_NEAR(item<double>(linalg::norm(x, 1)), c1, tol);
    EXPECT_NEAR(item<double>(linalg::norm(x, INFINITY)), r1, tol);
    EXPECT_NEAR(item<double>(linalg::norm(x, 2)), item<double>(linalg::svd(x).s.select(0, 0)), tol);
    const NDArray flat = x.reshape({12});
    EXPECT_NEAR(item<double>(linalg::norm(flat, 1)), l1, tol);
    EXPECT_NEAR(item<double>(linalg::norm(flat, INFINITY)), mx, tol);
    EXPECT_NEAR(item<double>(linalg::norm(flat, -INFINITY)), mn, tol);
    EXPECT_NEAR(item<double>(linalg::norm(flat, 3)), std::cbrt(l3), tol);
    EXPECT_EQ(item<double>(linalg::norm(flat, 0)), 12.0);
    const NDArray rows = linalg::norm(x, 1, {1}, true);
    EXPECT_EQ(rows.sizes(), IndexSpan({3, 1}));
    EXPECT_EQ(linalg::norm(x, linalg::NormOrder(), {}, true).sizes(), IndexSpan({1, 1}));
    EXPECT_EQ(linalg::norm(x).type_flag(), t);
  }
  EXPECT_EQ(linalg::norm(ones({3}, kInt32)).type_flag(), kFloat64);
  EXPECT_THROW(linalg::norm(ones({3}), linalg::NormOrder::Named("fro"), {0}), ValueError);
  EXPECT_THROW(linalg::norm(ones({2, 2}), 3), ValueError);
  EXPECT_THROW(linalg::norm(ones({2, 2, 2}), 1), ValueError);
  EXPECT_THROW(linalg::norm(ones({2, 2}), 1, {0, 0}), ValueError);
  EXPECT_THROW(linalg::norm(ones({2, 2}), 1, {0, 5}), IndexError);
}

TEST(LinalgLapack, PowerAndMultiDot) {
  const NDArray a = Rand({2, 3, 3}, kFloat64, 101);
  const V av = Values(a);
  for (index_t p : {0, 1, 2, 3, 5, 6}) {
    const V got = Values(linalg::matrix_power(a, p));
    for (index_t i = 0; i < 2; ++i) {
      V acc(9, 0.0);
      for (int j = 0; j < 3; ++j) acc[j * 3 + j] = 1;
      for (index_t q = 0; q < p; ++q) acc = MatMul(acc, av, 3, 3, 3, 0, i * 9);
      ExpectNear(V(got.begin() + i * 9, got.begin() + (i + 1) * 9), acc, 1e-10, "matrix_power");
    }
  }
  const NDArray sq = RandSquare({}, 3, kFloat64, 5);
  ExpectNear(Values(linalg::matrix_power(sq, -2)), Values(matmul(linalg::inv(sq), linalg::inv(sq))),
             1e-10, "negative power");
  EXPECT_EQ(linalg::matrix_power(astype(eye(2), kInt32), 3).type_flag(), kInt32);
  EXPECT_THROW(linalg::matrix_power(ones({2, 3}), 2), LinAlgError);
  EXPECT_THROW(linalg::matrix_power(eye(2), std::numeric_limits<index_t>::min()), ValueError);
  const NDArray v1 = Rand({4}, kFloat64, 1), m1 = Rand({4, 5}, kFloat64, 2),
                m2 = Rand({5, 2}, kFloat64, 3), m3 = Rand({2, 6}, kFloat64, 4);
  const NDArray v2 = Rand({6}, kFloat64, 5);
  const V chain = MatMul(MatMul(MatMul(Values(v1), Values(m1), 1, 4, 5), Values(m2), 1, 5, 2),
                         Values(m3), 1, 2, 6);
  const NDArray r = linalg::multi_dot({v1, m1, m2, m3});
  EXPECT_EQ(r.sizes(), IndexSpan({6}));
  ExpectNear(Values(r), chain, 1e-12, "multi_dot");
  const NDArray s = linalg::multi_dot({v1, m1, m2, m3, v2});
  EXPECT_EQ(s.ndim(), 0);
  EXPECT_NEAR(item<double>(s), MatMul(chain, Values(v2), 1, 6, 1)[0], 1e-12);
  EXPECT_THROW(linalg::multi_dot({m1}), ValueError);
  EXPECT_THROW(linalg::multi_dot({m1, Rand({5, 2, 1}, kFloat64, 1), m3}), LinAlgError);
}

TEST(LinalgLapack, OuterInnerVdotKronCross) {
  const NDArray a = Rand({2, 3}, kFloat64, 111), b = Rand({4}, kFloat64, 112);
  const V av = Values(a), bv = Values(b);
  const NDArray o = outer(a, b);
  EXPECT_EQ(o.sizes(), IndexSpan({6, 4}));
  const V ov = Values(o);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_EQ(ov[i * 4 + j], av[i] * bv[j]);
  const NDArray c = Rand({5, 3}, kFloat64, 113);
  const NDArray in = inner(a, c);
  EXPECT_EQ(in.sizes(), IndexSpan({2, 5}));
  const V cv = Values(c), iv = Values(in);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 5; ++j) {
      double s = 0;
      for (int l = 0; l < 3; ++l) s += av[i * 3 + l] * cv[j * 3 + l];
      EXPECT_NEAR(iv[i * 5 + j], s, 1e-12);
    }
  EXPECT_THROW(inner(a, b), ShapeError);
  double vd = 0;
  for (int i = 0; i < 6; ++i) vd += av[i] * Values(c.narrow(0, 0, 2))[i];
  EXPECT_NEAR(item<double>(vdot(a, c.narrow(0, 0, 2))), vd, 1e-12);
  EXPECT_THROW(vdot(a, b), ShapeError);
  // kron of [2,3] and [2,2] (ints: exact).
  const NDArray ka = astype(arange(1, 7).reshape({2, 3}), kInt32),
                kb = astype(arange(1, 5).reshape({2, 2}), kInt32);
  const NDArray k = kron(ka, kb);
  EXPECT_EQ(k.sizes(), IndexSpan({4, 6}));
  EXPECT_EQ(k.type_flag(), kInt32);
  const V kav = Values(ka), kbv = Values(kb), kv = Values(k);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 6; ++j)
      EXPECT_EQ(kv[i * 6 + j], kav[(i / 2) * 3 + j / 2] * kbv[(i % 2) * 2 + j % 2]);
  EXPECT_EQ(kron(ka, astype(arange(1, 3), kInt32)).sizes(), IndexSpan({2, 6}));
  // cross: 3x3 batched, 2x3, 2x2, axis placement.
  const NDArray x = Rand({4, 3}, kFloat64, 121), y = Rand({4, 3}, kFloat64, 122);
  const V xv = Values(x), yv = Values(y), cr = Values(cross(x, y));
  for (int i = 0; i < 4; ++i) {
    const double* p = &xv[i * 3];
    const double* q = &yv[i * 3];
    EXPECT_NEAR(cr[i * 3 + 0], p[1] * q[2] - p[2] * q[1], 1e-12);
    EXPECT_NEAR(cr[i * 3 + 1], p[2] * q[0] - p[0] * q[2], 1e-12);
    EXPECT_NEAR(cr[i * 3 + 2], p[0] * q[1] - p[1] * q[0], 1e-12);
  }
  const NDArray ct = cross(x.transpose(0, 1), y, 0, -1, 0);
  EXPECT_EQ(ct.sizes(), IndexSpan({3, 4}));
  ExpectNear(Values(ct.transpose(0, 1)), cr, 1e-12, "cross axes");
  const NDArray x2 = x.narrow(1, 0, 2);
  const V c22 = Values(cross(x2, y.narrow(1, 0, 2)));
  EXPECT_EQ(c22.size(), 4u);
  for (int i = 0; i < 4; ++i)
    EXPECT_NEAR(c22[i], xv[i * 3] * yv[i * 3 + 1] - xv[i * 3 + 1] * yv[i * 3], 1e-12);
  const V c23 = Values(cross(x2, y));
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(c23[i * 3 + 0], xv[i * 3 + 1] * yv[i * 3 + 2], 1e-12);
    EXPECT_NEAR(c23[i * 3 + 1], -xv[i * 3] * yv[i * 3 + 2], 1e-12);
  }
  EXPECT_THROW(cross(ones({4}), ones({4})), ValueError);
  EXPECT_THROW(cross(ones({3}), ones({3}), 2), IndexError);
}

TEST(LinalgLapack, ErrorClass) {
  // NumPy 1.24's LinAlgError derives from Exception, not ValueError.
  EXPECT_TRUE((std::is_base_of_v<Error, LinAlgError>));
  EXPECT_FALSE((std::is_base_of_v<ValueError, LinAlgError>));
  try {
    linalg::inv(ones({2, 2}));
    ADD_FAILURE() << "no exception";
  } catch (const LinAlgError& e) {
    EXPECT_NE(std::string(e.what()).find("inv: Singular matrix"), std::string::npos) << e.what();
  }
}

TEST(LinalgEinsum, AgainstLoops) {
  for (int t : {kFloat32, kFloat64, kInt32}) {
    const NDArray a = astype(multiply(Rand({2, 3, 4}, kFloat64, 131), 5.0).eval(), t);
    const NDArray b = astype(multiply(Rand({2, 4, 5}, kFloat64, 132), 5.0).eval(), t);
    const NDArray c = astype(multiply(Rand({5, 3}, kFloat64, 133), 5.0).eval(), t);
    const V av = Values(a), bv = Values(b), cv = Values(c);
    const double tol = t == kFloat32 ? 1e-4 : 1e-12;
    // Batched contraction, as matmul.
    const NDArray r = einsum("bij,bjk->bik", {a, b});
    EXPECT_EQ(r.type_flag(), t);
    EXPECT_EQ(r.sizes(), IndexSpan({2, 3, 5}));
    const V rv = Values(r);
    for (int z = 0; z < 2; ++z) {
      ExpectNear(V(rv.begin() + z * 15, rv.begin() + (z + 1) * 15),
                 MatMul(av, bv, 3, 4, 5, z * 12, z * 20), tol, "bij,bjk->bik");
    }
    // Three operands, greedy order, implicit output ("bik" then "i" summed with c's k...).
    for (EinsumOptimize o : {EinsumOptimize::kNone, EinsumOptimize::kGreedy}) {
      const NDArray s = einsum("bij,bjk,ki->b", {a, b, c}, o);
      EXPECT_EQ(s.sizes(), IndexSpan({2}));
      const V sv = Values(s);
      for (int z = 0; z < 2; ++z) {
        const V ab = MatMul(av, bv, 3, 4, 5, z * 12, z * 20);
        double acc = 0;
        for (int i = 0; i < 3; ++i)
          for (int k = 0; k < 5; ++k) acc += ab[i * 5 + k] * cv[k * 3 + i];
        EXPECT_NEAR(sv[z], acc, tol * (1 + std::abs(acc)));
      }
    }
    // Diagonal (repeated label), trace, ellipsis, implicit transpose-free output.
    const NDArray sq = astype(Rand({4, 4}, kFloat64, 134), kFloat64);
    const V qv = Values(sq);
    const V diag = Values(einsum("ii->i", {sq}));
    double tr = 0;
    for (int i = 0; i < 4; ++i) {
      EXPECT_EQ(diag[i], qv[i * 5]);
      tr += qv[i * 5];
    }
    EXPECT_NEAR(item<double>(einsum("ii", {sq})), tr, 1e-12);
    EXPECT_EQ(einsum("...j,jk", {a, b.select(0, 0)}).sizes(), IndexSpan({2, 3, 5}));
    EXPECT_EQ(einsum("ji", {c}).sizes(), IndexSpan({3, 5}));  // implicit output is sorted: ij
  }
  EXPECT_THROW(einsum("ij,jk->ik", {ones({2, 3})}), ValueError);
  EXPECT_THROW(einsum("ij->ik", {ones({2, 3})}), ValueError);
  EXPECT_THROW(einsum("ij,jk", {ones({2, 3}), ones({4, 2})}), ShapeError);
  EXPECT_THROW(einsum("ii", {ones({2, 3})}), ShapeError);
  EXPECT_THROW(einsum("i1", {ones({2, 3})}), ValueError);
  EXPECT_THROW(einsum("ijk", {ones({2, 3})}), ValueError);
}

}  // namespace
}  // namespace shade
