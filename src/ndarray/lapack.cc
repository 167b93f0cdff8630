// numpy.linalg over LAPACKE (ndarray/lapack.h). Every routine copies its matrices once into
// fresh column-major buffers (LAPACK overwrites its input, and column-major is LAPACK's own
// layout, so LAPACKE never transposes), runs one LAPACK call per matrix and returns views of the
// buffers transposed back to row-major shape.
#include "shade/ndarray/lapack.h"

#include <cblas.h>
#include <lapacke.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <mutex>
#include <numeric>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "shade/backend/cpu/parallel.h"
#include "shade/ndarray/complex.h"
#include "shade/ndarray/creation.h"
#include "shade/ndarray/device.h"
#include "shade/ndarray/linalg.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/promotion.h"
#include "shade/ndarray/reduce.h"
#include "shade/ndarray/shape_ops.h"
#include "shade/shape/broadcast.h"

namespace shade {
namespace linalg {
namespace {

// ----------------------------------------------------------------------------- typed LAPACK
// Overloads by element type, so the routines below are written once as templates.
lapack_int Gesv(lapack_int n, lapack_int k, float* a, lapack_int* ipiv, float* b) {
  return LAPACKE_sgesv(LAPACK_COL_MAJOR, n, k, a, std::max(1, n), ipiv, b, std::max(1, n));
}
lapack_int Gesv(lapack_int n, lapack_int k, double* a, lapack_int* ipiv, double* b) {
  return LAPACKE_dgesv(LAPACK_COL_MAJOR, n, k, a, std::max(1, n), ipiv, b, std::max(1, n));
}
lapack_int Getrf(lapack_int n, float* a, lapack_int* ipiv) {
  return LAPACKE_sgetrf(LAPACK_COL_MAJOR, n, n, a, std::max(1, n), ipiv);
}
lapack_int Getrf(lapack_int n, double* a, lapack_int* ipiv) {
  return LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, a, std::max(1, n), ipiv);
}
lapack_int Potrf(lapack_int n, float* a) {
  return LAPACKE_spotrf(LAPACK_COL_MAJOR, 'L', n, a, std::max(1, n));
}
lapack_int Potrf(lapack_int n, double* a) {
  return LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, a, std::max(1, n));
}
lapack_int Geqrf(lapack_int m, lapack_int n, float* a, float* tau) {
  return LAPACKE_sgeqrf(LAPACK_COL_MAJOR, m, n, a, std::max(1, m), tau);
}
lapack_int Geqrf(lapack_int m, lapack_int n, double* a, double* tau) {
  return LAPACKE_dgeqrf(LAPACK_COL_MAJOR, m, n, a, std::max(1, m), tau);
}
lapack_int Orgqr(lapack_int m, lapack_int n, lapack_int k, float* a, const float* tau) {
  return LAPACKE_sorgqr(LAPACK_COL_MAJOR, m, n, k, a, std::max(1, m), tau);
}
lapack_int Orgqr(lapack_int m, lapack_int n, lapack_int k, double* a, const double* tau) {
  return LAPACKE_dorgqr(LAPACK_COL_MAJOR, m, n, k, a, std::max(1, m), tau);
}
lapack_int Gesdd(char jobz, lapack_int m, lapack_int n, float* a, float* s, float* u,
                 lapack_int ldu, float* vt, lapack_int ldvt) {
  return LAPACKE_sgesdd(LAPACK_COL_MAJOR, jobz, m, n, a, std::max(1, m), s, u, ldu, vt, ldvt);
}
lapack_int Gesdd(char jobz, lapack_int m, lapack_int n, double* a, double* s, double* u,
                 lapack_int ldu, double* vt, lapack_int ldvt) {
  return LAPACKE_dgesdd(LAPACK_COL_MAJOR, jobz, m, n, a, std::max(1, m), s, u, ldu, vt, ldvt);
}
lapack_int Syevd(char jobz, char uplo, lapack_int n, float* a, float* w) {
  return LAPACKE_ssyevd(LAPACK_COL_MAJOR, jobz, uplo, n, a, std::max(1, n), w);
}
lapack_int Syevd(char jobz, char uplo, lapack_int n, double* a, double* w) {
  return LAPACKE_dsyevd(LAPACK_COL_MAJOR, jobz, uplo, n, a, std::max(1, n), w);
}
lapack_int Geev(char jobvr, lapack_int n, float* a, float* wr, float* wi, float* vr) {
  return LAPACKE_sgeev(LAPACK_COL_MAJOR, 'N', jobvr, n, a, std::max(1, n), wr, wi, nullptr, 1, vr,
                       std::max(1, n));
}
lapack_int Geev(char jobvr, lapack_int n, double* a, double* wr, double* wi, double* vr) {
  return LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', jobvr, n, a, std::max(1, n), wr, wi, nullptr, 1, vr,
                       std::max(1, n));
}
lapack_int Gelsd(lapack_int m, lapack_int n, lapack_int k, float* a, float* b, lapack_int ldb,
                 float* s, float rcond, lapack_int* rank) {
  return LAPACKE_sgelsd(LAPACK_COL_MAJOR, m, n, k, a, std::max(1, m), b, ldb, s, rcond, rank);
}
lapack_int Gelsd(lapack_int m, lapack_int n, lapack_int k, double* a, double* b, lapack_int ldb,
                 double* s, double rcond, lapack_int* rank) {
  return LAPACKE_dgelsd(LAPACK_COL_MAJOR, m, n, k, a, std::max(1, m), b, ldb, s, rcond, rank);
}

// LAPACKE's high-level calls scan every input for NaN and refuse it by default; NumPy passes
// NaNs through to LAPACK (whose results are then NaN), so the scan is switched off once.
void NoNanCheck() {
  static std::once_flag once;
  std::call_once(once, []() { LAPACKE_set_nancheck(0); });
}

// OpenBLAS's thread count for the LAPACK calls. shade keeps the BLAS single-threaded
// (backend/blas.cc, SingleThreadedBlas), but only once a product has run: before that OpenBLAS
// starts with every core, and a batch of LAPACK calls from shade's threads would each fork
// OpenBLAS's pool (and queue on its lock). So a batch sets 1 first; one large matrix outside a
// ParallelFor region gets shade's thread count instead, and 1 back afterwards. The lock keeps
// two calls from changing the setting under each other.
class BlasThreadsFor {
 public:
  BlasThreadsFor(bool one_matrix, double flops) {
#ifdef SHADE_BLAS_OPENBLAS
    const int threads = GetNumThreads();
    if (one_matrix && flops >= 4e6 && threads > 1 && !InParallelRegion()) {
      lock_ = std::unique_lock<std::mutex>(Mutex());
      openblas_set_num_threads(threads);
      active_ = true;
    } else if (openblas_get_num_threads() != 1) {
      const std::lock_guard<std::mutex> lock(Mutex());
      if (openblas_get_num_threads() != 1) openblas_set_num_threads(1);
    }
#else
    (void)one_matrix;
    (void)flops;
#endif
  }
  ~BlasThreadsFor() {
#ifdef SHADE_BLAS_OPENBLAS
    if (active_) openblas_set_num_threads(1);
#endif
  }
  BlasThreadsFor(const BlasThreadsFor&) = delete;
  BlasThreadsFor& operator=(const BlasThreadsFor&) = delete;

