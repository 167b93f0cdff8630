// The Python array object and everything that crosses the Python/shade boundary: pending
// expressions, operand conversion, dtypes, the buffer protocol, DLPack and error translation.
#include <Python.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <utility>

#include "shade/io/dlpack.h"
#include "shade/io/stream.h"
#include "shade/ndarray/float_errors.h"
#include "shade/ndarray/shape_ops.h"
#include "shade/param/parameter.h"
#include "shade_py.h"

namespace shade {
namespace python {

// ------------------------------------------------------------------ pending expressions

namespace {
// Every PyArray whose expression has not run (the GIL guards it).
std::unordered_set<PyArray*>& PendingSet() {
  static auto* set = new std::unordered_set<PyArray*>();  // never destroyed: outlives modules
  return *set;
}
std::int64_t g_evaluations = 0;
}  // namespace

PyArray::PyArray(Expr expr) : expr_(std::make_unique<Expr>(std::move(expr))) {
  PendingSet().insert(this);
}

PyArray::~PyArray() {
  if (expr_) PendingSet().erase(this);
}

const NDArray& PyArray::Get() {
  if (expr_) {
    // Evaluated from a copy (shared arrays, no data): with the GIL released another thread may
    // evaluate this array too, and the first to finish keeps its result.
    const Expr expr = *expr_;
    NDArray result;
    {
      py::gil_scoped_release release;
      result = expr.eval();
    }
    CountEvaluation();
    if (expr_) {
      array_ = std::move(result);
      PendingSet().erase(this);
      expr_.reset();
    }
  }
  return array_;
}

void EvaluateAllPending() {
  if (PendingSet().empty()) return;
  const std::vector<PyArray*> pending(PendingSet().begin(), PendingSet().end());
  for (PyArray* p : pending) p->Get();
}

std::int64_t EvaluationCount() {
  return g_evaluations;
}
void CountEvaluation() {
  ++g_evaluations;
}
std::int64_t& LazyMinElements() {
  static std::int64_t min_elements = 1 << 16;
  return min_elements;
}

namespace {
// A new Python object owning `value`. The type record is looked up once: pybind11's py::cast
// hashes the C++ type name on every call, a measurable part of a 4-element `a + b`.
py::object WrapPyArray(std::unique_ptr<PyArray> value) {
  static const py::detail::type_info* type = py::detail::get_type_info(typeid(PyArray));
  PyArray* raw = value.get();
  return py::reinterpret_steal<py::object>(py::detail::type_caster_generic::cast(
      raw, py::return_value_policy::take_ownership, py::handle(), type, nullptr, nullptr, &value));
}
}  // namespace

py::object Wrap(NDArray array) {
  return WrapPyArray(std::make_unique<PyArray>(std::move(array)));
}

py::object WrapExpr(Expr expr) {
  // The product of the operands' sizes bounds the broadcast result's size: below the threshold
  // (a 4-element a + b) the shape need not be resolved to know that the result is small.
  double bound = 1;
  for (int i = 0; i < expr.num_arrays(); ++i)
    bound *= std::max<double>(1, static_cast<double>(expr.array(i).numel()));
  if (bound >= static_cast<double>(LazyMinElements()) &&
      static_cast<double>(expr.shape().Size()) >= static_cast<double>(LazyMinElements())) {
    // shape() resolved dtypes and shapes: errors surface where the op is written
    return WrapPyArray(std::make_unique<PyArray>(std::move(expr)));
  }
  NDArray result = expr.eval();
  CountEvaluation();
  return Wrap(std::move(result));
}

PyArray* AsPyArray(py::handle h) {
  static auto* const type = reinterpret_cast<PyTypeObject*>(py::type::of<PyArray>().ptr());
  if (!PyObject_TypeCheck(h.ptr(), type)) return nullptr;
  // The value pointer straight from the instance (a simple, single-base layout), without the
  // type lookup of h.cast<PyArray*>().
  auto* value =
      reinterpret_cast<py::detail::instance*>(h.ptr())->get_value_and_holder().value_ptr<PyArray>();
  if (value == nullptr) throw py::type_error("shade.ndarray: uninitialised array object");
  return value;
}

// ------------------------------------------------------------------ dtypes

namespace {
const char* const kDTypeNames[kNumTypeFlags] = {
    "float32",  "float64", "float16", "uint8",  "int32",  "int8",      "int64",     "bool",
    "bfloat16", "int16",   "uint16",  "uint32", "uint64", "complex64", "complex128"};

int FlagOfName(const std::string& name) {
  for (int f = 0; f < kNumTypeFlags; ++f) {
    if (name == kDTypeNames[f]) return f;
  }
  return -1;
}

// Module-lifetime Python objects are leaked on purpose: static destructors run after the
// interpreter is gone, where a decref would crash.
py::module_& NumPy() {
  static auto* np = new py::module_(py::module_::import("numpy"));
  return *np;
}
}  // namespace

int ParseDType(py::handle h) {
  if (h.is_none()) return -1;
  if (py::isinstance<py::str>(h)) {
    const int f = FlagOfName(h.cast<std::string>());
    if (f >= 0) return f;
  }
  if (py::hasattr(h, "_shade_dtype_flag")) return h.attr("_shade_dtype_flag").cast<int>();
  py::object dt;
  try {
    dt = NumPy().attr("dtype")(h);
  } catch (py::error_already_set&) {
    throw py::type_error("shade: data type " + py::repr(h).cast<std::string>() + " not understood");
  }
  const int f = FlagOfName(dt.attr("name").cast<std::string>());
  if (f < 0) {
    throw py::type_error("shade: unsupported dtype " + py::str(dt).cast<std::string>() +
                         " (supported: bool, int8-64, uint8-64, float16/32/64, bfloat16, "
                         "complex64/128)");
  }
  return f;
}

py::object DTypeObject(int flag) {
  static auto* cache = new py::object[kNumTypeFlags];  // leaked: see NumPy()
  SHADE_CHECK_TYPE(IsValidTypeFlag(flag)) << "unknown dtype flag " << flag;
  if (!cache[flag]) {
    if (flag == kBfloat16) {
      cache[flag] = py::module_::import("shade").attr("bfloat16");
    } else {
      cache[flag] = NumPy().attr("dtype")(kDTypeNames[flag]);
    }
  }
  return cache[flag];
}

index_t ParseIndex(py::handle h, const char* what) {
  // PyNumber_Index raises NumPy's TypeError for a non-integer; the overflow check gives an
  // OverflowError naming the argument where h.cast<index_t>() threw a RuntimeError.
  PyObject* idx = PyNumber_Index(h.ptr());
  if (idx == nullptr) throw py::error_already_set();
  const py::object owned = py::reinterpret_steal<py::object>(idx);
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(idx, &overflow);
  if (overflow != 0) {
    const std::string msg = std::string(what) + " " + py::repr(owned).cast<std::string>() +
                            " does not fit a 64-bit signed integer";
    PyErr_SetString(PyExc_OverflowError, msg.c_str());
    throw py::error_already_set();
  }
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  return static_cast<index_t>(v);
}

namespace {
std::vector<index_t> ParseIndexSequence(py::handle h, const char* what) {
  if (!PySequence_Check(h.ptr()) || PyUnicode_Check(h.ptr()) || PyBytes_Check(h.ptr())) {
    throw py::type_error(std::string(what) + " must be an integer or a sequence of integers, got " +
                         py::str(py::type::of(h)).cast<std::string>());
  }
  std::vector<index_t> out;
  for (py::handle item : py::reinterpret_borrow<py::sequence>(h))
    out.push_back(ParseIndex(item, what));
  return out;
}
}  // namespace

AxisSet ParseAxes(py::handle h) {
  if (h.is_none()) return AxisSet::All();
  if (PyIndex_Check(h.ptr())) return AxisSet(ParseIndex(h, "axis"));
  return AxisSet(ParseIndexSequence(h, "axis"));
}

std::vector<index_t> ParseShape(py::handle h) {
  if (PyIndex_Check(h.ptr())) return {ParseIndex(h, "shape")};
  return ParseIndexSequence(h, "shape");
}

// ------------------------------------------------------------------ buffers in

namespace {
// shade flag of a buffer format ("<f", "=i", "?", ...) and item size; -1 when unsupported.
int FlagOfFormat(const char* format, Py_ssize_t itemsize) {
  if (format == nullptr) return kUint8;
  std::string f(format);
  if (!f.empty() && (f[0] == '@' || f[0] == '=' || f[0] == '<')) f.erase(0, 1);
  if (f == "Zf") return kComplex64;  // PEP 3118: Z + the part's format
  if (f == "Zd") return kComplex128;
  if (f.size() != 1) return -1;
  const char c = f[0];
  if (c == '?') return kBool;
  if (c == 'e') return kFloat16;
  if (c == 'f') return kFloat32;
  if (c == 'd') return kFloat64;
  const bool is_signed = std::strchr("bhilq", c) != nullptr;
  const bool is_unsigned = std::strchr("BHILQN", c) != nullptr;
  if (!is_signed && !is_unsigned) return -1;
  switch (itemsize) {
    case 1:
      return is_signed ? kInt8 : kUint8;
    case 2:
      return is_signed ? kInt16 : kUint16;
    case 4:
      return is_signed ? kInt32 : kUint32;
    case 8:
      return is_signed ? kInt64 : kUint64;
    default:
      return -1;
  }
}

// Releases an exported buffer from any thread (the last NDArray may die without the GIL).
void ReleaseBuffer(Py_buffer* view) {
  if (Py_IsInitialized()) {
    PyGILState_STATE state = PyGILState_Ensure();
    PyBuffer_Release(view);
    PyGILState_Release(state);
  }
  delete view;
}

// An NDArray over the buffer's memory without a copy, or undefined when the layout cannot be
// described by shade's non-negative element strides (a copy is made by the caller then).
NDArray ViewBuffer(Py_buffer* view, int flag) {
  const Py_ssize_t itemsize = view->itemsize;
  std::vector<index_t> sizes(view->ndim), strides(view->ndim);
  index_t numel = 1;
  for (int d = 0; d < view->ndim; ++d) numel *= view->shape[d];
  for (int d = 0; d < view->ndim; ++d) {
    sizes[d] = view->shape[d];
    const Py_ssize_t s = view->strides ? view->strides[d] : 0;
    if (numel > 0 && (s < 0 || s % itemsize != 0)) return NDArray();
    strides[d] = s / itemsize;
  }
  if (view->strides == nullptr) strides = ContiguousStrides(sizes);
  if (numel > 0 && reinterpret_cast<std::uintptr_t>(view->buf) % TypeFlagSize(flag) != 0)
    return NDArray();
  return NDArray::FromBlob(view->buf, sizes, strides, TypeMeta::FromFlag(flag),
                           [view](void*) { ReleaseBuffer(view); });
}

// NDArray from an object with the buffer protocol: a view when the buffer is writable and its
// layout fits, else a copy. Returns undefined when h exports no buffer.
NDArray FromBuffer(py::handle h) {
  auto* view = new Py_buffer();
  bool writable = true;
  if (PyObject_GetBuffer(h.ptr(), view, PyBUF_RECORDS) != 0) {
    PyErr_Clear();
    writable = false;
    if (PyObject_GetBuffer(h.ptr(), view, PyBUF_RECORDS_RO) != 0) {
      PyErr_Clear();
      delete view;
      return NDArray();
    }
  }
  const int flag = FlagOfFormat(view->format, view->itemsize);
  if (flag < 0) {
    const std::string fmt = view->format ? view->format : "B";
    PyBuffer_Release(view);
    delete view;
    throw py::type_error("shade.asarray: unsupported buffer format '" + fmt +
                         "' (non-native byte order or a non-numeric type)");
  }
  if (writable) {
    NDArray shared = ViewBuffer(view, flag);
    if (shared.defined()) return shared;
  }
  // Read-only buffers (shade cannot enforce read-only access) and layouts shade cannot view are
  // copied into a contiguous array.
  std::vector<index_t> sizes(view->shape, view->shape + view->ndim);
  NDArray copy = NDArray::Empty(sizes, flag);
  const int rc =
      PyBuffer_ToContiguous(copy.data_ptr(), view, static_cast<Py_ssize_t>(copy.nbytes()), 'C');
  PyBuffer_Release(view);
  delete view;
  if (rc != 0) throw py::error_already_set();
  return copy;
}
}  // namespace

namespace {
py::object FromDLPackObject(py::handle obj);
}  // namespace

NDArray AsNDArray(py::handle h) {
  if (PyArray* p = AsPyArray(h)) return p->Get();
  if (PyObject_CheckBuffer(h.ptr())) {
    NDArray a = FromBuffer(h);
    if (a.defined()) return a;
  }
  if (py::hasattr(h, "__dlpack__") && !py::hasattr(h, "__array_interface__")) {
    return AsPyArray(FromDLPackObject(h))->Get();
  }
  // Sequences and scalars: NumPy decides the dtype as it would for np.asarray.
  py::object arr = NumPy().attr("asarray")(h);
  NDArray a = FromBuffer(arr);
  SHADE_CHECK(a.defined()) << "shade.asarray: cannot convert the object";
  return a;
}

std::optional<Expr> ToOperand(py::handle h, bool strict) {
  if (PyArray* p = AsPyArray(h)) return p->AsExpr();
  if (PyBool_Check(h.ptr())) return Expr(h.ptr() == Py_True);
  if (PyLong_CheckExact(h.ptr()) ||
      (PyLong_Check(h.ptr()) && !PyObject_HasAttrString(h.ptr(), "dtype"))) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    if (overflow == 0) return Expr(static_cast<std::int64_t>(v));
    if (overflow > 0) {
      const unsigned long long u = PyLong_AsUnsignedLongLong(h.ptr());
      if (!PyErr_Occurred()) return Expr(static_cast<std::uint64_t>(u));
      PyErr_Clear();
    }
    throw py::value_error("shade: Python integer " + py::str(h).cast<std::string>() +
                          " is out of the int64/uint64 range");
  }
  if (PyFloat_CheckExact(h.ptr())) return Expr(PyFloat_AS_DOUBLE(h.ptr()));
  if (PyComplex_CheckExact(h.ptr())) {  // a Python complex: weak (NEP 50), as a float is
    return Expr(complex128_t(PyComplex_RealAsDouble(h.ptr()), PyComplex_ImagAsDouble(h.ptr())));
  }
  const bool array_like = PyObject_CheckBuffer(h.ptr()) || PySequence_Check(h.ptr()) ||
                          PyFloat_Check(h.ptr()) || PyLong_Check(h.ptr()) ||
                          PyComplex_Check(h.ptr()) || py::hasattr(h, "__array_interface__") ||
                          py::hasattr(h, "__dlpack__");
  if (!array_like || py::isinstance<py::str>(h) || py::isinstance<py::bytes>(h)) {
    if (!strict) return std::nullopt;
    throw py::type_error("shade: unsupported operand type " +
                         py::str(py::type::handle_of(h).attr("__name__")).cast<std::string>());
  }
  return Expr(AsNDArray(h));
}

// ------------------------------------------------------------------ buffers and DLPack out

namespace {
// Buffer-protocol format of each dtype (LP64: 'l' is int64, so NumPy picks np.int64 itself).
const char* FormatOf(int flag) {
  switch (flag) {
    case kBool:
      return "?";
    case kInt8:
      return "b";
    case kUint8:
      return "B";
    case kInt16:
      return "h";
    case kUint16:
      return "H";
    case kInt32:
      return "i";
    case kUint32:
      return "I";
    case kInt64:
      return "l";
    case kUint64:
      return "L";
    case kFloat16:
      return "e";
    case kFloat32:
      return "f";
    case kFloat64:
      return "d";
    case kComplex64:
      return "Zf";
    case kComplex128:
      return "Zd";
    default:
      return nullptr;
  }
}

// Shape and strides of one buffer export (Py_buffer points into them until it is released).
struct ExportedLayout {
  std::vector<Py_ssize_t> shape, strides;
};

int GetBuffer(PyObject* obj, Py_buffer* view, int flags) {
  view->obj = nullptr;
  try {
    const NDArray& a = py::handle(obj).cast<PyArray&>().Get();
    const char* format = FormatOf(a.type_flag());
    if (format == nullptr) {
      throw py::type_error(std::string("shade.ndarray: dtype ") + TypeFlagName(a.type_flag()) +
                           " has no buffer format (astype(shade.float32) first)");
    }
    // Expanded views and arrays marked read-only (setflags(write=False)) must not be written.
    const bool readonly = !a.writeable() || !a.is_non_overlapping();
    if ((flags & PyBUF_WRITABLE) == PyBUF_WRITABLE && readonly) {
      throw py::buffer_error(
          "shade.ndarray: a read-only or expanded (broadcast) view cannot be exported writable");
    }
    if ((flags & PyBUF_STRIDES) != PyBUF_STRIDES && !a.is_contiguous()) {
      throw py::buffer_error(
          "shade.ndarray: the array is not contiguous; the consumer must accept strides");
    }
    auto layout = std::make_unique<ExportedLayout>();
    const auto itemsize = static_cast<Py_ssize_t>(a.itemsize());
    for (index_t d = 0; d < a.ndim(); ++d) {
      layout->shape.push_back(static_cast<Py_ssize_t>(a.size(d)));
      layout->strides.push_back(static_cast<Py_ssize_t>(a.stride(d)) * itemsize);
    }
    static char empty_data[64];
    view->buf = a.data_ptr() != nullptr ? a.data_ptr() : empty_data;
    view->len = static_cast<Py_ssize_t>(a.nbytes());
    view->itemsize = itemsize;
    view->readonly = readonly ? 1 : 0;
    view->ndim = a.ndim();
    view->format = (flags & PyBUF_FORMAT) == PyBUF_FORMAT ? const_cast<char*>(format) : nullptr;
    view->shape = (flags & PyBUF_ND) == PyBUF_ND ? layout->shape.data() : nullptr;
    view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? layout->strides.data() : nullptr;
    view->suboffsets = nullptr;
    view->internal = layout.release();
    view->obj = obj;  // the consumer keeps this array, and so its storage, alive
    Py_INCREF(obj);
    return 0;
  } catch (...) {
    SetPythonError();
  }
  return -1;
}

void ReleaseExportedBuffer(PyObject*, Py_buffer* view) {
  delete static_cast<ExportedLayout*>(view->internal);
}

// Capsule names of the two DLPack ABIs (the consumer renames a capsule to used_<name>).
constexpr const char* kLegacyCapsule = "dltensor";
constexpr const char* kVersionedCapsule = "dltensor_versioned";

// A capsule nobody consumed still owns its tensor.
template <typename Managed>
void DLPackCapsuleDestructor(PyObject* capsule) {
  const char* name =
      std::is_same<Managed, DLManagedTensor>::value ? kLegacyCapsule : kVersionedCapsule;
  if (PyCapsule_IsValid(capsule, name)) {
    auto* t = static_cast<Managed*>(PyCapsule_GetPointer(capsule, name));
    if (t != nullptr && t->deleter != nullptr) t->deleter(t);
  }
}

// Wraps a producer's tensor so that its deleter runs with the GIL held (NumPy's deleter drops a
// Python reference, and the last shade array may die on any thread).
template <typename Managed>
struct GilManagedTensor {
  Managed outer;
  Managed* inner;
  static void Delete(Managed* self) {
    auto* w = static_cast<GilManagedTensor*>(self->manager_ctx);
    if (w->inner->deleter != nullptr && Py_IsInitialized()) {
      PyGILState_STATE state = PyGILState_Ensure();
      w->inner->deleter(w->inner);
      PyGILState_Release(state);
    }
    delete w;
  }
};

// Imports the tensor of an unconsumed capsule and marks the capsule used. A read-only tensor
// (DLPack 1.x flag) is copied: shade arrays cannot refuse writes.
template <typename Managed>
NDArray ImportCapsule(py::handle capsule, const char* name) {
  auto* inner = static_cast<Managed*>(PyCapsule_GetPointer(capsule.ptr(), name));
  auto* w = new GilManagedTensor<Managed>{*inner, inner};
  w->outer.manager_ctx = w;
  w->outer.deleter = &GilManagedTensor<Managed>::Delete;
  NDArray a;
  bool read_only = false;
  try {
    if constexpr (std::is_same<Managed, DLManagedTensor>::value) {
      a = io::FromDLPack(&w->outer);
    } else {
      read_only = (inner->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
      a = io::FromDLPack(&w->outer, /*accept_read_only=*/true);
    }
  } catch (...) {
    delete w;  // nothing was taken: the capsule still owns the producer's tensor
    throw;
  }
  PyCapsule_SetName(capsule.ptr(), std::is_same<Managed, DLManagedTensor>::value
                                       ? "used_dltensor"
                                       : "used_dltensor_versioned");
  return read_only ? a.Clone() : a;
}

py::object FromDLPackObject(py::handle obj) {
  py::object capsule;
  if (PyCapsule_CheckExact(obj.ptr())) {
    capsule = py::reinterpret_borrow<py::object>(obj);
  } else if (py::hasattr(obj, "__dlpack__")) {
    try {  // DLPack 1.x producers take max_version; older ones (NumPy 1.24) raise TypeError
      capsule = obj.attr("__dlpack__")(py::arg("max_version") =
                                           py::make_tuple(io::kDLPackMajor, io::kDLPackMinor));
    } catch (py::error_already_set& e) {
      if (!e.matches(PyExc_TypeError)) throw;
      capsule = obj.attr("__dlpack__")();
    }
  } else {
    throw py::type_error("shade.from_dlpack: the object has no __dlpack__ method");
  }
  if (PyCapsule_IsValid(capsule.ptr(), kVersionedCapsule)) {
    return Wrap(ImportCapsule<DLManagedTensorVersioned>(capsule, kVersionedCapsule));
  }
  if (PyCapsule_IsValid(capsule.ptr(), kLegacyCapsule)) {
    return Wrap(ImportCapsule<DLManagedTensor>(capsule, kLegacyCapsule));
  }
  throw py::value_error(
      "shade.from_dlpack: expected an unconsumed 'dltensor' or 'dltensor_versioned' capsule");
}

// __dlpack__: the legacy capsule unless the consumer asks for DLPack 1.x by max_version.
py::object ExportDLPack(PyArray& self, py::handle stream, py::handle max_version,
                        py::handle dl_device, py::handle copy) {
  if (!stream.is_none())
    throw py::value_error("shade.ndarray.__dlpack__: CPU arrays take stream=None");
  if (!dl_device.is_none() && !dl_device.equal(py::make_tuple(1, 0))) {
    throw py::buffer_error("shade.ndarray.__dlpack__: only the CPU device (1, 0) is available");
  }
  const NDArray array = (!copy.is_none() && copy.cast<bool>()) ? self.Get().Clone() : self.Get();
  const bool versioned =
      !max_version.is_none() && max_version.cast<py::tuple>()[0].cast<int>() >= 1;
  PyObject* cap = nullptr;
  if (versioned) {
    // A read-only array (setflags(write=False)) exports with the READ_ONLY flag.
    DLManagedTensorVersioned* t = io::ToDLPackVersioned(array, !array.writeable());
    cap = PyCapsule_New(t, kVersionedCapsule, &DLPackCapsuleDestructor<DLManagedTensorVersioned>);
    if (cap == nullptr) t->deleter(t);
  } else {
    DLManagedTensor* t = io::ToDLPack(array);
    cap = PyCapsule_New(t, kLegacyCapsule, &DLPackCapsuleDestructor<DLManagedTensor>);
    if (cap == nullptr) t->deleter(t);
  }
  if (cap == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(cap);
}
}  // namespace

void BindInterop(py::module_& m, py::class_<PyArray>& cls) {
  // The buffer slots are set directly instead of through def_buffer: pybind11 2.10 cannot report
  // an error from a def_buffer callback (an exception there terminates the process).
  auto* heap_type = reinterpret_cast<PyHeapTypeObject*>(cls.ptr());
  heap_type->as_buffer.bf_getbuffer = &GetBuffer;
  heap_type->as_buffer.bf_releasebuffer = &ReleaseExportedBuffer;
  cls.def("__dlpack__", &ExportDLPack, py::kw_only(), py::arg("stream") = py::none(),
          py::arg("max_version") = py::none(), py::arg("dl_device") = py::none(),
          py::arg("copy") = py::none(),
          "DLPack capsule sharing this array's memory (DLPack 1.x when max_version >= (1, 0)).");
  cls.def(
      "__dlpack_device__", [](PyArray&) { return py::make_tuple(1, 0); },
      "(kDLCPU, 0): shade arrays live in host memory.");
  m.def(
      "from_dlpack", &FromDLPackObject, py::arg("x"),
      "Array sharing the memory of any DLPack producer (an object with __dlpack__, or a capsule).");
}

// ------------------------------------------------------------------ errors

namespace {
// The one place that maps shade's error classes to Python's: each subclass of shade::Error has
// the builtin of the same meaning. NumPy raises OverflowError for a Python integer that does not
// fit the array's dtype (NEP 50); shade reports it as a ValueError naming a "Python-like
// integer", which becomes OverflowError here.
PyObject* PythonClassFor(const Error& e) {
  if (dynamic_cast<const IndexError*>(&e) != nullptr) return PyExc_IndexError;
  if (dynamic_cast<const TypeError*>(&e) != nullptr) return PyExc_TypeError;
  if (dynamic_cast<const IOError*>(&e) != nullptr) return PyExc_OSError;
  if (dynamic_cast<const NotImplementedError*>(&e) != nullptr) return PyExc_NotImplementedError;
  if (dynamic_cast<const FloatingPointError*>(&e) != nullptr) return PyExc_FloatingPointError;
  if (std::string(e.what()).find("Python-like integer") != std::string::npos) {
    return PyExc_OverflowError;
  }
  return PyExc_ValueError;  // ValueError, ShapeError, ParamError and the root class
}
// A SystemIOError (an IOError with the system's errno) becomes OSError(errno, message), which
// Python turns into the matching subclass (FileNotFoundError, PermissionError, ...), as NumPy's
// file functions raise.
void SetErrorFor(const Error& e) {
  const auto* sys = dynamic_cast<const io::SystemIOError*>(&e);
  if (sys != nullptr) {
    PyObject* args = Py_BuildValue("(is)", sys->os_errno(), e.what());
    if (args != nullptr) {
      PyErr_SetObject(PyExc_OSError, args);
      Py_DECREF(args);
      return;
    }
  }
  PyErr_SetString(PythonClassFor(e), e.what());
}
}  // namespace

void SetPythonError() {
  try {
    throw;
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (py::builtin_exception& e) {
    e.set_error();
  } catch (const Error& e) {
    SetErrorFor(e);
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
}

void RegisterErrorTranslator(py::module_&) {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      SetErrorFor(e);
    }
  });
}

}  // namespace python
}  // namespace shade
