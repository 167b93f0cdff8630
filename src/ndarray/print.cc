// NumPy-style printing (ndarray/print.h).
#include "shade/ndarray/print.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "shade/ndarray/ndarray_util.h"

namespace shade {
namespace {

// Displayed indices of a dimension; -1 marks the ellipsis.
std::vector<index_t> Shown(index_t size, bool summarise, index_t edge) {
  std::vector<index_t> out;
  if (summarise && size > 2 * edge) {
    for (index_t i = 0; i < edge; ++i) out.push_back(i);
    out.push_back(-1);
    for (index_t i = size - edge; i < size; ++i) out.push_back(i);
  } else {
    for (index_t i = 0; i < size; ++i) out.push_back(i);
  }
  return out;
}

// True when text `s` reads back as exactly v in the dtype (float32 / float16 / ...).
template <typename T>
bool RoundTrips(const char* s, T v) {
  const double d = std::strtod(s, nullptr);
  if constexpr (std::is_same<T, double>::value) {
    return d == v;
  } else if constexpr (std::is_same<T, float>::value) {
    return static_cast<float>(d) == v;
  } else {
    return static_cast<float>(T(static_cast<float>(d))) == static_cast<float>(v);
  }
}

template <typename T>
std::string Fixed(T v, int precision) {
  char buf[512];
  const double d = detail::ToDouble(v);
  for (int p = 0; p <= precision; ++p) {
    std::snprintf(buf, sizeof(buf), "%.*f", p, d);
    if (RoundTrips(buf, v)) return buf;
  }
  std::snprintf(buf, sizeof(buf), "%.*f", precision, d);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();  // trim zeros, keep the point
  return s;
}

template <typename T>
int ExpDigits(T v, int precision) {
  char buf[64];
  const double d = detail::ToDouble(v);
  for (int p = 0; p <= precision; ++p) {
    std::snprintf(buf, sizeof(buf), "%.*e", p, d);
    if (RoundTrips(buf, v)) return p;
  }
  return precision;
}

// Formats every displayed element (values in row-major display order) into equal-width strings.
template <typename T>
std::vector<std::string> FormatAll(const std::vector<T>& vals, int precision) {
  std::vector<std::string> out;
  if constexpr (std::is_same<T, bool>::value) {
    for (bool v : vals) out.push_back(v ? "True" : "False");
  } else if constexpr (std::is_integral<T>::value) {
    for (T v : vals) {
      std::ostringstream os;
      if constexpr (std::is_signed<T>::value) {
        os << static_cast<long long>(v);  // NOLINT(runtime/int)
      } else {
        os << static_cast<unsigned long long>(v);  // NOLINT(runtime/int)
      }
      out.push_back(os.str());
    }
  } else {
    double mx = 0, mn = 0;
    bool any = false;
    for (T v : vals) {
      const double d = std::fabs(detail::ToDouble(v));
      if (!std::isfinite(d) || d == 0) continue;
      mx = any ? std::max(mx, d) : d;
      mn = any ? std::min(mn, d) : d;
      any = true;
    }
    const bool exp = any && (mx >= 1e8 || mn < 1e-4 || mx / mn > 1e3);
    auto special = [](double d) -> std::string {
      if (std::isnan(d)) return "nan";
      return d > 0 ? "inf" : "-inf";
    };
    if (exp) {
      int digits = 0;
      for (T v : vals) {
        if (std::isfinite(detail::ToDouble(v))) digits = std::max(digits, ExpDigits(v, precision));
      }
      for (T v : vals) {
        const double d = detail::ToDouble(v);
        if (!std::isfinite(d)) {
          out.push_back(special(d));
          continue;
        }
        char buf[64];
        std::snprintf(buf, sizeof(buf), "%.*e", digits, d);
        std::string s = buf;
        if (digits == 0) s.insert(s.find('e'), ".");
        out.push_back(s);
      }
    } else {
      std::vector<std::string> ip, fp;
      std::size_t wl = 0, wr = 0;
      for (T v : vals) {
        const double d = detail::ToDouble(v);
        if (!std::isfinite(d)) {
          ip.push_back("");
          fp.push_back("");
          continue;
        }
        std::string s = Fixed(v, precision);
        const auto dot = s.find('.');
        if (dot == std::string::npos) s += ".";
        const auto at = s.find('.');
        ip.push_back(s.substr(0, at));
        fp.push_back(s.substr(at + 1));
        wl = std::max(wl, ip.back().size());
        wr = std::max(wr, fp.back().size());
      }
      for (std::size_t i = 0; i < vals.size(); ++i) {
        const double d = detail::ToDouble(vals[i]);
        if (!std::isfinite(d)) {
          out.push_back(special(d));
          continue;
        }
        out.push_back(std::string(wl - ip[i].size(), ' ') + ip[i] + "." + fp[i] +
                      std::string(wr - fp[i].size(), ' '));
      }
    }
  }
  std::size_t w = 0;
  for (const std::string& s : out) w = std::max(w, s.size());
  for (std::string& s : out) s = std::string(w - s.size(), ' ') + s;
  return out;
}

struct Layout {
  const NDArray* a;
  std::vector<std::vector<index_t>> shown;
  std::vector<std::string> items;  // display order
  std::size_t next = 0;
  int linewidth;
  int base_indent;  // len("array(")
};

// Appends dimension `dim` (the array's index prefix is implicit in display order) to os.
void Emit(Layout& L, int dim, std::string& os) {
  const int nd = L.a->ndim();
  const std::string indent(static_cast<std::size_t>(L.base_indent + dim + 1), ' ');
  os += "[";
  if (dim == nd - 1) {
    // Current line length: characters since the last newline.
    auto col = [&]() {
      const auto nl = os.rfind('\n');
      return static_cast<int>(nl == std::string::npos ? os.size() + L.base_indent
                                                      : os.size() - nl - 1);
    };
    bool first = true;
    for (index_t i : L.shown[dim]) {
      const std::string item = i < 0 ? std::string("...") : L.items[L.next++];
      if (!first) {
        os += ",";
        if (col() + 1 + static_cast<int>(item.size()) + 2 > L.linewidth) {
          os += "\n" + indent;
        } else {
          os += " ";
        }
      }
      os += item;
      first = false;
    }
    os += "]";
    return;
  }
  const std::string sep =
      ",\n" + std::string(static_cast<std::size_t>(nd - dim - 2), '\n') + indent;
  bool first = true;
  for (index_t i : L.shown[dim]) {
    if (!first) os += sep;
    if (i < 0) {
      os += "...";
    } else {
      Emit(L, dim + 1, os);
    }
    first = false;
  }
  os += "]";
}

}  // namespace

std::string ToString(const NDArray& a, const PrintOptions& opt) {
  SHADE_CHECK(a.defined()) << "ToString: the NDArray is undefined";
  SHADE_CHECK_TYPE_GE(a.type_flag(), 0)
      << "ToString: element type " << a.dtype().name() << " is not numeric";
  SHADE_CHECK(a.data_ptr() != nullptr || a.numel() == 0)
      << "ToString: " << a << " has no memory allocated";
  SHADE_CHECK(opt.edgeitems >= 1 && opt.threshold >= 0 && opt.precision >= 0 &&
              opt.precision <= 40 && opt.linewidth >= 10)
      << "ToString: bad print options (edgeitems " << opt.edgeitems << ", threshold "
      << opt.threshold << ", precision " << opt.precision << ", linewidth " << opt.linewidth << ")";
  const bool summarise = a.numel() > opt.threshold;
  std::ostringstream shape;
  shape << "(";
  for (int d = 0; d < a.ndim(); ++d) shape << (d ? ", " : "") << a.size(d);
  shape << (a.ndim() == 1 ? ",)" : ")");
  const std::string dtype = std::string("dtype=") + TypeFlagName(a.type_flag());
  if (a.numel() == 0) {
    // As NumPy: the brackets of one empty list; the shape unless it is (0,).
    if (a.ndim() == 1) return "array([], " + dtype + ")";
    return "array([], shape=" + shape.str() + ", " + dtype + ")";
  }
  Layout L;
  L.a = &a;
  L.linewidth = opt.linewidth;
  L.base_indent = 6;
  for (int d = 0; d < a.ndim(); ++d) L.shown.push_back(Shown(a.size(d), summarise, opt.edgeitems));
  DispatchDType(a.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<T> vals;
    std::vector<index_t> idx(a.ndim(), 0);
    // Row-major walk over the displayed index lists.
    std::vector<std::size_t> pos(a.ndim(), 0);
    auto skip = [&]() {
      for (int d = 0; d < a.ndim(); ++d) {
        if (L.shown[d][pos[d]] < 0) return true;
      }
      return false;
    };
    while (true) {
      if (!skip()) {
        for (int d = 0; d < a.ndim(); ++d) idx[d] = L.shown[d][pos[d]];
        vals.push_back(a.at<T>(IndexSpan(idx)));
      }
      int d = a.ndim() - 1;
      for (; d >= 0; --d) {
        if (++pos[d] < L.shown[d].size()) break;
        pos[d] = 0;
      }
      if (d < 0) break;
    }
    L.items = FormatAll(vals, opt.precision);
  });
  std::string body;
  if (a.ndim() == 0) {
    body = L.items[0];
  } else {
    Emit(L, 0, body);
  }
  std::string out = "array(" + body + ", ";
  if (summarise) out += "shape=" + shape.str() + ", ";
  return out + dtype + ")";
}

std::ostream& operator<<(std::ostream& os, const Printed& p) {
  return os << ToString(p.array, p.options);
}

std::ostream& operator<<(std::ostream& os, const NDArray& a) {
  // Values where there are values to print; the summary otherwise (printing never throws).
  if (!a.defined() || a.type_flag() < 0 || (a.data_ptr() == nullptr && a.numel() != 0)) {
    return os << a.Describe();
  }
  return os << ToString(a);
}

}  // namespace shade