 private:
  static std::mutex& Mutex() {
    static std::mutex m;
    return m;
  }
  std::unique_lock<std::mutex> lock_;
  bool active_ = false;
};

// Runs item(i) for i in [0, batch): one matrix on the calling thread (with OpenBLAS's threads
// when large), several split over shade's threads (one LAPACK call per matrix, BLAS
// single-threaded). item returns LAPACK's info; the first nonzero one is returned (exceptions
// must not leave a ParallelFor worker).
template <typename F>
lapack_int RunBatch(index_t batch, double flops_each, F item) {
  if (batch == 0) return 0;
  NoNanCheck();
  BlasThreadsFor threads(batch == 1, flops_each);
  if (batch == 1) return item(0);
  std::vector<lapack_int> info(static_cast<std::size_t>(batch), 0);
  const index_t grain = std::max<index_t>(1, static_cast<index_t>(1e5 / (flops_each + 1)));
  ParallelFor(0, batch, grain, [&](index_t b0, index_t b1) {
    for (index_t i = b0; i < b1; ++i) info[i] = item(i);
  });
  for (lapack_int v : info) {
    if (v != 0) return v;
  }
  return 0;
}

// The compute dtype of one operand: float32 stays, float64/integers/bool compute in float64,
// float16/bfloat16 are refused as NumPy refuses float16.
int LinalgType(const NDArray& a, const char* op) {
  SHADE_CHECK(a.defined()) << op << ": undefined NDArray";
  CheckDevices(op, {&a});
  SHADE_CHECK_TYPE_GE(a.type_flag(), 0) << op << ": non-numeric element type " << a.dtype().name();
  SHADE_CHECK(a.data_ptr() != nullptr || a.numel() == 0)
      << op << ": operand (" << a << ") has no memory allocated";
  const int f = a.type_flag();
  SHADE_CHECK_TYPE(f != kFloat16 && f != kBfloat16)
      << op << ": array type " << a.dtype().name() << " is unsupported in linalg";
  // No complex LAPACK calls yet (docs/design/complex.md): refused rather than cast to real.
  SHADE_CHECK_TYPE(!IsComplexTypeFlag(f))
      << op << ": array type " << a.dtype().name() << " is not supported in linalg yet";
  return f == kFloat32 ? kFloat32 : kFloat64;
}

lapack_int ToLapackInt(index_t v, const char* op) {
  SHADE_CHECK_LE(v, static_cast<index_t>(INT_MAX))
      << op << ": matrix dimension exceeds LAPACK's 32-bit index range";
  return static_cast<lapack_int>(v);
}

void CheckAtLeast2D(const NDArray& a, const char* op) {
  SHADE_CHECK_LINALG(a.ndim() >= 2) << op << ": " << a.ndim()
                                    << "-dimensional array given. Array must be at least "
                                       "two-dimensional";
}

void CheckSquare(const NDArray& a, const char* op) {
  CheckAtLeast2D(a, op);
  SHADE_CHECK_LINALG(a.size(-1) == a.size(-2))
      << op << ": Last 2 dimensions of the array must be square (shape " << a.sizes() << ")";
}

std::vector<index_t> BatchShape(const NDArray& a, int core) {
  std::vector<index_t> s(a.sizes().begin(), a.sizes().end() - core);
  return s;
}

index_t Count(const std::vector<index_t>& s) {
  index_t n = 1;
  for (index_t v : s) n *= v;
  return n;
}

std::vector<index_t> Concat(std::vector<index_t> a, std::initializer_list<index_t> b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

template <typename F>
void FloatDispatch(int t, F f) {
  if (t == kFloat32) {
    f(float());
  } else {
    f(double());
  }
}

// A fresh contiguous [batch..., n, m] buffer of dtype t holding each [m, n] matrix of `a`
// (already of shape batch + [m, n], any strides, broadcast batches included) in column-major
// order. The transposing copy runs per matrix in 32x32 tiles, split over the threads by matrix:
// the generic strided copy_ took 12 ms for 4000 16x16 matrices, as long as their LAPACK calls.
NDArray ColMajorCopy(const NDArray& a_in, int t) {
  const NDArray a = a_in.type_flag() == t ? a_in : astype(a_in, t);
  const int nd = a.ndim();
  std::vector<index_t> shape = a.sizes().vec();
  std::swap(shape[nd - 1], shape[nd - 2]);
  NDArray out = NDArray::Empty(shape, t);
  if (out.numel() == 0) return out;
  const index_t m = a.size(nd - 2), n = a.size(nd - 1);
  const index_t sr = a.stride(nd - 2), sc = a.stride(nd - 1);
  std::vector<index_t> off(1, 0);
  for (int d = 0; d < nd - 2; ++d) {  // element offsets of the matrices, row-major over batch
    std::vector<index_t> next;
    next.reserve(off.size() * static_cast<std::size_t>(a.size(d)));
    for (index_t o : off) {
      for (index_t i = 0; i < a.size(d); ++i) next.push_back(o + i * a.stride(d));
    }
    off.swap(next);
  }
  FloatDispatch(t, [&](auto zero) {
    using T = decltype(zero);
    const T* src = static_cast<const T*>(a.data_ptr());
    T* dst = static_cast<T*>(out.data_ptr());
    const index_t count = static_cast<index_t>(off.size());
    ParallelFor(0, count, std::max<index_t>(1, (index_t(1) << 15) / (m * n)),
                [&](index_t b0, index_t b1) {
                  constexpr index_t kTile = 32;
                  for (index_t b = b0; b < b1; ++b) {
                    const T* p = src + off[b];
                    T* q = dst + b * m * n;
                    for (index_t i0 = 0; i0 < m; i0 += kTile) {
                      for (index_t j0 = 0; j0 < n; j0 += kTile) {
                        const index_t i1 = std::min(m, i0 + kTile), j1 = std::min(n, j0 + kTile);
                        for (index_t i = i0; i < i1; ++i) {
                          for (index_t j = j0; j < j1; ++j) q[j * m + i] = p[i * sr + j * sc];
                        }
                      }
                    }
                  }
                });
  });
  return out;
}

// The [.., m, n] view of a column-major buffer [.., n, m].
NDArray RowView(const NDArray& buf) {
  return buf.transpose(buf.ndim() - 1, buf.ndim() - 2);
}

// A contiguous batch of identity matrices (any layout: they are symmetric).
NDArray Identities(const std::vector<index_t>& batch, index_t n, int t) {
  NDArray out = zeros(Concat(batch, {n, n}), t);
  const index_t count = Count(batch);
  DispatchDType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = static_cast<T*>(out.data_ptr());
    for (index_t b = 0; b < count; ++b) {
      for (index_t i = 0; i < n; ++i) p[b * n * n + i * n + i] = T(1);
    }
  });
  return out;
}

