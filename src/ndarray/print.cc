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

// The fewest digits after the point (fixed) or after the first digit (scientific), at most
// `cap`, whose text reads back as v; when none does, cap less the trailing zeros.
template <typename T>
int MinDigits(T v, int cap, bool scientific) {
  char buf[512];
  const double d = detail::ToDouble(v);
  for (int p = 0; p <= cap; ++p) {
    std::snprintf(buf, sizeof(buf), scientific ? "%.*e" : "%.*f", p, d);
    if (RoundTrips(buf, v)) return p;
  }
  // No text of at most cap digits reads back: cap digits, trailing zeros dropped (NumPy's trim).
  std::string t = buf;
  const std::size_t e = scientific ? t.find('e') : t.size();
  std::size_t end = e;
  while (end > 0 && t[end - 1] == '0') --end;
  const std::size_t dot = t.find('.');
  return dot == std::string::npos || end <= dot ? 0 : static_cast<int>(end - dot - 1);
}

std::string Printf(double d, int digits, bool scientific) {
  char buf[512];
  std::snprintf(buf, sizeof(buf), scientific ? "%.*e" : "%.*f", digits, d);
  return buf;
}

// Right-aligns every string to the longest one.
void AlignRight(std::vector<std::string>* out, std::size_t min_width = 0) {
  std::size_t w = min_width;
  for (const std::string& s : *out) w = std::max(w, s.size());
  for (std::string& s : *out) s = std::string(w - s.size(), ' ') + s;
}

// NumPy's FloatingFormat: one notation and one width for all the shown elements.
template <typename T>
std::vector<std::string> FormatFloats(const std::vector<T>& vals, const PrintOptions& opt) {
  double mx = 0, mn = 0;
  bool any_nonzero = false, any_finite = false, any_negative = false;
  for (T v : vals) {
    const double d = detail::ToDouble(v);
    if (!std::isfinite(d)) continue;
    any_finite = true;
    any_negative |= std::signbit(d);
    const double m = std::fabs(d);
    if (m == 0) continue;
    mx = any_nonzero ? std::max(mx, m) : m;
    mn = any_nonzero ? std::min(mn, m) : m;
    any_nonzero = true;
  }
  const bool sci = any_nonzero && (mx >= 1e8 || (!opt.suppress && (mn < 1e-4 || mx / mn > 1e3)));
  const bool fixed = opt.floatmode == FloatMode::kFixed;
  // kUnique ignores precision: 400 digits read back any double (positional is only used for
  // magnitudes below 1e8 here).
  const int cap = opt.floatmode == FloatMode::kUnique ? 400 : opt.precision;
  std::vector<int> digits(vals.size(), 0);
  int most = 0;
  for (std::size_t i = 0; i < vals.size(); ++i) {
    if (!std::isfinite(detail::ToDouble(vals[i]))) continue;
    digits[i] = fixed ? opt.precision : MinDigits(vals[i], cap, sci);
    most = std::max(most, digits[i]);
  }
  // Scientific, fixed and maxprec_equal: every element with the most digits; unique and maxprec
  // positional: each its own, padded with spaces to the most.
  const bool zero_pad = sci || fixed || opt.floatmode == FloatMode::kMaxPrecEqual;
  std::vector<std::string> ip(vals.size()), fp(vals.size()), ep(vals.size());
  std::size_t pad_left = 0, pad_right = 0, exp_size = 0;
  for (std::size_t i = 0; i < vals.size(); ++i) {
    const double d = detail::ToDouble(vals[i]);
    if (!std::isfinite(d)) continue;
    // Extra digits are the value's own (dragon4's min_digits), not zeros.
    std::string s = Printf(d, zero_pad ? most : digits[i], sci);
    if (opt.sign == '+' && !std::signbit(d)) s = "+" + s;
    if (sci) {
      const std::size_t e = s.find('e');
      ep[i] = s.substr(e + 2);  // exponent digits (the sign is kept apart)
      fp[i] = s.substr(e, 2);   // "e+" / "e-"
      s = s.substr(0, e);
      exp_size = std::max(exp_size, ep[i].size());
    }
    const std::size_t dot = s.find('.');
    ip[i] = s.substr(0, dot);
    const std::string frac = dot == std::string::npos ? std::string() : s.substr(dot + 1);
    fp[i] = frac + fp[i];
    pad_left = std::max(pad_left, ip[i].size());
    pad_right = std::max(pad_right, frac.size());
  }
  if (opt.sign == ' ' && any_finite && !any_negative) ++pad_left;
  std::vector<std::string> out;
  std::size_t special_width = 0;  // NumPy: "inf" keeps room for a sign unless sign is '-'
  for (std::size_t i = 0; i < vals.size(); ++i) {
    const double d = detail::ToDouble(vals[i]);
    if (std::isinf(d) && (d < 0 || opt.sign != '-')) special_width = 4;
    if (!std::isfinite(d)) special_width = std::max<std::size_t>(special_width, 3);
  }
  for (std::size_t i = 0; i < vals.size(); ++i) {
    const double d = detail::ToDouble(vals[i]);
    if (!std::isfinite(d)) {
      std::string t = std::isnan(d) ? "nan" : "inf";
      if (d < 0) t = "-" + t;
      if (opt.sign == '+' && !(d < 0)) t = "+" + t;
      out.push_back(t);
      continue;
    }
    std::string t = std::string(pad_left - ip[i].size(), ' ') + ip[i] + ".";
    if (sci) {
      t += fp[i] + std::string(exp_size - ep[i].size(), '0') + ep[i];
    } else {
      t += fp[i] + std::string(pad_right - fp[i].size(), ' ');
    }
    out.push_back(t);
  }
  AlignRight(&out, special_width);
  return out;
}

