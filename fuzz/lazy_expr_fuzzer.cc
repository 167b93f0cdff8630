// libFuzzer target: random lazy-expression trees (Expr) over float32/float64 arrays of
// broadcast-compatible shapes and layouts (contiguous, transposed storage, strided slices) and
// weak scalars, evaluated into a new array or into an existing one that may be one of the
// operands. Each element is checked against a reference that evaluates the tree element by
// element in double and rounds each node to its NumPy (NEP 50) result dtype.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "shade/base/dtype.h"
#include "shade/base/error.h"
#include "shade/ndarray/lazy.h"
#include "shade/ndarray/ndarray.h"
#include "shade/ndarray/ops.h"

namespace {

using shade::index_t;
using Vec = std::vector<index_t>;

struct ByteReader {
  const std::uint8_t* p;
  std::size_t n;
  std::uint8_t Byte() {
    if (n == 0) return 0;
    --n;
    return *p++;
  }
};

// A value from one byte: quarters in [-32, 32), with NaN, inf and -0 now and then.
double ValueOf(std::uint8_t b) {
  if (b == 0x7f) return std::nan("");
  if (b == 0x7e) return INFINITY;
  if (b == 0x80) return -0.0;
  return static_cast<std::int8_t>(b) / 4.0;
}

struct Leaf {
  shade::NDArray array;
  Vec sizes;                   // the leaf's own shape (right-aligned against the result)
  std::vector<double> values;  // row-major
  bool is_f32;
};

enum class Kind { kLeaf, kScalar, kUnary, kBinary };
struct RefNode {
  Kind kind;
  int op;    // index into the op tables below
  int a, b;  // children
  int leaf;  // leaf index
  double scalar;
  bool weak;  // only scalars below: a Python-scalar subtree
  bool is_f32;
};

constexpr int kNumBinary = 6, kNumUnary = 4;

double Round(double v, bool f32) {
  return f32 ? static_cast<double>(static_cast<float>(v)) : v;
}

double Binary(int op, double x, double y) {
  switch (op) {
    case 0:
      return x + y;
    case 1:
      return x - y;
    case 2:
      return x * y;
    case 3:
      return x / y;
    case 4:
      return std::isnan(x) || std::isnan(y) ? NAN : (x > y ? x : y);
    default:
      return std::isnan(x) || std::isnan(y) ? NAN : (x < y ? x : y);
  }
}

double Unary(int op, double x) {
  switch (op) {
    case 0:
      return -x;
    case 1:
      return std::fabs(x);
    case 2:
      return std::sqrt(x);
    default:
      return std::floor(x);
  }
}

shade::Expr BuildBinary(int op, shade::Expr x, shade::Expr y) {
  switch (op) {
    case 0:
      return x + y;
    case 1:
      return x - y;
    case 2:
      return x * y;
    case 3:
      return x / y;
    case 4:
      return shade::maximum(x, y);
    default:
      return shade::minimum(x, y);
  }
}

shade::Expr BuildUnary(int op, shade::Expr x) {
  switch (op) {
    case 0:
      return -x;
    case 1:
      return shade::absolute(x);
    case 2:
      return shade::sqrt(x);
    default:
      return shade::floor(x);
  }
}

struct Builder {
  ByteReader& in;
  std::vector<Leaf>& leaves;
  std::vector<RefNode> nodes;
  int budget;  // nodes left

