/*!
 * \file shade_py.h
 * \brief Shared declarations of the `shade` Python extension: the Python-side array object
 *  (`PyArray`, exposed as `shade.ndarray`), operand conversion, dtype mapping and the binding
 *  entry points of each source file.
 *
 * A `shade.ndarray` holds either an evaluated NDArray or a pending `Expr` (the result of an
 * elementwise op on large operands). Ops on pending arrays extend the expression, so
 * `a*b + shade.exp(c) - a/c` becomes one Expr that runs as one fused kernel when the result is
 * first used (data access, printing, NumPy conversion, indexing, `.eval()`).
 */
#ifndef SHADE_PYTHON_SHADE_PY_H_
#define SHADE_PYTHON_SHADE_PY_H_

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "shade/ndarray/lazy.h"
#include "shade/ndarray/ndarray.h"
#include "shade/ndarray/reduce.h"

namespace shade {
namespace python {

namespace py = pybind11;

/*! \brief The object behind `shade.ndarray`: an NDArray, or a pending expression producing one. */
class PyArray {
 public:
  /*! \brief An evaluated array. */
  explicit PyArray(NDArray array) : array_(std::move(array)) {}
  /*! \brief A pending expression (registered so that writes can evaluate it first). */
  explicit PyArray(Expr expr);
  ~PyArray();
  PyArray(const PyArray&) = delete;
  PyArray& operator=(const PyArray&) = delete;

  /*! \brief The array, evaluating a pending expression first (GIL released while it runs). */
  const NDArray& Get();
  /*! \brief True while the expression has not run. */
  bool pending() const noexcept { return expr_ != nullptr; }
  /*! \brief The pending expression (pending() must be true). */
  const Expr& expr() const noexcept { return *expr_; }
  /*! \brief The evaluated array (pending() must be false). */
  const NDArray& array() const noexcept { return array_; }
  /*! \brief This operand as an expression leaf or tree (no evaluation). */
  Expr AsExpr() const { return expr_ ? *expr_ : Expr(array_); }