// Formats every displayed element (values in row-major display order) into equal-width strings.
template <typename T>
std::vector<std::string> FormatAll(const std::vector<T>& vals, const PrintOptions& opt,
                                   bool zero_d) {
  std::vector<std::string> out;
  if constexpr (std::is_same<T, bool>::value) {
    for (bool v : vals) out.push_back(v ? "True" : "False");
    AlignRight(&out, zero_d ? 0 : 5);  // NumPy: " True" in every array of rank >= 1
  } else if constexpr (std::is_integral<T>::value) {
    for (T v : vals) {
      std::ostringstream os;
      if constexpr (std::is_signed<T>::value) {
        os << static_cast<long long>(v);  // NOLINT(runtime/int)
      } else {
        os << static_cast<unsigned long long>(v);  // NOLINT(runtime/int)
      }
      out.push_back(os.str());  // NumPy 1.24 applies `sign` to floats only
    }
    AlignRight(&out);
  } else if constexpr (kIsComplex<T>) {
    // NumPy's ComplexFloatingFormat: the real parts formatted together, the imaginary parts
    // together with sign '+', then "re" + "im" + "j" with the 'j' before im's padding.
    using R = typename T::value_type;
    std::vector<R> re, im;
    for (const T& v : vals) {
      re.push_back(v.real());
      im.push_back(v.imag());
    }
    PrintOptions iopt = opt;
    iopt.sign = '+';
    const std::vector<std::string> rs = FormatFloats(re, opt), is = FormatFloats(im, iopt);
    for (std::size_t i = 0; i < vals.size(); ++i) {
      const std::string& t = is[i];
      std::size_t end = t.size();
      while (end > 0 && t[end - 1] == ' ') --end;
      out.push_back(rs[i] + t.substr(0, end) + "j" + t.substr(end));
    }
  } else {
    out = FormatFloats(vals, opt);
  }
  return out;
}

// NumPy's str of one scalar: floats in the fewest digits that read back, positional from 1e-4
// to 1e16, scientific outside (Python's float repr rule).
template <typename T>
std::string ScalarStr(T v) {
  if constexpr (kIsComplex<T>) {
    // Python's complex repr: "2j" for a +0 real part, else "(1+2j)"; parts without ".0".
    const auto part = [](typename T::value_type x) {
      std::string t = ScalarStr(x);
      if (t.size() > 2 && t.compare(t.size() - 2, 2, ".0") == 0) t.resize(t.size() - 2);
      return t;
    };
    std::string im = part(v.imag());
    if (v.real() == 0 && !std::signbit(v.real())) return im + "j";
    if (im[0] != '-') im = "+" + im;
    return "(" + part(v.real()) + im + "j)";
  } else if constexpr (std::is_same<T, bool>::value) {
    return v ? "True" : "False";
  } else if constexpr (std::is_integral<T>::value) {
    std::ostringstream os;
    if constexpr (std::is_signed<T>::value) {
      os << static_cast<long long>(v);  // NOLINT(runtime/int)
    } else {
      os << static_cast<unsigned long long>(v);  // NOLINT(runtime/int)
    }
    return os.str();
  } else {
    const double d = detail::ToDouble(v);
    if (std::isnan(d)) return "nan";
    if (std::isinf(d)) return d < 0 ? "-inf" : "inf";
    const double m = std::fabs(d);
    if (m == 0 || (m >= 1e-4 && m < 1e16)) {
      std::string s = Printf(d, MinDigits(v, 400, false), false);
      if (s.find('.') == std::string::npos) s += ".0";
      return s;
    }
    std::string s = Printf(d, MinDigits(v, 400, true), true);  // "1e-05", "1.5e+16"
    return s;
  }
}