double Cube(index_t n) {
  return static_cast<double>(n) * n * n;
}

// Solves each matrix of the column-major buffers in place: a [batch, n, n], b [batch, k, n].
void SolveBuffers(const NDArray& a, const NDArray& b, index_t batch, index_t n, index_t k,
                  const char* op) {
  const lapack_int ln = ToLapackInt(n, op), lk = ToLapackInt(k, op);
  lapack_int info = 0;
  FloatDispatch(a.type_flag(), [&](auto zero) {
    using T = decltype(zero);
    T* pa = static_cast<T*>(a.data_ptr());
    T* pb = static_cast<T*>(b.data_ptr());
    info = RunBatch(batch, Cube(n) + 2.0 * n * n * k, [&](index_t i) {
      std::vector<lapack_int> ipiv(static_cast<std::size_t>(std::max(ln, 1)));
      return Gesv(ln, lk, pa + i * n * n, ipiv.data(), pb + i * n * k);
    });
  });
  SHADE_CHECK_LINALG(info <= 0) << op << ": Singular matrix";
  SHADE_CHECK(info == 0) << op << ": LAPACK gesv rejected argument " << -info;
}

}  // namespace

// ------------------------------------------------------------------------------- solvers
NDArray solve(const NDArray& a, const NDArray& b) {
  const int t = PromoteTypes(LinalgType(a, "solve"), LinalgType(b, "solve"));
  CheckSquare(a, "solve");
  const bool vec = b.ndim() == a.ndim() - 1;
  const NDArray bm = vec ? b.unsqueeze(b.ndim()) : b;
  SHADE_CHECK_SHAPE_GE(bm.ndim(), 2)
      << "solve: operand 1 of shape " << b.sizes() << " does not have enough dimensions";
  const index_t n = a.size(-1), k = bm.size(-1);
  SHADE_CHECK_SHAPE_EQ(bm.size(-2), n) << "solve: operand 1 of shape " << b.sizes()
                                       << " does not match the " << n << "x" << n << " matrices";
  std::vector<index_t> batch(static_cast<std::size_t>(std::max(a.ndim(), bm.ndim()) - 2), 1);
  SHADE_CHECK_SHAPE(BroadcastShapes(a.sizes().data(), a.ndim() - 2, bm.sizes().data(),
                                    bm.ndim() - 2, batch.data()))
      << "solve: batch dimensions of shapes " << a.sizes() << " and " << b.sizes()
      << " do not broadcast";
  const NDArray ac = ColMajorCopy(a.expand(Concat(batch, {n, n})), t);
  const NDArray bc = ColMajorCopy(bm.expand(Concat(batch, {n, k})), t);
  SolveBuffers(ac, bc, Count(batch), n, k, "solve");
  const NDArray x = RowView(bc);
  return vec ? x.select(x.ndim() - 1, 0) : x;
}

NDArray inv(const NDArray& a) {
  const int t = LinalgType(a, "inv");
  CheckSquare(a, "inv");
  const index_t n = a.size(-1);
  const std::vector<index_t> batch = BatchShape(a, 2);
  const NDArray ac = ColMajorCopy(a, t);
  const NDArray bc = Identities(batch, n, t);
  SolveBuffers(ac, bc, Count(batch), n, n, "inv");
  return RowView(bc);
}

namespace {
// sign and log|det| of each matrix from its LU factors (NumPy computes det from these too).
void SlogdetBuffers(const NDArray& a, const char* op, NDArray* sign, NDArray* logdet) {
  const int t = LinalgType(a, op);
  CheckSquare(a, op);
  const index_t n = a.size(-1);
  const std::vector<index_t> batch = BatchShape(a, 2);
  const index_t count = Count(batch);
  const NDArray ac = ColMajorCopy(a, t);
  *sign = NDArray::Empty(batch, t);
  *logdet = NDArray::Empty(batch, t);
  const lapack_int ln = ToLapackInt(n, op);
  FloatDispatch(t, [&](auto zero) {
    using T = decltype(zero);
    T* pa = static_cast<T*>(ac.data_ptr());
    T* ps = static_cast<T*>(sign->data_ptr());
    T* pl = static_cast<T*>(logdet->data_ptr());
    const lapack_int info = RunBatch(count, Cube(n) * 2 / 3, [&](index_t i) {
      std::vector<lapack_int> ipiv(static_cast<std::size_t>(std::max(ln, 1)));
      T* m = pa + i * n * n;
      const lapack_int r = Getrf(ln, m, ipiv.data());
      if (r > 0) {  // exactly singular: NumPy's (0, -inf)
        ps[i] = T(0);
        pl[i] = -std::numeric_limits<T>::infinity();
        return lapack_int(0);
      }
      if (r < 0) return r;
      T s = T(1), l = T(0);
      for (index_t j = 0; j < n; ++j) {
        const T d = m[j * n + j];
        if (ipiv[j] != j + 1) s = -s;
        if (d < 0) s = -s;
        l += std::log(std::abs(d));
      }
      ps[i] = s;
      pl[i] = l;
      return lapack_int(0);
    });
    SHADE_CHECK(info == 0) << op << ": LAPACK getrf rejected argument " << -info;
  });
}
}  // namespace

NDArray det(const NDArray& a) {
  NDArray sign, logdet;
  SlogdetBuffers(a, "det", &sign, &logdet);
  FloatDispatch(sign.type_flag(), [&](auto zero) {
    using T = decltype(zero);
    T* ps = static_cast<T*>(sign.data_ptr());
    const T* pl = static_cast<const T*>(logdet.data_ptr());
    for (index_t i = 0; i < sign.numel(); ++i) ps[i] = ps[i] * std::exp(pl[i]);
  });
  return sign;
}

std::tuple<NDArray, NDArray> slogdet(const NDArray& a) {
  NDArray sign, logdet;
  SlogdetBuffers(a, "slogdet", &sign, &logdet);
  return {sign, logdet};
}

NDArray cholesky(const NDArray& a) {
  const int t = LinalgType(a, "cholesky");
  CheckSquare(a, "cholesky");
  const index_t n = a.size(-1);
  const NDArray ac = ColMajorCopy(a, t);
  const lapack_int ln = ToLapackInt(n, "cholesky");
  lapack_int info = 0;
  FloatDispatch(t, [&](auto zero) {
    using T = decltype(zero);
    T* pa = static_cast<T*>(ac.data_ptr());
    info = RunBatch(Count(BatchShape(a, 2)), Cube(n) / 3, [&](index_t i) {
      T* m = pa + i * n * n;
      const lapack_int r = Potrf(ln, m);
      for (index_t j = 0; j < n; ++j) {  // column j: rows above the diagonal are zero
        for (index_t r2 = 0; r2 < j; ++r2) m[j * n + r2] = T(0);
      }
      return r;
    });
  });
  SHADE_CHECK_LINALG(info <= 0) << "cholesky: Matrix is not positive definite";
  SHADE_CHECK(info == 0) << "cholesky: LAPACK potrf rejected argument " << -info;
  return RowView(ac);
}

