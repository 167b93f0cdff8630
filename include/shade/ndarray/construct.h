/*!
 * \file construct.h
 * \brief NumPy's construction and shape helpers on NDArrays: broadcasting (broadcast_to,
 *  broadcast_arrays, broadcast_shapes), grids (meshgrid, indices), axis moves (moveaxis,
 *  rollaxis), atleast_1d/2d/3d, the stacking and splitting shorthands (hstack, vstack, dstack,
 *  column_stack, hsplit, vsplit, dsplit), diagonals and triangles (diag, diagflat, diagonal,
 *  trace, tril, triu, tri, identity), pad (every NumPy mode), flat-index conversion
 *  (ravel_multi_index, unravel_index), bit packing (packbits, unpackbits), dtype views
 *  (view_dtype, frombuffer).
 *
 * Everything is built from the existing views (ndarray.h), copies (`copy_`, `Fill`), joins
 * (shape_ops.h) and reductions (reduce.h); NumPy 1.24 semantics, shapes and result dtypes.
 * Views that NumPy returns read-only (broadcast_to, diagonal) are marked read-only here too.
 */
#ifndef SHADE_NDARRAY_CONSTRUCT_H_
#define SHADE_NDARRAY_CONSTRUCT_H_

#include <string>
#include <utility>
#include <vector>

#include "shade/base/dtype.h"
#include "shade/base/index.h"
#include "shade/ndarray/ndarray.h"

