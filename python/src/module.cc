// The `shade._shade` extension module: shade.ndarray, the elementwise ops (every OpCode of the
// registry, bound by its name), operators, reductions, products, creation, shape ops, printing,
// .npy/.npz I/O and threads. Kernels run with the GIL released.
#include <pybind11/stl.h>

#include <cmath>
#include <cstdio>
#include <deque>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "shade/backend/cpu/parallel.h"
#include "shade/io/npy.h"
#include "shade/io/npz.h"
#include "shade/memory/alloc.h"
#include "shade/ndarray/creation.h"
#include "shade/ndarray/indexing.h"
#include "shade/ndarray/linalg.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/print.h"
#include "shade/ndarray/shape_ops.h"
#include "shade_py.h"

namespace shade {
namespace python {
namespace {
py::object NotImplemented() {
  return py::reinterpret_borrow<py::object>(Py_NotImplemented);
}
}  // namespace

// Builds op(args[0..n)) and wraps it; a pending operand that would overflow the expression's
// capacity is evaluated first. Operands that are no array-like give NotImplemented unless
// `strict` (then TypeError).
py::object Apply(OpCode op, const py::handle* args, int n, bool strict) {
  PyArray* arrays[3] = {nullptr, nullptr, nullptr};
  bool any_pending = false;
  for (int i = 0; i < n; ++i) {
    arrays[i] = AsPyArray(args[i]);
    any_pending |= arrays[i] != nullptr && arrays[i]->pending();
  }
  // The common case, two evaluated arrays: the node is built in place.
  if (n == 2 && arrays[0] != nullptr && arrays[1] != nullptr && !any_pending) {
    return WrapExpr(Expr::MakeArrays(op, arrays[0]->array(), arrays[1]->array()));
  }
  std::optional<Expr> ops[3];
  for (int i = 0; i < n; ++i) {
    ops[i] = ToOperand(args[i], strict);
    if (!ops[i]) return NotImplemented();
  }
  auto make = [&]() {
    switch (n) {
      case 1:
        return Expr::Make(op, std::move(*ops[0]));
      case 2:
        return Expr::Make(op, std::move(*ops[0]), std::move(*ops[1]));
      default:
        return Expr::Make(op, std::move(*ops[0]), std::move(*ops[1]), std::move(*ops[2]));
    }
  };
  if (!any_pending) return WrapExpr(make());
  try {
    return WrapExpr(make());
  } catch (const Error&) {
    // Too many nodes or arrays for one expression: run the pending parts and retry (a genuine
    // dtype or shape error is raised again by the retry).
    for (int i = 0; i < n; ++i)
      ops[i] = arrays[i] != nullptr ? Expr(arrays[i]->Get()) : ToOperand(args[i], strict);
    return WrapExpr(make());
  }
}

// op(args...) written into `out` (NumPy's out=, same_kind casting); returns out.
py::object ApplyInto(OpCode op, const py::handle* args, int n_args, py::handle out) {
  PyArray* target = AsPyArray(out);
  if (target == nullptr) throw py::type_error("out= must be a shade.ndarray");
  EvaluateAllPending();  // expressions read their inputs when they run: before this write
  std::optional<Expr> ops[3];
  const int n = n_args;
  for (int i = 0; i < n; ++i) ops[i] = ToOperand(args[i], true);
  const NDArray& dst = target->Get();
  Expr e = n == 1   ? Expr::Make(op, std::move(*ops[0]))
           : n == 2 ? Expr::Make(op, std::move(*ops[0]), std::move(*ops[1]))
                    : Expr::Make(op, std::move(*ops[0]), std::move(*ops[1]), std::move(*ops[2]));
  {
    py::gil_scoped_release release;
    e.eval(dst);
  }
  CountEvaluation();
  return py::reinterpret_borrow<py::object>(out);
}

// NumPy returns scalars for 0-d results of reductions and products.
py::object ScalarOrArray(NDArray r) {
  if (r.ndim() == 0) return ElementAsScalar(r);
  return Wrap(std::move(r));
}

// The same with the operands as a braced list (overloads in this namespace: an overload in the
// anonymous namespace would hide the pointer forms above).
py::object Apply(OpCode op, std::initializer_list<py::handle> args, bool strict) {
  return Apply(op, args.begin(), static_cast<int>(args.size()), strict);
}

py::object ApplyInto(OpCode op, std::initializer_list<py::handle> args, py::handle out) {
  return ApplyInto(op, args.begin(), static_cast<int>(args.size()), out);
}

namespace {

// `a op= b`: evaluated into a's own elements.
py::object InPlace(OpCode op, py::handle self, py::handle other) {
  EvaluateAllPending();
  if (!ToOperand(other, false)) return NotImplemented();
  return ApplyInto(op, {self, other}, self);
}

// Raw number and comparison slots: Python calls them for `a + b` (either side a shade array)
// without pybind11's argument dispatch, which costs more than a small op itself.
template <OpCode kOp>
PyObject* BinarySlot(PyObject* a, PyObject* b) {
  try {
    const py::handle args[2] = {a, b};
    return Apply(kOp, args, 2, false).release().ptr();
  } catch (...) {
    SetPythonError();
    return nullptr;
  }
}

template <OpCode kOp>
PyObject* InPlaceSlot(PyObject* a, PyObject* b) {
  try {
    return InPlace(kOp, a, b).release().ptr();
  } catch (...) {
    SetPythonError();
    return nullptr;
  }
}

PyObject* RichCompareSlot(PyObject* a, PyObject* b, int op) {
  static constexpr OpCode kCodes[] = {OpCode::kLess,     OpCode::kLessEqual, OpCode::kEqual,
                                      OpCode::kNotEqual, OpCode::kGreater,   OpCode::kGreaterEqual};
  try {
    const py::handle args[2] = {a, b};
    return Apply(kCodes[op], args, 2, false).release().ptr();
  } catch (...) {
    SetPythonError();
    return nullptr;
  }
}

template <typename F>
NDArray WithoutGil(F&& f) {
  py::gil_scoped_release release;
  return f();
}

enum class Reduction { kSum, kProd, kMean, kMax, kMin, kAll, kAny, kVar, kStd };

py::object Reduce(Reduction kind, py::handle a_h, py::handle axis, py::handle dtype, bool keepdims,
                  index_t ddof) {
  NDArray a = AsNDArray(a_h);
  const int flag = ParseDType(dtype);
  if (flag >= 0) a = astype(a, flag);  // NumPy accumulates in the requested dtype
  const AxisSet axes = ParseAxes(axis);
  return ScalarOrArray(WithoutGil([&]() {
    switch (kind) {
      case Reduction::kSum:
        return sum(a, axes, keepdims);
      case Reduction::kProd:
        return prod(a, axes, keepdims);
      case Reduction::kMean:
        return mean(a, axes, keepdims);
      case Reduction::kMax:
        return max(a, axes, keepdims);
      case Reduction::kMin:
        return min(a, axes, keepdims);
      case Reduction::kAll:
        return all(a, axes, keepdims);
      case Reduction::kAny:
        return any(a, axes, keepdims);
      case Reduction::kVar:
        return var(a, axes, ddof, keepdims);
      default:
        return shade::std(a, axes, ddof, keepdims);
    }
  }));
}

py::object ArgReduce(bool is_max, py::handle a_h, py::handle axis, bool keepdims) {
  const NDArray a = AsNDArray(a_h);
  // Parsed with the GIL held: a failed cast raises a Python error, which needs the GIL (casting
  // inside WithoutGil crashed the process for axis=()).
  const bool all = axis.is_none();
  const index_t ax = all ? 0 : ParseIndex(axis, "axis");
  return ScalarOrArray(WithoutGil([&]() {
    if (all) return is_max ? argmax(a) : argmin(a);
    return is_max ? argmax(a, ax, keepdims) : argmin(a, ax, keepdims);
  }));
}

std::vector<NDArray> AsNDArrays(const std::vector<py::handle>& objects) {
  std::vector<NDArray> arrays;
  for (py::handle h : objects) arrays.push_back(AsNDArray(h));
  return arrays;
}

// A matrix product of two array-likes, run without the GIL; 0-d results as NumPy scalars.
py::object Product(NDArray (*product)(const NDArray&, const NDArray&), py::handle a, py::handle b) {
  const NDArray x = AsNDArray(a), y = AsNDArray(b);
  return ScalarOrArray(WithoutGil([&]() { return product(x, y); }));
}

NDArray MatMul(const NDArray& a, const NDArray& b) {
  return matmul(a, b);
}
NDArray Dot(const NDArray& a, const NDArray& b) {
  return dot(a, b);
}

// a.permute(axes); None (or no axes) reverses them (NumPy's transpose default).
py::object Transposed(const NDArray& a, std::vector<index_t> axes) {
  if (axes.empty()) {
    for (index_t d = a.ndim() - 1; d >= 0; --d) axes.push_back(d);
  }
  return Wrap(a.permute(axes));
}

std::vector<index_t> ShapeArgs(const py::args& args) {
  if (args.size() == 1) return ParseShape(args[0]);
  return args.cast<std::vector<index_t>>();
}

int DTypeOr(py::handle dtype, int fallback) {
  const int f = ParseDType(dtype);
  return f >= 0 ? f : fallback;
}

// np.full's dtype for a fill value of no stated dtype.
int ScalarDType(py::handle v) {
  if (PyBool_Check(v.ptr())) return kBool;
  if (PyLong_Check(v.ptr())) return kInt64;
  if (PyFloat_Check(v.ptr())) return kFloat64;
  return AsNDArray(v).type_flag();
}

NDArray Full(const std::vector<index_t>& shape, py::handle value, int flag) {
  if (flag < 0) flag = ScalarDType(value);
  if (PyLong_Check(value.ptr()) && !PyBool_Check(value.ptr()) &&
      KindOf(flag) != DTypeKind::kFloat) {
    return full_int(shape, value.cast<std::int64_t>(), flag);
  }
  NDArray r = NDArray::Empty(shape, flag);
  r.copy_(AsNDArray(value));
  return r;
}

NDArray Arange(py::handle start, py::handle stop, py::handle step, py::handle dtype) {
  if (stop.is_none()) return Arange(py::int_(0), start, step, dtype);
  py::object st = step.is_none() ? py::int_(1) : py::reinterpret_borrow<py::object>(step);
  const int flag = ParseDType(dtype);
  auto is_int = [](py::handle h) { return PyLong_Check(h.ptr()) != 0; };
  if (is_int(start) && is_int(stop) && is_int(st)) {
    return detail::ArangeInt(ParseIndex(start, "start"), ParseIndex(stop, "stop"),
                             ParseIndex(st, "step"), flag < 0 ? kInt64 : flag);
  }
  return detail::ArangeFloat(start.cast<double>(), stop.cast<double>(), st.cast<double>(),
                             flag < 0 ? kFloat64 : flag);
}

py::object Load(const std::string& path) {
  char magic[2] = {0, 0};
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      PyErr_SetFromErrnoWithFilename(PyExc_OSError, path.c_str());
      throw py::error_already_set();
    }
    in.read(magic, 2);
  }
  if (magic[0] == 'P' && magic[1] == 'K') {
    std::map<std::string, NDArray> arrays;
    {
      py::gil_scoped_release release;
      arrays = io::LoadNpz(path);
    }
    py::dict d;
    for (auto& kv : arrays) d[py::str(kv.first)] = Wrap(std::move(kv.second));
    return d;
  }
  return Wrap(WithoutGil([&]() { return io::LoadNpy(path); }));
}

#define SHADE_PY_BINARY_OPERATORS(X) \
  X(add, kAdd)                       \
  X(sub, kSubtract)                  \
  X(mul, kMultiply)                  \
  X(truediv, kTrueDivide)            \
  X(floordiv, kFloorDivide)          \
  X(mod, kRemainder) X(pow, kPower) X(and, kBitwiseAnd) X(or, kBitwiseOr) X(xor, kBitwiseXor)

// The operators: binary, reflected and in-place forms of each (NumPy's operator -> ufunc), as
// methods (for explicit calls) and as the type's raw slots (what `a + b` runs; see BinarySlot).
void BindOperators(py::class_<PyArray>& cls) {
#define SHADE_PY_BIND_OPERATOR(name, code)                                                      \
  cls.def(                                                                                      \
      "__" #name "__",                                                                          \
      [](py::handle a, py::handle x) {                                                          \
        return Apply(OpCode::code, {a, x}, false);                                              \
      },                                                                                        \
      py::is_operator());                                                                       \
  cls.def(                                                                                      \
      "__r" #name "__",                                                                         \
      [](py::handle a, py::handle x) {                                                          \
        return Apply(OpCode::code, {x, a}, false);                                              \
      },                                                                                        \
      py::is_operator());                                                                       \
  cls.def(                                                                                      \
      "__i" #name "__", [](py::handle a, py::handle x) { return InPlace(OpCode::code, a, x); }, \
      py::is_operator());
  SHADE_PY_BINARY_OPERATORS(SHADE_PY_BIND_OPERATOR)
#undef SHADE_PY_BIND_OPERATOR
  const std::pair<const char*, OpCode> compare[] = {
      {"__eq__", OpCode::kEqual},   {"__ne__", OpCode::kNotEqual},
      {"__lt__", OpCode::kLess},    {"__le__", OpCode::kLessEqual},
      {"__gt__", OpCode::kGreater}, {"__ge__", OpCode::kGreaterEqual}};
  for (const auto& c : compare) {
    const OpCode op = c.second;
    cls.def(
        c.first,
        [op](py::handle a, py::handle x) {
          return Apply(op, {a, x}, false);
        },
        py::is_operator());
  }
  cls.attr("__hash__") = py::none();
  cls.def("__neg__", [](py::handle a) { return Apply(OpCode::kNegative, {a}, true); });
  cls.def("__abs__", [](py::handle a) { return Apply(OpCode::kAbs, {a}, true); });
  cls.def("__invert__", [](py::handle a) { return Apply(OpCode::kBitwiseNot, {a}, true); });
  cls.def("__pos__", [](PyArray& a) { return Wrap(a.Get().Clone()); });
  cls.def(
      "__matmul__",
      [](py::handle a, py::handle b) -> py::object {
        return ToOperand(b, false) ? Product(&MatMul, a, b) : NotImplemented();
      },
      py::is_operator());
  cls.def(
      "__rmatmul__",
      [](py::handle a, py::handle b) -> py::object {
        return ToOperand(b, false) ? Product(&MatMul, b, a) : NotImplemented();
      },
      py::is_operator());
}

// Installs the raw slots; called last, since setting a dunder attribute on the type afterwards
// would make Python regenerate the slot.
void InstallOperatorSlots(py::class_<PyArray>& cls) {
  auto* type = reinterpret_cast<PyHeapTypeObject*>(cls.ptr());
  PyNumberMethods& nb = type->as_number;
  nb.nb_add = &BinarySlot<OpCode::kAdd>;
  nb.nb_subtract = &BinarySlot<OpCode::kSubtract>;
  nb.nb_multiply = &BinarySlot<OpCode::kMultiply>;
  nb.nb_true_divide = &BinarySlot<OpCode::kTrueDivide>;
  nb.nb_floor_divide = &BinarySlot<OpCode::kFloorDivide>;
  nb.nb_remainder = &BinarySlot<OpCode::kRemainder>;
  nb.nb_and = &BinarySlot<OpCode::kBitwiseAnd>;
  nb.nb_or = &BinarySlot<OpCode::kBitwiseOr>;
  nb.nb_xor = &BinarySlot<OpCode::kBitwiseXor>;
  nb.nb_inplace_add = &InPlaceSlot<OpCode::kAdd>;
  nb.nb_inplace_subtract = &InPlaceSlot<OpCode::kSubtract>;
  nb.nb_inplace_multiply = &InPlaceSlot<OpCode::kMultiply>;
  nb.nb_inplace_true_divide = &InPlaceSlot<OpCode::kTrueDivide>;
  nb.nb_inplace_floor_divide = &InPlaceSlot<OpCode::kFloorDivide>;
  nb.nb_inplace_remainder = &InPlaceSlot<OpCode::kRemainder>;
  nb.nb_inplace_and = &InPlaceSlot<OpCode::kBitwiseAnd>;
  nb.nb_inplace_or = &InPlaceSlot<OpCode::kBitwiseOr>;
  nb.nb_inplace_xor = &InPlaceSlot<OpCode::kBitwiseXor>;
  type->ht_type.tp_richcompare = &RichCompareSlot;
}

void BindReductions(py::module_& m, py::class_<PyArray>& cls) {
  const std::pair<const char*, Reduction> plain[] = {
      {"sum", Reduction::kSum},  {"prod", Reduction::kProd}, {"mean", Reduction::kMean},
      {"max", Reduction::kMax},  {"min", Reduction::kMin},   {"amax", Reduction::kMax},
      {"amin", Reduction::kMin}, {"all", Reduction::kAll},   {"any", Reduction::kAny},
  };
  // NumPy-style docstrings: one summary each, the common parameter and return sections once.
  const char* const kAxisParams =
      "a : array_like\n"
      "axis : None, int or tuple of ints, optional\n"
      "dtype : dtype, optional\n";
  const char* const kReductionReturns = "shade.ndarray, or a NumPy scalar for a 0-d result";
  // pybind11 keeps the docstring pointers: the composed texts live as long as the module.
  static std::deque<std::string> docs;  // push_back never moves the earlier strings
  auto reduction_doc = [&](const char* summary, const char* extra_params) {
    docs.push_back(std::string(summary) + "\n\nParameters\n----------\n" + kAxisParams +
                   extra_params + "keepdims : bool, optional\n\nReturns\n-------\n" +
                   kReductionReturns);
    return docs.back().c_str();
  };
  const char* const plain_summaries[] = {
      "Sum of the elements over the given axes (numpy.sum).",
      "Product of the elements over the given axes (numpy.prod).",
      "Arithmetic mean over the given axes (numpy.mean).",
      "Maximum over the given axes (numpy.max); NaN propagates.",
      "Minimum over the given axes (numpy.min); NaN propagates.",
      "Maximum over the given axes (numpy.amax, alias of max).",
      "Minimum over the given axes (numpy.amin, alias of min).",
      "Whether every element over the given axes is true (numpy.all).",
      "Whether any element over the given axes is true (numpy.any).",
  };
  static_assert(std::size(plain_summaries) == std::size(plain), "one summary per reduction");
  const char* plain_docs[std::size(plain)];
  for (std::size_t i = 0; i < std::size(plain); ++i) {
    plain_docs[i] = reduction_doc(plain_summaries[i], "");
  }
  std::size_t doc_index = 0;
  for (const auto& r : plain) {
    const Reduction kind = r.second;
    auto f = [kind](py::handle a, py::handle axis, py::handle dtype, bool keepdims) {
      return Reduce(kind, a, axis, dtype, keepdims, 0);
    };
    m.def(r.first, f, py::arg("a"), py::arg("axis") = py::none(), py::arg("dtype") = py::none(),
          py::arg("keepdims") = false, plain_docs[doc_index++]);
    cls.def(r.first, f, py::arg("axis") = py::none(), py::arg("dtype") = py::none(),
            py::arg("keepdims") = false);
  }
  const std::pair<const char*, Reduction> spread[] = {{"var", Reduction::kVar},
                                                      {"std", Reduction::kStd}};
  const char* const spread_docs[] = {
      reduction_doc("Variance over the given axes (numpy.var).",
                    "ddof : int, optional\n    Divisor is N - ddof.\n"),
      reduction_doc("Standard deviation over the given axes (numpy.std).",
                    "ddof : int, optional\n    Divisor is N - ddof.\n")};
  doc_index = 0;
  for (const auto& r : spread) {
    const Reduction kind = r.second;
    auto f = [kind](py::handle a, py::handle axis, py::handle dtype, index_t ddof, bool keepdims) {
      return Reduce(kind, a, axis, dtype, keepdims, ddof);
    };
    m.def(r.first, f, py::arg("a"), py::arg("axis") = py::none(), py::arg("dtype") = py::none(),
          py::arg("ddof") = 0, py::arg("keepdims") = false, spread_docs[doc_index++]);
    cls.def(r.first, f, py::arg("axis") = py::none(), py::arg("dtype") = py::none(),
            py::arg("ddof") = 0, py::arg("keepdims") = false);
  }
  for (const bool is_max : {true, false}) {
    auto f = [is_max](py::handle a, py::handle axis, bool keepdims) {
      return ArgReduce(is_max, a, axis, keepdims);
    };
    const char* name = is_max ? "argmax" : "argmin";
    m.def(name, f, py::arg("a"), py::arg("axis") = py::none(), py::arg("keepdims") = false,
          is_max ? "Indices of the maximum values along an axis (numpy.argmax); the first wins.\n"
                   "\n"
                   "Parameters\n"
                   "----------\n"
                   "a : array_like\n"
                   "axis : int, optional\n"
                   "    None: of the flattened array.\n"
                   "keepdims : bool, optional\n"
                   "\n"
                   "Returns\n"
                   "-------\n"
                   "shade.ndarray, or a NumPy scalar for a 0-d result"
                 : "Indices of the minimum values along an axis (numpy.argmin); the first wins.\n"
                   "\n"
                   "Parameters\n"
                   "----------\n"
                   "a : array_like\n"
                   "axis : int, optional\n"
                   "    None: of the flattened array.\n"
                   "keepdims : bool, optional\n"
                   "\n"
                   "Returns\n"
                   "-------\n"
                   "shade.ndarray, or a NumPy scalar for a 0-d result");
    cls.def(name, f, py::arg("axis") = py::none(), py::arg("keepdims") = false);
  }
}

void BindShapeOps(py::module_& m, py::class_<PyArray>& cls) {
  cls.def_property_readonly("shape", [](PyArray& self) {
    if (self.pending()) return py::tuple(py::cast(IndexSpan(self.expr().shape()).vec()));
    return py::tuple(py::cast(self.Get().sizes().vec()));
  });
  cls.def_property_readonly("dtype", [](PyArray& self) {
    return DTypeObject(self.pending() ? self.expr().dtype() : self.Get().type_flag());
  });
  // Shape facts of a pending array come from its expression, without running it.
  cls.def_property_readonly("ndim", [](PyArray& self) {
    return self.pending() ? self.expr().shape().ndim() : self.Get().ndim();
  });
  cls.def_property_readonly("size", [](PyArray& self) {
    return self.pending() ? static_cast<index_t>(self.expr().shape().Size()) : self.Get().numel();
  });
  cls.def_property_readonly("itemsize", [](PyArray& self) { return self.Get().itemsize(); });
  cls.def_property_readonly("nbytes", [](PyArray& self) { return self.Get().nbytes(); });
  cls.def_property_readonly("strides", [](PyArray& self) {
    const NDArray& a = self.Get();
    std::vector<index_t> bytes;
    for (index_t s : a.strides()) bytes.push_back(s * static_cast<index_t>(a.itemsize()));
    return py::tuple(py::cast(bytes));
  });
  cls.def_property_readonly("T", [](PyArray& self) { return Transposed(self.Get(), {}); });
  cls.def("transpose", [](PyArray& self, py::args axes) {
    const bool reverse = axes.size() == 0 || (axes.size() == 1 && axes[0].is_none());
    return Transposed(self.Get(), reverse ? std::vector<index_t>() : ShapeArgs(axes));
  });
  m.def(
      "transpose",
      [](py::handle a, py::handle axes) {
        return Transposed(AsNDArray(a), axes.is_none() ? std::vector<index_t>() : ParseShape(axes));
      },
      py::arg("a"), py::arg("axes") = py::none(),
      "Permute the axes (numpy.transpose): a view.\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "a : array_like\n"
      "axes : sequence of ints, optional\n"
      "    None reverses the axes.\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray");
  cls.def("reshape",
          [](PyArray& self, py::args shape) { return Wrap(self.Get().reshape(ShapeArgs(shape))); });
  m.def(
      "reshape",
      [](py::handle a, py::handle shape) { return Wrap(AsNDArray(a).reshape(ParseShape(shape))); },
      py::arg("a"), py::arg("newshape"),
      "Give a new shape to an array (numpy.reshape); one dimension may be -1.\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "a : array_like\n"
      "newshape : int or sequence of ints\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray");
  cls.def(
      "astype",
      [](PyArray& self, py::handle dtype, bool copy) {
        const NDArray& a = self.Get();
        const int f = ParseDType(dtype);
        if (f == a.type_flag()) return copy ? Wrap(a.Clone()) : Wrap(a);
        return Wrap(WithoutGil([&]() { return astype(a, f); }));
      },
      py::arg("dtype"), py::arg("copy") = true);
  cls.def("copy",
          [](PyArray& self) { return Wrap(WithoutGil([&]() { return self.Get().Clone(); })); });
  m.def(
      "copy", [](py::handle a) { return Wrap(AsNDArray(a).Clone()); }, py::arg("a"),
      "A copy of the array (numpy.copy).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "a : array_like\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray");
  cls.def("ravel", [](PyArray& self) { return Wrap(self.Get().reshape({-1})); });
  m.def(
      "ravel", [](py::handle a) { return Wrap(AsNDArray(a).reshape({-1})); }, py::arg("a"),
      "The array flattened to 1-D (numpy.ravel).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "a : array_like\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray");
  cls.def("flatten", [](PyArray& self) { return Wrap(self.Get().reshape({-1}).Clone()); });
  auto squeeze = [](py::handle a, py::handle axis) {
    const NDArray x = AsNDArray(a);
    if (axis.is_none()) return Wrap(x.squeeze());
    std::vector<index_t> axes = ParseShape(axis);
    for (index_t& ax : axes) {
      ax = x.WrapDim(ax);
      if (x.size(ax) != 1)
        throw py::value_error(
            "cannot select an axis to squeeze out which has size not equal to one");
    }
    std::sort(axes.begin(), axes.end());
    NDArray r = x;
    for (auto it = axes.rbegin(); it != axes.rend(); ++it) r = r.squeeze(*it);
    return Wrap(r);
  };
  m.def("squeeze", squeeze, py::arg("a"), py::arg("axis") = py::none(),
        "Remove axes of size 1 (numpy.squeeze).\n"
        "\n"
        "Parameters\n"
        "----------\n"
        "a : array_like\n"
        "axis : None, int or tuple of ints, optional\n"
        "\n"
        "Returns\n"
        "-------\n"
        "shade.ndarray");
  cls.def("squeeze", squeeze, py::arg("axis") = py::none());
  m.def(
      "expand_dims",
      [](py::handle a, py::handle axis) {
        NDArray x = AsNDArray(a);
        std::vector<index_t> axes = ParseShape(axis);
        const index_t out_ndim = x.ndim() + static_cast<index_t>(axes.size());
        for (index_t& ax : axes) {
          if (ax < -out_ndim || ax >= out_ndim) {
            throw py::index_error("axis " + std::to_string(ax) +
                                  " is out of bounds for array of dimension " +
                                  std::to_string(out_ndim));
          }
          if (ax < 0) ax += out_ndim;
        }
        std::sort(axes.begin(), axes.end());
        for (index_t ax : axes) x = x.unsqueeze(ax);
        return Wrap(x);
      },
      py::arg("a"), py::arg("axis"),
      "Insert axes of size 1 (numpy.expand_dims).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "a : array_like\n"
      "axis : int or sequence of ints\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray");
  cls.def("swapaxes",
          [](PyArray& self, index_t a, index_t b) { return Wrap(self.Get().transpose(a, b)); });
  m.def(
      "concatenate",
      [](const std::vector<py::handle>& arrays, index_t axis) {
        const std::vector<NDArray> xs = AsNDArrays(arrays);
        return Wrap(WithoutGil([&]() { return concatenate(xs, axis); }));
      },
      py::arg("arrays"), py::arg("axis") = 0,
      "Join arrays along an existing axis (numpy.concatenate).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "arrays : sequence of array_like\n"
      "axis : int, optional\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray");
  m.def(
      "stack",
      [](const std::vector<py::handle>& arrays, index_t axis) {
        const std::vector<NDArray> xs = AsNDArrays(arrays);
        return Wrap(WithoutGil([&]() { return stack(xs, axis); }));
      },
      py::arg("arrays"), py::arg("axis") = 0,
      "Join arrays along a new axis (numpy.stack).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "arrays : sequence of array_like\n"
      "axis : int, optional\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray");
  m.def(
      "matmul", [](py::handle a, py::handle b) { return Product(&MatMul, a, b); }, py::arg("x1"),
      py::arg("x2"),
      "Matrix product with NumPy's batching rules (numpy.matmul).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "x1, x2 : array_like\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray, or a NumPy scalar for a 0-d result");
  m.def(
      "dot", [](py::handle a, py::handle b) { return Product(&Dot, a, b); }, py::arg("a"),
      py::arg("b"),
      "Dot product of two arrays (numpy.dot).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "a, b : array_like\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray, or a NumPy scalar for a 0-d result");
  cls.def(
      "dot", [](py::handle a, py::handle b) { return Product(&Dot, a, b); }, py::arg("b"));
  m.def(
      "tensordot",
      [](py::handle a, py::handle b, index_t axes) {
        const NDArray x = AsNDArray(a), y = AsNDArray(b);
        return ScalarOrArray(WithoutGil([&]() { return tensordot(x, y, axes); }));
      },
      py::arg("a"), py::arg("b"), py::arg("axes") = 2,
      "Tensor dot product over the last `axes` axes of a and the first of b (numpy.tensordot).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "a, b : array_like\n"
      "axes : int, optional\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray, or a NumPy scalar for a 0-d result");
  // Copying rearrangements (shape_ops.h, indexing.h), NumPy's signatures.
  m.def(
      "flip",
      [](py::handle a, py::handle axis) {
        const NDArray x = AsNDArray(a);
        return Wrap(axis.is_none() ? flip(x) : flip(x, ParseShape(axis)));
      },
      py::arg("m"), py::arg("axis") = py::none(),
      "Reverse the order of elements along the given axes (numpy.flip).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "m : array_like\n"
      "axis : None, int or tuple of ints, optional\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray");
  m.def(
      "roll",
      [](py::handle a, py::handle shift, py::handle axis) {
        const NDArray x = AsNDArray(a);
        if (axis.is_none()) return Wrap(roll(x, ParseIndex(shift, "shift")));
        if (PyIndex_Check(shift.ptr()) && PyIndex_Check(axis.ptr())) {
          return Wrap(roll(x, ParseIndex(shift, "shift"), ParseIndex(axis, "axis")));
        }
        return Wrap(roll(x, ParseShape(shift), ParseShape(axis)));
      },
      py::arg("a"), py::arg("shift"), py::arg("axis") = py::none(),
      "Roll elements along the given axes (numpy.roll).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "a : array_like\n"
      "shift : int or sequence of ints\n"
      "axis : None, int or sequence of ints, optional\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray");
  m.def(
      "tile",
      [](py::handle a, py::handle reps) { return Wrap(tile(AsNDArray(a), ParseShape(reps))); },
      py::arg("A"), py::arg("reps"),
      "Repeat a whole array `reps` times per axis (numpy.tile).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "A : array_like\n"
      "reps : int or sequence of ints\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray");
  m.def(
      "repeat",
      [](py::handle a, py::handle repeats, py::handle axis) {
        const NDArray x = AsNDArray(a);
        if (axis.is_none()) return Wrap(repeat(x, ParseIndex(repeats, "repeats")));
        if (PyIndex_Check(repeats.ptr()))
          return Wrap(repeat(x, ParseIndex(repeats, "repeats"), ParseIndex(axis, "axis")));
        return Wrap(repeat(x, ParseShape(repeats), ParseIndex(axis, "axis")));
      },
      py::arg("a"), py::arg("repeats"), py::arg("axis") = py::none(),
      "Repeat each element (numpy.repeat).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "a : array_like\n"
      "repeats : int or sequence of ints\n"
      "axis : int, optional\n"
      "    None: of the flattened array.\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray");
  m.def(
      "take",
      [](py::handle a, py::handle indices, py::handle axis) {
        const NDArray x = AsNDArray(a), i = AsNDArray(indices);
        return Wrap(axis.is_none() ? take(x, i) : take(x, i, ParseIndex(axis, "axis")));
      },
      py::arg("a"), py::arg("indices"), py::arg("axis") = py::none(),
      "Elements at the given indices (numpy.take).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "a : array_like\n"
      "indices : array_like of int\n"
      "axis : int, optional\n"
      "    None: of the flattened array.\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray");
  m.def(
      "nonzero",
      [](py::handle a) {
        py::tuple result;
        for (NDArray& i : nonzero(AsNDArray(a)))
          result = result + py::make_tuple(Wrap(std::move(i)));
        return result;
      },
      py::arg("a"),
      "Indices of the non-zero elements, one array per dimension (numpy.nonzero).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "a : array_like\n"
      "\n"
      "Returns\n"
      "-------\n"
      "tuple of shade.ndarray");
  cls.def("__copy__", [](PyArray& self) { return Wrap(self.Get().Clone()); });
  cls.def(
      "__deepcopy__", [](PyArray& self, py::handle) { return Wrap(self.Get().Clone()); },
      py::arg("memo"));
}

void BindCreation(py::module_& m) {
  m.def(
      "zeros",
      [](py::handle shape, py::handle dtype) {
        return Wrap(zeros(ParseShape(shape), DTypeOr(dtype, kFloat64)));
      },
      py::arg("shape"), py::arg("dtype") = py::none(),
      "A new array of zeros (numpy.zeros).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "shape : int or sequence of ints\n"
      "dtype : dtype, optional\n"
      "    float64 by default.\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray");
  m.def(
      "ones",
      [](py::handle shape, py::handle dtype) {
        return Wrap(ones(ParseShape(shape), DTypeOr(dtype, kFloat64)));
      },
      py::arg("shape"), py::arg("dtype") = py::none(),
      "A new array of ones (numpy.ones).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "shape : int or sequence of ints\n"
      "dtype : dtype, optional\n"
      "    float64 by default.\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray");
  m.def(
      "empty",
      [](py::handle shape, py::handle dtype) {
        return Wrap(empty(ParseShape(shape), DTypeOr(dtype, kFloat64)));
      },
      py::arg("shape"), py::arg("dtype") = py::none(),
      "A new array, uninitialised (numpy.empty).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "shape : int or sequence of ints\n"
      "dtype : dtype, optional\n"
      "    float64 by default.\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray");
  m.def(
      "full",
      [](py::handle shape, py::handle value, py::handle dtype) {
        return Wrap(Full(ParseShape(shape), value, ParseDType(dtype)));
      },
      py::arg("shape"), py::arg("fill_value"), py::arg("dtype") = py::none(),
      "A new array filled with `fill_value` (numpy.full).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "shape : int or sequence of ints\n"
      "fill_value : scalar\n"
      "dtype : dtype, optional\n"
      "    From fill_value by default.\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray");
  auto like_shape = [](py::handle a) { return AsNDArray(a).sizes().vec(); };
  auto like_dtype = [](py::handle a, py::handle dtype) {
    return DTypeOr(dtype, AsNDArray(a).type_flag());
  };
  m.def(
      "zeros_like",
      [=](py::handle a, py::handle dtype) {
        return Wrap(zeros(like_shape(a), like_dtype(a, dtype)));
      },
      py::arg("a"), py::arg("dtype") = py::none(),
      "Zeros with the shape and dtype of `a` (numpy.zeros_like).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "a : array_like\n"
      "dtype : dtype, optional\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray");
  m.def(
      "ones_like",
      [=](py::handle a, py::handle dtype) {
        return Wrap(ones(like_shape(a), like_dtype(a, dtype)));
      },
      py::arg("a"), py::arg("dtype") = py::none(),
      "Ones with the shape and dtype of `a` (numpy.ones_like).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "a : array_like\n"
      "dtype : dtype, optional\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray");
  m.def(
      "empty_like",
      [=](py::handle a, py::handle dtype) {
        return Wrap(empty(like_shape(a), like_dtype(a, dtype)));
      },
      py::arg("a"), py::arg("dtype") = py::none(),
      "An uninitialised array with the shape and dtype of `a` (numpy.empty_like).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "a : array_like\n"
      "dtype : dtype, optional\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray");
  m.def(
      "full_like",
      [=](py::handle a, py::handle value, py::handle dtype) {
        return Wrap(Full(like_shape(a), value, like_dtype(a, dtype)));
      },
      py::arg("a"), py::arg("fill_value"), py::arg("dtype") = py::none(),
      "`fill_value` with the shape and dtype of `a` (numpy.full_like).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "a : array_like\n"
      "fill_value : scalar\n"
      "dtype : dtype, optional\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray");
  m.def(
      "arange",
      [](py::handle start, py::handle stop, py::handle step, py::handle dtype) {
        return Wrap(Arange(start, stop, step, dtype));
      },
      py::arg("start"), py::arg("stop") = py::none(), py::arg("step") = py::none(),
      py::arg("dtype") = py::none(),
      "Evenly spaced values in [start, stop) (numpy.arange).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "start : number\n"
      "    The stop when it is the only argument.\n"
      "stop : number, optional\n"
      "step : number, optional\n"
      "dtype : dtype, optional\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray");
  m.def(
      "linspace",
      [](double start, double stop, index_t num, bool endpoint, py::handle dtype) {
        return Wrap(linspace(start, stop, num, endpoint, DTypeOr(dtype, kFloat64)));
      },
      py::arg("start"), py::arg("stop"), py::arg("num") = 50, py::arg("endpoint") = true,
      py::arg("dtype") = py::none(),
      "`num` evenly spaced values over [start, stop] (numpy.linspace).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "start, stop : float\n"
      "num : int, optional\n"
      "endpoint : bool, optional\n"
      "dtype : dtype, optional\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray");
  m.def(
      "eye",
      [](index_t n, py::handle m_arg, index_t k, py::handle dtype) {
        return Wrap(
            eye(n, m_arg.is_none() ? -1 : ParseIndex(m_arg, "M"), k, DTypeOr(dtype, kFloat64)));
      },
      py::arg("N"), py::arg("M") = py::none(), py::arg("k") = 0, py::arg("dtype") = py::none(),
      "A 2-D array with ones on the k-th diagonal (numpy.eye).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "N : int\n"
      "M : int, optional\n"
      "k : int, optional\n"
      "dtype : dtype, optional\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray");
  m.def(
      "asarray",
      [](py::handle a, py::handle dtype) -> py::object {
        const int f = ParseDType(dtype);
        if (AsPyArray(a) != nullptr && (f < 0 || f == AsPyArray(a)->Get().type_flag())) {
          return py::reinterpret_borrow<py::object>(a);
        }
        NDArray x = AsNDArray(a);
        return Wrap(f < 0 ? x : astype(x, f));
      },
      py::arg("a"), py::arg("dtype") = py::none(),
      "Array sharing the memory of `a` where possible (no copy).");
  m.def(
      "array",
      [](py::handle a, py::handle dtype, bool copy) {
        const int f = ParseDType(dtype);
        NDArray x = AsNDArray(a);
        if (f >= 0 && f != x.type_flag()) return Wrap(astype(x, f));
        return Wrap(copy ? x.Clone() : x);
      },
      py::arg("object"), py::arg("dtype") = py::none(), py::arg("copy") = true,
      "An array from an array_like (numpy.array); copies unless copy=False.\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "object : array_like\n"
      "dtype : dtype, optional\n"
      "copy : bool, optional\n"
      "\n"
      "Returns\n"
      "-------\n"
      "shade.ndarray");
}

void BindArrayBasics(py::class_<PyArray>& cls) {
  cls.def(
      "eval",
      [](py::handle self) {
        AsPyArray(self)->Get();
        return py::reinterpret_borrow<py::object>(self);
      },
      "Runs a pending (fused) expression now; returns self.");
  cls.def("__repr__", [](PyArray& self) { return NumPyRepr(self.Get()); });
  cls.def("__str__", [](PyArray& self) { return NumPyStr(self.Get()); });
  cls.def("__len__", [](PyArray& self) {
    const NDArray& a = self.Get();
    if (a.ndim() == 0) throw py::type_error("len() of unsized object");
    return a.size(0);
  });
  cls.def("__bool__", [](PyArray& self) {
    const NDArray& a = self.Get();
    if (a.numel() != 1) {
      throw py::value_error(
          "The truth value of an array with more than one element is ambiguous. Use a.any() or "
          "a.all()");
    }
    return item<bool>(a);
  });
  cls.def("__float__", [](PyArray& self) { return item<double>(self.Get()); });
  cls.def("__int__", [](PyArray& self) { return item<std::int64_t>(self.Get()); });
  cls.def("item", [](PyArray& self) {
    const NDArray& a = self.Get();
    if (a.numel() != 1)
      throw py::value_error("can only convert an array of size 1 to a Python scalar");
    return ElementAsScalar(a.reshape({})).attr("item")();
  });
  cls.def("fill", [](PyArray& self, py::handle value) {
    EvaluateAllPending();
    self.Get().copy_(AsNDArray(value));
  });
}

// NumPy's print options: the C++ state of print.h (GetPrintOptions / SetPrintOptions).
void BindPrinting(py::module_& m) {
  m.def(
      "set_printoptions",
      [](py::handle precision, py::handle threshold, py::handle edgeitems, py::handle linewidth,
         py::handle suppress, py::handle nanstr, py::handle infstr, py::handle formatter,
         py::handle sign, py::handle floatmode, py::handle legacy) {
        if (!nanstr.is_none() || !infstr.is_none() || !formatter.is_none() ||
            !(legacy.is_none() || legacy.ptr() == Py_False)) {
          throw py::value_error(
              "set_printoptions: nanstr, infstr, formatter and legacy are not supported by shade");
        }
        PrintOptions opt = GetPrintOptions();
        if (!precision.is_none()) opt.precision = precision.cast<int>();
        if (!threshold.is_none()) {
          const double t = threshold.cast<double>();
          if (std::isnan(t))
            throw py::value_error(
                "threshold must be non-NAN, try sys.maxsize for untruncated "
                "representation");
          opt.threshold =
              t >= 9.2e18 ? std::numeric_limits<index_t>::max() : threshold.cast<index_t>();
        }
        if (!edgeitems.is_none()) opt.edgeitems = edgeitems.cast<index_t>();
        if (!linewidth.is_none()) opt.linewidth = linewidth.cast<int>();
        if (!suppress.is_none()) opt.suppress = suppress.cast<bool>();
        if (!sign.is_none()) {
          const std::string s = sign.cast<std::string>();
          if (s != "-" && s != "+" && s != " ")
            throw py::value_error("sign option must be one of ' ', '+', or '-'");
          opt.sign = s[0];
        }
        if (!floatmode.is_none()) opt.floatmode = ParseFloatMode(floatmode.cast<std::string>());
        SetPrintOptions(opt);
      },
      py::arg("precision") = py::none(), py::arg("threshold") = py::none(),
      py::arg("edgeitems") = py::none(), py::arg("linewidth") = py::none(),
      py::arg("suppress") = py::none(), py::arg("nanstr") = py::none(),
      py::arg("infstr") = py::none(), py::arg("formatter") = py::none(),
      py::arg("sign") = py::none(), py::arg("floatmode") = py::none(), py::kw_only(),
      py::arg("legacy") = py::none(),
      "Sets how arrays print (numpy.set_printoptions): precision, threshold, edgeitems, "
      "linewidth, suppress, sign, floatmode. None leaves an option as it is.");
  m.def(
      "get_printoptions",
      []() {
        const PrintOptions o = GetPrintOptions();
        py::dict d;
        d["edgeitems"] = o.edgeitems;
        d["threshold"] = o.threshold;
        d["floatmode"] = FloatModeName(o.floatmode);
        d["precision"] = o.precision;
        d["suppress"] = o.suppress;
        d["linewidth"] = o.linewidth;
        d["nanstr"] = "nan";
        d["infstr"] = "inf";
        d["sign"] = std::string(1, o.sign);
        d["formatter"] = py::none();
        d["legacy"] = false;
        return d;
      },
      "The print options in force, as a dict (numpy.get_printoptions).");
}

void BindIO(py::module_& m) {
  m.def("_save_npy", [](const std::string& path, py::handle a) {
    const NDArray x = AsNDArray(a);
    py::gil_scoped_release release;
    io::SaveNpy(path, x);
  });
  m.def("_save_npz",
        [](const std::string& path, const std::vector<std::pair<std::string, py::handle>>& arrays,
           bool compress) {
          io::NamedArrays named;
          for (const auto& kv : arrays) named.emplace_back(kv.first, AsNDArray(kv.second));
          py::gil_scoped_release release;
          io::SaveNpz(path, named, compress);
        });
  m.def("load", &Load, py::arg("file"), ".npy -> ndarray; .npz -> dict of name -> ndarray.");
}

}  // namespace

PYBIND11_MODULE(_shade, m) {
  m.doc() = "shade: NumPy-compatible arrays over shade's dynamic NDArray (see README, 'Python').";
  RegisterErrorTranslator(m);
  py::class_<PyArray> cls(m, "ndarray",
                          "An N-dimensional array over shade's NDArray (numpy.ndarray): shares "
                          "memory with NumPy through the buffer protocol and DLPack.",
                          py::buffer_protocol(), py::dynamic_attr());
  cls.attr("__array_priority__") = 10.0;
  BindInterop(m, cls);
  BindIndexing(cls);
  BindArrayBasics(cls);
  BindOperators(cls);
  BindUfuncs(m);
  BindReductions(m, cls);
  BindShapeOps(m, cls);
  BindCreation(m);
  BindIO(m);
  BindConstruct(m, cls);
  BindLinalg(m);
  BindNpRandom(m);
  BindSortStats(m, cls);
  BindAutograd(m, cls);
  BindPrinting(m);
  BindTextFile(m);
  BindComplex(m, cls);
  BindNN(m);
  m.def(
      "set_num_threads", [](int n) { SetNumThreads(n); }, py::arg("n"),
      "Threads the kernels use (>= 1).");
  m.def(
      "get_num_threads", []() { return GetNumThreads(); },
      "Threads the kernels use (set_num_threads).");
  m.def("_evaluation_count", &EvaluationCount, "Expression evaluations run so far (fusion tests).");
  m.def(
      "_allocation_count", []() { return AllocationCount(); }, "shade's data allocations so far.");
  m.def("_is_pending", [](PyArray& a) { return a.pending(); });
  m.def(
      "_set_lazy_min_elements", [](std::int64_t n) { LazyMinElements() = n; }, py::arg("n"),
      "Elementwise results of this many elements or more stay lazy (default 65536).");
  InstallOperatorSlots(cls);
}

}  // namespace python
}  // namespace shade