// ----------------------------------------------------------------------------------- qr
std::tuple<NDArray, NDArray> qr(const NDArray& a, const std::string& mode) {
  SHADE_CHECK(mode == "reduced" || mode == "complete" || mode == "r" || mode == "raw")
      << "qr: Unrecognized mode '" << mode << "'";
  const int t = LinalgType(a, "qr");
  CheckAtLeast2D(a, "qr");
  const index_t m = a.size(-2), n = a.size(-1), k = std::min(m, n);
  const std::vector<index_t> batch = BatchShape(a, 2);
  const index_t count = Count(batch);
  const NDArray h = ColMajorCopy(a, t);  // [.., n, m]
  const NDArray tau = zeros(Concat(batch, {k}), t);
  const lapack_int lm = ToLapackInt(m, "qr"), ln = ToLapackInt(n, "qr");
  const double flops = 2.0 * m * n * k;
  lapack_int info = 0;
  FloatDispatch(t, [&](auto zero) {
    using T = decltype(zero);
    T* ph = static_cast<T*>(h.data_ptr());
    T* pt = static_cast<T*>(tau.data_ptr());
    info = RunBatch(count, flops, [&](index_t i) {
      return k == 0 ? lapack_int(0) : Geqrf(lm, ln, ph + i * m * n, pt + i * k);
    });
  });
  SHADE_CHECK(info == 0) << "qr: LAPACK geqrf failed (info " << info << ")";
  if (mode == "raw") return {h, tau};
  const index_t rrows = mode == "complete" ? m : k;
  NDArray r = zeros(Concat(batch, {rrows, n}), t);
  NDArray q;
  FloatDispatch(t, [&](auto zero) {
    using T = decltype(zero);
    const T* ph = static_cast<const T*>(h.data_ptr());
    T* pr = static_cast<T*>(r.data_ptr());
    for (index_t b = 0; b < count; ++b) {
      for (index_t i = 0; i < k; ++i) {
        for (index_t j = i; j < n; ++j) pr[(b * rrows + i) * n + j] = ph[b * m * n + j * m + i];
      }
    }
    if (mode == "r") return;
    const index_t qcols = mode == "complete" ? m : k;
    q = zeros(Concat(batch, {qcols, m}), t);  // column-major m x qcols
    T* pq = static_cast<T*>(q.data_ptr());
    const T* pt = static_cast<const T*>(tau.data_ptr());
    for (index_t b = 0; b < count; ++b) {
      std::copy(ph + b * m * n, ph + b * m * n + k * m, pq + b * qcols * m);
    }
    const lapack_int lq = ToLapackInt(qcols, "qr"), lk = ToLapackInt(k, "qr");
    const lapack_int r2 = RunBatch(count, 2.0 * m * qcols * k, [&](index_t i) {
      if (qcols == 0 || m == 0) return lapack_int(0);
      return Orgqr(lm, lq, lk, pq + i * qcols * m, pt + i * k);
    });
    SHADE_CHECK(r2 == 0) << "qr: LAPACK orgqr failed (info " << r2 << ")";
  });
  if (mode == "r") return {r, NDArray()};
  return {RowView(q), r};
}

// ---------------------------------------------------------------------------------- svd
namespace {
// Reorders eigenpairs by |w| descending into an svd: s = |w|, u = v, vh = (v * sign(w))^T.
SVDResult HermitianSvd(const NDArray& a, bool compute_uv) {
  SVDResult res;
  NDArray wv, v;
  if (compute_uv) {
    std::tie(wv, v) = eigh(a);
  } else {
    wv = eigvalsh(a);
  }
  const index_t n = a.size(-1);
  const index_t count = n == 0 ? 0 : wv.numel() / n;
  const int t = wv.type_flag();
  res.s = NDArray::Empty(wv.sizes(), t);
  if (compute_uv) {
    res.u = NDArray::Empty(v.sizes(), t);
    res.vh = NDArray::Empty(v.sizes(), t);
  }
  const NDArray vc = compute_uv ? v.contiguous() : NDArray();
  FloatDispatch(t, [&](auto zero) {
    using T = decltype(zero);
    const T* pw = static_cast<const T*>(wv.contiguous().data_ptr());
    T* ps = static_cast<T*>(res.s.data_ptr());
    std::vector<index_t> order(static_cast<std::size_t>(n));
    for (index_t b = 0; b < count; ++b) {
      const T* wb = pw + b * n;
      std::iota(order.begin(), order.end(), index_t(0));
      std::stable_sort(order.begin(), order.end(),
                       [&](index_t x, index_t y) { return std::abs(wb[x]) > std::abs(wb[y]); });
      for (index_t j = 0; j < n; ++j) ps[b * n + j] = std::abs(wb[order[j]]);
      if (!compute_uv) continue;
      const T* pv = static_cast<const T*>(vc.data_ptr()) + b * n * n;
      T* pu = static_cast<T*>(res.u.data_ptr()) + b * n * n;
      T* ph = static_cast<T*>(res.vh.data_ptr()) + b * n * n;
      for (index_t j = 0; j < n; ++j) {
        const index_t c = order[j];
        const T sg = wb[c] < 0 ? T(-1) : T(1);
        for (index_t i = 0; i < n; ++i) {
          pu[i * n + j] = pv[i * n + c];
          ph[j * n + i] = pv[i * n + c] * sg;
        }
      }
    }
  });
  return res;
}
}  // namespace

