// shade.ufunc: one object per registry op (ndarray/ufunc.h), callable with NumPy's signature
// (out=, where=, dtype=, casting=) and with reduce / accumulate / reduceat / outer / at. The
// plain call (inputs only) is the operators' path: lazy fused expressions on large operands.
#include <pybind11/stl.h>

#include <string>
#include <utility>
#include <vector>

#include "shade/ndarray/build_info.h"
#include "shade/ndarray/float_errors.h"
#include "shade/ndarray/numeric_info.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/promotion.h"
#include "shade/ndarray/shape_ops.h"
#include "shade/ndarray/ufunc.h"
#include "shade/shape/broadcast.h"
#include "shade_py.h"

namespace shade {
namespace python {
namespace {

/// The C++ object behind one shade.ufunc instance.
struct PyUfunc {
  OpCode op;
};

Casting ParseCasting(py::handle h) {
  if (h.is_none()) return Casting::kSameKind;
  const std::string s = py::str(h);
  if (s == "no") return Casting::kNo;
  if (s == "equiv") return Casting::kEquiv;
  if (s == "safe") return Casting::kSafe;
  if (s == "same_kind") return Casting::kSameKind;
  if (s == "unsafe") return Casting::kUnsafe;
  throw py::value_error("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'");
}

std::string DTypeRepr(int flag) {
  return "dtype('" + std::string(TypeFlagName(flag)) + "')";
}

[[noreturn]] void CastError(const UfuncInfo& info, const char* what, int from, int to,
                            Casting casting) {
  static const char* const kNames[] = {"no", "equiv", "safe", "same_kind", "unsafe"};
  throw py::type_error("Cannot cast ufunc '" + std::string(info.name) + "' " + what + " from " +
                       DTypeRepr(from) + " to " + DTypeRepr(to) + " with casting rule '" +
                       kNames[static_cast<int>(casting)] + "'");
}

// `out` argument: None, a shade.ndarray or a 1-tuple of one; returns None or the array.
py::handle OutArg(py::handle out) {
  if (PyTuple_Check(out.ptr())) {
    if (PyTuple_GET_SIZE(out.ptr()) != 1)
      throw py::value_error("The 'out' tuple must have exactly one entry per ufunc output");
    out = PyTuple_GET_ITEM(out.ptr(), 0);
  }
  if (!out.is_none() && AsPyArray(out) == nullptr)
    throw py::type_error("return arrays must be of ArrayType (a shade.ndarray)");
  return out;
}

// The full call: dtype= casts the inputs to the loop dtype, casting= checks the input and output
// casts, where= writes only the selected elements of out.
py::object CallGeneral(const PyUfunc& u, const py::handle* args, int nin, py::handle out,
                       py::handle where, py::handle dtype, py::handle casting_h) {
  const UfuncInfo& info = UfuncInfoOf(u.op);
  const Casting casting = ParseCasting(casting_h);
  const int flag = ParseDType(dtype);
  const bool masked = !(where.ptr() == Py_True);
  if (flag < 0 && !masked && casting == Casting::kSameKind) {
    return out.is_none() ? Apply(u.op, args, nin, true) : ApplyInto(u.op, args, nin, out);
  }
  EvaluateAllPending();
  std::optional<Expr> ops[3];
  for (int i = 0; i < nin; ++i) {
    if (flag >= 0) {
      const NDArray x = AsNDArray(args[i]);
      if (!CanCast(x.type_flag(), flag, casting))
        CastError(info, "input", x.type_flag(), flag, casting);
      ops[i] = Expr(astype(x, flag));
    } else {
      ops[i] = ToOperand(args[i], true);
    }
  }
  Expr e = nin == 1 ? Expr::Make(u.op, std::move(*ops[0]))
           : nin == 2
               ? Expr::Make(u.op, std::move(*ops[0]), std::move(*ops[1]))
               : Expr::Make(u.op, std::move(*ops[0]), std::move(*ops[1]), std::move(*ops[2]));
  NDArray r;
  {
    py::gil_scoped_release release;
    r = e.eval();
  }
  if (out.is_none()) {
    if (masked) {
      // NumPy leaves the unselected elements of a new result unspecified; they hold op's values
      // here. The mask still takes part in broadcasting.
      const NDArray m = AsNDArray(where);
      std::vector<index_t> shape(static_cast<std::size_t>(std::max(r.ndim(), m.ndim())));
      if (!BroadcastShapes(r.sizes().data(), r.ndim(), m.sizes().data(), m.ndim(), shape.data()))
        throw py::value_error("operands could not be broadcast together (where=)");
      if (IndexSpan(shape) != r.sizes()) r = r.expand(shape).Clone();
    }
    return Wrap(std::move(r));
  }
  const NDArray& dst = AsPyArray(out)->Get();
  if (!CanCast(r.type_flag(), dst.type_flag(), casting))
    CastError(info, "output", r.type_flag(), dst.type_flag(), casting);
  if (r.type_flag() != dst.type_flag()) r = astype(r, dst.type_flag());
  {
    py::gil_scoped_release release;
    if (masked) {
      const NDArray m = astype(AsNDArray(where), kBool);
      Expr::Make(OpCode::kWhere, Expr(m), Expr(r), Expr(dst)).eval(dst);
    } else {
      Expr(r).eval(dst);
    }
  }
  CountEvaluation();
  return py::reinterpret_borrow<py::object>(out);
}

std::string KeywordError(const UfuncInfo& info, py::handle key) {
  return "'" + std::string(py::str(key)) + "' is an invalid keyword to ufunc '" + info.name + "'";
}

// tp_call of shade.ufunc: the plain call with inputs only goes straight to Apply (no argument
// parsing beyond a size check), so a ufunc call costs what the old function call did.
PyObject* UfuncCall(PyObject* self, PyObject* args, PyObject* kwargs) {
  try {
    const PyUfunc& u = py::handle(self).cast<const PyUfunc&>();
    const UfuncInfo& info = UfuncInfoOf(u.op);
    const Py_ssize_t n = PyTuple_GET_SIZE(args);
    py::handle items[3];
    for (Py_ssize_t i = 0; i < n && i < info.nin; ++i) items[i] = PyTuple_GET_ITEM(args, i);
    if (kwargs == nullptr && n == info.nin)
      return Apply(u.op, items, info.nin, true).release().ptr();
    if (n < info.nin || n > info.nin + info.nout) {
      throw py::type_error(std::string(info.name) + "() takes from " + std::to_string(info.nin) +
                           " to " + std::to_string(info.nin + info.nout) +
                           " positional arguments but " + std::to_string(n) + " were given");
    }
    py::handle out = n > info.nin ? py::handle(PyTuple_GET_ITEM(args, info.nin)) : py::none();
    py::handle where = Py_True, dtype = py::none(), casting = py::none();
    if (kwargs != nullptr) {
      PyObject *key, *value;
      Py_ssize_t pos = 0;
      while (PyDict_Next(kwargs, &pos, &key, &value)) {
        const std::string k = py::str(key);
        if (k == "out") {
          if (n > info.nin)
            throw py::type_error("cannot specify 'out' as both a positional and keyword argument");
          out = value;
        } else if (k == "where") {
          where = value;
        } else if (k == "dtype") {
          dtype = value;
        } else if (k == "casting") {
          casting = value;
        } else if (k == "order" || k == "subok") {
          // Layout and subclass requests: shade results are always new C-order base arrays.
        } else {
          throw py::type_error(KeywordError(info, key));
        }
      }
    }
    return CallGeneral(u, items, info.nin, OutArg(out), where, dtype, casting).release().ptr();
  } catch (...) {
    SetPythonError();
    return nullptr;
  }
}

py::object IdentityObject(UfuncIdentity id) {
  switch (id) {
    case UfuncIdentity::kNone:
      return py::none();
    case UfuncIdentity::kTrue:
      return py::bool_(true);
    case UfuncIdentity::kFalse:
      return py::bool_(false);
    case UfuncIdentity::kMinusInf:
      return py::float_(UfuncIdentityValue(id));
    default:
      return py::int_(static_cast<int>(UfuncIdentityValue(id)));
  }
}

// The result of a method: written into out= when given (returned), else a NumPy scalar for a
// 0-d result as NumPy's reduce gives.
py::object Deliver(NDArray r, py::handle out_h, bool scalar) {
  py::handle out = OutArg(out_h);
  if (out.is_none()) return scalar ? ScalarOrArray(std::move(r)) : Wrap(std::move(r));
  EvaluateAllPending();
  const NDArray& dst = AsPyArray(out)->Get();
  if (dst.sizes() != r.sizes()) {
    throw py::value_error("output parameter has the wrong shape: " + dst.Describe() +
                          ", the result is " + r.Describe());
  }
  dst.copy_(r);
  return py::reinterpret_borrow<py::object>(out);
}

template <typename F>
NDArray NoGil(F&& f) {
  py::gil_scoped_release release;
  return f();
}

void BindUfuncClass(py::module_& m) {
  py::class_<PyUfunc> cls(m, "ufunc", py::dynamic_attr(),
                          "NumPy's ufunc: an elementwise op of the registry with its methods.");
  cls.def_property_readonly("nin", [](const PyUfunc& u) { return UfuncInfoOf(u.op).nin; });
  cls.def_property_readonly("nout", [](const PyUfunc& u) { return UfuncInfoOf(u.op).nout; });
  cls.def_property_readonly(
      "nargs", [](const PyUfunc& u) { return UfuncInfoOf(u.op).nin + UfuncInfoOf(u.op).nout; });
  cls.def_property_readonly(
      "identity", [](const PyUfunc& u) { return IdentityObject(UfuncInfoOf(u.op).identity); });
  cls.def_property_readonly("signature", [](const PyUfunc&) { return py::none(); });
  cls.def("__repr__",
          [](const PyUfunc& u) { return "<ufunc '" + std::string(UfuncInfoOf(u.op).name) + "'>"; });
  cls.def(
      "reduce",
      [](const PyUfunc& u, py::handle array, py::handle axis, py::handle dtype, py::handle out,
         bool keepdims, py::handle initial, py::handle where) {
        UfuncReduceOptions opt;
        const NDArray a = AsNDArray(array);
        opt.axes = ParseAxes(axis);
        opt.dtype = ParseDType(dtype);
        opt.keepdims = keepdims;
        if (!initial.is_none()) opt.initial = AsNDArray(initial);
        if (where.ptr() != Py_True) opt.where = AsNDArray(where);
        if (opt.dtype < 0 && !out.is_none() && !OutArg(out).is_none())
          opt.dtype = AsPyArray(OutArg(out))->Get().type_flag();
        return Deliver(NoGil([&]() { return Reduce(u.op, a, opt); }), out, true);
      },
      py::arg("array"), py::arg("axis") = 0, py::arg("dtype") = py::none(),
      py::arg("out") = py::none(), py::arg("keepdims") = false, py::arg("initial") = py::none(),
      py::arg("where") = true,
      "Reduces `array` along `axis` (int, tuple or None) by applying the ufunc repeatedly.\n\n"
      "Parameters: axis (default 0), dtype, out, keepdims, initial, where (as numpy).");
  cls.def(
      "accumulate",
      [](const PyUfunc& u, py::handle array, index_t axis, py::handle dtype, py::handle out) {
        const NDArray a = AsNDArray(array);
        const int flag = ParseDType(dtype);
        return Deliver(NoGil([&]() { return Accumulate(u.op, a, axis, flag); }), out, false);
      },
      py::arg("array"), py::arg("axis") = 0, py::arg("dtype") = py::none(),
      py::arg("out") = py::none(), "Running result of the ufunc along `axis` (numpy).");
  cls.def(
      "reduceat",
      [](const PyUfunc& u, py::handle array, py::handle indices, index_t axis, py::handle dtype,
         py::handle out) {
        const NDArray a = AsNDArray(array);
        const NDArray idx = astype(AsNDArray(indices).reshape({-1}), kInt64);
        std::vector<index_t> iv(static_cast<std::size_t>(idx.numel()));
        for (index_t i = 0; i < idx.numel(); ++i)
          iv[static_cast<std::size_t>(i)] = static_cast<const std::int64_t*>(idx.data_ptr())[i];
        const int flag = ParseDType(dtype);
        return Deliver(NoGil([&]() { return ReduceAt(u.op, a, iv, axis, flag); }), out, false);
      },
      py::arg("array"), py::arg("indices"), py::arg("axis") = 0, py::arg("dtype") = py::none(),
      py::arg("out") = py::none(), "Reductions over the slices between `indices` (numpy).");
  cls.def(
      "outer",
      [](const PyUfunc& u, py::handle a_h, py::handle b_h, py::handle dtype, py::handle out) {
        const NDArray a = AsNDArray(a_h), b = AsNDArray(b_h);
        const int flag = ParseDType(dtype);
        return Deliver(NoGil([&]() { return Outer(u.op, a, b, flag); }), out, false);
      },
      py::arg("A"), py::arg("B"), py::kw_only(), py::arg("dtype") = py::none(),
      py::arg("out") = py::none(), "op(a, b) for every pair: shape a.shape + b.shape (numpy).");
  cls.def(
      "at",
      [](const PyUfunc& u, py::handle a_h, py::handle indices, py::handle b_h) {
        PyArray* target = AsPyArray(a_h);
        if (target == nullptr)
          throw py::type_error("ufunc.at: the first operand must be a shade.ndarray");
        EvaluateAllPending();
        std::vector<NDArray> idx;
        if (PyTuple_Check(indices.ptr())) {
          for (py::handle h : indices) idx.push_back(AsNDArray(h));
        } else {
          idx.push_back(AsNDArray(indices));
        }
        const NDArray b = b_h.is_none() ? NDArray() : AsNDArray(b_h);
        const NDArray& a = target->Get();
        py::gil_scoped_release release;
        At(u.op, a, idx, b);
      },
      py::arg("a"), py::arg("indices"), py::arg("b") = py::none(),
      "Unbuffered in-place op on a[indices]: repeated indices apply once each (numpy).");
  reinterpret_cast<PyTypeObject*>(cls.ptr())->tp_call = &UfuncCall;
}

// np.seterr / geterr / seterrcall over float_errors.h. Warnings are Python RuntimeWarnings; the
// errcall object (a function, or an object with `write` for 'log') is module state.
py::object& ErrCall() {
  static py::object* call = new py::object(py::none());  // leaked: outlives interpreter teardown
  return *call;
}

py::dict PolicyDict(const FloatErrorPolicy& p) {
  py::dict d;
  d["divide"] = FloatErrorActionName(p.divide);
  d["over"] = FloatErrorActionName(p.over);
  d["under"] = FloatErrorActionName(p.under);
  d["invalid"] = FloatErrorActionName(p.invalid);
  return d;
}

void PythonFloatErrorHandler(FloatErrorAction action, const std::string& message, const char* kind,
                             unsigned flag) {
  py::gil_scoped_acquire gil;
  if (action == FloatErrorAction::kWarn) {
    if (PyErr_WarnEx(PyExc_RuntimeWarning, message.c_str(), 1) < 0) throw py::error_already_set();
    return;
  }
  py::object call = ErrCall();
  if (action == FloatErrorAction::kCall) {
    if (call.is_none()) {
      throw py::value_error("Callback function must be set via seterrcall for 'call' (" + message +
                            ")");
    }
    call(kind, flag);
  } else {  // kLog
    if (call.is_none() || !py::hasattr(call, "write")) {
      throw py::value_error("Log object must be set via seterrcall for 'log' (" + message + ")");
    }
    call.attr("write")("Warning: " + message + "\n");
  }
}

void BindFloatErrors(py::module_& m) {
  SetFloatErrorHandler(&PythonFloatErrorHandler);
  m.def(
      "seterr",
      [](py::handle all, py::handle divide, py::handle over, py::handle under, py::handle invalid) {
        FloatErrorPolicy p = GetFloatErrorPolicy();
        const py::dict old = PolicyDict(p);
        auto set = [](py::handle h, FloatErrorAction* a) {
          if (!h.is_none()) *a = ParseFloatErrorAction(py::str(h));
        };
        for (FloatErrorAction* a : {&p.divide, &p.over, &p.under, &p.invalid}) set(all, a);
        set(divide, &p.divide);
        set(over, &p.over);
        set(under, &p.under);
        set(invalid, &p.invalid);
        SetFloatErrorPolicy(p);
        return old;
      },
      py::arg("all") = py::none(), py::arg("divide") = py::none(), py::arg("over") = py::none(),
      py::arg("under") = py::none(), py::arg("invalid") = py::none(),
      "Sets how floating-point errors are handled (numpy.seterr; shade starts with all 'ignore'): "
      "'ignore', 'warn', 'raise', "
      "'call', 'print' or 'log' per kind; returns the old settings. Per thread.");
  m.def(
      "geterr", []() { return PolicyDict(GetFloatErrorPolicy()); },
      "The floating-point error handling in force (numpy.geterr).");
  m.def(
      "seterrcall",
      [](py::object func) {
        if (!func.is_none() && !PyCallable_Check(func.ptr()) && !py::hasattr(func, "write"))
          throw py::type_error("Only callable can be used as callback");
        py::object old = ErrCall();
        ErrCall() = func;
        return old;
      },
      py::arg("func"),
      "Sets the function ('call') or object with write ('log') for floating-point errors.");
  m.def(
      "geterrcall", []() { return ErrCall(); }, "The current seterrcall object.");
}

// Constants, dtype limits and the build description (numeric_info.h, build_info.h).
void BindNumericInfo(py::module_& m) {
  m.attr("pi") = constants::pi;
  m.attr("e") = constants::e;
  m.attr("euler_gamma") = constants::euler_gamma;
  m.attr("inf") = constants::inf;
  m.attr("nan") = constants::nan;
  m.attr("__version__") = GetBuildInfo().version;
  m.def(
      "_finfo",
      [](py::handle dtype) {
        const FloatInfo f = FInfo(ParseDType(dtype));
        py::dict d;
        d["bits"] = f.bits;
        d["nmant"] = f.nmant;
        d["nexp"] = f.nexp;
        d["machep"] = f.machep;
        d["negep"] = f.negep;
        d["minexp"] = f.minexp;
        d["maxexp"] = f.maxexp;
        d["precision"] = f.precision;
        d["eps"] = f.eps;
        d["epsneg"] = f.epsneg;
        d["max"] = f.max;
        d["min"] = f.min;
        d["tiny"] = f.tiny;
        d["smallest_normal"] = f.tiny;
        d["smallest_subnormal"] = f.smallest_subnormal;
        d["resolution"] = f.resolution;
        return d;
      },
      py::arg("dtype"), "np.finfo's fields of a float dtype (shade::FInfo), as a dict.");
  m.def(
      "_iinfo",
      [](py::handle dtype) {
        const IntInfo i = IInfo(ParseDType(dtype));
        py::dict d;
        d["bits"] = i.bits;
        d["min"] = i.min;
        d["max"] = i.max;
        return d;
      },
      py::arg("dtype"), "np.iinfo's fields of an integer dtype (shade::IInfo), as a dict.");
  m.def(
      "show_config",
      []() {
        const std::string text = BuildInfoText(
            {{"python module", "yes (shade._shade, Python " + std::to_string(PY_MAJOR_VERSION) +
                                   "." + std::to_string(PY_MINOR_VERSION) + ")"},
             {"mpi (shade::dist)", "not linked into the Python module"}});
        py::print(text, py::arg("end") = "");
      },
      "Prints how shade was built: SIMD targets (compiled, chosen here), BLAS, threads, "
      "optional components.");
}

}  // namespace

void BindUfuncs(py::module_& m) {
  BindUfuncClass(m);
  BindNumericInfo(m);
  BindFloatErrors(m);
  // One ufunc per registry op under its NumPy name: new ops appear here without a binding.
  for (const UfuncInfo& info : AllUfuncs()) {
    py::object u = py::cast(PyUfunc{info.op});
    u.attr("__name__") = info.name;  // per instance: the type's own __name__ is "ufunc"
    u.attr("__doc__") = std::string(info.name) + "(x1" + (info.nin > 1 ? ", x2" : "") +
                        (info.nin > 2 ? ", x3" : "") +
                        ", /, out=None, *, where=True, casting='same_kind', dtype=None)\n\n"
                        "Elementwise registry op as a NumPy ufunc: broadcasting, NEP 50 promotion, "
                        "lazy (fused) on large operands.";
    m.attr(info.name) = u;
  }
  // The other names of the same ops (NumPy's and shade's C++ ones).
  const std::pair<const char*, const char*> aliases[] = {
      {"divide", "true_divide"}, {"abs", "absolute"},    {"bitwise_not", "invert"},
      {"clamp", "clip"},         {"radians", "deg2rad"}, {"degrees", "rad2deg"}};
  for (const auto& alias : aliases) {
    if (!py::hasattr(m, alias.first) && py::hasattr(m, alias.second))
      m.attr(alias.first) = m.attr(alias.second);
  }
}

}  // namespace python
}  // namespace shade