// NumPy's _formatArray: nested brackets, rows wrapped before `width`, hanging indents.
struct Emitter {
  const std::vector<std::vector<index_t>>* shown;
  const std::vector<std::string>* items;
  std::size_t next = 0;
  std::string sep;  // ", " (repr) or " " (str)

  static std::string RStrip(std::string s) {
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
  }
  static void Extend(std::string& s, std::string& line, const std::string& word, std::size_t width,
                     const std::string& hang) {
    // A word never wraps onto a line of its own indent only.
    if (line.size() + word.size() > width && line.size() > hang.size()) {
      s += RStrip(line) + "\n";
      line = hang;
    }
    line += word;
  }
  std::string Rec(std::size_t dim, const std::string& hang, std::size_t width) {
    const std::size_t ndim = shown->size();
    const std::vector<index_t>& idx = (*shown)[dim];
    std::string s;
    if (dim + 1 == ndim) {
      const std::size_t elem_width = width - 1;  // room for the "," or "]" after the element
      std::string line = hang;
      for (std::size_t k = 0; k < idx.size(); ++k) {
        Extend(s, line, idx[k] < 0 ? std::string("...") : (*items)[next++], elem_width, hang);
        if (k + 1 < idx.size()) line += sep;
      }
      s += line;
    } else {
      const std::string line_sep = RStrip(sep) + std::string(ndim - dim - 1, '\n');
      for (std::size_t k = 0; k < idx.size(); ++k) {
        s += hang + (idx[k] < 0 ? std::string("...") : Rec(dim + 1, hang + " ", width - 1));
        if (k + 1 < idx.size()) s += line_sep;
      }
    }
    return "[" + s.substr(hang.size()) + "]";
  }
};

enum class Style { kShade, kNumPyRepr, kNumPyStr };

void CheckOptions(const PrintOptions& opt, const char* where) {
  SHADE_CHECK(opt.edgeitems >= 1 && opt.threshold >= 0 && opt.precision >= 0 &&
              opt.precision <= 400 && opt.linewidth >= 1 &&
              (opt.sign == '-' || opt.sign == '+' || opt.sign == ' ') &&
              static_cast<int>(opt.floatmode) <= static_cast<int>(FloatMode::kMaxPrecEqual))
      << where << ": bad print options (edgeitems " << opt.edgeitems << ", threshold "
      << opt.threshold << ", precision " << opt.precision << ", linewidth " << opt.linewidth
      << ", sign '" << opt.sign << "')";
}

