// matmul / dot / tensordot (ndarray/linalg.h) on the BLAS engine (backend/cpu/blas.h).
#include "shade/ndarray/linalg.h"

#include <algorithm>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "shade/backend/cpu/blas.h"
#include "shade/backend/cpu/parallel.h"
#include "shade/ndarray/device.h"
#include "shade/ndarray/grad_hook.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/promotion.h"
#include "shade/ndarray/shape_ops.h"
#include "shade/shape/broadcast.h"

namespace shade {
namespace {

void CheckOperand(const NDArray& a, const char* op, int k) {
  SHADE_CHECK(a.defined()) << op << ": operand " << k << " is an undefined NDArray";
  CheckDevices(op, {&a});
  SHADE_CHECK_TYPE_GE(a.type_flag(), 0)
      << op << ": operand " << k << " has non-numeric element type " << a.dtype().name();
  SHADE_CHECK(a.data_ptr() != nullptr || a.numel() == 0)
      << op << ": operand " << k << " (" << a << ") has no memory allocated";
}

// How BLAS reads one stored matrix of `rows` x `cols` with element strides (sr, sc): as it is
// (row-major with pitch ld) or transposed (its transpose row-major with pitch ld).
struct BlasLayout {
  bool ok = false;
  bool trans = false;
  index_t ld = 1;
};

BlasLayout LayoutOf(index_t rows, index_t cols, index_t sr, index_t sc) {
  BlasLayout l;
  if ((cols <= 1 || sc == 1) && (rows <= 1 || sr >= std::max<index_t>(cols, 1))) {
    l.ok = true;
    l.ld = rows <= 1 ? std::max<index_t>(cols, 1) : sr;
  } else if ((rows <= 1 || sr == 1) && (cols <= 1 || sc >= std::max<index_t>(rows, 1))) {
    l.ok = true;
    l.trans = true;
    l.ld = cols <= 1 ? std::max<index_t>(rows, 1) : sc;
  }
  return l;
}

// Batch offsets (elements) of an operand with batch sizes `bshape` and batch strides `bst`
// (0 where broadcast), row-major over the batch.
std::vector<index_t> BatchOffsets(const std::vector<index_t>& bshape,
                                  const std::vector<index_t>& bst) {
  index_t n = 1;
  for (index_t s : bshape) n *= s;
  std::vector<index_t> off(static_cast<std::size_t>(n), 0);
  for (index_t i = 0; i < n; ++i) {
    index_t r = i, o = 0;
    for (int d = static_cast<int>(bshape.size()) - 1; d >= 0; --d) {
      o += (r % bshape[d]) * bst[d];
      r /= bshape[d];
    }
    off[i] = o;
  }
  return off;
}

bool Uniform(const std::vector<index_t>& off) {
  for (std::size_t i = 2; i < off.size(); ++i) {
    if (off[i] - off[i - 1] != off[1] - off[0]) return false;
  }
  return true;
}

// a: [..., m, k] and b: [..., k, n] in compute dtype T (float/double), c: contiguous [batch, m, n].
template <typename T>
void BlasProduct(NDArray a, NDArray b, const std::vector<index_t>& bshape,
                 const std::vector<index_t>& ast, const std::vector<index_t>& bst, index_t m,
                 index_t n, index_t k, T* c) {
  const int na = a.ndim(), nb = b.ndim();
  BlasLayout la = LayoutOf(m, k, a.stride(na - 2), a.stride(na - 1));
  if (!la.ok) {  // the only copy: matrices BLAS cannot read in place
    a = a.contiguous();
    la = LayoutOf(m, k, a.stride(na - 2), a.stride(na - 1));
  }
  BlasLayout lb = LayoutOf(k, n, b.stride(nb - 2), b.stride(nb - 1));
  if (!lb.ok) {
    b = b.contiguous();
    lb = LayoutOf(k, n, b.stride(nb - 2), b.stride(nb - 1));
  }
  // Batch strides of the (possibly copied) operands: recompute from their current strides.
  std::vector<index_t> sa(bshape.size(), 0), sb(bshape.size(), 0);
  const int nbatch = static_cast<int>(bshape.size());
  for (int d = 0; d < nbatch; ++d) {
    const int da = na - 2 - (nbatch - d), db = nb - 2 - (nbatch - d);
    if (da >= 0 && a.size(da) != 1) sa[d] = a.stride(da);
    if (db >= 0 && b.size(db) != 1) sb[d] = b.stride(db);
  }
  (void)ast;
  (void)bst;
  const T* pa = static_cast<const T*>(a.data_ptr());
  const T* pb = static_cast<const T*>(b.data_ptr());
  const std::vector<index_t> oa = BatchOffsets(bshape, sa), ob = BatchOffsets(bshape, sb);
  const index_t batch = static_cast<index_t>(oa.size());
  if (batch == 1 && n == 1 && !lb.trans && k > 0 && m > 0) {
    // Matrix times vector: Gemv over b's column (stride ld when k > 1).
    const index_t incx = k > 1 ? lb.ld : 1;
    if (la.trans) {
      blas::Gemv<T>(true, k, m, T(1), pa, la.ld, pb, incx, T(0), c, 1);
    } else {
      blas::Gemv<T>(false, m, k, T(1), pa, la.ld, pb, incx, T(0), c, 1);
    }
    return;
  }
  if (Uniform(oa) && Uniform(ob)) {
    const index_t stride_a = batch > 1 ? oa[1] - oa[0] : 0,
                  stride_b = batch > 1 ? ob[1] - ob[0] : 0;
    blas::BatchGemm<T>(la.trans, lb.trans, batch, m, n, k, T(1), pa, la.ld, stride_a, pb, lb.ld,
                       stride_b, T(0), c, std::max<index_t>(n, 1), m * n);
    return;
  }
  for (index_t i = 0; i < batch; ++i) {
    blas::Gemm<T>(la.trans, lb.trans, m, n, k, T(1), pa + oa[i], la.ld, pb + ob[i], lb.ld, T(0),
                  c + i * m * n, std::max<index_t>(n, 1));
  }
}

// Exact product for integers (wrapping, through the unsigned twin) and bool (or of ands).
template <typename T>
void NaiveProduct(const NDArray& a0, const NDArray& b0, const std::vector<index_t>& bshape,
                  index_t m, index_t n, index_t k, T* c) {
  const NDArray a = a0.contiguous(), b = b0.contiguous();
  const int na = a.ndim(), nb = b.ndim(), nbatch = static_cast<int>(bshape.size());
  std::vector<index_t> sa(bshape.size(), 0), sb(bshape.size(), 0);
  for (int d = 0; d < nbatch; ++d) {
    const int da = na - 2 - (nbatch - d), db = nb - 2 - (nbatch - d);
    if (da >= 0 && a.size(da) != 1) sa[d] = a.stride(da);
    if (db >= 0 && b.size(db) != 1) sb[d] = b.stride(db);
  }
  const std::vector<index_t> oa = BatchOffsets(bshape, sa), ob = BatchOffsets(bshape, sb);
  const T* pa = static_cast<const T*>(a.data_ptr());
  const T* pb = static_cast<const T*>(b.data_ptr());
  const index_t rows = static_cast<index_t>(oa.size()) * m;
  const index_t grain = std::max<index_t>(1, (index_t(1) << 14) / std::max<index_t>(1, n * k));
  ParallelFor(0, rows, grain, [&](index_t r0, index_t r1) {
    for (index_t r = r0; r < r1; ++r) {
      const index_t bi = r / m, i = r % m;
      const T* arow = pa + oa[bi] + i * k;
      const T* bm = pb + ob[bi];
      T* crow = c + r * n;
      if constexpr (std::is_same<T, bool>::value) {
        for (index_t j = 0; j < n; ++j) crow[j] = false;
        for (index_t l = 0; l < k; ++l) {
          if (!arow[l]) continue;
          for (index_t j = 0; j < n; ++j) crow[j] = crow[j] || bm[l * n + j];
        }
      } else {
        // Unsigned arithmetic at least as wide as unsigned int: narrow types would promote to
        // (signed) int, whose overflow is undefined.
        using U0 = std::make_unsigned_t<T>;
        using U = std::conditional_t<(sizeof(U0) < sizeof(unsigned)), unsigned, U0>;
        std::vector<U> acc(static_cast<std::size_t>(n), U(0));
        for (index_t l = 0; l < k; ++l) {
          const U x = static_cast<U>(static_cast<U0>(arow[l]));
          for (index_t j = 0; j < n; ++j)
            acc[j] += x * static_cast<U>(static_cast<U0>(bm[l * n + j]));
        }
        for (index_t j = 0; j < n; ++j) crow[j] = static_cast<T>(acc[j]);
      }
    }
  });
}

std::string ShapePair(const NDArray& a, const NDArray& b) {
  std::ostringstream os;
  os << a.sizes() << " and " << b.sizes();
  return os.str();
}

}  // namespace

NDArray matmul(const NDArray& a_in, const NDArray& b_in) {
  if (__builtin_expect(detail::GradTracked(a_in) || detail::GradTracked(b_in), 0)) {
    return detail::RecordGrad(detail::GradOp::kMatmul, {a_in, b_in}, {},
                              [&] { return matmul(a_in, b_in); });
  }
  CheckDevices("matmul", {&a_in, &b_in});
  CheckOperand(a_in, "matmul", 0);
  CheckOperand(b_in, "matmul", 1);
  SHADE_CHECK_SHAPE(a_in.ndim() >= 1 && b_in.ndim() >= 1)
      << "matmul: operand " << (a_in.ndim() == 0 ? 0 : 1)
      << " does not have enough dimensions (shapes " << ShapePair(a_in, b_in)
      << "; rank-0 operands need multiply or dot)";
  const bool a_vec = a_in.ndim() == 1, b_vec = b_in.ndim() == 1;
  const NDArray a = a_vec ? a_in.unsqueeze(0) : a_in;
  const NDArray b = b_vec ? b_in.unsqueeze(1) : b_in;
  const int na = a.ndim(), nb = b.ndim();
  const index_t m = a.size(na - 2), k = a.size(na - 1), k2 = b.size(nb - 2), n = b.size(nb - 1);
  SHADE_CHECK_SHAPE_EQ(k, k2) << "matmul: mismatch in its core dimension: shapes "
                              << ShapePair(a_in, b_in) << " (" << k << " != " << k2 << ")";
  // Broadcast batch dimensions (NumPy's rule on the leading dims).
  const int nbatch = std::max(na, nb) - 2;
  std::vector<index_t> bshape(nbatch, 1);
  SHADE_CHECK_SHAPE(
      BroadcastShapes(a.sizes().data(), na - 2, b.sizes().data(), nb - 2, bshape.data()))
      << "matmul: batch dimensions of shapes " << ShapePair(a_in, b_in) << " do not broadcast";
  const int rt = PromoteTypes(a.type_flag(), b.type_flag());
  std::vector<index_t> cshape = bshape;
  cshape.push_back(m);
  cshape.push_back(n);
  NDArray c = NDArray::Empty(cshape, rt);
  std::vector<index_t> rshape = bshape;
  if (!a_vec) rshape.push_back(m);
  if (!b_vec) rshape.push_back(n);
  if (c.numel() == 0) return c.view(rshape);
  const int compute = rt == kFloat16 || rt == kBfloat16 ? kFloat32 : rt;
  const NDArray ac = astype(a, compute), bc = astype(b, compute);
  NDArray cc = compute == rt ? c : NDArray::Empty(cshape, compute);
  DispatchDType(compute, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (blas::kSupported<T>) {
      BlasProduct<T>(ac, bc, bshape, {}, {}, m, n, k, static_cast<T*>(cc.data_ptr()));
    } else if constexpr (std::is_integral<T>::value) {
      NaiveProduct<T>(ac, bc, bshape, m, n, k, static_cast<T*>(cc.data_ptr()));
    } else {
      SHADE_THROW << "matmul: internal error, no kernel for " << DataType<T>::kName;
    }
  });
  if (!cc.is_same(c)) c.copy_(cc);
  return c.view(rshape);
}

