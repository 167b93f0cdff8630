/*!
 * \file lazy.h
 * \brief `Expr`: a lazy elementwise expression over NDArrays and weak scalars, evaluated in one
 *  fused pass.
 *
 * `a * b + exp(d)` on NDArrays builds an Expr: a small tree stored inline (no heap memory) whose
 * leaves hold NDArray handles. Nothing is computed until the Expr is evaluated: converted to an
 * NDArray (`NDArray c = a * b + exp(d);`, `.eval()`), written into an existing array
 * (`.eval(out)`, the out= forms) or folded into one (`a += expr`). Evaluation resolves each
 * node's dtype once (NumPy 2 / NEP 50 promotion, per node, as NumPy would evaluate the same
 * expression op by op), broadcasts all leaves to one shape, then runs a single pass of the
 * strided apply engine (threads, dimension collapsing) whose innermost runs are evaluated tile
 * by tile (a few hundred elements) into small stack buffers by the contiguous SIMD kernels of
 * backend/cpu/kernels.h. No full-size temporary is ever allocated.
 *
 * Lifetime: an Expr keeps every array it reads alive by refcount, so `auto e = a * b;` is safe
 * (it may outlive `a` and `b`'s names). Like a view it reads the arrays' elements when it is
 * evaluated, not when it was built.
 *
 * Register program: when every node of an expression computes in its result's float dtype
 * (float32 or float64) without a conversion, the contiguous runs are evaluated a group of SIMD
 * vectors at a time with all intermediate values in registers (one small step function per
 * node, each tail-calling the next) instead of tile by tile through buffers; the values are the
 * same. On Zen 3 (AVX2) `a*b + exp(x) - a/x` runs 1.8x faster in cache that way, and at 2^24
 * elements within 1.03-1.11x of the static expression template (bench/RESULTS.md). Anything
 * else (conversions, comparisons, integer ops, where/clip, strided or broadcast runs, more than
 * four live values) takes the tile evaluator.
 *
 * Capacity: an Expr holds at most kMaxNodes nodes and kMaxArrays distinct arrays (a larger
 * expression throws shade::Error when built; evaluate a part first).
 */
#ifndef SHADE_NDARRAY_LAZY_H_
#define SHADE_NDARRAY_LAZY_H_

#include <array>
#include <new>
#include <utility>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "shade/base/dtype.h"
#include "shade/base/error.h"
#include "shade/ndarray/ndarray.h"
#include "shade/ndarray/op_code.h"
#include "shade/ndarray/promotion.h"

namespace shade {

/*!
 * \brief A weak scalar operand (NEP 50): C++ integers act as Python ints, floating values as
 *  Python floats, bool as a bool array would.
 */
struct WeakScalar {
  /*! \brief kInt / kFloat; kNone means a bool value (a strong bool). */
  WeakKind kind = WeakKind::kInt;
  /*! \brief Integer value when kind is kInt and !big (also the bool value). */
  std::int64_t i = 0;
  /*! \brief Integer value above INT64_MAX (uint64 range) when big. */
  std::uint64_t u = 0;
  /*! \brief True when the integer is above INT64_MAX. */
  bool big = false;
  /*! \brief Floating value when kind is kFloat. */
  double f = 0;

  /*! \brief From any arithmetic C++ value (or half_t / bf16_t, which act as Python floats). */
  template <typename T>
  static WeakScalar From(T v) {
    WeakScalar s;
    if constexpr (std::is_same<T, bool>::value) {
      s.kind = WeakKind::kNone;
      s.i = v ? 1 : 0;
    } else if constexpr (std::is_integral<T>::value) {
      s.kind = WeakKind::kInt;
      if constexpr (std::is_unsigned<T>::value) {
        if (static_cast<std::uint64_t>(v) > static_cast<std::uint64_t>(INT64_MAX)) {
          s.big = true;
          s.u = static_cast<std::uint64_t>(v);
          return s;
        }
      }
      s.i = static_cast<std::int64_t>(v);
    } else {
      s.kind = WeakKind::kFloat;
      s.f = ToD(v);
    }
    return s;
  }

 private:
  template <typename T>
  static double ToD(T v) {
    if constexpr (kIsFloat16<T>) {
      return static_cast<double>(static_cast<float>(v));
    } else {
      return static_cast<double>(v);
    }
  }
};

static_assert(std::is_trivially_copyable<WeakScalar>::value, "WeakScalar is copied as bytes");

/*! \brief The lazy expression (see the file comment). */
class Expr {
 public:
  /*! \brief Largest number of nodes (leaves included). */
  static constexpr int kMaxNodes = 24;
  /*! \brief Largest number of array leaves. */
  static constexpr int kMaxArrays = 8;
  /*! \brief Largest number of scalar leaves. */
  static constexpr int kMaxScalars = 8;

  /*! \brief What a node is. */
  enum class NodeKind : std::uint8_t { kArray, kScalar, kOp };
  /*! \brief One node; children always come before their parent. */
  struct Node {
    NodeKind kind;            //!< leaf or op
    OpCode op;                //!< the op when kind is kOp
    std::int8_t arg[3];       //!< child node indices
    std::int8_t index;        //!< array or scalar slot of a leaf
  };