SVDResult svd(const NDArray& a, bool full_matrices, bool compute_uv, bool hermitian) {
  const int t = LinalgType(a, "svd");
  CheckAtLeast2D(a, "svd");
  if (hermitian) {
    CheckSquare(a, "svd");
    return HermitianSvd(a, compute_uv);
  }
  const index_t m = a.size(-2), n = a.size(-1), k = std::min(m, n);
  const std::vector<index_t> batch = BatchShape(a, 2);
  const index_t count = Count(batch);
  const index_t ucols = compute_uv ? (full_matrices ? m : k) : 0;
  const index_t vrows = compute_uv ? (full_matrices ? n : k) : 0;
  const char jobz = !compute_uv ? 'N' : (full_matrices ? 'A' : 'S');
  SVDResult res;
  res.s = NDArray::Empty(Concat(batch, {k}), t);
  if (compute_uv) {
    if (k == 0) {  // LAPACK has nothing to do; NumPy returns identities for the full forms
      res.u = RowView(full_matrices ? Identities(batch, m, t) : zeros(Concat(batch, {0, m}), t));
      res.vh = RowView(full_matrices ? Identities(batch, n, t) : zeros(Concat(batch, {n, 0}), t));
      return res;
    }
    res.u = NDArray::Empty(Concat(batch, {ucols, m}), t);   // column-major m x ucols
    res.vh = NDArray::Empty(Concat(batch, {n, vrows}), t);  // column-major vrows x n
  }
  if (k == 0) return res;
  const NDArray ac = ColMajorCopy(a, t);
  const lapack_int lm = ToLapackInt(m, "svd"), ln = ToLapackInt(n, "svd");
  lapack_int info = 0;
  FloatDispatch(t, [&](auto zero) {
    using T = decltype(zero);
    T* pa = static_cast<T*>(ac.data_ptr());
    T* ps = static_cast<T*>(res.s.data_ptr());
    T* pu = compute_uv ? static_cast<T*>(res.u.data_ptr()) : nullptr;
    T* pv = compute_uv ? static_cast<T*>(res.vh.data_ptr()) : nullptr;
    std::vector<T> dummy(compute_uv ? 0 : 2);
    info = RunBatch(count, 4.0 * m * n * k + 8.0 * Cube(k), [&](index_t i) {
      return Gesdd(jobz, lm, ln, pa + i * m * n, ps + i * k,
                   compute_uv ? pu + i * m * ucols : dummy.data(), std::max<lapack_int>(1, lm),
                   compute_uv ? pv + i * n * vrows : dummy.data() + 1,
                   std::max<lapack_int>(1, static_cast<lapack_int>(vrows)));
    });
  });
  // gesdd also refuses NaN input (info -4); NumPy reports every failure as non-convergence.
  SHADE_CHECK_LINALG(info == 0) << "svd: SVD did not converge (LAPACK gesdd info " << info << ")";
  if (compute_uv) {
    res.u = RowView(res.u);
    res.vh = RowView(res.vh);
  }
  return res;
}

// ------------------------------------------------------------------------------ eigen
namespace {
char Uplo(const std::string& uplo) {
  SHADE_CHECK(uplo == "L" || uplo == "U")
      << "eigh: UPLO argument must be 'L' or 'U' (got '" << uplo << "')";
  // The buffer holds a column-major, so a's own lower triangle is LAPACK's lower triangle.
  return uplo[0];
}

std::tuple<NDArray, NDArray> Syevd(const NDArray& a, const std::string& uplo, bool vectors,
                                   const char* op) {
  const char ul = Uplo(uplo);
  const int t = LinalgType(a, op);
  CheckSquare(a, op);
  const index_t n = a.size(-1);
  const std::vector<index_t> batch = BatchShape(a, 2);
  const NDArray ac = ColMajorCopy(a, t);
  NDArray w = NDArray::Empty(Concat(batch, {n}), t);
  const lapack_int ln = ToLapackInt(n, op);
  lapack_int info = 0;
  FloatDispatch(t, [&](auto zero) {
    using T = decltype(zero);
    T* pa = static_cast<T*>(ac.data_ptr());
    T* pw = static_cast<T*>(w.data_ptr());
    info = RunBatch(Count(batch), (vectors ? 9.0 : 4.0 / 3) * Cube(n), [&](index_t i) {
      return Syevd(vectors ? 'V' : 'N', ul, ln, pa + i * n * n, pw + i * n);
    });
  });
  SHADE_CHECK_LINALG(info <= 0) << op << ": Eigenvalues did not converge";
  SHADE_CHECK(info == 0) << op << ": LAPACK syevd rejected argument " << -info;
  return {w, vectors ? RowView(ac) : NDArray()};
}

std::tuple<NDArray, NDArray> Geev(const NDArray& a, bool vectors, const char* op) {
  const int t = LinalgType(a, op);
  CheckSquare(a, op);
  const index_t n = a.size(-1);
  const std::vector<index_t> batch = BatchShape(a, 2);
  const index_t count = Count(batch);
  const NDArray ac = ColMajorCopy(a, t);
  // geev does not check for NaN/inf (it may loop or return garbage); NumPy refuses them first.
  FloatDispatch(t, [&](auto zero) {
    using T = decltype(zero);
    const T* p = static_cast<const T*>(ac.data_ptr());
    for (index_t i = 0; i < ac.numel(); ++i) {
      SHADE_CHECK_LINALG(std::isfinite(p[i])) << op << ": Array must not contain infs or NaNs";
    }
  });
  NDArray wr = NDArray::Empty(Concat(batch, {n}), t);
  NDArray wi = NDArray::Empty(Concat(batch, {n}), t);
  NDArray vr = NDArray::Empty(Concat(batch, {n, n}), t);
  const lapack_int ln = ToLapackInt(n, op);
  lapack_int info = 0;
  bool complex = false;
  FloatDispatch(t, [&](auto zero) {
    using T = decltype(zero);
    T* pa = static_cast<T*>(ac.data_ptr());
    T* pr = static_cast<T*>(wr.data_ptr());
    T* pi = static_cast<T*>(wi.data_ptr());
    T* pv = static_cast<T*>(vr.data_ptr());
    info = RunBatch(count, 10.0 * Cube(n), [&](index_t i) {
      return Geev(vectors ? 'V' : 'N', ln, pa + i * n * n, pr + i * n, pi + i * n,
                  vectors ? pv + i * n * n : pv);
    });
    for (index_t i = 0; i < wi.numel(); ++i) complex = complex || pi[i] != T(0);
  });
  SHADE_CHECK_LINALG(info <= 0) << op << ": Eigenvalues did not converge";
  SHADE_CHECK(info == 0) << op << ": LAPACK geev rejected argument " << -info;
  SHADE_CHECK_NOT_IMPLEMENTED(!complex)
      << op
      << ": the matrix has complex eigenvalues, which need the complex128 dtype that "
         "shade does not have yet (real spectra are supported)";
  return {wr, vectors ? RowView(vr) : NDArray()};
}
}  // namespace

std::tuple<NDArray, NDArray> eigh(const NDArray& a, const std::string& uplo) {
  return Syevd(a, uplo, true, "eigh");
}

NDArray eigvalsh(const NDArray& a, const std::string& uplo) {
  return std::get<0>(Syevd(a, uplo, false, "eigvalsh"));
}

std::tuple<NDArray, NDArray> eig(const NDArray& a) {
  return Geev(a, true, "eig");
}

NDArray eigvals(const NDArray& a) {
  return std::get<0>(Geev(a, false, "eigvals"));
}