  int AddLeaf() {
    const int li = in.Byte() % static_cast<int>(leaves.size());
    nodes.push_back({Kind::kLeaf, 0, -1, -1, li, 0, false, leaves[li].is_f32});
    --budget;
    return static_cast<int>(nodes.size()) - 1;
  }
  // Returns the root index of a subtree; `need_array` forbids a scalar-only subtree.
  int Build(int depth, bool need_array) {
    const std::uint8_t c = in.Byte();
    if (depth >= 5 || budget < 3 || c % 4 == 0) {
      if (!need_array && c % 8 == 4) {
        nodes.push_back({Kind::kScalar, 0, -1, -1, -1, ValueOf(in.Byte()), true, false});
        --budget;
        return static_cast<int>(nodes.size()) - 1;
      }
      return AddLeaf();
    }
    // Build is only entered with budget >= 1 and never uses more: an op takes its own node
    // first, a binary op also holds one back for its second operand while the first is built.
    if (c % 4 == 1) {
      const int op = in.Byte() % kNumUnary;
      --budget;
      const int a = Build(depth + 1, true);
      nodes.push_back({Kind::kUnary, op, a, -1, -1, 0, false, nodes[a].is_f32});
      return static_cast<int>(nodes.size()) - 1;
    }
    const int op = in.Byte() % kNumBinary;
    budget -= 2;
    const int a = Build(depth + 1, need_array && c % 2 == 0);
    ++budget;
    const int b = Build(depth + 1, nodes[a].weak);  // never two Python scalars
    const RefNode &na = nodes[a], &nb = nodes[b];
    // NEP 50: a weak scalar takes the other side's dtype; float32 only when both are float32.
    const bool f32 = na.weak ? nb.is_f32 : nb.weak ? na.is_f32 : (na.is_f32 && nb.is_f32);
    nodes.push_back({Kind::kBinary, op, a, b, -1, 0, false, f32});
    return static_cast<int>(nodes.size()) - 1;
  }
  shade::Expr ToExpr(int i) const {
    const RefNode& n = nodes[i];
    switch (n.kind) {
      case Kind::kLeaf:
        return shade::Expr(leaves[n.leaf].array);
      case Kind::kScalar:
        return shade::Expr(n.scalar);
      case Kind::kUnary:
        return BuildUnary(n.op, ToExpr(n.a));
      default:
        return BuildBinary(n.op, ToExpr(n.a), ToExpr(n.b));
    }
  }
  // The reference value at result index `idx` (rank `rank`).
  double Eval(int i, const Vec& idx) const {
    const RefNode& n = nodes[i];
    switch (n.kind) {
      case Kind::kLeaf: {
        const Leaf& l = leaves[n.leaf];
        const std::size_t lead = idx.size() - l.sizes.size();
        index_t flat = 0;
        for (std::size_t d = 0; d < l.sizes.size(); ++d) {
          flat = flat * l.sizes[d] + (l.sizes[d] == 1 ? 0 : idx[lead + d]);
        }
        return l.values[flat];
      }
      case Kind::kScalar:
        return n.scalar;
      case Kind::kUnary:
        return Round(Unary(n.op, Eval(n.a, idx)), n.is_f32);
      default: {
        // The weak side is converted to the node's dtype first (all test scalars are exact).
        return Round(Binary(n.op, Eval(n.a, idx), Eval(n.b, idx)), n.is_f32);
      }
    }
  }
};

bool Same(double x, double y) {
  return (std::isnan(x) && std::isnan(y)) || x == y;
}

// Makes a leaf of shape `sizes` with the given layout, filled from the bytes.
Leaf MakeLeaf(ByteReader& in, const Vec& sizes, bool f32, int layout) {
  const int type_flag = f32 ? shade::kFloat32 : shade::kFloat64;
  Leaf leaf{shade::NDArray(), sizes, {}, f32};
  index_t numel = 1;
  for (index_t s : sizes) numel *= s;
  leaf.values.resize(static_cast<std::size_t>(numel));
  for (double& v : leaf.values) v = Round(ValueOf(in.Byte()), f32);
  const int rank = static_cast<int>(sizes.size());
  if (layout == 1 && rank >= 2) {  // storage in reversed dimension order, permuted back
    Vec rev(sizes.rbegin(), sizes.rend()), perm(static_cast<std::size_t>(rank));
    for (int d = 0; d < rank; ++d) perm[d] = rank - 1 - d;
    const shade::NDArray store =
        shade::NDArray::Empty(shade::IndexSpan(rev.data(), rev.size()), type_flag);
    leaf.array = store.permute(shade::IndexSpan(perm.data(), perm.size()));
  } else if (layout == 2 && rank >= 1) {  // every other element of a twice-as-long last axis
    Vec wide = sizes;
    wide.back() = 2 * sizes.back();
    const shade::NDArray store =
        shade::NDArray::Empty(shade::IndexSpan(wide.data(), wide.size()), type_flag);
    store.Fill(12345.0);
    leaf.array = store.slice(rank - 1, 0, wide.back(), 2);
  } else {
    leaf.array = shade::NDArray::Empty(shade::IndexSpan(sizes.data(), sizes.size()), type_flag);
  }
  Vec idx(sizes.size(), 0);
  for (index_t k = 0; k < numel; ++k) {
    leaf.array.set(shade::IndexSpan(idx.data(), idx.size()), leaf.values[k]);
    for (int d = rank - 1; d >= 0; --d) {
      if (++idx[d] < sizes[d]) break;
      idx[d] = 0;
    }
  }
  return leaf;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ByteReader in{data, size};
  Vec shape(static_cast<std::size_t>(in.Byte() % 4));
  for (index_t& s : shape) s = in.Byte() % 5;
  std::vector<Leaf> leaves;
  const int num_leaves = 1 + in.Byte() % 4;
  for (int i = 0; i < num_leaves; ++i) {
    const std::uint8_t c = in.Byte();
    // Drop some leading dimensions and set some others to 1 (broadcast).
    const std::size_t drop = i == 0 ? 0 : c % (shape.size() + 1);
    Vec sizes(shape.begin() + static_cast<std::ptrdiff_t>(drop), shape.end());
    const std::uint8_t ones = in.Byte();
    for (std::size_t d = 0; d < sizes.size(); ++d) {
      if (i > 0 && (ones >> d) & 1) sizes[d] = 1;
    }
    leaves.push_back(MakeLeaf(in, sizes, (c / 8) % 2 == 0, (c / 16) % 3));
  }
  // 15 nodes: within kMaxNodes, and at most 8 leaves (kMaxArrays, kMaxScalars).
  Builder b{in, leaves, {}, 15};
  const int root = b.Build(0, true);
  // The result shape broadcasts the leaves the tree uses (not necessarily every leaf made).
  std::size_t rank = 0;
  for (const RefNode& n : b.nodes) {
    if (n.kind == Kind::kLeaf) rank = std::max(rank, leaves[n.leaf].sizes.size());
  }
  Vec out_shape(rank, 1);
  for (const RefNode& n : b.nodes) {
    if (n.kind != Kind::kLeaf) continue;
    const Vec& ls = leaves[n.leaf].sizes;
    for (std::size_t d = 0; d < ls.size(); ++d) {
      if (ls[d] != 1) out_shape[rank - ls.size() + d] = ls[d];
    }
  }
  shape = out_shape;
  const std::uint8_t mode = in.Byte();
  shade::NDArray result;
  bool result_f32 = b.nodes[root].is_f32;
  try {
    const shade::Expr expr = b.ToExpr(root);
    if (expr.dtype() != (result_f32 ? shade::kFloat32 : shade::kFloat64)) __builtin_trap();
    if (mode % 3 == 0) {
      result = expr.eval();
    } else {
      // Into an existing array of the full shape: a leaf (aliasing its own operand) when one has
      // the full shape, else a fresh one; float32 out may take a float64 result (same_kind).
      result = shade::NDArray();
      if (mode % 3 == 2) {
        for (const Leaf& l : leaves) {
          if (l.sizes == shape && (l.is_f32 == result_f32 || l.is_f32)) result = l.array;
        }
      }
      if (!result.defined()) {
        result = shade::NDArray::Empty(shade::IndexSpan(shape.data(), shape.size()),
                                       (mode / 3) % 2 ? shade::kFloat32 : shade::kFloat64);
      }
      result_f32 = result.dtype().flag() == shade::kFloat32;
      expr.eval(result);
    }
  } catch (const shade::Error& e) {
    std::fprintf(stderr, "lazy_expr_fuzzer: a valid tree was refused: %s\n", e.what());
    __builtin_trap();  // every tree built here is valid
  }
  if (result.ndim() != static_cast<int>(shape.size())) __builtin_trap();
  index_t numel = 1;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (result.sizes()[d] != shape[d]) __builtin_trap();
    numel *= shape[d];
  }
  Vec idx(shape.size(), 0);
  for (index_t k = 0; k < numel; ++k) {
    const double want = Round(b.Eval(root, idx), result_f32);
    if (!Same(result.get(shade::IndexSpan(idx.data(), idx.size())), want)) __builtin_trap();
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return 0;
}
