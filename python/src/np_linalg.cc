// shade.linalg (numpy.linalg over ndarray/lapack.h) and the top-level products outer, inner,
// vdot, kron, cross. shade::LinAlgError becomes numpy.linalg.LinAlgError itself, so that
// `except numpy.linalg.LinAlgError` catches shade's errors too.
#include <pybind11/stl.h>

#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "shade/ndarray/einsum.h"
#include "shade/ndarray/lapack.h"
#include "shade/ndarray/shape_ops.h"
#include "shade_py.h"

namespace shade {
namespace python {
namespace {

py::object Out(NDArray r) {
  if (r.ndim() == 0) return ElementAsScalar(r);
  return Wrap(std::move(r));
}

template <typename F>
auto NoGil(F&& f) {
  py::gil_scoped_release release;
  return f();
}

using Unary = NDArray (*)(const NDArray&);

py::object ApplyUnary(Unary f, py::handle a) {
  const NDArray x = AsNDArray(a);
  return Out(NoGil([&]() { return f(x); }));
}

linalg::NormOrder ParseOrd(py::handle ord) {
  if (ord.is_none()) return linalg::NormOrder();
  if (py::isinstance<py::str>(ord)) return linalg::NormOrder::Named(ord.cast<std::string>());
  return linalg::NormOrder(ord.cast<double>());
}

std::vector<index_t> ParseNormAxis(py::handle axis) {
  if (axis.is_none()) return {};
  if (py::isinstance<py::int_>(axis)) return {axis.cast<index_t>()};
  std::vector<index_t> v = axis.cast<std::vector<index_t>>();
  return v;
}

// numpy.linalg's lstsq rcond: "warn" (the 1.24 default: machine precision, with NumPy's
// FutureWarning), None (eps * max(M, N)) or a number.
double ParseRcond(py::handle rcond, const NDArray& a, const NDArray& b) {
  if (py::isinstance<py::str>(rcond) && rcond.cast<std::string>() == "warn") {
    PyErr_WarnEx(PyExc_FutureWarning,
                 "`rcond` parameter will change to the default of machine precision times "
                 "``max(M, N)`` where M and N are the input matrix dimensions.\nTo use the future "
                 "default and silence this warning we advise to pass `rcond=None`, to keep using "
                 "the old, explicitly pass `rcond=-1`.",
                 1);
    return -1;
  }
  if (rcond.is_none()) {
    const bool f32 = a.type_flag() == kFloat32 && b.type_flag() == kFloat32;
    const double eps =
        f32 ? std::numeric_limits<float>::epsilon() : std::numeric_limits<double>::epsilon();
    const index_t mx = a.ndim() == 2 ? std::max(a.size(0), a.size(1)) : 0;
    return eps * static_cast<double>(mx);
  }
  return rcond.cast<double>();
}

void BindLinalgModule(py::module_& la) {
  la.def(
      "solve",
      [](py::handle a, py::handle b) {
        const NDArray x = AsNDArray(a), y = AsNDArray(b);
        return Out(NoGil([&]() { return linalg::solve(x, y); }));
      },
      py::arg("a"), py::arg("b"), "Solves a @ x = b for x (batched; singular a: LinAlgError).");
  la.def(
      "inv", [](py::handle a) { return ApplyUnary(&linalg::inv, a); }, py::arg("a"),
      "Inverse of each square matrix.");
  la.def(
      "det", [](py::handle a) { return ApplyUnary(&linalg::det, a); }, py::arg("a"),
      "Determinant of each square matrix.");
  la.def(
      "slogdet",
      [](py::handle a) {
        const NDArray x = AsNDArray(a);
        auto r = NoGil([&]() { return linalg::slogdet(x); });
        return py::make_tuple(Out(std::get<0>(r)), Out(std::get<1>(r)));
      },
      py::arg("a"), "(sign, logabsdet) of each square matrix.");
  la.def(
      "cholesky", [](py::handle a) { return ApplyUnary(&linalg::cholesky, a); }, py::arg("a"),
      "Lower Cholesky factor L of each positive-definite matrix (a = L @ L.T).");
  la.def(
      "qr",
      [](py::handle a, const std::string& mode) -> py::object {
        const NDArray x = AsNDArray(a);
        auto r = NoGil([&]() { return linalg::qr(x, mode); });
        if (mode == "r") return Out(std::get<0>(r));
        return py::make_tuple(Out(std::get<0>(r)), Out(std::get<1>(r)));
      },
      py::arg("a"), py::arg("mode") = "reduced",
      "QR decomposition: (q, r); mode 'reduced', 'complete', 'r' or 'raw' as NumPy.");
  la.def(
      "svd",
      [](py::handle a, bool full_matrices, bool compute_uv, bool hermitian) -> py::object {
        const NDArray x = AsNDArray(a);
        auto r = NoGil([&]() { return linalg::svd(x, full_matrices, compute_uv, hermitian); });
        if (!compute_uv) return Out(r.s);
        return py::make_tuple(Out(r.u), Out(r.s), Out(r.vh));
      },
      py::arg("a"), py::arg("full_matrices") = true, py::arg("compute_uv") = true,
      py::arg("hermitian") = false,
      "Singular value decomposition: (u, s, vh) with a = u @ diag(s) @ vh, s descending.");
  la.def(
      "eigh",
      [](py::handle a, const std::string& uplo) {
        const NDArray x = AsNDArray(a);
        auto r = NoGil([&]() { return linalg::eigh(x, uplo); });
        return py::make_tuple(Out(std::get<0>(r)), Out(std::get<1>(r)));
      },
      py::arg("a"), py::arg("UPLO") = "L",
      "Eigenvalues (ascending) and eigenvectors (columns) of symmetric matrices.");
  la.def(
      "eigvalsh",
      [](py::handle a, const std::string& uplo) {
        const NDArray x = AsNDArray(a);
        return Out(NoGil([&]() { return linalg::eigvalsh(x, uplo); }));
      },
      py::arg("a"), py::arg("UPLO") = "L", "Eigenvalues (ascending) of symmetric matrices.");
  la.def(
      "eig",
      [](py::handle a) {
        const NDArray x = AsNDArray(a);
        auto r = NoGil([&]() { return linalg::eig(x); });
        return py::make_tuple(Out(std::get<0>(r)), Out(std::get<1>(r)));
      },
      py::arg("a"),
      "Eigenvalues and right eigenvectors of square matrices. Real spectra only: complex "
      "eigenvalues raise NotImplementedError until shade has complex dtypes.");
  la.def(
      "eigvals", [](py::handle a) { return ApplyUnary(&linalg::eigvals, a); }, py::arg("a"),
      "Eigenvalues of square matrices (real spectra only, as eig).");
  la.def(
      "lstsq",
      [](py::handle a, py::handle b, py::handle rcond) {
        const NDArray x = AsNDArray(a), y = AsNDArray(b);
        const double rc = ParseRcond(rcond, x, y);
        auto r = NoGil([&]() { return linalg::lstsq(x, y, rc); });
        return py::make_tuple(Wrap(r.x), Wrap(r.residuals),
                              py::module_::import("numpy").attr("int32")(r.rank), Wrap(r.s));
      },
      py::arg("a"), py::arg("b"), py::arg("rcond") = "warn",
      "Least-squares solution of a @ x = b: (x, residuals, rank, s).");
  la.def(
      "pinv",
      [](py::handle a, double rcond, bool hermitian) {
        const NDArray x = AsNDArray(a);
        return Out(NoGil([&]() { return linalg::pinv(x, rcond, hermitian); }));
      },
      py::arg("a"), py::arg("rcond") = 1e-15, py::arg("hermitian") = false,
      "Moore-Penrose pseudo-inverse of each matrix.");
  la.def(
      "matrix_rank",
      [](py::handle a, py::handle tol, bool hermitian) -> py::object {
        const NDArray x = AsNDArray(a);
        const double t = tol.is_none() ? -1.0 : tol.cast<double>();
        NDArray r = NoGil([&]() { return linalg::matrix_rank(x, t, hermitian); });
        if (x.ndim() < 2) return py::int_(item<std::int64_t>(r));
        return Out(r);
      },
      py::arg("A"), py::arg("tol") = py::none(), py::arg("hermitian") = false,
      "Rank of each matrix: the number of singular values above tol.");
  la.def(
      "norm",
      [](py::handle x, py::handle ord, py::handle axis, bool keepdims) {
        const NDArray a = AsNDArray(x);
        const linalg::NormOrder o = ParseOrd(ord);
        const std::vector<index_t> ax = ParseNormAxis(axis);
        return Out(NoGil([&]() { return linalg::norm(a, o, ax, keepdims); }));
      },
      py::arg("x"), py::arg("ord") = py::none(), py::arg("axis") = py::none(),
      py::arg("keepdims") = false, "Matrix or vector norm, as numpy.linalg.norm.");
  la.def(
      "matrix_power",
      [](py::handle a, index_t n) {
        const NDArray x = AsNDArray(a);
        return Out(NoGil([&]() { return linalg::matrix_power(x, n); }));
      },
      py::arg("a"), py::arg("n"), "a raised to the integer power n (matrix products).");
  la.def(
      "multi_dot",
      [](const std::vector<py::handle>& arrays) {
        std::vector<NDArray> xs;
        for (py::handle h : arrays) xs.push_back(AsNDArray(h));
        return Out(NoGil([&]() { return linalg::multi_dot(xs); }));
      },
      py::arg("arrays"), "Product of a chain of arrays in the cheapest order.");
}

using Binary = NDArray (*)(const NDArray&, const NDArray&);

py::object ApplyBinary(Binary f, py::handle a, py::handle b) {
  const NDArray x = AsNDArray(a), y = AsNDArray(b);
  return Out(NoGil([&]() { return f(x, y); }));
}

}  // namespace

void BindLinalg(py::module_& m) {
  // shade::LinAlgError -> numpy.linalg.LinAlgError (translators registered later run first).
  // The class object is kept for the process's lifetime (no destructor at interpreter exit).
  static PyObject* linalg_error =
      py::object(py::module_::import("numpy.linalg").attr("LinAlgError")).release().ptr();
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const LinAlgError& e) {
      PyErr_SetString(linalg_error, e.what());
    }
  });
  py::module_ la = m.def_submodule("linalg", "numpy.linalg over LAPACK (shade/ndarray/lapack.h).");
  la.attr("LinAlgError") = py::handle(linalg_error);
  BindLinalgModule(la);
  m.def(
      "outer", [](py::handle a, py::handle b) { return ApplyBinary(&outer, a, b); }, py::arg("a"),
      py::arg("b"), "Outer product of the flattened inputs.");
  m.def(
      "inner", [](py::handle a, py::handle b) { return ApplyBinary(&inner, a, b); }, py::arg("a"),
      py::arg("b"), "Inner product over the last axes.");
  m.def(
      "vdot", [](py::handle a, py::handle b) { return ApplyBinary(&vdot, a, b); }, py::arg("a"),
      py::arg("b"), "Dot product of the flattened inputs.");
  m.def(
      "kron", [](py::handle a, py::handle b) { return ApplyBinary(&kron, a, b); }, py::arg("a"),
      py::arg("b"), "Kronecker product.");
  m.def(
      "cross",
      [](py::handle a, py::handle b, index_t axisa, index_t axisb, index_t axisc, py::handle axis) {
        const NDArray x = AsNDArray(a), y = AsNDArray(b);
        if (!axis.is_none()) axisa = axisb = axisc = axis.cast<index_t>();
        return Out(NoGil([&]() { return cross(x, y, axisa, axisb, axisc); }));
      },
      py::arg("a"), py::arg("b"), py::arg("axisa") = -1, py::arg("axisb") = -1,
      py::arg("axisc") = -1, py::arg("axis") = py::none(),
      "Cross product of 2- or 3-component vectors.");
  // The subscript form; shade.einsum (python/shade/__init__.py) adds the interleaved form, out=
  // and NumPy's optimize= values.
  m.def(
      "_einsum",
      [](const std::string& subscripts, const std::vector<py::handle>& operands, bool greedy) {
        std::vector<NDArray> xs;
        for (py::handle h : operands) xs.push_back(AsNDArray(h));
        return Out(NoGil([&]() {
          return einsum(subscripts, xs, greedy ? EinsumOptimize::kGreedy : EinsumOptimize::kNone);
        }));
      },
      py::arg("subscripts"), py::arg("operands"), py::arg("greedy") = false);
}

}  // namespace python
}  // namespace shade