std::string Render(const NDArray& a, const PrintOptions& opt, Style style) {
  SHADE_CHECK(a.defined()) << "ToString: the NDArray is undefined";
  SHADE_CHECK_TYPE_GE(a.type_flag(), 0)
      << "ToString: element type " << a.dtype().name() << " is not numeric";
  SHADE_CHECK(a.data_ptr() != nullptr || a.numel() == 0)
      << "ToString: " << a << " has no memory allocated";
  CheckOptions(opt, "ToString");
  const bool summarise = a.numel() > opt.threshold;
  std::ostringstream shape;
  shape << "(";
  for (int d = 0; d < a.ndim(); ++d) shape << (d ? ", " : "") << a.size(d);
  shape << (a.ndim() == 1 ? ",)" : ")");
  const int f = a.type_flag();
  // NumPy's repr omits the dtypes a Python literal implies, except for empty arrays.
  const bool implied =
      (f == kFloat64 || f == kInt64 || f == kBool || f == kComplex128) && a.numel() > 0;
  std::string dtype_str;
  if (style == Style::kShade) {
    dtype_str = std::string(summarise && a.numel() > 0 ? "shape=" + shape.str() + ", " : "") +
                "dtype=" + TypeFlagName(f) + ")";
  } else if (style == Style::kNumPyRepr && !implied) {
    dtype_str = std::string("dtype=") + TypeFlagName(f) + ")";
  }
  std::string body;
  if (a.numel() == 0) {
    if (style == Style::kNumPyStr) return "[]";
    // As NumPy: the brackets of one empty list; the shape unless it is (0,).
    body = a.ndim() == 1 ? "[]" : "[], shape=" + shape.str();
  } else {
    std::vector<std::vector<index_t>> shown;
    const index_t edge = opt.edgeitems;
    for (int d = 0; d < a.ndim(); ++d) shown.push_back(Shown(a.size(d), summarise, edge));
    std::vector<std::string> items;
    DispatchDTypeWithComplex(f, [&](auto tag) {
      using T = typename decltype(tag)::type;
      std::vector<T> vals;
      std::vector<index_t> idx(a.ndim(), 0);
      // Row-major walk over the displayed index lists.
      std::vector<std::size_t> pos(a.ndim(), 0);
      auto skip = [&]() {
        for (int d = 0; d < a.ndim(); ++d) {
          if (shown[d][pos[d]] < 0) return true;
        }
        return false;
      };
      while (true) {
        if (!skip()) {
          for (int d = 0; d < a.ndim(); ++d) idx[d] = shown[d][pos[d]];
          vals.push_back(a.at<T>(IndexSpan(idx)));
        }
        int d = a.ndim() - 1;
        for (; d >= 0; --d) {
          if (++pos[d] < shown[d].size()) break;
          pos[d] = 0;
        }
        if (d < 0) break;
      }
      if (a.ndim() == 0 && style == Style::kNumPyStr) {
        items.push_back(ScalarStr<T>(vals[0]));
      } else {
        items = FormatAll(vals, opt, a.ndim() == 0);
      }
    });
    if (a.ndim() == 0) {
      body = items[0];
    } else {
      Emitter e{&shown, &items, 0, style == Style::kNumPyStr ? " " : ", "};
      const bool str = style == Style::kNumPyStr;
      // NumPy: the width keeps one column for the suffix (")" or ","); the hanging indent
      // skips "array(" and "[".
      const std::size_t width = static_cast<std::size_t>(opt.linewidth) - (str ? 0 : 1);
      body = e.Rec(0, std::string(str ? 1 : 7, ' '), width);
    }
  }
  if (style == Style::kNumPyStr) return body;
  std::string out = "array(" + body + (dtype_str.empty() ? ")" : ",");
  if (dtype_str.empty()) return out;
  // The dtype goes on a line of its own when it would pass the line width (NumPy).
  const std::size_t nl = out.rfind('\n');
  const std::size_t last = nl == std::string::npos ? out.size() : out.size() - nl - 1;
  // (shade's own style keeps it on the last line, as before the options existed.)
  const bool own_line = style == Style::kNumPyRepr &&
                        last + dtype_str.size() + 1 > static_cast<std::size_t>(opt.linewidth);
  return out + (own_line ? "\n      " : " ") + dtype_str;
}

PrintOptions& CurrentOptions() {
  static PrintOptions options;
  return options;
}

}  // namespace

PrintOptions GetPrintOptions() {
  return CurrentOptions();
}

void SetPrintOptions(const PrintOptions& opt) {
  CheckOptions(opt, "SetPrintOptions");
  CurrentOptions() = opt;
}

FloatMode ParseFloatMode(const std::string& name) {
  for (FloatMode m :
       {FloatMode::kFixed, FloatMode::kUnique, FloatMode::kMaxPrec, FloatMode::kMaxPrecEqual}) {
    if (name == FloatModeName(m)) return m;
  }
  SHADE_THROW << "floatmode option must be one of 'fixed', 'unique', 'maxprec', "
                 "'maxprec_equal' (got '"
              << name << "')";
}

const char* FloatModeName(FloatMode mode) {
  switch (mode) {
    case FloatMode::kFixed:
      return "fixed";
    case FloatMode::kUnique:
      return "unique";
    case FloatMode::kMaxPrecEqual:
      return "maxprec_equal";
    default:
      return "maxprec";
  }
}

std::string NumPyRepr(const NDArray& a, const PrintOptions& opt) {
  return Render(a, opt, Style::kNumPyRepr);
}

std::string NumPyStr(const NDArray& a, const PrintOptions& opt) {
  return Render(a, opt, Style::kNumPyStr);
}

std::string ToString(const NDArray& a, const PrintOptions& opt) {
  return Render(a, opt, Style::kShade);
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
