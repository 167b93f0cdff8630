// `shade._shade._random`: NumPy's RandomState and Generator (shade/random/numpy_random.h), thin
// bindings; python/shade/random.py adds the module-level functions on a global RandomState.
#include <pybind11/stl.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "shade/ndarray/indexing.h"
#include "shade/random/numpy_random.h"
#include "shade_py.h"

namespace shade {
namespace python {

namespace {

using random::Generator;
using random::Int128;
using random::RandomState;

// size=None/int/tuple: the result shape, and whether NumPy returns a scalar (size=None).
struct Size {
  std::vector<index_t> dims;
  bool scalar = false;
};

Size ParseSize(py::handle h) {
  Size s;
  if (h.is_none()) {
    s.scalar = true;
    return s;
  }
  s.dims = ParseShape(h);
  for (index_t d : s.dims)
    if (d < 0) throw py::value_error("negative dimensions are not allowed");
  return s;
}

py::object Result(NDArray a, const Size& s) {
  return s.scalar ? ElementAsScalar(a) : Wrap(std::move(a));
}

// An integer bound (Python int or NumPy integer) as Int128; values beyond 65 bits saturate, so
// the bounds checks still name them.
Int128 ToInt128(py::handle h, const char* what) {
  if (!PyIndex_Check(h.ptr()))
    throw py::type_error(std::string(what) +
                         " must be an integer (array bounds are not supported)");
  py::int_ v = py::reinterpret_steal<py::int_>(PyNumber_Index(h.ptr()));
  if (!v) throw py::error_already_set();
  int overflow = 0;
  const long long ll = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  if (overflow == 0) return ll;
  if (overflow < 0) return -(static_cast<Int128>(1) << 65);
  const unsigned long long ull = PyLong_AsUnsignedLongLong(v.ptr());
  if (PyErr_Occurred()) {
    PyErr_Clear();
    // 2**64 itself is a valid exclusive bound of uint64; anything larger saturates.
    py::int_ two64 =
        py::reinterpret_steal<py::int_>(PyNumber_Lshift(py::int_(1).ptr(), py::int_(64).ptr()));
    const bool is_two64 = PyObject_RichCompareBool(v.ptr(), two64.ptr(), Py_EQ) == 1;
    return static_cast<Int128>(1) << (is_two64 ? 64 : 65);
  }
  return static_cast<Int128>(ull);
}

// Python int or NumPy integer scalar (arrays, even 0-d ones, are not).
bool IsIntLike(py::handle h) {
  if (PyLong_Check(h.ptr())) return true;
  static py::object np_integer = py::module_::import("numpy").attr("integer");
  return py::isinstance(h, np_integer);
}

py::object UInt128ToPy(random::UInt128 v) {
  py::int_ hi(static_cast<std::uint64_t>(v >> 64)), lo(static_cast<std::uint64_t>(v));
  return py::reinterpret_steal<py::object>(PyNumber_Or(
      py::reinterpret_steal<py::object>(PyNumber_Lshift(hi.ptr(), py::int_(64).ptr())).ptr(),
      lo.ptr()));
}

random::UInt128 PyToUInt128(py::handle h) {
  py::int_ v = py::reinterpret_steal<py::int_>(PyNumber_Index(h.ptr()));
  if (!v) throw py::error_already_set();
  py::int_ mask(~std::uint64_t{0});
  const auto lo = py::cast<std::uint64_t>(v.attr("__and__")(mask));
  const auto hi = py::cast<std::uint64_t>(
      py::reinterpret_steal<py::object>(PyNumber_Rshift(v.ptr(), py::int_(64).ptr()))
          .attr("__and__")(mask));
  return (static_cast<random::UInt128>(hi) << 64) | lo;
}

// Python int -> 32-bit words, least significant first (NumPy's SeedSequence entropy).
std::vector<std::uint32_t> IntWords(py::handle h) {
  py::int_ v = py::reinterpret_steal<py::int_>(PyNumber_Index(h.ptr()));
  if (!v) throw py::error_already_set();
  if (PyObject_RichCompareBool(v.ptr(), py::int_(0).ptr(), Py_LT) == 1)
    throw py::value_error("expected non-negative integer");
  std::vector<std::uint32_t> words;
  py::int_ mask(0xFFFFFFFFu);
  do {
    words.push_back(py::cast<std::uint32_t>(v.attr("__and__")(mask)));
    v = py::reinterpret_steal<py::int_>(PyNumber_Rshift(v.ptr(), py::int_(32).ptr()));
  } while (PyObject_IsTrue(v.ptr()) == 1);
  return words;
}

random::SeedSequence SeedSeqOf(py::handle seed) {
  if (seed.is_none()) return random::SeedSequence::FromEntropy();
  if (PyIndex_Check(seed.ptr())) return random::SeedSequence(IntWords(seed));
  std::vector<std::uint32_t> words;
  for (py::handle item : py::iter(seed)) {
    const std::vector<std::uint32_t> w = IntWords(item);
    words.insert(words.end(), w.begin(), w.end());
  }
  return random::SeedSequence(std::move(words));
}

void SeedLegacy(RandomState& rs, py::handle seed) {
  if (seed.is_none()) {
    rs.SeedFromEntropy();
    return;
  }
  auto word = [](py::handle h) {
    const Int128 v = ToInt128(h, "seed");
    if (v < 0 || v > 0xFFFFFFFFll) throw py::value_error("Seed must be between 0 and 2**32 - 1");
    return static_cast<std::uint32_t>(v);
  };
  if (PyIndex_Check(seed.ptr())) {
    rs.Seed(word(seed));
    return;
  }
  std::vector<std::uint32_t> key;
  for (py::handle item : py::iter(seed)) key.push_back(word(item));
  if (key.empty()) throw py::value_error("Seed must be non-empty");
  rs.Seed(key);
}

int IntDType(py::handle dtype, int fallback) {
  const int flag = ParseDType(dtype);
  return flag < 0 ? fallback : flag;
}

// randint/integers argument forms: (high) or (low, high).
void Bounds(py::handle low, py::handle high, Int128* lo, Int128* hi) {
  if (high.is_none()) {
    *lo = 0;
    *hi = ToInt128(low, "high");
  } else {
    *lo = ToInt128(low, "low");
    *hi = ToInt128(high, "high");
  }
}

void CheckRange(double low, double high, const char* msg) {
  if (!std::isfinite(high - low)) {
    PyErr_SetString(PyExc_OverflowError, msg);
    throw py::error_already_set();
  }
}

// choice: a (int or array) and the drawn indices.
template <typename Rng, typename... Extra>
py::object Choice(Rng& rng, py::handle a, py::handle size, bool replace, py::handle p,
                  Extra... extra) {
  const Size s = ParseSize(size);
  NDArray pa;
  if (!p.is_none()) pa = AsNDArray(p);
  std::int64_t pop;
  NDArray arr;
  const bool is_int = IsIntLike(a);
  if (is_int) {
    const Int128 v = ToInt128(a, "a");
    if (v < 0 || v > INT64_MAX)
      throw py::value_error("a must be a positive integer unless no samples are taken");
    pop = static_cast<std::int64_t>(v);
  } else {
    arr = AsNDArray(a);
    if (arr.ndim() < 1) throw py::value_error("a must be 1-dimensional or an integer");
    if (std::is_same<Rng, RandomState>::value && arr.ndim() != 1)
      throw py::value_error("a must be 1-dimensional");
    pop = arr.size(0);
  }
  // The GIL stays held: it is what serialises calls on one generator (NumPy's lock).
  NDArray idx = rng.Choice(pop, s.dims, replace, p.is_none() ? nullptr : &pa, extra...);
  if (is_int) return Result(idx, s);
  return Result(take(arr, idx, 0), s);
}

// A distribution parameter is an array (broadcast form) unless it is a Python or NumPy scalar or a
// 0-d array, as NumPy decides between its scalar and broadcast paths.
bool IsArrayParam(py::handle h) {
  if (PyFloat_Check(h.ptr()) || PyLong_Check(h.ptr())) return false;
  static py::object np_generic = py::module_::import("numpy").attr("generic");
  if (py::isinstance(h, np_generic)) return false;
  if (py::hasattr(h, "ndim")) return h.attr("ndim").cast<int>() != 0;
  return true;
}

double Scalar(py::handle h) {
  return py::float_(py::reinterpret_borrow<py::object>(h)).cast<double>();
}

// Runs `scalar(dims)` when every parameter is a scalar, else `array(params, size)` on the
// parameters as NDArrays (size null for None).
template <typename S, typename A>
py::object Params(std::initializer_list<py::handle> params, py::handle size, S&& scalar,
                  A&& array) {
  bool any_array = false;
  for (py::handle h : params) any_array = any_array || IsArrayParam(h);
  if (!any_array) {
    const Size z = ParseSize(size);
    return Result(scalar(z.dims), z);
  }
  std::vector<NDArray> arrs;
  for (py::handle h : params) arrs.push_back(AsNDArray(h));
  std::vector<index_t> dims;
  if (!size.is_none()) dims = ParseSize(size).dims;
  return Wrap(array(arrs, size.is_none() ? nullptr : &dims));
}

// shuffle(x) in place: shade and writable buffer arrays through the C++ shuffle, Python lists by
// the same permutation of their items (NumPy shuffles both with one draw sequence).
template <typename Rng>
void ShuffleInPlace(Rng& rng, py::handle x) {
  if (PyList_Check(x.ptr())) {
    py::list l = py::reinterpret_borrow<py::list>(x);
    const NDArray perm = rng.Permutation(static_cast<std::int64_t>(l.size()));
    const std::int64_t* p = perm.data<std::int64_t>();
    py::list old = py::reinterpret_steal<py::list>(PySequence_List(l.ptr()));  // a copy
    for (std::size_t i = 0; i < l.size(); ++i) l[i] = old[static_cast<std::size_t>(p[i])];
    return;
  }
  if (AsPyArray(x) == nullptr) {
    if (!py::hasattr(x, "__array_interface__") && !PyObject_CheckBuffer(x.ptr()))
      throw py::type_error("shuffle: x must be an array or a list");
    if (py::hasattr(x, "flags") && !x.attr("flags").attr("writeable").cast<bool>())
      throw py::value_error("shuffle: x is read-only");
  }
  EvaluateAllPending();
  rng.Shuffle(AsNDArray(x));
}

py::object PermutationOf(py::handle x, NDArray (*by_n)(void*, std::int64_t),
                         NDArray (*by_array)(void*, const NDArray&), void* rng) {
  if (IsIntLike(x)) return Wrap(by_n(rng, static_cast<std::int64_t>(ToInt128(x, "x"))));
  return Wrap(by_array(rng, AsNDArray(x)));
}

}  // namespace

void BindNpRandom(py::module_& m) {
  py::module_ r = m.def_submodule("_random", "NumPy's random streams (see shade.random)");
  py::class_<RandomState> rs(r, "RandomState",
                             "NumPy's legacy RandomState (MT19937), bit for bit.");
  rs.def(py::init([](py::handle seed) {
           auto* s = new RandomState(0u);
           SeedLegacy(*s, seed);
           return s;
         }),
         py::arg("seed") = py::none())
      .def(
          "seed", [](RandomState& s, py::handle seed) { SeedLegacy(s, seed); },
          py::arg("seed") = py::none(),
          "Reseeds: an int in [0, 2**32), a 1-d sequence of them, or None (fresh entropy).")
      .def(
          "get_state",
          [](RandomState& s) {
            const auto& k = s.bit_generator().key();
            py::object np = py::module_::import("numpy");
            py::object key =
                np.attr("array")(std::vector<std::uint32_t>(k.begin(), k.end()), "uint32");
            return py::make_tuple("MT19937", key, s.bit_generator().pos(), s.has_gauss() ? 1 : 0,
                                  s.gauss());
          },
          "The state as NumPy's legacy tuple ('MT19937', key, pos, has_gauss, cached_gaussian).")
      .def(
          "set_state",
          [](RandomState& s, py::tuple st) {
            if (st.size() < 3 || py::str(st[0]).cast<std::string>() != "MT19937")
              throw py::value_error(
                  "set_state can only be used with legacy MT19937 state instances");
            const auto key = py::cast<std::vector<std::uint32_t>>(
                py::module_::import("numpy").attr("asarray")(st[1]).attr("tolist")());
            if (key.size() != random::MT19937::kStateSize)
              throw py::value_error("state must be 624 elements");
            std::array<std::uint32_t, random::MT19937::kStateSize> k{};
            std::copy(key.begin(), key.end(), k.begin());
            s.bit_generator().SetState(k, st[2].cast<int>());
            const bool has = st.size() > 3 && st[3].cast<int>() != 0;
            s.SetGauss(has, st.size() > 4 ? st[4].cast<double>() : 0.0);
          },
          py::arg("state"), "Restores a state from get_state().")
      .def(
          "random_sample",
          [](RandomState& s, py::handle size) {
            const Size z = ParseSize(size);
            return Result(s.RandomSample(z.dims), z);
          },
          py::arg("size") = py::none(), "Floats in [0, 1) (53 bits).")
      .def(
          "random",
          [](RandomState& s, py::handle size) {
            const Size z = ParseSize(size);
            return Result(s.RandomSample(z.dims), z);
          },
          py::arg("size") = py::none(), "Floats in [0, 1); alias of random_sample.")
      .def(
          "rand",
          [](RandomState& s, py::args args) {
            Size z;
            z.scalar = args.size() == 0;
            z.dims = ParseShape(args);
            return Result(s.RandomSample(z.dims), z);
          },
          "rand(d0, d1, ...): floats in [0, 1) of that shape.")
      .def(
          "randn",
          [](RandomState& s, py::args args) {
            Size z;
            z.scalar = args.size() == 0;
            z.dims = ParseShape(args);
            return Result(s.StandardNormal(z.dims), z);
          },
          "randn(d0, d1, ...): standard normals of that shape.")
      .def(
          "randint",
          [](RandomState& s, py::handle low, py::handle high, py::handle size, py::handle dtype) {
            if (IsArrayParam(low) || (!high.is_none() && IsArrayParam(high))) {
              const NDArray lo = high.is_none() ? NDArray::Empty({}, kInt64) : AsNDArray(low);
              if (high.is_none()) lo.Fill(0);
              std::vector<index_t> dims;
              if (!size.is_none()) dims = ParseSize(size).dims;
              return Wrap(s.RandInt(lo, AsNDArray(high.is_none() ? low : high),
                                    size.is_none() ? nullptr : &dims, IntDType(dtype, kInt64)));
            }
            Int128 lo, hi;
            Bounds(low, high, &lo, &hi);
            const Size z = ParseSize(size);
            py::object r = Result(s.RandInt(lo, hi, z.dims, IntDType(dtype, kInt64)), z);
            // NumPy's legacy randint returns Python int / bool scalars for dtype=int / bool.
            if (z.scalar &&
                (dtype.is_none() || dtype.ptr() == reinterpret_cast<PyObject*>(&PyLong_Type)))
              return py::object(py::int_(r));
            if (z.scalar && dtype.ptr() == reinterpret_cast<PyObject*>(&PyBool_Type))
              return py::object(py::bool_(r.cast<bool>()));
            return r;
          },
          py::arg("low"), py::arg("high") = py::none(), py::arg("size") = py::none(),
          py::arg("dtype") = py::none(),
          "Integers in [low, high) (or [0, low) when high is None) of dtype (default int64).")
      .def(
          "standard_normal",
          [](RandomState& s, py::handle size) {
            const Size z = ParseSize(size);
            return Result(s.StandardNormal(z.dims), z);
          },
          py::arg("size") = py::none(), "Standard normals (polar method, cached second value).")
      .def(
          "normal",
          [](RandomState& s, py::handle loc, py::handle scale, py::handle size) {
            return Params(
                {loc, scale}, size,
                [&](IndexSpan d) { return s.Normal(Scalar(loc), Scalar(scale), d); },
                [&](const std::vector<NDArray>& a, const std::vector<index_t>* z) {
                  return s.Normal(a[0], a[1], z);
                });
          },
          py::arg("loc") = 0.0, py::arg("scale") = 1.0, py::arg("size") = py::none(),
          "Normals loc + scale * N(0, 1).")
      .def(
          "uniform",
          [](RandomState& s, py::handle low, py::handle high, py::handle size) {
            return Params(
                {low, high}, size,
                [&](IndexSpan d) {
                  CheckRange(Scalar(low), Scalar(high), "Range exceeds valid bounds");
                  return s.Uniform(Scalar(low), Scalar(high), d);
                },
                [&](const std::vector<NDArray>& a, const std::vector<index_t>* z) {
                  return s.Uniform(a[0], a[1], z);
                });
          },
          py::arg("low") = 0.0, py::arg("high") = 1.0, py::arg("size") = py::none(),
          "Floats in [low, high).")
      .def(
          "standard_exponential",
          [](RandomState& s, py::handle size) {
            const Size z = ParseSize(size);
            return Result(s.StandardExponential(z.dims), z);
          },
          py::arg("size") = py::none(), "Exponentials of scale 1.")
      .def(
          "exponential",
          [](RandomState& s, py::handle scale, py::handle size) {
            return Params(
                {scale}, size, [&](IndexSpan d) { return s.Exponential(Scalar(scale), d); },
                [&](const std::vector<NDArray>& a, const std::vector<index_t>* z) {
                  return s.Exponential(a[0], z);
                });
          },
          py::arg("scale") = 1.0, py::arg("size") = py::none(), "Exponentials of the given scale.")
      .def(
          "standard_gamma",
          [](RandomState& s, double shape, py::handle size) {
            const Size z = ParseSize(size);
            return Result(s.StandardGamma(shape, z.dims), z);
          },
          py::arg("shape"), py::arg("size") = py::none(), "Gamma variates of scale 1.")
      .def(
          "gamma",
          [](RandomState& s, py::handle shape, py::handle scale, py::handle size) {
            return Params(
                {shape, scale}, size,
                [&](IndexSpan d) { return s.Gamma(Scalar(shape), Scalar(scale), d); },
                [&](const std::vector<NDArray>& a, const std::vector<index_t>* z) {
                  return s.Gamma(a[0], a[1], z);
                });
          },
          py::arg("shape"), py::arg("scale") = 1.0, py::arg("size") = py::none(), "Gamma variates.")
      .def(
          "beta",
          [](RandomState& s, py::handle a_, py::handle b_, py::handle size) {
            return Params(
                {a_, b_}, size, [&](IndexSpan d) { return s.Beta(Scalar(a_), Scalar(b_), d); },
                [&](const std::vector<NDArray>& a, const std::vector<index_t>* z) {
                  return s.Beta(a[0], a[1], z);
                });
          },
          py::arg("a"), py::arg("b"), py::arg("size") = py::none(), "Beta variates.")
      .def(
          "poisson",
          [](RandomState& s, py::handle lam, py::handle size) {
            return Params(
                {lam}, size, [&](IndexSpan d) { return s.Poisson(Scalar(lam), d); },
                [&](const std::vector<NDArray>& a, const std::vector<index_t>* z) {
                  return s.Poisson(a[0], z);
                });
          },
          py::arg("lam") = 1.0, py::arg("size") = py::none(), "Poisson variates (int64).")
      .def(
          "binomial",
          [](RandomState& s, py::handle n, py::handle p, py::handle size) {
            return Params(
                {n, p}, size,
                [&](IndexSpan d) {
                  return s.Binomial(static_cast<std::int64_t>(ToInt128(n, "n")), Scalar(p), d);
                },
                [&](const std::vector<NDArray>& a, const std::vector<index_t>* z) {
                  return s.Binomial(a[0], a[1], z);
                });
          },
          py::arg("n"), py::arg("p"), py::arg("size") = py::none(), "Binomial variates (int64).")
      .def(
          "permutation",
          [](RandomState& s, py::handle x) {
            return PermutationOf(
                x,
                [](void* g, std::int64_t n) {
                  return static_cast<RandomState*>(g)->Permutation(n);
                },
                [](void* g, const NDArray& a) {
                  return static_cast<RandomState*>(g)->Permutation(a);
                },
                &s);
          },
          py::arg("x"), "A shuffled arange(x), or a shuffled copy of x along its first axis.")
      .def(
          "shuffle", [](RandomState& s, py::handle x) { ShuffleInPlace(s, x); }, py::arg("x"),
          "Shuffles x in place along its first axis.")
      .def(
          "choice",
          [](RandomState& s, py::handle a, py::handle size, bool replace, py::handle p) {
            return Choice(s, a, size, replace, p);
          },
          py::arg("a"), py::arg("size") = py::none(), py::arg("replace") = true,
          py::arg("p") = py::none(),
          "Samples from a (or arange(a)), with or without replacement, optionally with "
          "probabilities p.");

  rs.def(
      "multivariate_normal",
      [](RandomState& s, py::handle mean, py::handle cov, py::handle size,
         const std::string& check_valid, double tol) {
        RandomState::CheckValid cv;
        if (check_valid == "warn")
          cv = RandomState::CheckValid::kWarn;
        else if (check_valid == "raise")
          cv = RandomState::CheckValid::kRaise;
        else if (check_valid == "ignore")
          cv = RandomState::CheckValid::kIgnore;
        else
          throw py::value_error("check_valid must equal 'warn', 'raise', or 'ignore'");
        std::vector<index_t> dims;
        if (!size.is_none()) dims = ParseSize(size).dims;
        bool not_psd = false;
        NDArray r = s.MultivariateNormal(AsNDArray(mean), AsNDArray(cov), dims, cv, tol, &not_psd);
        if (not_psd && cv == RandomState::CheckValid::kWarn) {
          if (PyErr_WarnEx(PyExc_RuntimeWarning,
                           "covariance is not symmetric positive-semidefinite.", 1) < 0)
            throw py::error_already_set();
        }
        return Wrap(std::move(r));
      },
      py::arg("mean"), py::arg("cov"), py::arg("size") = py::none(),
      py::arg("check_valid") = "warn", py::arg("tol") = 1e-8,
      "Multivariate normals: standard normals times sqrt(s) V from the SVD of cov, plus mean.");

  py::class_<random::PCG64> pcg(r, "PCG64",
                                "NumPy's PCG64 bit generator (the Generator's stream).");
  pcg.def(py::init([](py::handle seed) { return new random::PCG64(SeedSeqOf(seed)); }),
          py::arg("seed") = py::none())
      .def_property(
          "state",
          [](const random::PCG64& g) {
            py::dict st, inner;
            inner["state"] = UInt128ToPy(g.state());
            inner["inc"] = UInt128ToPy(g.inc());
            st["bit_generator"] = "PCG64";
            st["state"] = inner;
            st["has_uint32"] = g.has_uint32() ? 1 : 0;
            st["uinteger"] = g.uinteger();
            return st;
          },
          [](random::PCG64& g, py::dict st) {
            if (!st.contains("bit_generator") ||
                py::str(st["bit_generator"]).cast<std::string>() != "PCG64")
              throw py::value_error("state must be for a PCG64 PRNG");
            py::dict inner = st["state"].cast<py::dict>();
            g.SetState(PyToUInt128(inner["state"]), PyToUInt128(inner["inc"]),
                       st["has_uint32"].cast<int>() != 0, st["uinteger"].cast<std::uint32_t>());
          },
          "The state as NumPy's dict: {'bit_generator', 'state': {'state', 'inc'}, 'has_uint32', "
          "'uinteger'}.");

  py::class_<Generator> gen(r, "Generator", "NumPy's Generator over PCG64, bit for bit.");
  gen.def_property_readonly(
      "bit_generator", [](Generator& g) -> random::PCG64& { return g.bit_generator(); },
      py::return_value_policy::reference_internal,
      "The PCG64 bit generator (its state can be read and set).");
  gen.def(py::init([](py::handle seed) { return new Generator(SeedSeqOf(seed)); }),
          py::arg("seed") = py::none())
      .def(
          "random",
          [](Generator& g, py::handle size, py::handle dtype) {
            const Size z = ParseSize(size);
            return Result(g.Random(z.dims, IntDType(dtype, kFloat64)), z);
          },
          py::arg("size") = py::none(), py::arg("dtype") = py::none(),
          "Floats in [0, 1) (float64 or float32).")
      .def(
          "integers",
          [](Generator& g, py::handle low, py::handle high, py::handle size, py::handle dtype,
             bool endpoint) {
            if (IsArrayParam(low) || (!high.is_none() && IsArrayParam(high))) {
              const NDArray lo = high.is_none() ? NDArray::Empty({}, kInt64) : AsNDArray(low);
              if (high.is_none()) lo.Fill(0);
              std::vector<index_t> dims;
              if (!size.is_none()) dims = ParseSize(size).dims;
              return Wrap(g.Integers(lo, AsNDArray(high.is_none() ? low : high),
                                     size.is_none() ? nullptr : &dims, IntDType(dtype, kInt64),
                                     endpoint));
            }
            Int128 lo, hi;
            Bounds(low, high, &lo, &hi);
            const Size z = ParseSize(size);
            return Result(g.Integers(lo, hi, z.dims, IntDType(dtype, kInt64), endpoint), z);
          },
          py::arg("low"), py::arg("high") = py::none(), py::arg("size") = py::none(),
          py::arg("dtype") = py::none(), py::arg("endpoint") = false,
          "Integers in [low, high) ([low, high] with endpoint=True), Lemire's method.")
      .def(
          "uniform",
          [](Generator& g, py::handle low, py::handle high, py::handle size) {
            return Params(
                {low, high}, size,
                [&](IndexSpan d) {
                  CheckRange(Scalar(low), Scalar(high), "high - low range exceeds valid bounds");
                  return g.Uniform(Scalar(low), Scalar(high), d);
                },
                [&](const std::vector<NDArray>& a, const std::vector<index_t>* z) {
                  return g.Uniform(a[0], a[1], z);
                });
          },
          py::arg("low") = 0.0, py::arg("high") = 1.0, py::arg("size") = py::none(),
          "Floats in [low, high).")
      .def(
          "poisson",
          [](Generator& g, py::handle lam, py::handle size) {
            return Params(
                {lam}, size, [&](IndexSpan d) { return g.Poisson(Scalar(lam), d); },
                [&](const std::vector<NDArray>& a, const std::vector<index_t>* z) {
                  return g.Poisson(a[0], z);
                });
          },
          py::arg("lam") = 1.0, py::arg("size") = py::none(), "Poisson variates (int64).")
      .def(
          "binomial",
          [](Generator& g, py::handle n, py::handle p, py::handle size) {
            return Params(
                {n, p}, size,
                [&](IndexSpan d) {
                  return g.Binomial(static_cast<std::int64_t>(ToInt128(n, "n")), Scalar(p), d);
                },
                [&](const std::vector<NDArray>& a, const std::vector<index_t>* z) {
                  return g.Binomial(a[0], a[1], z);
                });
          },
          py::arg("n"), py::arg("p"), py::arg("size") = py::none(), "Binomial variates (int64).")
      .def(
          "permutation",
          [](Generator& s, py::handle x) {
            return PermutationOf(
                x,
                [](void* g, std::int64_t n) { return static_cast<Generator*>(g)->Permutation(n); },
                [](void* g, const NDArray& a) {
                  return static_cast<Generator*>(g)->Permutation(a);
                },
                &s);
          },
          py::arg("x"), "A shuffled arange(x), or a shuffled copy of x along its first axis.")
      .def(
          "shuffle", [](Generator& g, py::handle x) { ShuffleInPlace(g, x); }, py::arg("x"),
          "Shuffles x in place along its first axis.")
      .def(
          "choice",
          [](Generator& g, py::handle a, py::handle size, bool replace, py::handle p,
             bool shuffle) { return Choice(g, a, size, replace, p, shuffle); },
          py::arg("a"), py::arg("size") = py::none(), py::arg("replace") = true,
          py::arg("p") = py::none(), py::arg("shuffle") = true,
          "Samples from a (or arange(a)) along its first axis.");
  r.def(
      "default_rng", [](py::handle seed) { return new Generator(SeedSeqOf(seed)); },
      py::arg("seed") = py::none(), "A Generator over PCG64 seeded through SeedSequence(seed).");
}

}  // namespace python
}  // namespace shade