NDArray dot(const NDArray& a, const NDArray& b) {
  CheckDevices("dot", {&a, &b});
  CheckOperand(a, "dot", 0);
  CheckOperand(b, "dot", 1);
  if (a.ndim() == 0 || b.ndim() == 0) return multiply(a, b).eval();
  if (b.ndim() == 1) {
    SHADE_CHECK_SHAPE_EQ(a.size(-1), b.size(0))
        << "dot: shapes " << ShapePair(a, b) << " not aligned: " << a.size(-1) << " (dim "
        << a.ndim() - 1 << ") != " << b.size(0) << " (dim 0)";
    return matmul(a, b);
  }
  SHADE_CHECK_SHAPE_EQ(a.size(-1), b.size(-2))
      << "dot: shapes " << ShapePair(a, b) << " not aligned: " << a.size(-1) << " (dim "
      << a.ndim() - 1 << ") != " << b.size(-2) << " (dim " << b.ndim() - 2 << ")";
  if (a.ndim() <= 2 && b.ndim() == 2) return matmul(a, b);
  return tensordot(a, b, {a.ndim() - 1}, {b.ndim() - 2});
}

NDArray tensordot(const NDArray& a, const NDArray& b, const std::vector<index_t>& axes_a,
                  const std::vector<index_t>& axes_b) {
  CheckDevices("tensordot", {&a, &b});
  CheckOperand(a, "tensordot", 0);
  CheckOperand(b, "tensordot", 1);
  SHADE_CHECK_SHAPE_EQ(axes_a.size(), axes_b.size())
      << "tensordot: shape-mismatch for sum: " << axes_a.size() << " axes of a, " << axes_b.size()
      << " of b";
  const int na = a.ndim(), nb = b.ndim();
  std::vector<bool> used_a(na, false), used_b(nb, false);
  std::vector<index_t> ra, rb;
  index_t kk = 1;
  for (std::size_t i = 0; i < axes_a.size(); ++i) {
    const index_t x = axes_a[i], y = axes_b[i];
    SHADE_CHECK_INDEX(x >= -na && x < na)
        << "tensordot: axis " << x << " is out of bounds for a of shape " << a.sizes();
    SHADE_CHECK_INDEX(y >= -nb && y < nb)
        << "tensordot: axis " << y << " is out of bounds for b of shape " << b.sizes();
    const index_t dx = x < 0 ? x + na : x, dy = y < 0 ? y + nb : y;
    SHADE_CHECK(!used_a[dx] && !used_b[dy])
        << "tensordot: repeated axis (" << x << ", " << y << ")";
    used_a[dx] = used_b[dy] = true;
    SHADE_CHECK_SHAPE_EQ(a.size(dx), b.size(dy))
        << "tensordot: shape-mismatch for sum: axis " << x << " of a " << a.sizes() << " and axis "
        << y << " of b " << b.sizes();
    ra.push_back(dx);
    rb.push_back(dy);
    kk *= a.size(dx);
  }
  std::vector<index_t> perm_a, perm_b, out_shape;
  index_t mm = 1, nn = 1;
  for (int d = 0; d < na; ++d) {
    if (!used_a[d]) {
      perm_a.push_back(d);
      out_shape.push_back(a.size(d));
      mm *= a.size(d);
    }
  }
  perm_a.insert(perm_a.end(), ra.begin(), ra.end());
  perm_b = rb;
  for (int d = 0; d < nb; ++d) {
    if (!used_b[d]) {
      perm_b.push_back(d);
      out_shape.push_back(b.size(d));
      nn *= b.size(d);
    }
  }
  // Permuted then flattened: a view when the strides allow (matmul then reads transposed
  // matrices in place), else one copy.
  const NDArray a2 = a.permute(perm_a).reshape({mm, kk});
  const NDArray b2 = b.permute(perm_b).reshape({kk, nn});
  return matmul(a2, b2).view(out_shape);
}

NDArray tensordot(const NDArray& a, const NDArray& b, index_t n) {
  CheckDevices("tensordot", {&a, &b});
  CheckOperand(a, "tensordot", 0);
  CheckOperand(b, "tensordot", 1);
  SHADE_CHECK_INDEX(n >= 0 && n <= a.ndim() && n <= b.ndim())
      << "tensordot: axes=" << n << " is out of range for shapes " << ShapePair(a, b);
  std::vector<index_t> axa, axb;
  for (index_t i = 0; i < n; ++i) {
    axa.push_back(a.ndim() - n + i);
    axb.push_back(i);
  }
  return tensordot(a, b, axa, axb);
}

}  // namespace shade
