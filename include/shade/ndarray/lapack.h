/*!
 * \file lapack.h
 * \brief numpy.linalg on NDArrays: decompositions, solvers, norms and products over LAPACK
 *  (LAPACKE over OpenBLAS), with NumPy 1.24's semantics.
 *
 * Every function batches over the leading dimensions as NumPy does (the last two are the
 * matrix). Inputs of float32 compute and return float32; float64, integer and bool inputs
 * compute in float64 (as NumPy converts them); float16 and bfloat16 throw shade::TypeError
 * ("array type float16 is unsupported in linalg", NumPy's TypeError). A matrix that the
 * decomposition cannot handle (singular, not positive definite, no convergence) throws
 * shade::LinAlgError, as do inputs of rank < 2 or non-square matrices where a square one is
 * needed. Results of a single matrix use OpenBLAS's threads (shade's thread count); batches of
 * matrices are split over shade's threads, one matrix per thread.
 */
#ifndef SHADE_NDARRAY_LAPACK_H_
#define SHADE_NDARRAY_LAPACK_H_

#include <string>
#include <tuple>
#include <vector>

#include "shade/base/index.h"
#include "shade/ndarray/ndarray.h"

namespace shade {
namespace linalg {

/*! \brief np.linalg.solve: x with a @ x = b; b is a vector stack when b.ndim == a.ndim - 1,
 *  else a matrix stack; batch dimensions broadcast. Singular a: LinAlgError. */
NDArray solve(const NDArray& a, const NDArray& b);
/*! \brief np.linalg.inv: the inverse of each square matrix; singular: LinAlgError. */
NDArray inv(const NDArray& a);
/*! \brief np.linalg.det: the determinant of each square matrix (1 for 0x0 matrices). */
NDArray det(const NDArray& a);
/*! \brief np.linalg.slogdet: (sign, log|det|); a singular matrix gives (0, -inf). */
std::tuple<NDArray, NDArray> slogdet(const NDArray& a);
/*! \brief np.linalg.cholesky: lower-triangular L with a = L L^T (only a's lower triangle is
 *  read); not positive definite: LinAlgError. */
NDArray cholesky(const NDArray& a);

/*!
 * \brief np.linalg.qr: mode "reduced" (Q [.., M, K], R [.., K, N], K = min(M, N)), "complete"
 *  (Q [.., M, M], R [.., M, N]), "r" (R only: the second element is undefined) or "raw"
 *  (Householder reflectors h [.., N, M] as LAPACK stores them, and tau [.., K]).
 */
std::tuple<NDArray, NDArray> qr(const NDArray& a, const std::string& mode = "reduced");

/*! \brief np.linalg.svd result: u, s (descending), vh; with compute_uv=false only s is defined. */
struct SVDResult {
  NDArray u;   //!< left singular vectors [.., M, M] (or [.., M, K])
  NDArray s;   //!< singular values [.., K], descending
  NDArray vh;  //!< right singular vectors, transposed [.., N, N] (or [.., K, N])
};
/*!
 * \brief np.linalg.svd through the divide-and-conquer gesdd. hermitian=true takes the
 *  eigendecomposition of the (symmetric) matrix instead, as NumPy does. No convergence:
 *  LinAlgError("SVD did not converge").
 */
SVDResult svd(const NDArray& a, bool full_matrices = true, bool compute_uv = true,
              bool hermitian = false);

/*! \brief np.linalg.eigh: ascending eigenvalues w [.., M] and eigenvectors v [.., M, M] (in
 *  columns) of symmetric matrices; uplo "L" or "U" says which triangle is read. */
std::tuple<NDArray, NDArray> eigh(const NDArray& a, const std::string& uplo = "L");
/*! \brief np.linalg.eigvalsh: the eigenvalues of eigh. */
NDArray eigvalsh(const NDArray& a, const std::string& uplo = "L");
/*!
 * \brief np.linalg.eig (geev): eigenvalues w and right eigenvectors v (columns) of general
 *  square matrices. NumPy returns real arrays when every eigenvalue is real, and so does this;
 *  complex eigenvalues need a complex dtype that shade does not have yet: NotImplementedError.
 */
std::tuple<NDArray, NDArray> eig(const NDArray& a);
/*! \brief np.linalg.eigvals: eig's eigenvalues (same restriction to real spectra). */
NDArray eigvals(const NDArray& a);

/*! \brief np.linalg.lstsq result. */
struct LstsqResult {
  NDArray x;          //!< least-squares solution [N] or [N, K]
  NDArray residuals;  //!< squared residual norms [K] ([1] for a vector b), or empty [0]
  index_t rank = 0;   //!< effective rank of a
  NDArray s;          //!< singular values of a [min(M, N)]
};
/*!
 * \brief np.linalg.lstsq of a 2-D a [M, N] and b [M] or [M, K] (gelsd): singular values below
 *  rcond * s_max count as zero; rcond < 0 means machine precision (NumPy's old default).
 */
LstsqResult lstsq(const NDArray& a, const NDArray& b, double rcond = -1);

/*! \brief np.linalg.pinv: Moore-Penrose pseudo-inverse [.., N, M]; singular values at or
 *  below rcond * s_max are treated as zero. */
NDArray pinv(const NDArray& a, double rcond = 1e-15, bool hermitian = false);

/*!
 * \brief np.linalg.matrix_rank: number of singular values above tol (tol < 0: s_max *
 *  max(M, N) * eps of the dtype); int64 [..]. A rank < 2 input gives 1 unless all zero.
 */
NDArray matrix_rank(const NDArray& a, double tol = -1, bool hermitian = false);

/*! \brief `ord` of np.linalg.norm: None, a number (inf allowed), "fro" or "nuc". */
struct NormOrder {
  /*! \brief Which form. */
  enum Kind { kNone, kNumber, kFro, kNuc };
  Kind kind = kNone;  //!< which form
  double p = 0;       //!< the number, for kNumber
  /*! \brief ord=None. */
  NormOrder() = default;
  /*! \brief A numeric ord (1, 2, -1, inf, 0.5, ...). */
  NormOrder(double v) : kind(kNumber), p(v) {}  // NOLINT(runtime/explicit)
  /*! \brief "fro" or "nuc"; other strings throw ValueError. */
  static NormOrder Named(const std::string& name);
};
/*!
 * \brief np.linalg.norm: axis empty with ord None is the 2-norm of the flattened array; one
 *  axis is a vector norm, two a matrix norm ("fro", "nuc", +-1, +-2, +-inf). Integer and bool
 *  inputs compute in float64; other float dtypes keep theirs (matrix 2/-2/nuc use svd).
 */
NDArray norm(const NDArray& x, NormOrder ord = NormOrder(), const std::vector<index_t>& axis = {},
             bool keepdims = false);

/*! \brief np.linalg.matrix_power: a^n by repeated squaring (n < 0 inverts first; n = 0 gives
 *  identities of a's dtype). */
NDArray matrix_power(const NDArray& a, index_t n);
/*! \brief np.linalg.multi_dot: the product of the chain in the cheapest order (the first array
 *  may be 1-D, a row; the last may be 1-D, a column; the others are 2-D). */
NDArray multi_dot(const std::vector<NDArray>& arrays);

}  // namespace linalg

/*! \brief np.outer: a.ravel()[:, None] * b.ravel()[None, :] in the promoted dtype. */
NDArray outer(const NDArray& a, const NDArray& b);
/*! \brief np.inner: sums over the last axes (a scalar operand multiplies). */
NDArray inner(const NDArray& a, const NDArray& b);
/*! \brief np.vdot: the dot product of the flattened operands (equal sizes), rank 0. */
NDArray vdot(const NDArray& a, const NDArray& b);
/*! \brief np.kron: the Kronecker product (the operand of lower rank gets leading 1s). */
NDArray kron(const NDArray& a, const NDArray& b);
/*!
 * \brief np.cross of vectors of 2 or 3 components along axisa / axisb (broadcast over the
 *  other axes); the result's vector axis is axisc (absent when both have 2 components).
 */
NDArray cross(const NDArray& a, const NDArray& b, index_t axisa = -1, index_t axisb = -1,
              index_t axisc = -1);

}  // namespace shade

#endif  // SHADE_NDARRAY_LAPACK_H_