// --------------------------------------------------------------------------- least squares
LstsqResult lstsq(const NDArray& a, const NDArray& b, double rcond) {
  const int t = PromoteTypes(LinalgType(a, "lstsq"), LinalgType(b, "lstsq"));
  SHADE_CHECK_LINALG(a.ndim() == 2)
      << "lstsq: " << a.ndim() << "-dimensional array given. Array must be two-dimensional";
  SHADE_CHECK_LINALG(b.ndim() == 1 || b.ndim() == 2)
      << "lstsq: " << b.ndim() << "-dimensional array given. Array must be one or two-dimensional";
  const bool vec = b.ndim() == 1;
  const NDArray bm = vec ? b.unsqueeze(1) : b;
  const index_t m = a.size(0), n = a.size(1), k = bm.size(1);
  SHADE_CHECK_LINALG(bm.size(0) == m)
      << "lstsq: Incompatible dimensions: a is " << a.sizes() << ", b is " << b.sizes();
  const index_t ldb = std::max<index_t>({1, m, n});
  const NDArray ac = ColMajorCopy(a, t);
  NDArray bc = zeros({k, ldb}, t);  // column-major ldb x k; rows m.. stay zero
  if (m > 0 && k > 0) bc.narrow(1, 0, m).copy_(bm.transpose(0, 1));
  LstsqResult res;
  res.s = NDArray::Empty({std::min(m, n)}, t);
  const lapack_int lm = ToLapackInt(m, "lstsq"), ln = ToLapackInt(n, "lstsq"),
                   lk = ToLapackInt(k, "lstsq"), lb = ToLapackInt(ldb, "lstsq");
  lapack_int info = 0, rank = 0;
  FloatDispatch(t, [&](auto zero) {
    using T = decltype(zero);
    T* pa = static_cast<T*>(ac.data_ptr());
    T* pb = static_cast<T*>(bc.data_ptr());
    T* ps = static_cast<T*>(res.s.data_ptr());
    if (m == 0 || n == 0) return;  // rank 0, x = 0 (b's rows past m are zero)
    info = RunBatch(1, 4.0 * m * n * std::min(m, n), [&](index_t) {
      return Gelsd(lm, ln, lk, pa, pb, lb, ps, static_cast<T>(rcond), &rank);
    });
  });
  SHADE_CHECK_LINALG(info == 0) << "lstsq: SVD did not converge in Linear Least Squares (LAPACK "
                                   "gelsd info "
                                << info << ")";
  res.rank = rank;
  NDArray x = RowView(bc).narrow(0, 0, n);
  res.x = vec ? x.select(1, 0) : x;
  if (rank == n && m > n) {
    // gelsd leaves the residual components of b in rows n..m: their squares sum per column.
    NDArray r = NDArray::Empty({vec ? 1 : k}, t);
    FloatDispatch(t, [&](auto zero) {
      using T = decltype(zero);
      const T* pb = static_cast<const T*>(bc.data_ptr());
      T* pr = static_cast<T*>(r.data_ptr());
      for (index_t c = 0; c < k; ++c) {
        T acc = T(0);
        for (index_t i = n; i < m; ++i) acc += pb[c * ldb + i] * pb[c * ldb + i];
        pr[c] = acc;
      }
    });
    res.residuals = r;
  } else {
    res.residuals = NDArray::Empty({0}, t);
  }
  return res;
}

NDArray pinv(const NDArray& a, double rcond, bool hermitian) {
  const int t = LinalgType(a, "pinv");
  CheckAtLeast2D(a, "pinv");
  const index_t m = a.size(-2), n = a.size(-1);
  const std::vector<index_t> batch = BatchShape(a, 2);
  if (m == 0 || n == 0) return zeros(Concat(batch, {n, m}), t);
  const SVDResult d = svd(a, false, true, hermitian);
  const index_t k = d.s.size(-1);
  // vh's rows scaled by 1/s where s > rcond * s_max (else 0), then pinv = vh^T diag(1/s) u^T.
  NDArray vs = d.vh.contiguous().Clone();
  const NDArray s = d.s.contiguous();
  FloatDispatch(t, [&](auto zero) {
    using T = decltype(zero);
    const T* ps = static_cast<const T*>(s.data_ptr());
    T* pv = static_cast<T*>(vs.data_ptr());
    const index_t count = Count(batch);
    for (index_t b = 0; b < count; ++b) {
      T smax = T(0);
      for (index_t l = 0; l < k; ++l) smax = std::max(smax, ps[b * k + l]);
      const T cutoff = static_cast<T>(rcond) * smax;
      for (index_t l = 0; l < k; ++l) {
        const T sl = ps[b * k + l];
        const T f = sl > cutoff ? T(1) / sl : T(0);
        T* row = pv + (b * k + l) * n;
        for (index_t j = 0; j < n; ++j) row[j] *= f;
      }
    }
  });
  const int nd = a.ndim();
  return matmul(vs.transpose(nd - 1, nd - 2), d.u.transpose(nd - 1, nd - 2));
}

NDArray matrix_rank(const NDArray& a, double tol, bool hermitian) {
  if (a.ndim() < 2) {
    LinalgType(a, "matrix_rank");
    const bool nonzero = a.numel() > 0 && item<bool>(any(not_equal(a, 0).eval()));
    return full_int({}, nonzero ? 1 : 0, kInt64);
  }
  const SVDResult d = svd(a, false, false, hermitian);
  const index_t k = d.s.size(-1);
  const std::vector<index_t> batch = BatchShape(a, 2);
  SHADE_CHECK(k > 0 || tol >= 0)
      << "matrix_rank: zero-size array to reduction operation maximum which has no identity "
         "(shape "
      << a.sizes() << ")";
  NDArray out = NDArray::Empty(batch, kInt64);
  const NDArray s = d.s.contiguous();
  const index_t mx = std::max(a.size(-1), a.size(-2));
  FloatDispatch(s.type_flag(), [&](auto zero) {
    using T = decltype(zero);
    const T* ps = static_cast<const T*>(s.data_ptr());
    auto* po = static_cast<std::int64_t*>(out.data_ptr());
    for (index_t b = 0; b < out.numel(); ++b) {
      T smax = T(0);
      for (index_t l = 0; l < k; ++l) smax = std::max(smax, ps[b * k + l]);
      const T cut = tol >= 0 ? static_cast<T>(tol)
                             : smax * static_cast<T>(mx) * std::numeric_limits<T>::epsilon();
      std::int64_t c = 0;
      for (index_t l = 0; l < k; ++l) c += ps[b * k + l] > cut ? 1 : 0;
      po[b] = c;
    }
  });
  return out;
}

// ---------------------------------------------------------------------------------- norm
NormOrder NormOrder::Named(const std::string& name) {
  NormOrder o;
  if (name == "fro" || name == "f") {
    o.kind = kFro;
  } else if (name == "nuc") {
    o.kind = kNuc;
  } else {
    SHADE_THROW << "norm: Invalid norm order '" << name << "'";
  }
  return o;
}

namespace {
std::string OrdText(const NormOrder& o) {
  std::ostringstream os;
  if (o.kind == NormOrder::kFro) {
    os << "fro";
  } else if (o.kind == NormOrder::kNuc) {
    os << "nuc";
  } else {
    os << o.p;
  }
  return os.str();
}

// Singular values of the matrices spanned by axes (r, c), moved last.
NDArray SingularValuesOver(const NDArray& x, index_t r, index_t c) {
  std::vector<index_t> perm;
  for (index_t d = 0; d < x.ndim(); ++d) {
    if (d != r && d != c) perm.push_back(d);
  }
  perm.push_back(r);
  perm.push_back(c);
  return svd(x.permute(perm), false, false).s;
}
}  // namespace

