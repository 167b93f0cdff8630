// Construction and shape functions (ndarray/construct.h, ndarray/put_take.h) under NumPy's names,
// plus the array methods of the same topic (view(dtype), tobytes, the writeable flag). Thin:
// arguments are parsed here, the work is the C++ library's. The pure-Python helpers (pad's
// argument broadcasting, mgrid, ogrid, ix_, block, flat, flags, ...) are in shade/_construct.py.
#include <pybind11/stl.h>

#include <string>
#include <utility>
#include <vector>

#include "shade/ndarray/construct.h"
#include "shade/ndarray/put_take.h"
#include "shade/ndarray/shape_ops.h"
#include "shade_py.h"

namespace shade {
namespace python {
namespace {

std::vector<NDArray> Arrays(const py::args& args) {
  std::vector<NDArray> out;
  for (py::handle h : args) out.push_back(AsNDArray(h));
  return out;
}

std::vector<NDArray> ArraySeq(py::handle seq) {
  std::vector<NDArray> out;
  for (py::handle h : seq) out.push_back(AsNDArray(h));
  return out;
}

// A view of `parent` as a new Python array whose `base` is parent's base, or parent itself
// (NumPy collapses chains of views to the owner).
py::object WrapView(NDArray view, py::handle parent) {
  py::object r = Wrap(std::move(view));
  py::object base = py::reinterpret_borrow<py::object>(parent);
  if (AsPyArray(parent) != nullptr && py::hasattr(parent, "_base") &&
      !parent.attr("_base").is_none()) {
    base = parent.attr("_base");
  }
  r.attr("_base") = base;
  return r;
}

py::list WrapList(std::vector<NDArray> arrays) {
  py::list out;
  for (NDArray& a : arrays) out.append(Wrap(std::move(a)));
  return out;
}

py::list WrapViews(std::vector<NDArray> arrays, py::handle parent) {
  py::list out;
  for (NDArray& a : arrays) out.append(WrapView(std::move(a), parent));
  return out;
}

// NumPy's result of atleast_*d: the array for one argument, else a list.
py::object OneOrList(const py::args& args, NDArray (*f)(const NDArray&)) {
  py::list out;
  for (py::handle h : args) out.append(WrapView(f(AsNDArray(h)), h));
  if (out.size() == 1) return out[0];
  return std::move(out);
}

bool IsScalarIndex(py::handle h) {
  return PyIndex_Check(h.ptr()) && !PyBool_Check(h.ptr()) && AsPyArray(h) == nullptr &&
         !py::hasattr(h, "shape");
}

std::vector<index_t> IndexList(py::handle h) {
  return ParseShape(h);
}

bool Little(const std::string& bitorder) {
  if (bitorder == "little") return true;
  if (bitorder == "big") return false;
  throw py::value_error("'order' must be either 'little' or 'big'");
}

bool Fortran(const std::string& order) {
  if (order == "C") return false;
  if (order == "F") return true;
  throw py::value_error("only 'C' or 'F' order is permitted");
}

Casting ParseCasting(const std::string& c) {
  if (c == "no") return Casting::kNo;
  if (c == "equiv") return Casting::kEquiv;
  if (c == "safe") return Casting::kSafe;
  if (c == "same_kind") return Casting::kSameKind;
  if (c == "unsafe") return Casting::kUnsafe;
  throw py::value_error("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'");
}

// The array a write goes to: shade arrays as they are (pending ones evaluated), others viewed.
NDArray Target(py::handle h, const char* name) {
  EvaluateAllPending();  // expressions read their inputs when they run: before this write
  if (AsPyArray(h) == nullptr && !py::hasattr(h, "__array_interface__") &&
      !PyObject_CheckBuffer(h.ptr())) {
    throw py::type_error(std::string(name) + ": argument must be an array, not " +
                         std::string(py::str(py::type::of(h).attr("__name__"))));
  }
  return AsNDArray(h);
}

// A Python scalar source takes the destination's dtype when NumPy's same_kind rule would allow
// the value (a Python int into any integer or float array, a float into a float array).
NDArray Source(py::handle src, int dst_flag) {
  if (AsPyArray(src) == nullptr) {
    const DTypeKind k = KindOf(dst_flag);
    const bool is_bool = PyBool_Check(src.ptr()), is_int = PyLong_Check(src.ptr()) && !is_bool;
    if ((is_int && k != DTypeKind::kBool) || (PyFloat_Check(src.ptr()) && k == DTypeKind::kFloat) ||
        (is_bool)) {
      NDArray s = NDArray::Empty({}, is_bool ? kBool : dst_flag);
      s.copy_(AsNDArray(src));
      return s;
    }
  }
  return AsNDArray(src);
}

void BindFunctions(py::module_& m) {
  m.def(
      "broadcast_to",
      [](py::handle array, py::handle shape) {
        return WrapView(broadcast_to(AsNDArray(array), ParseShape(shape)), array);
      },
      py::arg("array"), py::arg("shape"), "Read-only view of `array` broadcast to `shape`.");
  m.def(
      "broadcast_arrays",
      [](py::args args) {
        py::list out;
        std::vector<NDArray> r = broadcast_arrays(Arrays(args));
        for (std::size_t i = 0; i < r.size(); ++i) out.append(WrapView(std::move(r[i]), args[i]));
        return out;
      },
      "Views of the arguments broadcast against each other (a list).");
  m.def(
      "broadcast_shapes",
      [](py::args args) {
        std::vector<std::vector<index_t>> shapes;
        for (py::handle h : args) shapes.push_back(ParseShape(h));
        return py::tuple(py::cast(broadcast_shapes(shapes)));
      },
      "The shape the argument shapes broadcast to.");
  m.def(
      "meshgrid",
      [](py::args xi, bool copy, bool sparse, const std::string& indexing) {
        if (indexing != "xy" && indexing != "ij")
          throw py::value_error("Valid values for `indexing` are 'xy' and 'ij'.");
        return WrapList(meshgrid(Arrays(xi), indexing == "xy", sparse, copy));
      },
      py::kw_only(), py::arg("copy") = true, py::arg("sparse") = false, py::arg("indexing") = "xy",
      "Coordinate matrices from coordinate vectors (a list).");
  m.def(
      "indices",
      [](py::handle dimensions, py::handle dtype, bool sparse) -> py::object {
        const std::vector<index_t> dims = ParseShape(dimensions);
        int flag = ParseDType(dtype);
        if (flag < 0) flag = kInt64;
        if (sparse) return py::tuple(WrapList(indices_sparse(dims, flag)));
        return Wrap(indices(dims, flag));
      },
      py::arg("dimensions"), py::arg("dtype") = py::none(), py::arg("sparse") = false,
      "The grid of indices of an array of shape `dimensions`.");
  m.def(
      "moveaxis",
      [](py::handle a, py::handle source, py::handle destination) {
        return WrapView(moveaxis(AsNDArray(a), IndexList(source), IndexList(destination)), a);
      },
      py::arg("a"), py::arg("source"), py::arg("destination"),
      "Moves axes to new positions (a view).");
  m.def(
      "rollaxis",
      [](py::handle a, index_t axis, index_t start) {
        return WrapView(rollaxis(AsNDArray(a), axis, start), a);
      },
      py::arg("a"), py::arg("axis"), py::arg("start") = 0,
      "Rolls `axis` back to `start` (a view).");
  m.def(
      "atleast_1d", [](py::args args) { return OneOrList(args, &atleast_1d); },
      "Arrays with at least one dimension.");
  m.def(
      "atleast_2d", [](py::args args) { return OneOrList(args, &atleast_2d); },
      "Arrays with at least two dimensions.");
  m.def(
      "atleast_3d", [](py::args args) { return OneOrList(args, &atleast_3d); },
      "Arrays with at least three dimensions.");
  const std::pair<const char*, NDArray (*)(const std::vector<NDArray>&)> stacks[] = {
      {"hstack", &hstack},
      {"vstack", &vstack},
      {"row_stack", &vstack},
      {"dstack", &dstack},
      {"column_stack", &column_stack}};
  for (const auto& s : stacks) {
    auto f = s.second;
    m.def(
        s.first, [f](py::handle tup) { return Wrap(f(ArraySeq(tup))); }, py::arg("tup"),
        (std::string("numpy.") + s.first + ": stacks a sequence of arrays.").c_str());
  }
  using SplitN = std::vector<NDArray> (*)(const NDArray&, index_t);
  using SplitI = std::vector<NDArray> (*)(const NDArray&, const std::vector<index_t>&);
  const std::tuple<const char*, SplitN, SplitI> splits[] = {
      {"hsplit", &hsplit, &hsplit}, {"vsplit", &vsplit, &vsplit}, {"dsplit", &dsplit, &dsplit}};
  for (const auto& s : splits) {
    const SplitN by_n = std::get<1>(s);
    const SplitI by_i = std::get<2>(s);
    m.def(
        std::get<0>(s),
        [by_n, by_i](py::handle ary, py::handle ios) {
          const NDArray a = AsNDArray(ary);
          if (IsScalarIndex(ios)) return WrapViews(by_n(a, ios.cast<index_t>()), ary);
          return WrapViews(by_i(a, IndexList(ios)), ary);
        },
        py::arg("ary"), py::arg("indices_or_sections"),
        (std::string("numpy.") + std::get<0>(s) + ": splits into views (a list).").c_str());
  }
  m.def(
      "diagonal",
      [](py::handle a, index_t offset, index_t axis1, index_t axis2) {
        return WrapView(diagonal(AsNDArray(a), offset, axis1, axis2), a);
      },
      py::arg("a"), py::arg("offset") = 0, py::arg("axis1") = 0, py::arg("axis2") = 1,
      "Read-only view of the diagonal(s).");
  m.def(
      "diag",
      [](py::handle v, index_t k) {
        const NDArray x = AsNDArray(v);
        if (x.ndim() == 2) return WrapView(diag(x, k), v);
        return Wrap(diag(x, k));
      },
      py::arg("v"), py::arg("k") = 0, "Diagonal of a 2-D array, or a 2-D array with v on it.");
  m.def(
      "diagflat", [](py::handle v, index_t k) { return Wrap(diagflat(AsNDArray(v), k)); },
      py::arg("v"), py::arg("k") = 0, "2-D array with the flattened input on diagonal k.");
  m.def(
      "_trace",
      [](py::handle a, index_t offset, index_t axis1, index_t axis2, py::handle dtype) {
        return Wrap(trace(AsNDArray(a), offset, axis1, axis2, ParseDType(dtype)));
      },
      py::arg("a"), py::arg("offset"), py::arg("axis1"), py::arg("axis2"), py::arg("dtype"));
  m.def(
      "tri",
      [](index_t n, py::handle m_arg, index_t k, py::handle dtype) {
        const int flag = ParseDType(dtype);
        return Wrap(
            tri(n, m_arg.is_none() ? -1 : m_arg.cast<index_t>(), k, flag < 0 ? kFloat64 : flag));
      },
      py::arg("N"), py::arg("M") = py::none(), py::arg("k") = 0,
      py::arg("dtype") = py::float_().get_type(), "Ones at and below diagonal k.");
  m.def(
      "tril", [](py::handle a, index_t k) { return Wrap(tril(AsNDArray(a), k)); }, py::arg("m"),
      py::arg("k") = 0, "Lower triangle (last two axes).");
  m.def(
      "triu", [](py::handle a, index_t k) { return Wrap(triu(AsNDArray(a), k)); }, py::arg("m"),
      py::arg("k") = 0, "Upper triangle (last two axes).");
  m.def(
      "identity",
      [](index_t n, py::handle dtype) {
        const int flag = ParseDType(dtype);
        return Wrap(identity(n, flag < 0 ? kFloat64 : flag));
      },
      py::arg("n"), py::arg("dtype") = py::none(), "The n x n identity.");
  m.def("_pad",
        [](py::handle a, const PadPairs& width, const std::string& mode, const PadValues& constant,
           const PadValues& ends, const PadPairs& stat, bool odd) {
          PadOptions opt;
          opt.constant_values = constant;
          opt.end_values = ends;
          opt.stat_length = stat;
          opt.reflect_odd = odd;
          return Wrap(pad(AsNDArray(a), width, ParsePadMode(mode), opt));
        });
  m.def(
      "ravel_multi_index",
      [](py::handle multi_index, py::handle dims, py::handle mode,
         const std::string& order) -> py::object {
        std::vector<IndexMode> modes;
        if (py::isinstance<py::str>(mode)) {
          modes.push_back(ParseIndexMode(mode.cast<std::string>()));
        } else {
          for (py::handle h : mode) modes.push_back(ParseIndexMode(h.cast<std::string>()));
        }
        const std::vector<NDArray> coords = ArraySeq(multi_index);
        NDArray r = ravel_multi_index(coords, ParseShape(dims), modes, Fortran(order));
        if (r.ndim() == 0) return ElementAsScalar(r);
        return Wrap(std::move(r));
      },
      py::arg("multi_index"), py::arg("dims"), py::arg("mode") = "raise", py::arg("order") = "C",
      "Flat indices of coordinate arrays.");
  m.def(
      "unravel_index",
      [](py::handle indices, py::handle shape, const std::string& order) {
        py::tuple out;
        for (NDArray& r : unravel_index(AsNDArray(indices), ParseShape(shape), Fortran(order)))
          out = out + py::make_tuple(r.ndim() == 0 ? ElementAsScalar(r) : Wrap(std::move(r)));
        return out;
      },
      py::arg("indices"), py::arg("shape"), py::arg("order") = "C",
      "Coordinate arrays of flat indices (a tuple).");
  m.def(
      "packbits",
      [](py::handle a, py::handle axis, const std::string& bitorder) {
        const bool little = Little(bitorder);
        return Wrap(packbits(AsNDArray(a), axis.is_none(),
                             axis.is_none() ? 0 : axis.cast<index_t>(), little));
      },
      py::arg("a"), py::arg("axis") = py::none(), py::arg("bitorder") = "big",
      "Packs the truth of elements into uint8 bits.");
  m.def(
      "unpackbits",
      [](py::handle a, py::handle axis, py::handle count, const std::string& bitorder) {
        const bool little = Little(bitorder);
        return Wrap(unpackbits(AsNDArray(a), axis.is_none(),
                               axis.is_none() ? 0 : axis.cast<index_t>(), !count.is_none(),
                               count.is_none() ? 0 : count.cast<index_t>(), little));
      },
      py::arg("a"), py::arg("axis") = py::none(), py::arg("count") = py::none(),
      py::arg("bitorder") = "big", "Unpacks uint8 elements into bits.");
  m.def(
      "put",
      [](py::handle a, py::handle ind, py::handle v, const std::string& mode) {
        const NDArray t = Target(a, "put");
        put(t, AsNDArray(ind), AsNDArray(v), ParseIndexMode(mode));
      },
      py::arg("a"), py::arg("ind"), py::arg("v"), py::arg("mode") = "raise",
      "a.flat[ind] = v (v repeated cyclically).");
  m.def(
      "place",
      [](py::handle arr, py::handle mask, py::handle vals) {
        const NDArray t = Target(arr, "place");
        place(t, AsNDArray(mask), AsNDArray(vals));
      },
      py::arg("arr"), py::arg("mask"), py::arg("vals"),
      "arr[mask] = vals (vals repeated cyclically).");
  m.def(
      "putmask",
      [](py::handle a, py::handle mask, py::handle values) {
        const NDArray t = Target(a, "putmask");
        putmask(t, AsNDArray(mask), AsNDArray(values));
      },
      py::arg("a"), py::arg("mask"), py::arg("values"),
      "a.flat[i] = values.flat[i % len(values)] where mask.");
  m.def(
      "take_along_axis",
      [](py::handle arr, py::handle indices, py::handle axis) {
        const NDArray a = AsNDArray(arr), i = AsNDArray(indices);
        return Wrap(axis.is_none() ? take_along_axis(a, i)
                                   : take_along_axis(a, i, axis.cast<index_t>()));
      },
      py::arg("arr"), py::arg("indices"), py::arg("axis"), "Values at `indices` along `axis`.");
  m.def(
      "put_along_axis",
      [](py::handle arr, py::handle indices, py::handle values, py::handle axis) {
        const NDArray a = Target(arr, "put_along_axis");
        const NDArray i = AsNDArray(indices), v = AsNDArray(values);
        if (axis.is_none()) {
          put_along_axis(a, i, v);
        } else {
          put_along_axis(a, i, v, axis.cast<index_t>());
        }
      },
      py::arg("arr"), py::arg("indices"), py::arg("values"), py::arg("axis"),
      "Scatters `values` at `indices` along `axis`.");
  m.def(
      "copyto",
      [](py::handle dst, py::handle src, const std::string& casting, py::handle where) {
        const NDArray d = Target(dst, "copyto");
        const NDArray s = Source(src, d.type_flag());
        const bool everywhere = PyBool_Check(where.ptr()) && where.ptr() == Py_True;
        copyto(d, s, ParseCasting(casting), everywhere ? NDArray() : AsNDArray(where));
      },
      py::arg("dst"), py::arg("src"), py::arg("casting") = "same_kind", py::arg("where") = true,
      "Copies src into dst (broadcast, where true) under a casting rule.");
  m.def(
      "_frombuffer",
      [](py::handle bytes, py::handle dtype, index_t count, index_t offset) {
        const int flag = ParseDType(dtype);
        return frombuffer(AsNDArray(bytes), flag < 0 ? kFloat64 : flag, count, offset);
      },
      py::arg("bytes"), py::arg("dtype"), py::arg("count"), py::arg("offset"));
  m.def("_wrap_view", [](py::handle bytes, py::handle dtype, index_t count, index_t offset,
                         py::handle base, bool writeable) {
    const int flag = ParseDType(dtype);
    NDArray r = frombuffer(AsNDArray(bytes), flag < 0 ? kFloat64 : flag, count, offset);
    if (!writeable) r.set_writeable(false);
    py::object out = Wrap(std::move(r));
    out.attr("_base") = base;
    return out;
  });
}

void BindMethods(py::class_<PyArray>& cls) {
  cls.def(
      "view",
      [](py::handle self, py::handle dtype) {
        const NDArray& a = AsPyArray(self)->Get();
        if (dtype.is_none())
          return WrapView(a.as_strided(a.sizes(), a.strides(), a.storage_offset()), self);
        return WrapView(view_dtype(a, ParseDType(dtype)), self);
      },
      py::arg("dtype") = py::none(), "New view of the same memory, optionally as another dtype.");
  cls.def(
      "tobytes",
      [](PyArray& self, const std::string& order) {
        NDArray a = self.Get();
        const bool f_only = [&] {
          std::vector<index_t> rev;
          for (index_t d = a.ndim() - 1; d >= 0; --d) rev.push_back(d);
          return !a.is_contiguous() && a.permute(rev).is_contiguous();
        }();
        if (order == "F" || (order == "A" && f_only)) {
          std::vector<index_t> rev;
          for (index_t d = a.ndim() - 1; d >= 0; --d) rev.push_back(d);
          a = a.permute(rev);
        } else if (order != "C" && order != "A" && order != "K") {
          throw py::value_error("order must be one of 'C', 'F', 'A', or 'K' (got '" + order + "')");
        }
        const NDArray c = a.contiguous();
        return py::bytes(static_cast<const char*>(c.data_ptr()), c.nbytes());
      },
      py::arg("order") = "C", "The elements' raw bytes in C (or Fortran) order.");
  cls.def("_view_of", [](py::handle self, py::handle parent) {
    SetViewBase(self, parent, false);
    return py::reinterpret_borrow<py::object>(self);
  });
  cls.def_property_readonly("_writeable", [](PyArray& self) { return self.Get().writeable(); });
  cls.def("_set_writeable", [](PyArray& self, bool w) {
    EvaluateAllPending();
    self.Get().set_writeable(w);
  });
  cls.def_property_readonly("_c_contiguous",
                            [](PyArray& self) { return self.Get().is_contiguous(); });
  cls.def_property_readonly("_f_contiguous", [](PyArray& self) {
    const NDArray& a = self.Get();
    std::vector<index_t> rev;
    for (index_t d = a.ndim() - 1; d >= 0; --d) rev.push_back(d);
    return a.permute(rev).is_contiguous();
  });
}

// Replaces the callable `name` of `owner` by one that sets the base of the views it returns.
void AddViewBase(py::handle owner, const char* name, bool method) {
  py::object original = owner.attr(name);
  auto call = [original](py::args args, py::kwargs kwargs) {
    py::object r = original(*args, **kwargs);
    py::handle parent = args.size() > 0 ? args[0] : py::handle();
    if (!parent && kwargs.contains("a")) parent = kwargs["a"];
    if (parent) SetViewBase(r, parent, false);
    return r;
  };
  const std::string doc = py::str(original.attr("__doc__"));
  if (method) {
    py::setattr(owner, name,
                py::cpp_function(call, py::name(name), py::is_method(owner), py::doc(doc.c_str())));
  } else {
    py::setattr(owner, name, py::cpp_function(call, py::name(name), py::doc(doc.c_str())));
  }
}

}  // namespace

void SetViewBase(py::handle view, py::handle parent, bool known_view) {
  PyArray* v = AsPyArray(view);
  if (v == nullptr || v->pending() || view.is(parent)) return;
  PyArray* p = AsPyArray(parent);
  if (p == nullptr) {
    if (known_view) view.attr("_base") = parent;
    return;
  }
  if (!known_view && (p->pending() || !v->array().storage().is_alias_of(p->array().storage())))
    return;
  // NumPy collapses chains of views: the base is the parent's base when it has one.
  py::object base = py::reinterpret_borrow<py::object>(parent);
  if (py::hasattr(parent, "_base") && !parent.attr("_base").is_none()) base = parent.attr("_base");
  view.attr("_base") = base;
}

void BindConstruct(py::module_& m, py::class_<PyArray>& cls) {
  BindFunctions(m);
  BindMethods(cls);
  // The view-returning shape ops bound elsewhere (module.cc) get NumPy's `base` too.
  for (const char* name : {"reshape", "transpose", "ravel", "squeeze", "swapaxes"})
    AddViewBase(cls, name, true);
  for (const char* name : {"reshape", "transpose", "ravel", "squeeze", "expand_dims"})
    AddViewBase(m, name, false);
}

}  // namespace python
}  // namespace shade