namespace shade {

// ------------------------------------------------------------------ broadcasting

/*!
 * \brief The shape all `shapes` broadcast to (np.broadcast_shapes); throws shade::ValueError
 *  naming the first two that cannot be broadcast.
 */
std::vector<index_t> broadcast_shapes(const std::vector<std::vector<index_t>>& shapes);
/*! \brief Read-only zero-stride view of `a` with shape `shape` (np.broadcast_to). */
NDArray broadcast_to(const NDArray& a, IndexSpan shape);
/*! \brief Views of every array broadcast to their common shape (np.broadcast_arrays). */
std::vector<NDArray> broadcast_arrays(const std::vector<NDArray>& arrays);

// ------------------------------------------------------------------ grids

/*!
 * \brief Coordinate matrices from 1-D coordinate vectors (np.meshgrid; inputs of any rank are
 *  flattened). `xy` (Cartesian) swaps the first two output axes, else matrix ('ij') indexing;
 *  `sparse` keeps size-1 axes; without `copy` the results are read-only broadcast views.
 */
std::vector<NDArray> meshgrid(const std::vector<NDArray>& xs, bool xy = true, bool sparse = false,
                              bool copy = true);
/*!
 * \brief The grid of indices of shape `dims` (np.indices): shape (len(dims),) + dims, element
 *  [k, i0, i1, ...] is ik. dtype must be numeric.
 */
NDArray indices(IndexSpan dims, int dtype = kInt64);
/*! \brief np.indices(sparse=True): array k has shape 1...dims[k]...1. */
std::vector<NDArray> indices_sparse(IndexSpan dims, int dtype = kInt64);

// ------------------------------------------------------------------ axes and ranks

/*!
 * \brief Moves axes `source[i]` to positions `destination[i]`, the others keep their order
 *  (np.moveaxis); a view. Throws for repeated axes or different lengths.
 */
NDArray moveaxis(const NDArray& a, const std::vector<index_t>& source,
                 const std::vector<index_t>& destination);
/*! \brief Moves `axis` to before position `start` in [-ndim, ndim] (np.rollaxis); a view. */
NDArray rollaxis(const NDArray& a, index_t axis, index_t start = 0);
/*! \brief `a` with at least one dimension (np.atleast_1d); a view. */
NDArray atleast_1d(const NDArray& a);
/*! \brief `a` with at least two dimensions, new ones in front (np.atleast_2d); a view. */
NDArray atleast_2d(const NDArray& a);
/*! \brief At least three dimensions: (N,) -> (1, N, 1), (M, N) -> (M, N, 1) (np.atleast_3d). */
NDArray atleast_3d(const NDArray& a);

// ------------------------------------------------------------------ stacking and splitting

/*! \brief Concatenation along axis 1 (axis 0 for 1-D inputs) after atleast_1d (np.hstack). */
NDArray hstack(const std::vector<NDArray>& arrays);
/*! \brief Concatenation along axis 0 after atleast_2d (np.vstack, np.row_stack). */
NDArray vstack(const std::vector<NDArray>& arrays);
/*! \brief Concatenation along axis 2 after atleast_3d (np.dstack). */
NDArray dstack(const std::vector<NDArray>& arrays);
/*! \brief 1-D inputs become columns, then concatenation along axis 1 (np.column_stack). */
NDArray column_stack(const std::vector<NDArray>& arrays);
/*! \brief np.hsplit into `sections` (axis 1, axis 0 for 1-D); views. */
std::vector<NDArray> hsplit(const NDArray& a, index_t sections);
/*! \brief np.hsplit at `indices`; views. */
std::vector<NDArray> hsplit(const NDArray& a, const std::vector<index_t>& indices);
/*! \brief np.vsplit (axis 0, rank >= 2) into `sections`; views. */
std::vector<NDArray> vsplit(const NDArray& a, index_t sections);
/*! \brief np.vsplit at `indices`; views. */
std::vector<NDArray> vsplit(const NDArray& a, const std::vector<index_t>& indices);
/*! \brief np.dsplit (axis 2, rank >= 3) into `sections`; views. */
std::vector<NDArray> dsplit(const NDArray& a, index_t sections);
/*! \brief np.dsplit at `indices`; views. */
std::vector<NDArray> dsplit(const NDArray& a, const std::vector<index_t>& indices);

// ------------------------------------------------------------------ diagonals and triangles

/*!
 * \brief Read-only view of the diagonal `offset` of the planes (axis1, axis2): those axes are
 *  removed and the diagonal becomes the last one (np.diagonal). Rank >= 2, axis1 != axis2.
 */
NDArray diagonal(const NDArray& a, index_t offset = 0, index_t axis1 = 0, index_t axis2 = 1);
/*!
 * \brief np.diag: of a 1-D array, the square matrix with it on diagonal k (a new array); of a
 *  2-D array, its diagonal k (a read-only view). Other ranks throw.
 */
NDArray diag(const NDArray& v, index_t k = 0);
/*! \brief diag of the flattened input (np.diagflat). */
NDArray diagflat(const NDArray& v, index_t k = 0);
/*!
 * \brief Sums of the diagonals (np.trace): sum of diagonal(a, offset, axis1, axis2) over its
 *  last axis, in `dtype` when given (>= 0), else sum's dtype (integers widen as NumPy).
 */
NDArray trace(const NDArray& a, index_t offset = 0, index_t axis1 = 0, index_t axis2 = 1,
              int dtype = -1);
/*! \brief N x M (M < 0: N) array with ones at and below diagonal k (np.tri). */
NDArray tri(index_t n, index_t m = -1, index_t k = 0, int dtype = kFloat64);
/*! \brief Copy with the elements above diagonal k of the last two axes zeroed (np.tril). */
NDArray tril(const NDArray& m, index_t k = 0);
/*! \brief Copy with the elements below diagonal k of the last two axes zeroed (np.triu). */
NDArray triu(const NDArray& m, index_t k = 0);
/*! \brief n x n identity (np.identity). */
NDArray identity(index_t n, int dtype = kFloat64);

// ------------------------------------------------------------------ pad

/*! \brief np.pad's modes (the callable mode is not supported). */
enum class PadMode {
  kConstant,    ///< constant_values (default 0)
  kEdge,        ///< the edge value
  kLinearRamp,  ///< a ramp from end_values to the edge
  kMaximum,     ///< the maximum of stat_length edge elements
  kMean,        ///< their mean
  kMedian,      ///< their median
  kMinimum,     ///< their minimum
  kReflect,     ///< reflection without the edge
  kSymmetric,   ///< reflection with the edge
  kWrap,        ///< the other end of the axis
  kEmpty        ///< left uninitialised
};
/*! \brief The mode of NumPy's name ("constant", "edge", ...); throws ValueError for others. */
PadMode ParsePadMode(const std::string& name);

/*! \brief (before, after) per axis: counts, stat lengths or values. */
using PadPairs = std::vector<std::pair<index_t, index_t>>;
/*! \brief (before, after) values per axis (constant_values, end_values). */
using PadValues = std::vector<std::pair<double, double>>;

/*! \brief np.pad's keyword arguments; an empty list means NumPy's default. */
struct PadOptions {
  /*! \brief constant mode's values (default 0), converted to a's dtype as an assignment. */
  PadValues constant_values;
  /*! \brief linear_ramp's end values (default 0). */
  PadValues end_values;
  /*! \brief maximum/minimum/mean/median: elements used at each edge (default: all). */
  PadPairs stat_length;
  /*! \brief reflect/symmetric: "odd" extends by 2 * edge - reflection. */
  bool reflect_odd = false;
};

/*!
 * \brief a padded by pad_width[d] = (before, after) elements along each axis d (np.pad): one
 *  pair per axis, each >= 0. Padding an empty axis with a mode other than constant / empty
 *  throws, as NumPy. Integer arrays round mean/median (half to even) and floor ramps.
 */
NDArray pad(const NDArray& a, const PadPairs& pad_width, PadMode mode = PadMode::kConstant,
            const PadOptions& options = PadOptions());

// ------------------------------------------------------------------ flat indices

/*! \brief Out-of-range index handling of ravel_multi_index (NumPy's mode). */
enum class IndexMode {
  kRaise,  ///< out of range throws
  kWrap,   ///< taken modulo the size
  kClip    ///< clamped to [0, size - 1]
};
/*! \brief "raise", "wrap" or "clip"; throws ValueError for others. */
IndexMode ParseIndexMode(const std::string& name);

/*!
 * \brief Flat indices (int64, the broadcast shape of the coordinate arrays) of the coordinates
 *  multi_index[d] in an array of shape dims (np.ravel_multi_index); `modes` has one entry or one
 *  per dimension; `fortran` for order='F'. Coordinate arrays must be integers.
 */
NDArray ravel_multi_index(const std::vector<NDArray>& multi_index, IndexSpan dims,
                          const std::vector<IndexMode>& modes = {IndexMode::kRaise},
                          bool fortran = false);
/*!
 * \brief Coordinate arrays (int64, indices' shape) of flat `indices` in shape dims
 *  (np.unravel_index); indices must be integers in [0, prod(dims)).
 */
std::vector<NDArray> unravel_index(const NDArray& indices, IndexSpan dims, bool fortran = false);

// ------------------------------------------------------------------ bits

/*!
 * \brief Packs the truth of each element into uint8 bits (np.packbits): along `axis`, or over
 *  the flattened array when `flatten`; `little` is bitorder='little'. Integer or bool input.
 */
NDArray packbits(const NDArray& a, bool flatten = true, index_t axis = 0, bool little = false);
/*!
 * \brief Unpacks uint8 elements into bits (np.unpackbits); `count` >= 0 keeps that many bits
 *  (zero-padded), < 0 drops -count bits from the end, `has_count` false keeps all.
 */
NDArray unpackbits(const NDArray& a, bool flatten = true, index_t axis = 0, bool has_count = false,
                   index_t count = 0, bool little = false);

// ------------------------------------------------------------------ dtype views

/*!
 * \brief The same memory seen as dtype `flag` (ndarray.view(dtype)): another itemsize rescales
 *  the last axis, which must then be contiguous with a byte size divisible by the new itemsize
 *  (rank 0 only with equal itemsizes). Writes go to a's memory; read-only stays read-only.
 */
NDArray view_dtype(const NDArray& a, int flag);
/*!
 * \brief Elements of dtype `flag` over the bytes of the 1-D uint8 array `bytes` from byte
 *  `offset`, `count` of them (< 0: all) (np.frombuffer); a view.
 */
NDArray frombuffer(const NDArray& bytes, int flag, index_t count = -1, index_t offset = 0);

}  // namespace shade

#endif  // SHADE_NDARRAY_CONSTRUCT_H_