NDArray norm(const NDArray& x_in, NormOrder ord, const std::vector<index_t>& axis_in,
             bool keepdims) {
  SHADE_CHECK(x_in.defined()) << "norm: undefined NDArray";
  CheckDevices("norm", {&x_in});
  SHADE_CHECK_TYPE_GE(x_in.type_flag(), 0) << "norm: non-numeric element type";
  const int f = x_in.type_flag();
  // Complex: every norm but the singular-value ones is the same norm of the magnitudes |x|
  // (float32 / float64, as NumPy's result dtype).
  const bool complex_in = IsComplexTypeFlag(f);
  const NDArray x = complex_in ? absolute(x_in).eval()
                    : (f == kFloat32 || f == kFloat64 || f == kFloat16 || f == kBfloat16)
                        ? x_in
                        : astype(x_in, kFloat64);
  const int nd = x.ndim();
  std::vector<index_t> axis = axis_in;
  if (axis.empty()) {
    if (ord.kind == NormOrder::kNone || (ord.kind == NormOrder::kFro && nd == 2) ||
        (ord.kind == NormOrder::kNumber && ord.p == 2 && nd == 1)) {
      NDArray r = sqrt(sum(multiply(x, x).eval())).eval();
      if (keepdims) r = r.reshape(std::vector<index_t>(static_cast<std::size_t>(nd), 1));
      return r;
    }
    for (index_t d = 0; d < nd; ++d) axis.push_back(d);
  }
  for (index_t& ax : axis) {
    SHADE_CHECK_INDEX(ax >= -nd && ax < nd)
        << "norm: axis " << ax << " is out of bounds for array of dimension " << nd;
    if (ax < 0) ax += nd;
  }
  if (axis.size() == 1) {
    const index_t ax = axis[0];
    SHADE_CHECK(ord.kind == NormOrder::kNone || ord.kind == NormOrder::kNumber)
        << "norm: Invalid norm order '" << OrdText(ord) << "' for vectors";
    const double p = ord.kind == NormOrder::kNone ? 2.0 : ord.p;
    if (std::isinf(p)) {
      const NDArray ab = absolute(x).eval();
      return p > 0 ? amax(ab, ax, keepdims) : amin(ab, ax, keepdims);
    }
    if (p == 0) {
      return sum(astype(not_equal(x, 0).eval(), x.type_flag()), ax, keepdims);
    }
    if (p == 1) return sum(absolute(x).eval(), ax, keepdims);
    if (p == 2) return sqrt(sum(multiply(x, x).eval(), ax, keepdims)).eval();
    const NDArray pw = power(absolute(x), p).eval();
    return power(sum(pw, ax, keepdims), 1.0 / p).eval();
  }
  SHADE_CHECK(axis.size() == 2) << "norm: Improper number of dimensions to norm.";
  index_t r = axis[0], c = axis[1];
  SHADE_CHECK(r != c) << "norm: Duplicate axes given.";
  SHADE_CHECK_TYPE(!complex_in || !(ord.kind == NormOrder::kNuc ||
                                    (ord.kind == NormOrder::kNumber && std::fabs(ord.p) == 2)))
      << "norm: the 2 / -2 / nuc matrix norms of " << x_in.dtype().name()
      << " need a complex svd, which linalg does not have yet";
  NDArray ret;
  auto absx = [&]() { return absolute(x).eval(); };
  if (ord.kind == NormOrder::kNone || ord.kind == NormOrder::kFro) {
    ret = sqrt(sum(multiply(x, x).eval(), {r, c})).eval();
  } else if (ord.kind == NormOrder::kNuc) {
    ret = sum(SingularValuesOver(x, r, c), -1);
  } else if (ord.p == 2 || ord.p == -2) {
    const NDArray s = SingularValuesOver(x, r, c);
    ret = ord.p > 0 ? amax(s, -1) : amin(s, -1);
  } else if (ord.p == 1 || ord.p == -1) {
    const index_t c2 = c > r ? c - 1 : c;
    const NDArray colsum = sum(absx(), r);
    ret = ord.p > 0 ? amax(colsum, c2) : amin(colsum, c2);
  } else if (std::isinf(ord.p)) {
    const index_t r2 = r > c ? r - 1 : r;
    const NDArray rowsum = sum(absx(), c);
    ret = ord.p > 0 ? amax(rowsum, r2) : amin(rowsum, r2);
  } else {
    SHADE_THROW << "norm: Invalid norm order " << OrdText(ord) << " for matrices.";
  }
  if (keepdims) {
    std::vector<index_t> shape = x.sizes().vec();
    shape[r] = 1;
    shape[c] = 1;
    ret = ret.reshape(shape);
  }
  return ret;
}

// -------------------------------------------------------------------------- products
NDArray matrix_power(const NDArray& a, index_t n) {
  CheckSquare(a, "matrix_power");
  if (n == 0) {
    SHADE_CHECK_TYPE_GE(a.type_flag(), 0) << "matrix_power: non-numeric element type";
    NDArray out = NDArray::Empty(a.sizes(), a.type_flag());
    if (out.numel() > 0) out.copy_(eye(a.size(-1), -1, 0, a.type_flag()));
    return out;
  }
  SHADE_CHECK(n > std::numeric_limits<index_t>::min())
      << "matrix_power: exponent " << n << " has no positive counterpart";
  const NDArray base = n < 0 ? inv(a) : a;
  index_t e = n < 0 ? -n : n;
  if (e == 1) return n < 0 ? base : base.Clone();
  if (e == 2) return matmul(base, base);
  if (e == 3) return matmul(matmul(base, base), base);
  // Repeated squaring: z runs through base^(2^i); the set bits of e multiply into result.
  NDArray z, result;
  while (e > 0) {
    z = z.defined() ? matmul(z, z) : base;
    const bool bit = (e & 1) != 0;
    e >>= 1;
    if (bit) result = result.defined() ? matmul(result, z) : z;
  }
  return result;
}

