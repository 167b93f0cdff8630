// NumPy indexing for shade.ndarray: integers, slices (negative steps too), None, Ellipsis,
// integer and boolean arrays, and assignment through all of them.
//
// Basic indices give views. shade's strides are non-negative, so a slice with a negative step
// reverses that dimension in a copy (NumPy gives a view there). Advanced indices follow NumPy's
// placement rule (adjacent advanced indices keep their position, separated ones go first) on top
// of shade's index(), which indexes leading dimensions. Assignment writes a view with copy_ when
// the key is basic; otherwise it indexes a coordinate grid of each dimension with the same key
// and scatters with index_put_ (the last of repeated indices wins, as NumPy).
#include "shade/ndarray/indexing.h"

#include <Python.h>

#include <string>
#include <vector>

#include "shade/ndarray/creation.h"
#include "shade/ndarray/shape_ops.h"
#include "shade_py.h"

namespace shade {
namespace python {
namespace {

struct KeyItem {
  enum Kind { kInt, kSlice, kNewAxis, kEllipsis, kArray } kind = kNewAxis;
  index_t value = 0;  // kInt
  py::object slice;   // kSlice
  NDArray array;      // kArray (integer or bool)
};

struct ParsedKey {
  std::vector<KeyItem> items;
  bool advanced = false;  // some kArray
};

ParsedKey ParseKey(py::handle key) {
  ParsedKey parsed;
  std::vector<py::handle> raw;
  py::tuple tuple_key;
  if (PyTuple_Check(key.ptr())) {
    tuple_key = py::reinterpret_borrow<py::tuple>(key);
    for (py::handle h : tuple_key) raw.push_back(h);
  } else {
    raw.push_back(key);
  }
  bool seen_ellipsis = false;
  for (py::handle h : raw) {
    KeyItem item;
    if (h.is_none()) {
      item.kind = KeyItem::kNewAxis;
    } else if (h.ptr() == Py_Ellipsis) {
      if (seen_ellipsis) throw py::index_error("an index can only have a single ellipsis ('...')");
      seen_ellipsis = true;
      item.kind = KeyItem::kEllipsis;
    } else if (PySlice_Check(h.ptr())) {
      item.kind = KeyItem::kSlice;
      item.slice = py::reinterpret_borrow<py::object>(h);
    } else if (!PyBool_Check(h.ptr()) && PyIndex_Check(h.ptr()) &&
               !(AsPyArray(h) != nullptr ||
                 (py::hasattr(h, "ndim") && h.attr("ndim").cast<int>() > 0))) {
      item.kind = KeyItem::kInt;
      try {
        item.value = ParseIndex(h, "index");
      } catch (py::error_already_set& e) {
        // An index beyond int64 is out of bounds of any array: IndexError, as NumPy (the
        // former cast raised RuntimeError).
        if (!e.matches(PyExc_OverflowError)) throw;
        throw py::index_error(std::string(e.what()) + " (out of bounds of any array)");
      }
    } else {
      item.kind = KeyItem::kArray;
      NDArray a = AsNDArray(h);
      if (a.numel() == 0 && a.type_flag() != kBool)
        a = astype(a, kInt64);  // [] is an empty int index
      const DTypeKind kind = KindOf(a.type_flag());
      if (kind == DTypeKind::kFloat) {
        throw py::index_error(
            "only integers, slices (`:`), ellipsis (`...`), None and integer or boolean arrays are "
            "valid indices");
      }
      item.array = a;
      parsed.advanced = true;
    }
    parsed.items.push_back(std::move(item));
  }
  return parsed;
}

index_t DimsConsumed(const KeyItem& item) {
  switch (item.kind) {
    case KeyItem::kInt:
    case KeyItem::kSlice:
      return 1;
    case KeyItem::kArray:
      return item.array.type_flag() == kBool ? item.array.ndim() : 1;
    default:
      return 0;
  }
}

// a[key]; *is_element is set when every dimension was taken by an integer (NumPy's scalar case).
NDArray Index(const NDArray& a, const ParsedKey& key, bool* is_element) {
  index_t consumed = 0;
  bool has_ellipsis = false;
  for (const KeyItem& it : key.items) {
    consumed += DimsConsumed(it);
    has_ellipsis |= it.kind == KeyItem::kEllipsis;
  }
  if (consumed > a.ndim()) {
    throw py::index_error("too many indices for array: array is " + std::to_string(a.ndim()) +
                          "-dimensional, but " + std::to_string(consumed) + " were indexed");
  }
  NDArray v = a;
  index_t d = 0;  // current dimension of v
  std::vector<index_t> reversed;
  struct Advanced {
    index_t dim;
    NDArray index;
  };
  std::vector<Advanced> advanced;
  std::vector<int> advanced_items;  // key positions of advanced items (adjacency rule)
  bool all_ints = !has_ellipsis;
  for (std::size_t pos = 0; pos < key.items.size(); ++pos) {
    const KeyItem& it = key.items[pos];
    switch (it.kind) {
      case KeyItem::kNewAxis:
        v = v.unsqueeze(d++);
        all_ints = false;
        break;
      case KeyItem::kEllipsis:
        d += a.ndim() - consumed;
        break;
      case KeyItem::kSlice: {
        all_ints = false;
        Py_ssize_t start, stop, step;
        if (PySlice_Unpack(it.slice.ptr(), &start, &stop, &step) < 0) throw py::error_already_set();
        const Py_ssize_t len = PySlice_AdjustIndices(v.size(d), &start, &stop, step);
        if (len == 0) {
          v = v.narrow(d, 0, 0);
        } else if (step > 0) {
          v = v.slice(d, start, start + (len - 1) * step + 1, step);
        } else {
          const index_t first = start + (len - 1) * step;
          v = v.slice(d, first, start + 1, -step);
          if (len > 1) reversed.push_back(d);
        }
        ++d;
        break;
      }
      case KeyItem::kInt:
        if (key.advanced) {
          advanced.push_back({d, full_int({}, it.value, kInt64)});
          advanced_items.push_back(static_cast<int>(pos));
          ++d;
        } else {
          const index_t n = v.size(d);
          if (it.value < -n || it.value >= n) {
            throw py::index_error("index " + std::to_string(it.value) +
                                  " is out of bounds for axis " + std::to_string(d) +
                                  " with size " + std::to_string(n));
          }
          v = v.select(d, it.value);
        }
        break;
      case KeyItem::kArray:
        all_ints = false;
        advanced_items.push_back(static_cast<int>(pos));
        if (it.array.type_flag() == kBool) {
          for (index_t k = 0; k < it.array.ndim(); ++k) {
            if (it.array.size(k) != v.size(d + k)) {
              throw py::index_error(
                  "boolean index did not match indexed array along dimension " +
                  std::to_string(d + k) + "; dimension is " + std::to_string(v.size(d + k)) +
                  " but corresponding boolean dimension is " + std::to_string(it.array.size(k)));
            }
          }
          if (it.array.ndim() == 0) {  // a[True] / a[False]: a new axis of length 1 or 0
            v = v.unsqueeze(d);
            advanced.push_back(
                {d, it.array.get({}) != 0 ? full_int({1}, 0, kInt64) : full_int({0}, 0, kInt64)});
            ++d;
          } else {
            std::vector<NDArray> nz = nonzero(it.array);
            for (index_t k = 0; k < it.array.ndim(); ++k) advanced.push_back({d + k, nz[k]});
          }
          d += it.array.ndim();
        } else {
          advanced.push_back({d, it.array});
          ++d;
        }
        break;
    }
  }
  if (!reversed.empty()) v = flip(v, reversed);
  *is_element = all_ints && !key.advanced && v.ndim() == 0;
  if (advanced.empty()) return v;

  // Advanced: move the indexed dimensions first, index, then put the broadcast dimensions where
  // NumPy does (in place of the first advanced index when the advanced items are adjacent).
  std::vector<index_t> perm;
  std::vector<bool> is_adv(v.ndim(), false);
  std::vector<NDArray> indices;
  for (const Advanced& ad : advanced) {
    perm.push_back(ad.dim);
    is_adv[ad.dim] = true;
    indices.push_back(ad.index);
  }
  index_t first_adv = advanced.front().dim;
  for (index_t k = 0; k < v.ndim(); ++k) {
    if (!is_adv[k]) perm.push_back(k);
  }
  NDArray r = index(v.permute(perm), indices);
  bool adjacent = true;
  for (std::size_t i = 1; i < advanced_items.size(); ++i) {
    adjacent &= advanced_items[i] == advanced_items[i - 1] + 1;
  }
  index_t before = 0;  // non-advanced dimensions ahead of the first advanced one
  for (index_t k = 0; k < first_adv; ++k) before += is_adv[k] ? 0 : 1;
  if (adjacent && before > 0) {
    const index_t nb = r.ndim() - (v.ndim() - static_cast<index_t>(advanced.size()));
    std::vector<index_t> order;
    for (index_t k = 0; k < before; ++k) order.push_back(nb + k);
    for (index_t k = 0; k < nb; ++k) order.push_back(k);
    for (index_t k = nb + before; k < r.ndim(); ++k) order.push_back(k);
    r = r.permute(order);
  }
  return r;
}

bool KeyIsBasic(const ParsedKey& key) {
  if (key.advanced) return false;
  for (const KeyItem& it : key.items) {
    if (it.kind == KeyItem::kSlice) {
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(it.slice.ptr(), &start, &stop, &step) < 0) throw py::error_already_set();
      if (step < 0) return false;
    }
  }
  return true;
}

void SetItem(PyArray& self, py::handle key, py::handle value) {
  EvaluateAllPending();
  const NDArray& a = self.Get();
  const ParsedKey parsed = ParseKey(key);
  const NDArray values = AsNDArray(value);
  bool is_element = false;
  if (KeyIsBasic(parsed)) {
    NDArray view = Index(a, parsed, &is_element);
    py::gil_scoped_release release;
    view.copy_(values);
    return;
  }
  if (a.ndim() == 0) {
    // No coordinate grid carries the selection of a 0-d array (a[False] = v wrote the element):
    // only boolean scalars reach here, selecting it once or not at all.
    const NDArray selected = Index(a, parsed, &is_element);
    NDArray staged = NDArray::Empty(selected.sizes(), a.type_flag());
    staged.copy_(values);  // NumPy's broadcast check, also when nothing is selected
    if (staged.numel() != 0) a.copy_(staged.reshape({}));
    return;
  }
  // Coordinates of the selected elements, one int64 array per dimension, by indexing grids.
  std::vector<NDArray> coords;
  const std::vector<index_t> shape = a.sizes().vec();
  for (index_t k = 0; k < a.ndim(); ++k) {
    std::vector<index_t> grid_shape(a.ndim(), 1);
    grid_shape[k] = shape[k];
    NDArray grid = arange(std::int64_t{0}, static_cast<std::int64_t>(shape[k]))
                       .reshape(grid_shape)
                       .expand(shape);
    coords.push_back(Index(grid, parsed, &is_element));
  }
  py::gil_scoped_release release;
  index_put_(a, coords, values);
}

}  // namespace

py::object ElementAsScalar(const NDArray& e) {
  // A result in an autograd graph stays a 0-d array (PyTorch's 0-d tensors): a NumPy scalar
  // would drop the graph, and `shade.sum(x * x).backward()` must work.
  if (e.requires_grad()) return Wrap(e);
  const int flag = e.type_flag();
  if (flag == kBfloat16) return Wrap(e.Clone());
  py::object type = DTypeObject(flag).attr("type");
  switch (KindOf(flag)) {
    case DTypeKind::kBool:
      return type(item<bool>(e));
    case DTypeKind::kUnsigned:
      return type(item<std::uint64_t>(e));
    case DTypeKind::kSigned:
      return type(item<std::int64_t>(e));
    default:
      return type(item<double>(e));
  }
}

py::object GetItem(PyArray& self, py::handle key) {
  const NDArray& a = self.Get();
  bool is_element = false;
  NDArray r = Index(a, ParseKey(key), &is_element);
  if (is_element) return ElementAsScalar(r);
  return Wrap(std::move(r));
}

void BindIndexing(py::class_<PyArray>& cls) {
  cls.def(
      "__getitem__",
      [](py::handle self, py::handle key) {
        py::object r = GetItem(*AsPyArray(self), key);
        SetViewBase(r, self, false);  // basic indices give views: NumPy's `base`
        return r;
      },
      py::arg("key"));
  cls.def("__setitem__", &SetItem, py::arg("key"), py::arg("value"));
}

}  // namespace python
}  // namespace shade
