// NumPy's sorting, searching, set, counting, cumulative and statistics functions, bound thinly
// over the C++ library (ndarray/sort.h, searching.h, sets.h, histogram.h, cumulative.h,
// statistics.h) with NumPy 1.24's names, signatures and defaults. Kernels run without the GIL.
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "shade/ndarray/cumulative.h"
#include "shade/ndarray/histogram.h"
#include "shade/ndarray/indexing.h"
#include "shade/ndarray/searching.h"
#include "shade/ndarray/sets.h"
#include "shade/ndarray/shape_ops.h"
#include "shade/ndarray/sort.h"
#include "shade/ndarray/statistics.h"
#include "shade_py.h"

namespace shade {
namespace python {
namespace {

template <typename F>
auto NoGil(F&& f) {
  py::gil_scoped_release release;
  return f();
}

// axis=None -> nullopt, else an int.
std::optional<index_t> OptAxis(py::handle axis) {
  if (axis.is_none()) return std::nullopt;
  return axis.cast<index_t>();
}

std::string Kind(py::handle kind) {
  return kind.is_none() ? "quicksort" : kind.cast<std::string>();
}

void NoOrder(py::handle order) {
  if (!order.is_none()) throw py::value_error("Cannot specify order when the array has no fields.");
}

std::vector<index_t> Kth(py::handle kth) {
  const NDArray k = AsNDArray(kth);
  if (KindOf(k.type_flag()) == DTypeKind::kFloat || KindOf(k.type_flag()) == DTypeKind::kBool)
    throw py::type_error("Partition index must be integer");
  const NDArray k64 = astype(k, kInt64).contiguous();
  return std::vector<index_t>(k64.data<std::int64_t>(), k64.data<std::int64_t>() + k64.numel());
}

NDArray OptArray(py::handle h) {
  return h.is_none() ? NDArray() : AsNDArray(h);
}

// Writes `r` into `out` when given (NumPy's out=) and returns it; else wraps r.
py::object Finish(NDArray r, py::handle out, bool scalar) {
  if (out.is_none()) return scalar ? ScalarOrArray(std::move(r)) : Wrap(std::move(r));
  PyArray* target = AsPyArray(out);
  if (target == nullptr) throw py::type_error("out= must be a shade.ndarray");
  EvaluateAllPending();
  const NDArray& o = target->Get();
  if (o.sizes() != r.sizes()) throw py::value_error("out= has the wrong shape for the result");
  o.copy_(r);
  return py::reinterpret_borrow<py::object>(out);
}

py::tuple Tuple(std::vector<NDArray> v) {
  py::tuple t(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) t[i] = Wrap(std::move(v[i]));
  return t;
}

py::object Sort(py::handle a, py::handle axis, py::handle kind, py::handle order) {
  NoOrder(order);
  const NDArray x = AsNDArray(a);
  const std::string k = Kind(kind);
  const auto ax = OptAxis(axis);
  return Wrap(NoGil([&]() { return sort(x, ax, k); }));
}

py::object Argsort(py::handle a, py::handle axis, py::handle kind, py::handle order) {
  NoOrder(order);
  const NDArray x = AsNDArray(a);
  const std::string k = Kind(kind);
  const auto ax = OptAxis(axis);
  return Wrap(NoGil([&]() { return argsort(x, ax, k); }));
}

py::object Partition(bool indices, py::handle a, py::handle kth, py::handle axis,
                     py::handle order) {
  NoOrder(order);
  const NDArray x = AsNDArray(a);
  const std::vector<index_t> k = Kth(kth);
  const auto ax = OptAxis(axis);
  return Wrap(NoGil([&]() { return indices ? argpartition(x, k, ax) : partition(x, k, ax); }));
}

py::object SearchSorted(py::handle a, py::handle v, const std::string& side, py::handle sorter) {
  const NDArray x = AsNDArray(a), y = AsNDArray(v), s = OptArray(sorter);
  return ScalarOrArray(NoGil([&]() { return searchsorted(x, y, side, s); }));
}

py::object CumOp(bool prod, py::handle a, py::handle axis, py::handle dtype, py::handle out) {
  const NDArray x = AsNDArray(a);
  const int flag = ParseDType(dtype);
  const auto ax = OptAxis(axis);
  return Finish(NoGil([&]() { return prod ? cumprod(x, ax, flag) : cumsum(x, ax, flag); }), out,
                false);
}

py::object Quantile(bool percent, py::handle a, py::handle q, py::handle axis, py::handle out,
                    const std::string& method, bool keepdims, py::handle interpolation) {
  const NDArray x = AsNDArray(a), qa = AsNDArray(q);
  const AxisSet axes = ParseAxes(axis);
  const std::string m = interpolation.is_none() ? method : interpolation.cast<std::string>();
  return Finish(NoGil([&]() {
                  return percent ? percentile(x, qa, axes, m, keepdims)
                                 : quantile(x, qa, axes, m, keepdims);
                }),
                out, true);
}

py::object Ptp(py::handle a, py::handle axis, py::handle out, bool keepdims) {
  const NDArray x = AsNDArray(a);
  const AxisSet axes = ParseAxes(axis);
  return Finish(NoGil([&]() { return ptp(x, axes, keepdims); }), out, true);
}

}  // namespace

void BindSortStats(py::module_& m, py::class_<PyArray>& cls) {
  // ---------------------------------------------------------------- sorting
  m.def("sort", &Sort, py::arg("a"), py::arg("axis") = -1, py::arg("kind") = py::none(),
        py::arg("order") = py::none(), "Return a sorted copy of an array (NaNs last).");
  cls.def(
      "sort",
      [](PyArray& self, py::handle axis, py::handle kind, py::handle order) {
        NoOrder(order);
        EvaluateAllPending();
        const NDArray& x = self.Get();
        const std::string k = Kind(kind);
        const auto ax = OptAxis(axis);
        NoGil([&]() {
          x.copy_(sort(x, ax, k));
          return 0;
        });
      },
      py::arg("axis") = -1, py::arg("kind") = py::none(), py::arg("order") = py::none(),
      "Sort the array in place.");
  m.def("argsort", &Argsort, py::arg("a"), py::arg("axis") = -1, py::arg("kind") = py::none(),
        py::arg("order") = py::none(), "Indices that sort an array (stable for every kind).");
  cls.def(
      "argsort",
      [](py::handle self, py::handle axis, py::handle kind, py::handle order) {
        return Argsort(self, axis, kind, order);
      },
      py::arg("axis") = -1, py::arg("kind") = py::none(), py::arg("order") = py::none(),
      "Indices that sort the array.");
  m.def(
      "lexsort",
      [](py::handle keys, index_t axis) -> py::object {
        std::vector<NDArray> ks;
        if (AsPyArray(keys) != nullptr || py::hasattr(keys, "__array_interface__")) {
          const NDArray k = AsNDArray(keys);
          if (k.ndim() == 0) throw py::type_error("need sequence of keys with len > 0 in lexsort");
          for (index_t i = 0; i < k.size(0); ++i) ks.push_back(k.select(0, i));
        } else {
          for (py::handle k : keys) ks.push_back(AsNDArray(k));
        }
        return ScalarOrArray(NoGil([&]() { return lexsort(ks, axis); }));
      },
      py::arg("keys"), py::arg("axis") = -1,
      "Indirect stable sort on several keys; the last key is the primary one.");
  m.def(
      "partition",
      [](py::handle a, py::handle kth, py::handle axis, const std::string&, py::handle order) {
        return Partition(false, a, kth, axis, order);
      },
      py::arg("a"), py::arg("kth"), py::arg("axis") = -1, py::arg("kind") = "introselect",
      py::arg("order") = py::none(), "Partitioned copy: each kth element in its sorted place.");
  m.def(
      "argpartition",
      [](py::handle a, py::handle kth, py::handle axis, const std::string&, py::handle order) {
        return Partition(true, a, kth, axis, order);
      },
      py::arg("a"), py::arg("kth"), py::arg("axis") = -1, py::arg("kind") = "introselect",
      py::arg("order") = py::none(), "Indices that partition an array.");
  cls.def(
      "partition",
      [](PyArray& self, py::handle kth, py::handle axis, const std::string&, py::handle order) {
        NoOrder(order);
        EvaluateAllPending();
        const NDArray& x = self.Get();
        const std::vector<index_t> k = Kth(kth);
        const auto ax = OptAxis(axis);
        NoGil([&]() {
          x.copy_(partition(x, k, ax));
          return 0;
        });
      },
      py::arg("kth"), py::arg("axis") = -1, py::arg("kind") = "introselect",
      py::arg("order") = py::none(), "Partition the array in place.");
  cls.def(
      "argpartition",
      [](py::handle self, py::handle kth, py::handle axis, const std::string&, py::handle order) {
        return Partition(true, self, kth, axis, order);
      },
      py::arg("kth"), py::arg("axis") = -1, py::arg("kind") = "introselect",
      py::arg("order") = py::none(), "Indices that partition the array.");
  m.def("searchsorted", &SearchSorted, py::arg("a"), py::arg("v"), py::arg("side") = "left",
        py::arg("sorter") = py::none(), "Indices where v would be inserted to keep a sorted.");
  cls.def(
      "searchsorted",
      [](py::handle self, py::handle v, const std::string& side, py::handle sorter) {
        return SearchSorted(self, v, side, sorter);
      },
      py::arg("v"), py::arg("side") = "left", py::arg("sorter") = py::none(),
      "Indices where v would be inserted to keep the array sorted.");

  // ---------------------------------------------------------------- searching and counting
  // numpy.where is a function, not a ufunc: one argument gives the indices of the non-zero
  // elements, three select (the registry's ternary op, bound before as a ufunc object).
  const py::object select_where = m.attr("where");
  m.attr("where") = py::cpp_function(
      [select_where](py::handle condition, py::handle x, py::handle y) -> py::object {
        if (x.is_none() && y.is_none()) return Tuple(where(AsNDArray(condition)));
        if (x.is_none() || y.is_none()) {
          throw py::value_error("either both or neither of x and y should be given");
        }
        return select_where(condition, x, y);
      },
      py::name("where"), py::scope(m), py::arg("condition"), py::arg("x") = py::none(),
      py::arg("y") = py::none(),
      "where(condition, [x, y]): the indices of the non-zero elements, or x where condition "
      "holds and y elsewhere.");
  cls.def(
      "nonzero", [](py::handle self) { return Tuple(nonzero(AsNDArray(self))); },
      "Indices of the non-zero elements, one array per dimension.");
  m.def(
      "argwhere", [](py::handle a) { return Wrap(argwhere(AsNDArray(a))); }, py::arg("a"),
      "Indices of the non-zero elements as an (N, ndim) array.");
  m.def(
      "flatnonzero", [](py::handle a) { return Wrap(flatnonzero(AsNDArray(a))); }, py::arg("a"),
      "Flat indices of the non-zero elements.");
  m.def(
      "count_nonzero",
      [](py::handle a, py::handle axis, bool keepdims) -> py::object {
        const NDArray r = count_nonzero(AsNDArray(a), ParseAxes(axis), keepdims);
        if (axis.is_none() && !keepdims) return py::int_(item<std::int64_t>(r));
        return ScalarOrArray(r);
      },
      py::arg("a"), py::arg("axis") = py::none(), py::kw_only(), py::arg("keepdims") = false,
      "Number of non-zero elements.");
  m.def(
      "extract",
      [](py::handle condition, py::handle arr) {
        return Wrap(extract(AsNDArray(condition), AsNDArray(arr)));
      },
      py::arg("condition"), py::arg("arr"), "Elements of arr where condition is non-zero.");
  m.def(
      "select",
      [](py::handle condlist, py::handle choicelist, py::handle default_value) {
        std::vector<NDArray> c, ch;
        for (py::handle h : condlist) c.push_back(AsNDArray(h));
        for (py::handle h : choicelist) ch.push_back(AsNDArray(h));
        return Wrap(select(c, ch, AsNDArray(default_value)));
      },
      py::arg("condlist"), py::arg("choicelist"), py::arg("default") = 0,
      "Elements of choicelist chosen by the first true condition.");

  // ---------------------------------------------------------------- sets
  m.def(
      "unique",
      [](py::handle ar, bool return_index, bool return_inverse, bool return_counts, py::handle axis,
         bool equal_nan) -> py::object {
        const NDArray x = AsNDArray(ar);
        const auto ax = OptAxis(axis);
        UniqueResult r = NoGil([&]() {
          return unique(x, return_index, return_inverse, return_counts, ax, equal_nan);
        });
        if (!return_index && !return_inverse && !return_counts) return Wrap(r.values);
        py::list out;
        out.append(Wrap(r.values));
        if (return_index) out.append(Wrap(r.index));
        if (return_inverse) out.append(Wrap(r.inverse));
        if (return_counts) out.append(Wrap(r.counts));
        return py::tuple(out);
      },
      py::arg("ar"), py::arg("return_index") = false, py::arg("return_inverse") = false,
      py::arg("return_counts") = false, py::arg("axis") = py::none(), py::kw_only(),
      py::arg("equal_nan") = true, "Sorted unique elements (or slices along axis).");
  m.def(
      "isin",
      [](py::handle element, py::handle test, bool assume_unique, bool invert) {
        return Wrap(isin(AsNDArray(element), AsNDArray(test), assume_unique, invert));
      },
      py::arg("element"), py::arg("test_elements"), py::arg("assume_unique") = false,
      py::arg("invert") = false, "Whether each element is in test_elements.");
  m.def(
      "in1d",
      [](py::handle a, py::handle b, bool assume_unique, bool invert) {
        return Wrap(in1d(AsNDArray(a), AsNDArray(b), assume_unique, invert));
      },
      py::arg("ar1"), py::arg("ar2"), py::arg("assume_unique") = false, py::arg("invert") = false,
      "Whether each element of flattened ar1 is in ar2.");
  m.def(
      "intersect1d",
      [](py::handle a, py::handle b, bool assume_unique, bool return_indices) -> py::object {
        IntersectResult r = intersect1d(AsNDArray(a), AsNDArray(b), assume_unique, return_indices);
        if (!return_indices) return Wrap(r.values);
        return py::make_tuple(Wrap(r.values), Wrap(r.indices1), Wrap(r.indices2));
      },
      py::arg("ar1"), py::arg("ar2"), py::arg("assume_unique") = false,
      py::arg("return_indices") = false, "Sorted unique values in both arrays.");
  m.def(
      "union1d",
      [](py::handle a, py::handle b) { return Wrap(union1d(AsNDArray(a), AsNDArray(b))); },
      py::arg("ar1"), py::arg("ar2"), "Sorted unique values in either array.");
  m.def(
      "setdiff1d",
      [](py::handle a, py::handle b, bool assume_unique) {
        return Wrap(setdiff1d(AsNDArray(a), AsNDArray(b), assume_unique));
      },
      py::arg("ar1"), py::arg("ar2"), py::arg("assume_unique") = false,
      "Unique values of ar1 that are not in ar2.");
  m.def(
      "setxor1d",
      [](py::handle a, py::handle b, bool assume_unique) {
        return Wrap(setxor1d(AsNDArray(a), AsNDArray(b), assume_unique));
      },
      py::arg("ar1"), py::arg("ar2"), py::arg("assume_unique") = false,
      "Sorted values that are in exactly one of the arrays.");

  // ---------------------------------------------------------------- counting and binning
  m.def(
      "bincount",
      [](py::handle x, py::handle weights, index_t minlength) {
        const NDArray xa = AsNDArray(x), w = OptArray(weights);
        return Wrap(NoGil([&]() { return bincount(xa, w, minlength); }));
      },
      py::arg("x"), py::arg("weights") = py::none(), py::arg("minlength") = 0,
      "Occurrences of each non-negative integer value.");
  m.def(
      "digitize",
      [](py::handle x, py::handle bins, bool right) {
        return ScalarOrArray(digitize(AsNDArray(x), AsNDArray(bins), right));
      },
      py::arg("x"), py::arg("bins"), py::arg("right") = false,
      "Indices of the bins each value falls in.");
  m.def(
      "histogram",
      [](py::handle a, py::handle bins, py::handle range, py::handle weights, py::handle density) {
        const NDArray x = AsNDArray(a), w = OptArray(weights);
        const bool dens = !density.is_none() && density.cast<bool>();
        if (py::isinstance<py::str>(bins))
          throw py::type_error("histogram: bin estimators by name are not supported");
        HistogramResult r;
        const NDArray b = AsNDArray(bins);
        if (b.ndim() == 0) {
          if (KindOf(b.type_flag()) == DTypeKind::kFloat)
            throw py::type_error("`bins` must be an integer, a string, or an array");
          std::optional<std::pair<double, double>> rg;
          if (!range.is_none()) rg = range.cast<std::pair<double, double>>();
          const index_t nb = item<std::int64_t>(b);
          r = NoGil([&]() { return histogram(x, nb, rg, w, dens); });
        } else {
          r = NoGil([&]() { return histogram(x, b, w, dens); });
        }
        return py::make_tuple(Wrap(r.hist), Wrap(r.bin_edges));
      },
      py::arg("a"), py::arg("bins") = 10, py::arg("range") = py::none(),
      py::arg("weights") = py::none(), py::arg("density") = py::none(),
      "Histogram of a: (counts, bin_edges).");
  m.def(
      "histogram2d",
      [](py::handle x, py::handle y, py::handle bins, py::handle range, py::handle density,
         py::handle weights) {
        index_t nx = 10, ny = 10;
        if (AsNDArray(bins).ndim() == 0) {
          nx = ny = item<std::int64_t>(AsNDArray(bins));
        } else {
          const auto b = bins.cast<std::pair<index_t, index_t>>();
          nx = b.first;
          ny = b.second;
        }
        std::optional<std::pair<std::pair<double, double>, std::pair<double, double>>> rg;
        if (!range.is_none())
          rg = range.cast<std::pair<std::pair<double, double>, std::pair<double, double>>>();
        const bool dens = !density.is_none() && density.cast<bool>();
        Histogram2dResult r =
            histogram2d(AsNDArray(x), AsNDArray(y), nx, ny, rg, OptArray(weights), dens);
        return py::make_tuple(Wrap(r.hist), Wrap(r.xedges), Wrap(r.yedges));
      },
      py::arg("x"), py::arg("y"), py::arg("bins") = 10, py::arg("range") = py::none(),
      py::arg("density") = py::none(), py::arg("weights") = py::none(),
      "Two-dimensional histogram: (H, xedges, yedges); bins an int or a pair of ints.");

  // ---------------------------------------------------------------- cumulative
  for (const bool prod : {false, true}) {
    const char* name = prod ? "cumprod" : "cumsum";
    auto f = [prod](py::handle a, py::handle axis, py::handle dtype, py::handle out) {
      return CumOp(prod, a, axis, dtype, out);
    };
    m.def(name, f, py::arg("a"), py::arg("axis") = py::none(), py::arg("dtype") = py::none(),
          py::arg("out") = py::none(),
          prod ? "Cumulative product along an axis." : "Cumulative sum along an axis.");
    cls.def(name, f, py::arg("axis") = py::none(), py::arg("dtype") = py::none(),
            py::arg("out") = py::none(),
            prod ? "Cumulative product along an axis." : "Cumulative sum along an axis.");
  }
  m.def(
      "diff",
      [](py::handle a, index_t n, index_t axis, py::handle prepend, py::handle append) {
        return Wrap(diff(AsNDArray(a), n, axis, OptArray(prepend), OptArray(append)));
      },
      py::arg("a"), py::arg("n") = 1, py::arg("axis") = -1, py::arg("prepend") = py::none(),
      py::arg("append") = py::none(), "n-th discrete difference along an axis.");
  m.def(
      "ediff1d",
      [](py::handle ary, py::handle to_end, py::handle to_begin) {
        return Wrap(ediff1d(AsNDArray(ary), OptArray(to_end), OptArray(to_begin)));
      },
      py::arg("ary"), py::arg("to_end") = py::none(), py::arg("to_begin") = py::none(),
      "Differences between consecutive elements of the flattened array.");

  // ---------------------------------------------------------------- statistics
  m.def(
      "median",
      [](py::handle a, py::handle axis, py::handle out, bool, bool keepdims) {
        const NDArray x = AsNDArray(a);
        const AxisSet axes = ParseAxes(axis);
        return Finish(NoGil([&]() { return median(x, axes, keepdims); }), out, true);
      },
      py::arg("a"), py::arg("axis") = py::none(), py::arg("out") = py::none(),
      py::arg("overwrite_input") = false, py::arg("keepdims") = false, "Median along axes.");
  for (const bool percent : {false, true}) {
    auto f = [percent](py::handle a, py::handle q, py::handle axis, py::handle out, bool,
                       const std::string& method, bool keepdims, py::handle interpolation) {
      return Quantile(percent, a, q, axis, out, method, keepdims, interpolation);
    };
    m.def(percent ? "percentile" : "quantile", f, py::arg("a"), py::arg("q"),
          py::arg("axis") = py::none(), py::arg("out") = py::none(),
          py::arg("overwrite_input") = false, py::arg("method") = "linear",
          py::arg("keepdims") = false, py::kw_only(), py::arg("interpolation") = py::none(),
          percent ? "q-th percentiles (q in [0, 100]) along axes."
                  : "q-th quantiles (q in [0, 1]) along axes.");
  }
  m.def("ptp", &Ptp, py::arg("a"), py::arg("axis") = py::none(), py::arg("out") = py::none(),
        py::arg("keepdims") = false, "Range (max - min) along axes.");
  cls.def(
      "ptp",
      [](py::handle self, py::handle axis, py::handle out, bool keepdims) {
        return Ptp(self, axis, out, keepdims);
      },
      py::arg("axis") = py::none(), py::arg("out") = py::none(), py::arg("keepdims") = false,
      "Range (max - min) along axes.");
  m.def(
      "average",
      [](py::handle a, py::handle axis, py::handle weights, bool returned,
         bool keepdims) -> py::object {
        if (returned) throw py::value_error("average: returned=True is not supported");
        const NDArray x = AsNDArray(a), w = OptArray(weights);
        const AxisSet axes = ParseAxes(axis);
        try {
          return ScalarOrArray(average(x, axes, w, keepdims));
        } catch (const ValueError& e) {
          if (std::string(e.what()).find("Weights sum to zero") != std::string::npos) {
            PyErr_SetString(PyExc_ZeroDivisionError, "Weights sum to zero, can't be normalized");
            throw py::error_already_set();
          }
          throw;
        }
      },
      py::arg("a"), py::arg("axis") = py::none(), py::arg("weights") = py::none(),
      py::arg("returned") = false, py::kw_only(), py::arg("keepdims") = false,
      "Weighted average along axes.");

  // ---------------------------------------------------------------- NaN-ignoring reductions
  using NanRed = NDArray (*)(const NDArray&, const AxisSet&, bool);
  const std::pair<const char*, NanRed> nan_reductions[] = {{"nansum", &nansum},
                                                           {"nanprod", &nanprod},
                                                           {"nanmean", &nanmean},
                                                           {"nanmin", &nanmin},
                                                           {"nanmax", &nanmax}};
  for (const auto& r : nan_reductions) {
    const NanRed fn = r.second;
    m.def(
        r.first,
        [fn](py::handle a, py::handle axis, py::handle dtype, py::handle out, bool keepdims) {
          NDArray x = AsNDArray(a);
          const int flag = ParseDType(dtype);
          if (flag >= 0) x = astype(x, flag);
          const AxisSet axes = ParseAxes(axis);
          return Finish(NoGil([&]() { return fn(x, axes, keepdims); }), out, true);
        },
        py::arg("a"), py::arg("axis") = py::none(), py::arg("dtype") = py::none(),
        py::arg("out") = py::none(), py::arg("keepdims") = false,
        (std::string(r.first) + ": the reduction with NaNs ignored.").c_str());
  }
  for (const bool is_std : {false, true}) {
    m.def(
        is_std ? "nanstd" : "nanvar",
        [is_std](py::handle a, py::handle axis, py::handle dtype, py::handle out, index_t ddof,
                 bool keepdims) {
          NDArray x = AsNDArray(a);
          const int flag = ParseDType(dtype);
          if (flag >= 0) x = astype(x, flag);
          const AxisSet axes = ParseAxes(axis);
          return Finish(NoGil([&]() {
                          return is_std ? nanstd(x, axes, ddof, keepdims)
                                        : nanvar(x, axes, ddof, keepdims);
                        }),
                        out, true);
        },
        py::arg("a"), py::arg("axis") = py::none(), py::arg("dtype") = py::none(),
        py::arg("out") = py::none(), py::arg("ddof") = 0, py::arg("keepdims") = false,
        is_std ? "Standard deviation ignoring NaNs." : "Variance ignoring NaNs.");
  }
  for (const bool is_max : {false, true}) {
    m.def(
        is_max ? "nanargmax" : "nanargmin",
        [is_max](py::handle a, py::handle axis, py::handle out, bool keepdims) {
          const NDArray x = AsNDArray(a);
          const auto ax = OptAxis(axis);
          return Finish(NoGil([&]() {
                          return is_max ? nanargmax(x, ax, keepdims) : nanargmin(x, ax, keepdims);
                        }),
                        out, true);
        },
        py::arg("a"), py::arg("axis") = py::none(), py::arg("out") = py::none(), py::kw_only(),
        py::arg("keepdims") = false, "Index of the extreme ignoring NaNs.");
  }
  m.def(
      "nanmedian",
      [](py::handle a, py::handle axis, py::handle out, bool, bool keepdims) {
        const NDArray x = AsNDArray(a);
        const AxisSet axes = ParseAxes(axis);
        return Finish(NoGil([&]() { return nanmedian(x, axes, keepdims); }), out, true);
      },
      py::arg("a"), py::arg("axis") = py::none(), py::arg("out") = py::none(),
      py::arg("overwrite_input") = false, py::arg("keepdims") = false, "Median ignoring NaNs.");
  for (const bool percent : {false, true}) {
    m.def(
        percent ? "nanpercentile" : "nanquantile",
        [percent](py::handle a, py::handle q, py::handle axis, py::handle out, bool,
                  const std::string& method, bool keepdims, py::handle interpolation) {
          const NDArray x = AsNDArray(a), qa = AsNDArray(q);
          const AxisSet axes = ParseAxes(axis);
          const std::string mt =
              interpolation.is_none() ? method : interpolation.cast<std::string>();
          return Finish(NoGil([&]() {
                          return percent ? nanpercentile(x, qa, axes, mt, keepdims)
                                         : nanquantile(x, qa, axes, mt, keepdims);
                        }),
                        out, true);
        },
        py::arg("a"), py::arg("q"), py::arg("axis") = py::none(), py::arg("out") = py::none(),
        py::arg("overwrite_input") = false, py::arg("method") = "linear",
        py::arg("keepdims") = false, py::kw_only(), py::arg("interpolation") = py::none(),
        percent ? "Percentiles ignoring NaNs." : "Quantiles ignoring NaNs.");
  }
  for (const bool prod : {false, true}) {
    m.def(
        prod ? "nancumprod" : "nancumsum",
        [prod](py::handle a, py::handle axis, py::handle dtype, py::handle out) {
          const NDArray x = AsNDArray(a);
          const int flag = ParseDType(dtype);
          const auto ax = OptAxis(axis);
          return Finish(
              NoGil([&]() { return prod ? nancumprod(x, ax, flag) : nancumsum(x, ax, flag); }), out,
              false);
        },
        py::arg("a"), py::arg("axis") = py::none(), py::arg("dtype") = py::none(),
        py::arg("out") = py::none(),
        prod ? "Cumulative product treating NaN as 1." : "Cumulative sum treating NaN as 0.");
  }

  // ---------------------------------------------------------------- covariance, comparisons
  m.def(
      "cov",
      [](py::handle mv, py::handle y, bool rowvar, bool bias, py::handle ddof, py::handle fweights,
         py::handle aweights, py::handle dtype) {
        if (!fweights.is_none() || !aweights.is_none())
          throw py::value_error("cov: fweights and aweights are not supported");
        if (!dtype.is_none()) throw py::value_error("cov: dtype is not supported");
        const index_t dd = ddof.is_none() ? -1 : ddof.cast<index_t>();
        return Wrap(cov(AsNDArray(mv), OptArray(y), rowvar, bias, dd));
      },
      py::arg("m"), py::arg("y") = py::none(), py::arg("rowvar") = true, py::arg("bias") = false,
      py::arg("ddof") = py::none(), py::arg("fweights") = py::none(),
      py::arg("aweights") = py::none(), py::kw_only(), py::arg("dtype") = py::none(),
      "Covariance matrix of the rows (variables) of m.");
  m.def(
      "corrcoef",
      [](py::handle x, py::handle y, bool rowvar) {
        return Wrap(corrcoef(AsNDArray(x), OptArray(y), rowvar));
      },
      py::arg("x"), py::arg("y") = py::none(), py::arg("rowvar") = true,
      "Pearson correlation coefficients.");
  m.def(
      "isclose",
      [](py::handle a, py::handle b, double rtol, double atol, bool equal_nan) {
        return ScalarOrArray(isclose(AsNDArray(a), AsNDArray(b), rtol, atol, equal_nan));
      },
      py::arg("a"), py::arg("b"), py::arg("rtol") = 1e-5, py::arg("atol") = 1e-8,
      py::arg("equal_nan") = false, "Elementwise |a - b| <= atol + rtol * |b|.");
  m.def(
      "allclose",
      [](py::handle a, py::handle b, double rtol, double atol, bool equal_nan) {
        return allclose(AsNDArray(a), AsNDArray(b), rtol, atol, equal_nan);
      },
      py::arg("a"), py::arg("b"), py::arg("rtol") = 1e-5, py::arg("atol") = 1e-8,
      py::arg("equal_nan") = false, "True when all elements are close.");
  m.def(
      "array_equal",
      [](py::handle a1, py::handle a2, bool equal_nan) {
        return array_equal(AsNDArray(a1), AsNDArray(a2), equal_nan);
      },
      py::arg("a1"), py::arg("a2"), py::arg("equal_nan") = false,
      "True when both arrays have the same shape and elements.");
  m.def(
      "nan_to_num",
      [](py::handle x, bool copy, double nan, py::handle posinf, py::handle neginf) -> py::object {
        std::optional<double> pi, ni;
        if (!posinf.is_none()) pi = posinf.cast<double>();
        if (!neginf.is_none()) ni = neginf.cast<double>();
        NDArray r = nan_to_num(AsNDArray(x), nan, pi, ni);
        PyArray* self = AsPyArray(x);
        if (!copy && self != nullptr) {
          self->Get().copy_(r);
          return py::reinterpret_borrow<py::object>(x);
        }
        return ScalarOrArray(r);
      },
      py::arg("x"), py::arg("copy") = true, py::arg("nan") = 0.0, py::arg("posinf") = py::none(),
      py::arg("neginf") = py::none(), "NaN and infinities replaced by finite numbers.");

  // ---------------------------------------------------------------- integration, convolution
  m.def(
      "trapz",
      [](py::handle y, py::handle x, double dx, index_t axis) {
        return ScalarOrArray(trapz(AsNDArray(y), OptArray(x), dx, axis));
      },
      py::arg("y"), py::arg("x") = py::none(), py::arg("dx") = 1.0, py::arg("axis") = -1,
      "Integral along an axis by the trapezoidal rule.");
  m.def(
      "convolve",
      [](py::handle a, py::handle v, const std::string& mode) {
        return Wrap(convolve(AsNDArray(a), AsNDArray(v), mode));
      },
      py::arg("a"), py::arg("v"), py::arg("mode") = "full", "Discrete linear convolution.");
  m.def(
      "correlate",
      [](py::handle a, py::handle v, const std::string& mode) {
        return Wrap(correlate(AsNDArray(a), AsNDArray(v), mode));
      },
      py::arg("a"), py::arg("v"), py::arg("mode") = "valid", "Cross-correlation of 1-D arrays.");
  m.def(
      "interp",
      [](py::handle x, py::handle xp, py::handle fp, py::handle left, py::handle right,
         py::handle period) {
        if (!period.is_none()) throw py::value_error("interp: period is not supported");
        std::optional<double> l, r;
        if (!left.is_none()) l = left.cast<double>();
        if (!right.is_none()) r = right.cast<double>();
        return ScalarOrArray(interp(AsNDArray(x), AsNDArray(xp), AsNDArray(fp), l, r));
      },
      py::arg("x"), py::arg("xp"), py::arg("fp"), py::arg("left") = py::none(),
      py::arg("right") = py::none(), py::arg("period") = py::none(),
      "Piecewise-linear interpolation.");

  // ---------------------------------------------------------------- rounding
  // NumPy's round(a, decimals=0, out=None) replaces the registry's one-argument binding, which
  // it still calls for decimals=0 (lazy, fused).
  const py::object plain_round = m.attr("round");
  auto around_fn = [plain_round](py::handle a, int decimals, py::handle out) -> py::object {
    if (decimals == 0) return plain_round(a, out);
    return Finish(around(AsNDArray(a), decimals), out, true);
  };
  for (const char* name : {"round", "around", "round_"}) {
    m.attr(name) = py::cpp_function(around_fn, py::name(name), py::scope(m), py::arg("a"),
                                    py::arg("decimals") = 0, py::arg("out") = py::none(),
                                    "Round halves to even at the given number of decimals.");
  }
  cls.def(
      "round",
      [around_fn](py::handle self, int decimals, py::handle out) {
        return around_fn(self, decimals, out);
      },
      py::arg("decimals") = 0, py::arg("out") = py::none(), "Rounded to decimals places.");

  m.def(
      "gradient",
      [](py::handle f, py::args varargs, py::kwargs kwargs) -> py::object {
        py::object axis = py::none();
        int edge_order = 1;
        for (auto kv : kwargs) {
          const std::string key = py::str(kv.first);
          if (key == "axis") {
            axis = py::reinterpret_borrow<py::object>(kv.second);
          } else if (key == "edge_order") {
            edge_order = kv.second.cast<int>();
          } else {
            throw py::type_error("gradient() got an unexpected keyword argument '" + key + "'");
          }
        }
        std::vector<double> spacing;
        for (py::handle h : varargs) {
          const NDArray s = AsNDArray(h);
          if (s.ndim() != 0) throw py::value_error("gradient: coordinate arrays are not supported");
          spacing.push_back(item<double>(s));
        }
        std::vector<NDArray> g = gradient(AsNDArray(f), spacing, ParseAxes(axis), edge_order);
        if (g.size() == 1) return Wrap(g[0]);
        return Tuple(std::move(g));
      },
      py::arg("f"), "Gradient by central differences (scalar spacings).");
}

}  // namespace python
}  // namespace shade