NDArray multi_dot(const std::vector<NDArray>& arrays_in) {
  const std::size_t n = arrays_in.size();
  SHADE_CHECK(n >= 2) << "multi_dot: Expecting at least two arrays.";
  if (n == 2) return dot(arrays_in[0], arrays_in[1]);
  std::vector<NDArray> arrays = arrays_in;
  for (const NDArray& x : arrays) {
    SHADE_CHECK(x.defined()) << "multi_dot: undefined NDArray";
  }
  const bool first_vec = arrays.front().ndim() == 1, last_vec = arrays.back().ndim() == 1;
  if (first_vec) arrays.front() = arrays.front().unsqueeze(0);
  if (last_vec) arrays.back() = arrays.back().unsqueeze(1);
  for (const NDArray& x : arrays) {
    SHADE_CHECK_LINALG(x.ndim() == 2) << "multi_dot: " << x.ndim()
                                      << "-dimensional array given. Array must be "
                                         "two-dimensional";
  }
  // Chain-order dynamic programme over p[i] x p[i+1] matrices (cost in scalar multiplies).
  std::vector<double> p(n + 1);
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<double>(arrays[i].size(0));
  p[n] = static_cast<double>(arrays[n - 1].size(1));
  std::vector<std::vector<double>> cost(n, std::vector<double>(n, 0));
  std::vector<std::vector<std::size_t>> split(n, std::vector<std::size_t>(n, 0));
  for (std::size_t len = 1; len < n; ++len) {
    for (std::size_t i = 0; i + len < n; ++i) {
      const std::size_t j = i + len;
      cost[i][j] = std::numeric_limits<double>::infinity();
      for (std::size_t s = i; s < j; ++s) {
        const double c = cost[i][s] + cost[s + 1][j] + p[i] * p[s + 1] * p[j + 1];
        if (c < cost[i][j]) {
          cost[i][j] = c;
          split[i][j] = s;
        }
      }
    }
  }
  struct Chain {
    const std::vector<NDArray>& a;
    const std::vector<std::vector<std::size_t>>& split;
    NDArray Run(std::size_t i, std::size_t j) const {
      if (i == j) return a[i];
      return dot(Run(i, split[i][j]), Run(split[i][j] + 1, j));
    }
  };
  NDArray r = Chain{arrays, split}.Run(0, n - 1);
  if (first_vec && last_vec) return r.select(0, 0).select(0, 0);
  if (first_vec) return r.select(0, 0);
  if (last_vec) return r.select(1, 0);
  return r;
}

}  // namespace linalg

// ----------------------------------------------------------------- top-level products
namespace {
NDArray Ravel(const NDArray& a) {
  return a.reshape({a.numel()});
}
}  // namespace

NDArray outer(const NDArray& a, const NDArray& b) {
  SHADE_CHECK(a.defined() && b.defined()) << "outer: undefined NDArray";
  const NDArray x = Ravel(a), y = Ravel(b);
  return multiply(x.unsqueeze(1), y.unsqueeze(0)).eval();
}

NDArray inner(const NDArray& a, const NDArray& b) {
  SHADE_CHECK(a.defined() && b.defined()) << "inner: undefined NDArray";
  if (a.ndim() == 0 || b.ndim() == 0) return multiply(a, b).eval();
  SHADE_CHECK_SHAPE_EQ(a.size(-1), b.size(-1))
      << "inner: shapes " << a.sizes() << " and " << b.sizes() << " not aligned";
  return tensordot(a, b, {a.ndim() - 1}, {b.ndim() - 1});
}

NDArray vdot(const NDArray& a, const NDArray& b) {
  SHADE_CHECK(a.defined() && b.defined()) << "vdot: undefined NDArray";
  SHADE_CHECK_SHAPE_EQ(a.numel(), b.numel()) << "vdot: vectors have different lengths (shapes "
                                             << a.sizes() << " and " << b.sizes() << ")";
  // NumPy conjugates the first operand.
  return dot(Ravel(IsComplexTypeFlag(a.type_flag()) ? conj(a) : a), Ravel(b));
}

NDArray kron(const NDArray& a, const NDArray& b) {
  SHADE_CHECK(a.defined() && b.defined()) << "kron: undefined NDArray";
  const int nd = std::max(a.ndim(), b.ndim());
  std::vector<index_t> sa(static_cast<std::size_t>(nd - a.ndim()), 1),
      sb(static_cast<std::size_t>(nd - b.ndim()), 1);
  sa.insert(sa.end(), a.sizes().begin(), a.sizes().end());
  sb.insert(sb.end(), b.sizes().begin(), b.sizes().end());
  // a's axis d goes to 2d, b's to 2d+1: their product interleaves, and merging each pair of
  // axes gives index i * b_d + j, the Kronecker layout.
  std::vector<index_t> ea, eb, out;
  for (int d = 0; d < nd; ++d) {
    ea.push_back(sa[d]);
    ea.push_back(1);
    eb.push_back(1);
    eb.push_back(sb[d]);
    out.push_back(sa[d] * sb[d]);
  }
  const NDArray p = multiply(a.reshape(ea), b.reshape(eb)).eval();
  return p.reshape(out);
}

NDArray cross(const NDArray& a, const NDArray& b, index_t axisa, index_t axisb, index_t axisc) {
  SHADE_CHECK(a.defined() && b.defined()) << "cross: undefined NDArray";
  SHADE_CHECK_INDEX(a.ndim() >= 1 && axisa >= -a.ndim() && axisa < a.ndim())
      << "cross: axisa " << axisa << " is out of bounds for array of dimension " << a.ndim();
  SHADE_CHECK_INDEX(b.ndim() >= 1 && axisb >= -b.ndim() && axisb < b.ndim())
      << "cross: axisb " << axisb << " is out of bounds for array of dimension " << b.ndim();
  auto last = [](const NDArray& x, index_t ax) {
    if (ax < 0) ax += x.ndim();
    std::vector<index_t> perm;
    for (index_t d = 0; d < x.ndim(); ++d) {
      if (d != ax) perm.push_back(d);
    }
    perm.push_back(ax);
    return x.permute(perm);
  };
  const NDArray x = last(a, axisa), y = last(b, axisb);
  const index_t na = x.size(-1), nb = y.size(-1);
  SHADE_CHECK((na == 2 || na == 3) && (nb == 2 || nb == 3))
      << "cross: incompatible dimensions for cross product (dimension must be 2 or 3; got " << na
      << " and " << nb << ")";
  auto comp = [](const NDArray& v, index_t i) { return v.select(v.ndim() - 1, i); };
  const NDArray a0 = comp(x, 0), a1 = comp(x, 1), b0 = comp(y, 0), b1 = comp(y, 1);
  const NDArray cz = subtract(multiply(a0, b1), multiply(a1, b0)).eval();
  if (na == 2 && nb == 2) return cz;
  NDArray cx, cy;
  if (na == 3 && nb == 3) {
    const NDArray a2 = comp(x, 2), b2 = comp(y, 2);
    cx = subtract(multiply(a1, b2), multiply(a2, b1)).eval();
    cy = subtract(multiply(a2, b0), multiply(a0, b2)).eval();
  } else if (na == 2) {
    const NDArray b2 = comp(y, 2);
    cx = multiply(a1, b2).eval();
    cy = negative(multiply(a0, b2)).eval();
  } else {
    const NDArray a2 = comp(x, 2);
    cx = negative(multiply(a2, b1)).eval();
    cy = multiply(a2, b0).eval();
  }
  // The three components broadcast to one shape; stacking them inserts the vector axis at axisc.
  const int rnd = cz.ndim() + 1;
  SHADE_CHECK_INDEX(axisc >= -rnd && axisc < rnd)
      << "cross: axisc " << axisc << " is out of bounds for array of dimension " << rnd;
  const index_t ac = axisc < 0 ? axisc + rnd : axisc;
  const int rt = cz.type_flag();
  return stack({astype(cx, rt).expand(cz.sizes()), astype(cy, rt).expand(cz.sizes()), cz}, ac);
}

}  // namespace shade