  /*! \brief A leaf reading `a` (which must be defined). */
  Expr(const NDArray& a);  // NOLINT(runtime/explicit): NDArrays are expressions
  /*! \brief A weak scalar leaf. */
  template <typename T, typename = std::enable_if_t<std::is_arithmetic<T>::value || kIsFloat16<T>>>
  Expr(T v) : Expr(WeakScalar::From(v)) {}  // NOLINT(runtime/explicit): scalars are operands
  /*! \brief A weak scalar leaf. */
  explicit Expr(const WeakScalar& s);
  /*! \brief Copies the tree; the arrays are shared (refcount). */
  Expr(const Expr& o) { CopyFrom(o); }
  /*! \brief Moves the tree. */
  Expr(Expr&& o) noexcept { MoveFrom(std::move(o)); }
  /*! \brief Copy assignment. */
  Expr& operator=(const Expr& o) {
    if (this != &o) {
      Expr tmp(o);
      Clear();
      MoveFrom(std::move(tmp));
    }
    return *this;
  }
  /*! \brief Move assignment. */
  Expr& operator=(Expr&& o) noexcept {
    if (this != &o) {
      Clear();
      MoveFrom(std::move(o));
    }
    return *this;
  }
  ~Expr() { Clear(); }

  /*! \brief The node `op(args...)` (checks the arity). */
  static Expr Make(OpCode op, Expr a);
  /*! \brief Binary node. */
  static Expr Make(OpCode op, Expr a, Expr b);
  /*! \brief Ternary node. */
  static Expr Make(OpCode op, Expr a, Expr b, Expr c);
  /*!
   * \brief The binary node `op(a, b)` over two arrays, written in place (three nodes, one or two
   *  array slots): what Make(op, Expr(a), Expr(b)) builds, without the leaf Exprs and moves.
   */
  static Expr MakeArrays(OpCode op, const NDArray& a, const NDArray& b);

  /*! \brief Evaluates into a new contiguous NDArray of the result dtype and broadcast shape. */
  NDArray eval() const;
  /*! \brief Evaluation on conversion: `NDArray c = a * b + exp(d);`. */
  operator NDArray() const { return eval(); }  // NOLINT(runtime/explicit)
  /*!
   * \brief Evaluates into `out` (NumPy's out=): out must have exactly the broadcast shape, a
   *  dtype the result casts to under same_kind, and no overlapping elements. Inputs that share
   *  memory with out other than element-for-element are read from a copy. Returns out.
   */
  const NDArray& eval(const NDArray& out) const;
  /*! \brief The result dtype flag (resolves dtypes, computes nothing). */
  int dtype() const;
  /*! \brief The broadcast result shape (computes nothing). */
  TShape shape() const;

  /*! \brief Number of nodes. */
  int num_nodes() const noexcept { return num_nodes_; }
  /*! \brief Node i. */
  const Node& node(int i) const noexcept { return nodes_[i]; }
  /*! \brief Array leaf slot i. */
  const NDArray& array(int i) const noexcept { return arrays()[i]; }
  /*! \brief Number of array slots. */
  int num_arrays() const noexcept { return num_arrays_; }
  /*! \brief Scalar leaf slot i. */
  const WeakScalar& scalar(int i) const noexcept { return scalars()[i]; }

 private:
  // True when grad mode is on and an array leaf carries autograd state (ndarray/grad_hook.h).
  bool GradTrackedLeaf() const noexcept;
  Expr() noexcept {}  // NOLINT: slots are constructed as they are filled
  // Appends `o`'s nodes after this one's; returns the index of o's root here.
  int Append(Expr&& o);
  NDArray* arrays() noexcept { return reinterpret_cast<NDArray*>(array_storage_); }
  const NDArray* arrays() const noexcept { return reinterpret_cast<const NDArray*>(array_storage_); }
  WeakScalar* scalars() noexcept { return reinterpret_cast<WeakScalar*>(scalar_storage_); }
  const WeakScalar* scalars() const noexcept {
    return reinterpret_cast<const WeakScalar*>(scalar_storage_);
  }
  static void CheckNotEmpty(const Expr& o);
  void CopyNodesAndScalars(const Expr& o) noexcept;
  void CopyFrom(const Expr& o);
  // Leaves `o` empty (no nodes, nothing to release).
  void MoveFrom(Expr&& o) noexcept;
  void Clear() noexcept;

  // Only the first num_nodes_ / num_arrays_ / num_scalars_ slots are live: building, moving
  // and destroying an Expr touches the arrays and scalars it uses, not its capacity (a
  // 4-element add must cost tens of nanoseconds, not hundreds).
  Node nodes_[kMaxNodes];
  alignas(NDArray) unsigned char array_storage_[kMaxArrays * sizeof(NDArray)];
  alignas(WeakScalar) unsigned char scalar_storage_[kMaxScalars * sizeof(WeakScalar)];
  std::int8_t num_nodes_ = 0;
  std::int8_t num_arrays_ = 0;
  std::int8_t num_scalars_ = 0;
};

namespace detail {
/*! \brief Testing hook: whether evaluation may use the register program (default true). */
void SetRegisterProgramEnabled(bool enabled);
/*! \brief Testing hook: runs the calling thread has evaluated with the register program. */
std::int64_t RegisterProgramRuns();
}  // namespace detail

}  // namespace shade

#endif  // SHADE_NDARRAY_LAZY_H_