 private:
  NDArray array_;
  std::unique_ptr<Expr> expr_;
};

/*!
 * \brief Evaluates every pending expression. Called before shade writes into an array
 *  (assignment, in-place ops, out=), because expressions read their inputs when they run.
 */
void EvaluateAllPending();
/*! \brief Number of expression evaluations run by the module (the fusion tests count them). */
std::int64_t EvaluationCount();
/*! \brief Counts one evaluation. */
void CountEvaluation();
/*! \brief Results with at least this many elements stay lazy; smaller ones evaluate at once. */
std::int64_t& LazyMinElements();

/*! \brief Wraps an NDArray as a new Python `shade.ndarray`. */
py::object Wrap(NDArray array);
/*!
 * \brief Wraps an expression: lazy when its result has LazyMinElements() or more elements (dtype
 *  and shape errors are raised here, not at first use), else evaluated now.
 */
py::object WrapExpr(Expr expr);
/*! \brief The PyArray inside `h`, or null when h is not a shade.ndarray. */
PyArray* AsPyArray(py::handle h);

/*!
 * \brief `h` as an operand: shade.ndarray (pending ones as their expression), Python bool, int
 *  and float as NEP 50 weak scalars, anything else through asarray (NumPy scalars and arrays
 *  are strong). Returns nullopt when `strict` is false and h is no array-like (operators then
 *  return NotImplemented); otherwise converts or throws TypeError.
 */
std::optional<Expr> ToOperand(py::handle h, bool strict);
/*!
 * \brief `shade.asarray(h)`: shade arrays as they are, buffers (NumPy arrays, ...) without a
 *  copy (the array keeps the exporter alive), other sequences through numpy.asarray.
 */
NDArray AsNDArray(py::handle h);

/*! \brief dtype flag of a dtype-like (numpy dtype or scalar type, str, Python type); -1 for None.
 */
int ParseDType(py::handle h);
/*! \brief The Python dtype object of a flag (numpy.dtype, or shade.bfloat16). */
py::object DTypeObject(int flag);
/*! \brief An integer argument (anything with __index__): TypeError for another type,
 *  OverflowError naming `what` when it does not fit int64. Needs the GIL. */
index_t ParseIndex(py::handle h, const char* what);
/*! \brief Axis argument: None (all), an int or a sequence of ints. */
AxisSet ParseAxes(py::handle h);
/*! \brief Shape argument: an int or a sequence of ints. */
std::vector<index_t> ParseShape(py::handle h);

/*! \brief Registers the translation of shade::Error to Python exceptions (interop.cc). */
void RegisterErrorTranslator(py::module_& m);
/*!
 * \brief Sets the Python error for the exception being handled (shade::Error by its class, pybind11
 *  exceptions as themselves); for raw C slots, which pybind11's translators do not cover.
 */
void SetPythonError();

/*! \brief Binds buffer protocol, __dlpack__, from_dlpack, asarray, array (interop.cc). */
void BindInterop(py::module_& m, py::class_<PyArray>& cls);
/*! \brief Binds the construction and shape functions and methods (np_construct.cc). */
void BindConstruct(py::module_& m, py::class_<PyArray>& cls);
/*!
 * \brief Sets NumPy's `base` of `view` (stored as its `_base` attribute): the base of `parent`,
 *  or parent itself, when view shares parent's memory (always when `known_view`).
 */
void SetViewBase(py::handle view, py::handle parent, bool known_view);
/*! \brief Binds the shade.linalg submodule and outer, inner, vdot, kron, cross (np_linalg.cc). */
void BindLinalg(py::module_& m);
/*! \brief Binds sorting, searching, sets, counting, cumulative and statistics (np_sortstats.cc). */
void BindSortStats(py::module_& m, py::class_<PyArray>& cls);
/*! \brief Binds _loadtxt, _genfromtxt and _savetxt (np_textfile.cc). */
void BindTextFile(py::module_& m);
/*! \brief Binds autograd: requires_grad, grad, backward, detach, ... and the grad mode
 *  (np_autograd.cc). */
void BindAutograd(py::module_& m, py::class_<PyArray>& cls);
/*! \brief Binds __getitem__ / __setitem__ (indexing.cc). */
void BindIndexing(py::class_<PyArray>& cls);
/*! \brief Binds the `_random` submodule: NumPy's RandomState and Generator (np_random.cc). */
void BindNpRandom(py::module_& m);
/*! \brief `a[key]`. */
py::object GetItem(PyArray& self, py::handle key);
/*! \brief The element of a one-element array as a NumPy scalar of its dtype (NumPy's a[i, j]). */
py::object ElementAsScalar(const NDArray& e);

// ufunc (np_ufunc.cc, module.cc): the elementwise call paths the ufunc objects share with the
// operators.
/*!
 * \brief op(args[0..n)) as a new array, lazy (fused) on large operands; operands that are no
 *  array-like give NotImplemented unless `strict` (then TypeError).
 */
py::object Apply(OpCode op, const py::handle* args, int n, bool strict);
/*! \brief op(args[0..n)) written into the shade.ndarray `out` (same_kind casting); returns out. */
py::object ApplyInto(OpCode op, const py::handle* args, int n, py::handle out);
/*! \brief A 0-d result as a NumPy scalar (NumPy's reductions), others wrapped. */
py::object ScalarOrArray(NDArray r);
/*! \brief Binds _nn (shade.nn, shade.nn.functional) and _optim (shade.optim) (np_nn.cc). */
void BindNN(py::module_& m);
/*! \brief Binds shade.ufunc and one instance per registry op (np_ufunc.cc). */
void BindUfuncs(py::module_& m);
/*! \brief Binds real, imag, conj, angle, iscomplex... and ndarray.real / .imag (np_complex.cc). */
void BindComplex(py::module_& m, py::class_<PyArray>& cls);

}  // namespace python
}  // namespace shade

#endif  // SHADE_PYTHON_SHADE_PY_H_
