// Text files: numpy.loadtxt, numpy.genfromtxt (numeric) and numpy.savetxt. The readers walk
// the text line by line with one line's fields in a reused buffer; values are appended to a
// byte buffer that grows with what was read, so no count in the input sizes an allocation.
// The writer parses each % directive itself and prints values with Python's % rules.
#include "shade/io/textfile.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <sstream>
#include <system_error>
#include <type_traits>
#include <utility>

#include "shade/base/checked.h"
#include "shade/base/error.h"
#include "shade/io/atomic_file.h"
#include "shade/io/stream.h"

namespace shade {
namespace io {

namespace {

// ------------------------------------------------------------------------------ text helpers

// Bytes of the whitespace code point at p (Python's str.isspace, UTF-8), 0 when none.
std::size_t SpaceLen(const char* p, const char* e) {
  const auto c = static_cast<unsigned char>(*p);
  if (c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f)) return 1;
  if (c < 0xc2 || e - p < 2) return 0;
  const auto c1 = static_cast<unsigned char>(p[1]);
  if (c == 0xc2) return (c1 == 0x85 || c1 == 0xa0) ? 2 : 0;
  if (e - p < 3) return 0;
  const auto c2 = static_cast<unsigned char>(p[2]);
  if (c == 0xe1) return (c1 == 0x9a && c2 == 0x80) ? 3 : 0;
  if (c == 0xe2) {
    if (c1 == 0x80 && (c2 <= 0x8a || c2 == 0xa8 || c2 == 0xa9 || c2 == 0xaf)) return 3;
    return (c1 == 0x81 && c2 == 0x9f) ? 3 : 0;
  }
  if (c == 0xe3) return (c1 == 0x80 && c2 == 0x80) ? 3 : 0;
  return 0;
}

std::string_view StripSpace(std::string_view s) {
  const char* b = s.data();
  const char* e = b + s.size();
  while (b < e) {
    const std::size_t n = SpaceLen(b, e);
    if (n == 0) break;
    b += n;
  }
  // Trailing: step back over one code point at a time (ASCII or a 2/3-byte space).
  while (e > b) {
    if (SpaceLen(e - 1, e) == 1) {
      --e;
    } else if (e - b >= 2 && SpaceLen(e - 2, e) == 2) {
      e -= 2;
    } else if (e - b >= 3 && SpaceLen(e - 3, e) == 3) {
      e -= 3;
    } else {
      break;
    }
  }
  return std::string_view(b, static_cast<std::size_t>(e - b));
}

bool IsAllSpace(std::string_view s) {
  return StripSpace(s).empty();
}

// Length in bytes of one UTF-8 code point starting with `c` (1 for invalid lead bytes).
std::size_t Utf8Len(unsigned char c) {
  if (c >= 0xf0) return 4;
  if (c >= 0xe0) return 3;
  if (c >= 0xc0) return 2;
  return 1;
}

// Python's repr of a str, cut to 100 characters as NumPy's %.100R does (bytes >= 0x80 are
// kept: they are the UTF-8 of printable text in the common case).
std::string PyRepr(std::string_view s) {
  const bool has_single = s.find('\'') != std::string_view::npos;
  const bool has_double = s.find('"') != std::string_view::npos;
  const char q = (has_single && !has_double) ? '"' : '\'';
  std::string out(1, q);
  std::size_t skip = 0;
  for (const char& ch : s) {
    if (skip > 0) {
      --skip;
      continue;
    }
    const auto c = static_cast<unsigned char>(ch);
    if (out.size() > 100) break;
    if (ch == q || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch == '\r') {
      out += "\\r";
    } else if (ch == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f || c >= 0x80) {
      // A complete UTF-8 sequence is printable text: kept; a stray byte is escaped, so that
      // the message stays valid UTF-8 (Python decodes it strictly).
      const std::size_t n = Utf8Len(c);
      const std::size_t at = static_cast<std::size_t>(&ch - s.data());
      bool seq = c >= 0xc2 && c <= 0xf4 && n > 1 && at + n <= s.size();
      for (std::size_t k = 1; seq && k < n; ++k) {
        seq = (static_cast<unsigned char>(s[at + k]) & 0xc0) == 0x80;
      }
      if (seq) {
        out.append(s.data() + at, n);
        skip = n - 1;
        continue;
      }
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
    } else {
      out += ch;
    }
  }
  out += q;
  if (out.size() > 100) {
    out.resize(100);
    // Do not end inside a UTF-8 sequence.
    std::size_t k = out.size();
    while (k > 0 && (static_cast<unsigned char>(out[k - 1]) & 0xc0) == 0x80) --k;
    if (k > 0 && static_cast<unsigned char>(out[k - 1]) >= 0xc0 &&
        k - 1 + Utf8Len(static_cast<unsigned char>(out[k - 1])) > out.size()) {
      out.resize(k - 1);
    }
  }
  return out;
}

bool IsOneCodePoint(const std::string& s) {
  return !s.empty() && Utf8Len(static_cast<unsigned char>(s[0])) == s.size();
}

// Physical lines of a text: "\n", "\r\n" or a lone "\r" end a line (universal newlines).
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}
  bool Next(std::string_view* line) {
    if (pos_ >= text_.size()) return false;
    const std::size_t start = pos_;
    std::size_t i = start;
    while (i < text_.size() && text_[i] != '\n' && text_[i] != '\r') ++i;
    *line = text_.substr(start, i - start);
    if (i < text_.size()) {
      if (text_[i] == '\r' && i + 1 < text_.size() && text_[i + 1] == '\n') ++i;
      ++i;
    }
    pos_ = i;
    ++number_;
    return true;
  }
  /*! 1-based number of the line Next() returned last. */
  index_t number() const { return number_; }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  index_t number_ = 0;
};

// One line's fields, as spans of a reused buffer (quoted fields are unescaped into it).
struct Fields {
  std::string buf;
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  void Clear() {
    buf.clear();
    spans.clear();
  }
  std::size_t size() const { return spans.size(); }
  std::string_view operator[](std::size_t i) const {
    return std::string_view(buf).substr(spans[i].first, spans[i].second);
  }
};

bool StartsWith(std::string_view s, std::size_t pos, const std::string& what) {
  return s.size() - pos >= what.size() && s.compare(pos, what.size(), what) == 0;
}

// ------------------------------------------------------------------------------ numbers

enum class Parse { kOk, kBad, kRange };

bool EqualsNoCase(std::string_view s, const char* word) {
  const std::size_t n = std::strlen(word);
  if (s.size() != n) return false;
  for (std::size_t i = 0; i < n; ++i) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != word[i]) return false;
  }
  return true;
}

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

// Sign of the decimal exponent of a finite decimal text that from_chars found out of range:
// > 0 overflow (inf), <= 0 underflow (0). `t` has no sign and is a valid number.
bool DecimalOverflows(std::string_view t) {
  std::int64_t exp = 0;
  const std::size_t e = t.find_first_of("eE");
  if (e != std::string_view::npos) {
    std::size_t i = e + 1;
    bool neg = false;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) neg = t[i++] == '-';
    for (; i < t.size(); ++i) exp = std::min<std::int64_t>(exp * 10 + (t[i] - '0'), 1000000000);
    if (neg) exp = -exp;
  }
  const std::string_view mant = t.substr(0, e == std::string_view::npos ? t.size() : e);
  const std::size_t dot = std::min(mant.find('.'), mant.size());
  const std::size_t first = mant.find_first_of("123456789");
  if (first == std::string_view::npos) return false;
  // Decimal position of the first significant digit: digits before the point, or minus the
  // zeros after it.
  const std::int64_t pos = first < dot ? static_cast<std::int64_t>(dot - first)
                                       : -static_cast<std::int64_t>(first - dot - 1);
  return exp + pos > 0;
}

// numpy.loadtxt's float syntax: surrounding whitespace, a sign, then digits with an optional
// point and exponent, or inf / infinity / nan in any case. Overflow gives +-inf and underflow
// +-0, as strtod.
Parse ParseDoubleText(std::string_view s, double* out) {
  std::string_view t = StripSpace(s);
  bool neg = false;
  if (!t.empty() && (t[0] == '+' || t[0] == '-')) {
    neg = t[0] == '-';
    t.remove_prefix(1);
  }
  if (t.empty()) return Parse::kBad;
  if (!IsDigit(t[0]) && t[0] != '.') {
    if (EqualsNoCase(t, "inf") || EqualsNoCase(t, "infinity")) {
      *out =
          neg ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
      return Parse::kOk;
    }
    if (EqualsNoCase(t, "nan")) {
      *out = std::numeric_limits<double>::quiet_NaN();
      return Parse::kOk;
    }
    return Parse::kBad;
  }
  double v = 0;
  const auto res = std::from_chars(t.data(), t.data() + t.size(), v, std::chars_format::general);
  if (res.ec == std::errc::invalid_argument || res.ptr != t.data() + t.size()) return Parse::kBad;
  if (res.ec == std::errc::result_out_of_range) {
    v = DecimalOverflows(t) ? std::numeric_limits<double>::infinity() : 0.0;
  }
  *out = neg ? -v : v;
  return Parse::kOk;
}

// Decimal integer: surrounding whitespace, optional sign, digits. Magnitude in *mag.
Parse ParseIntegerText(std::string_view s, bool* neg, std::uint64_t* mag) {
  std::string_view t = StripSpace(s);
  *neg = false;
  if (!t.empty() && (t[0] == '+' || t[0] == '-')) {
    *neg = t[0] == '-';
    t.remove_prefix(1);
  }
  if (t.empty() || !IsDigit(t[0])) return Parse::kBad;
  const auto res = std::from_chars(t.data(), t.data() + t.size(), *mag, 10);
  if (res.ptr != t.data() + t.size()) {
    // Junk first: "1e3" and "1.5" are not integers, whatever their size.
    for (const char c : t) {
      if (!IsDigit(c)) return Parse::kBad;
    }
  }
  if (res.ec == std::errc::result_out_of_range) return Parse::kRange;
  if (res.ec != std::errc()) return Parse::kBad;
  return Parse::kOk;
}

// Python's int()/float() also take single underscores between digits ("1_000"); returns the
// text without them, or false when an underscore is misplaced.
bool DropUnderscores(std::string_view s, std::string* out) {
  out->clear();
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '_') {
      if (i == 0 || i + 1 >= s.size() || !IsDigit(s[i - 1]) || !IsDigit(s[i + 1])) return false;
      continue;
    }
    out->push_back(s[i]);
  }
  return true;
}

// Integers into T (bool: nonzero), range-checked.
template <typename T>
Parse IntoInteger(bool neg, std::uint64_t mag, T* out) {
  if constexpr (std::is_same<T, bool>::value) {
    if (mag >
        static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + (neg ? 1 : 0)) {
      return Parse::kRange;
    }
    *out = mag != 0;
  } else if constexpr (std::is_signed<T>::value) {
    const std::uint64_t limit =
        static_cast<std::uint64_t>(std::numeric_limits<T>::max()) + (neg ? 1u : 0u);
    if (mag > limit) return Parse::kRange;
    *out = neg ? static_cast<T>(std::uint64_t{0} - mag) : static_cast<T>(mag);
  } else {
    if (neg && mag != 0) return Parse::kRange;
    if (mag > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) return Parse::kRange;
    *out = static_cast<T>(mag);
  }
  return Parse::kOk;
}

// A double into T: floats round (NumPy parses to double and casts), integers truncate and
// must fit (NaN and inf are errors, as Python's int()).
template <typename T>
Parse FromDouble(double v, T* out) {
  if constexpr (kIsFloating<T>) {
    *out = static_cast<T>(v);
  } else if constexpr (std::is_same<T, bool>::value) {
    *out = v != 0;
  } else {
    if (!std::isfinite(v)) return Parse::kBad;
    const double t = std::trunc(v);
    // Exact bounds: min is a power of two; max + 1 is one.
    const double lo = static_cast<double>(std::numeric_limits<T>::min());
    const double hi_excl = std::ldexp(1.0, std::numeric_limits<T>::digits);
    if (t < lo || t >= hi_excl) return Parse::kRange;
    *out = static_cast<T>(t);
  }
  return Parse::kOk;
}

// loadtxt's reading of one field as T.
template <typename T>
Parse LoadField(std::string_view field, unsigned char* dst) {
  T v{};
  Parse st;
  if constexpr (kIsFloating<T>) {
    double d = 0;
    st = ParseDoubleText(field, &d);
    if (st == Parse::kOk) v = static_cast<T>(d);
  } else {
    bool neg = false;
    std::uint64_t mag = 0;
    st = ParseIntegerText(field, &neg, &mag);
    if (st == Parse::kOk) st = IntoInteger(neg, mag, &v);
  }
  if (st == Parse::kOk) std::memcpy(dst, &v, sizeof(T));
  return st;
}

using FieldFn = Parse (*)(std::string_view, unsigned char*);

FieldFn LoadFieldFor(int flag) {
  return DispatchDType(
      flag, [](auto tag) -> FieldFn { return &LoadField<typename decltype(tag)::type>; });
}

template <typename T>
Parse StoreDouble(double v, unsigned char* dst) {
  T x{};
  const Parse st = FromDouble(v, &x);
  if (st == Parse::kOk) std::memcpy(dst, &x, sizeof(T));
  return st;
}

template <typename T>
Parse StoreInt64(std::int64_t v, unsigned char* dst) {
  T x{};
  Parse st = Parse::kOk;
  if constexpr (kIsFloating<T>) {
    x = static_cast<T>(static_cast<double>(v));
  } else {
    const bool neg = v < 0;
    const std::uint64_t mag =
        neg ? std::uint64_t{0} - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    st = IntoInteger(neg, mag, &x);
  }
  if (st == Parse::kOk) std::memcpy(dst, &x, sizeof(T));
  return st;
}

// ------------------------------------------------------------------------------ shapes

NDArray FromRows(const std::vector<unsigned char>& data, index_t rows, index_t cols, int flag) {
  const index_t dims[2] = {rows, cols};
  NDArray out = NDArray::Empty(IndexSpan(dims, 2), flag);
  if (!data.empty()) std::memcpy(out.raw_mutable_data(), data.data(), data.size());
  return out;
}

// numpy's _ensure_ndmin_ndarray followed by unpack's transpose.
NDArray FinishShape(NDArray a, int ndmin, bool unpack) {
  if (a.dim() > ndmin) a = a.squeeze();
  if (a.dim() < ndmin) {
    if (ndmin == 1) {
      const index_t one[1] = {1};
      a = a.reshape(IndexSpan(one, 1));
    } else {  // atleast_2d(a).T: a 0-d -> (1, 1), (n,) -> (n, 1)
      const index_t dims[2] = {a.dim() == 0 ? 1 : a.size(0), 1};
      a = a.reshape(IndexSpan(dims, 2));
    }
  }
  if (unpack && a.dim() == 2) a = a.transpose(0, 1);
  return a;
}

void CheckNdmin(int ndmin) {
  SHADE_CHECK(ndmin == 0 || ndmin == 1 || ndmin == 2)
      << "Illegal value of ndmin keyword: " << ndmin;
}

std::string ReadWholeFile(const std::string& path) {
  FileStream in(path, "rb");
  std::string text;
  char chunk[1 << 16];
  for (;;) {
    const std::size_t got = in.Read(chunk, sizeof(chunk));
    text.append(chunk, got);
    if (got < sizeof(chunk)) break;
  }
  return text;
}

// ------------------------------------------------------------------------------ loadtxt

void CheckControl(const std::string& value, const char* what) {
  SHADE_CHECK_TYPE(value.empty() || IsOneCodePoint(value))
      << "Text reading control character must be a single unicode character or None; but got: "
      << PyRepr(value) << " (" << what << ")";
  SHADE_CHECK_TYPE(value != "\n" && value != "\r")
      << "control character '" << what << "' cannot be a newline (`\\r` or `\\n`).";
}

// Splits one loadtxt line; false when it holds no data (empty, blanks or a comment).
bool SplitLoadTxtLine(std::string_view line, const LoadTxtOptions& o, Fields* f) {
  f->Clear();
  const bool ws = o.delimiter.empty();
  const std::string& q = o.quotechar;
  auto comment_at = [&](std::size_t i) {
    for (const auto& c : o.comments) {
      if (StartsWith(line, i, c)) return true;
    }
    return false;
  };
  const char* base = line.data();
  const char* end = base + line.size();
  std::size_t i = 0;
  bool any_quote = false;
  auto skip_space = [&]() {
    while (i < line.size()) {
      const std::size_t n = SpaceLen(base + i, end);
      if (n == 0) break;
      i += n;
    }
  };
  if (ws) skip_space();
  for (;;) {
    if (ws && (i >= line.size() || comment_at(i))) break;
    const std::size_t start = f->buf.size();
    bool quoted = false;
    bool line_done = false;
    if (!q.empty() && StartsWith(line, i, q)) {
      quoted = true;
      any_quote = true;
      i += q.size();
    }
    while (i < line.size()) {
      if (quoted) {
        if (StartsWith(line, i, q)) {
          if (StartsWith(line, i + q.size(), q)) {  // "" inside quotes: one quote
            f->buf += q;
            i += 2 * q.size();
          } else {
            quoted = false;
            i += q.size();
          }
          continue;
        }
        f->buf += line[i++];
        continue;
      }
      if (comment_at(i)) {
        line_done = true;
        break;
      }
      if (ws) {
        if (SpaceLen(base + i, end) != 0) break;
      } else if (StartsWith(line, i, o.delimiter)) {
        break;
      }
      f->buf += line[i++];
    }
    f->spans.emplace_back(start, f->buf.size() - start);
    if (line_done || i >= line.size()) break;
    if (ws) {
      skip_space();
    } else {
      i += o.delimiter.size();
      if (i >= line.size()) {  // a delimiter at the end: one more, empty field
        f->spans.emplace_back(f->buf.size(), 0);
        break;
      }
    }
  }
  if (!ws && f->size() == 1 && !any_quote && IsAllSpace((*f)[0])) f->Clear();
  return f->size() > 0;
}

}  // namespace

NDArray LoadTxtFromMemory(std::string_view text, const LoadTxtOptions& o) {
  CheckNdmin(o.ndmin);
  SHADE_CHECK(o.skiprows >= 0) << "argument must be nonnegative (skiprows=" << o.skiprows << ")";
  SHADE_CHECK(!o.max_rows || *o.max_rows >= 0)
      << "argument must be nonnegative (max_rows=" << *o.max_rows << ")";
  CheckControl(o.delimiter, "delimiter");
  CheckControl(o.quotechar, "quotechar");
  for (const auto& c : o.comments) {
    SHADE_CHECK(!c.empty())
        << "comments cannot be an empty string. Use comments=None to disable comments.";
    SHADE_CHECK_TYPE(c.find_first_of("\r\n") == std::string::npos)
        << "comments cannot contain a newline";
    SHADE_CHECK_TYPE(c != o.delimiter && (o.quotechar.empty() || c != o.quotechar))
        << "The values for control characters 'comment' and 'delimiter' are incompatible";
  }
  SHADE_CHECK_TYPE(o.quotechar.empty() || o.quotechar != o.delimiter)
      << "The values for control characters 'quotechar' and 'delimiter' are incompatible";
  const FieldFn load = LoadFieldFor(o.dtype);
  const std::size_t itemsize = TypeFlagSize(o.dtype);
  const char* dtype_name = TypeFlagName(o.dtype);

  LineReader lines(text);
  std::string_view line;
  for (index_t k = 0; k < o.skiprows && lines.Next(&line); ++k) {
  }
  Fields fields;
  std::vector<unsigned char> data;
  std::vector<std::size_t> cols;  // the file columns of this row's values
  index_t rows = 0;
  index_t ncols = -1;
  while ((!o.max_rows || rows < *o.max_rows) && lines.Next(&line)) {
    if (!SplitLoadTxtLine(line, o, &fields)) continue;
    const index_t nf = static_cast<index_t>(fields.size());
    cols.clear();
    if (o.usecols) {
      for (const index_t u : *o.usecols) {
        const index_t c = u < 0 ? u + nf : u;
        SHADE_CHECK(c >= 0 && c < nf)
            << "invalid column index " << u << " at row " << rows + 1 << " with " << nf
            << " columns (input line " << lines.number() << ")";
        cols.push_back(static_cast<std::size_t>(c));
      }
    } else {
      if (ncols < 0) ncols = nf;
      SHADE_CHECK(nf == ncols) << "the number of columns changed from " << ncols << " to " << nf
                               << " at row " << rows + 1
                               << "; use `usecols` to select a subset and avoid this error"
                               << " (input line " << lines.number() << ")";
      for (index_t c = 0; c < nf; ++c) cols.push_back(static_cast<std::size_t>(c));
    }
    const std::size_t at = data.size();
    data.resize(at + cols.size() * itemsize);
    for (std::size_t j = 0; j < cols.size(); ++j) {
      const std::string_view field = fields[cols[j]];
      const Parse st = load(field, data.data() + at + j * itemsize);
      if (st != Parse::kOk) {
        SHADE_THROW << "could not convert string " << PyRepr(field) << " to " << dtype_name
                    << " at row " << rows << ", column " << cols[j] + 1 << "."
                    << (st == Parse::kRange ? " The value is out of range for the dtype." : "")
                    << " (input line " << lines.number() << ")";
      }
    }
    ++rows;
  }
  const index_t out_cols =
      o.usecols ? static_cast<index_t>(o.usecols->size()) : (ncols < 0 ? 1 : ncols);
  return FinishShape(FromRows(data, rows, out_cols, o.dtype), o.ndmin, o.unpack);
}

NDArray LoadTxt(const std::string& path, const LoadTxtOptions& opts) {
  const std::string text = ReadWholeFile(path);
  return LoadTxtFromMemory(text, opts);
}

// ------------------------------------------------------------------------------ genfromtxt

namespace {

// numpy.genfromtxt's LineSplitter: cut at the comment, strip, split. False for no fields.
bool SplitGenLine(std::string_view line, const GenFromTxtOptions& o, Fields* f) {
  f->Clear();
  if (!o.comments.empty()) line = line.substr(0, std::min(line.find(o.comments), line.size()));
  auto strip_chars = [&](const char* chars) {
    const std::size_t b = line.find_first_not_of(chars);
    if (b == std::string_view::npos) {
      line = std::string_view();
      return;
    }
    line = line.substr(b, line.find_last_not_of(chars) - b + 1);
  };
  f->buf.assign(line.data(), line.size());
  if (!o.widths.empty()) {
    strip_chars("\r\n");
    f->buf.assign(line.data(), line.size());
    if (line.empty()) return false;
    if (o.widths.size() == 1) {  // one width repeats over the line
      const std::size_t w = static_cast<std::size_t>(o.widths[0]);
      for (std::size_t i = 0; i < line.size(); i += w) {
        f->spans.emplace_back(i, std::min(w, line.size() - i));
      }
    } else {
      std::size_t at = 0;
      for (const index_t w : o.widths) {
        const std::size_t b = std::min(at, line.size());
        const std::size_t e = std::min(at + static_cast<std::size_t>(w), line.size());
        f->spans.emplace_back(b, e - b);
        at += static_cast<std::size_t>(w);
      }
    }
    return true;
  }
  strip_chars(" \r\n");
  f->buf.assign(line.data(), line.size());
  if (line.empty()) return false;
  if (o.delimiter.empty()) {
    const char* base = f->buf.data();
    const char* end = base + f->buf.size();
    std::size_t i = 0;
    while (i < f->buf.size()) {
      std::size_t n;
      while (i < f->buf.size() && (n = SpaceLen(base + i, end)) != 0) i += n;
      if (i >= f->buf.size()) break;
      const std::size_t start = i;
      while (i < f->buf.size() && SpaceLen(base + i, end) == 0) ++i;
      f->spans.emplace_back(start, i - start);
    }
    return !f->spans.empty();
  }
  std::size_t start = 0;
  for (;;) {
    const std::size_t hit = f->buf.find(o.delimiter, start);
    if (hit == std::string::npos) {
      f->spans.emplace_back(start, f->buf.size() - start);
      break;
    }
    f->spans.emplace_back(start, hit - start);
    start = hit + o.delimiter.size();
  }
  return true;
}

// The rows genfromtxt keeps: each valid line's selected fields, in order.
class GenRows {
 public:
  GenRows(std::string_view text, const GenFromTxtOptions& o) : text_(text), o_(o) {}

  // Restarts at the first line after the header. Returns false when no line has fields.
  bool Start() {
    lines_ = LineReader(text_);
    std::string_view line;
    for (index_t k = 0; k < o_.skip_header && lines_.Next(&line); ++k) {
    }
    // numpy numbers lines from the first one with fields: i + skip_header + 1.
    while (lines_.Next(&line)) {
      if (SplitGenLine(line, o_, &fields_)) {
        first_physical_ = lines_.number();
        pending_first_ = true;
        if (nbcols_ < 0) Setup();
        return true;
      }
    }
    return false;
  }

  // Next line with fields: `*valid` false when its count is wrong (then `*got` says it).
  bool Next(index_t* numpy_line, bool* valid, index_t* got) {
    std::string_view line;
    if (pending_first_) {
      pending_first_ = false;
    } else {
      do {
        if (!lines_.Next(&line)) return false;
      } while (!SplitGenLine(line, o_, &fields_));
    }
    *numpy_line = lines_.number() - first_physical_ + o_.skip_header + 1;
    const index_t nf = static_cast<index_t>(fields_.size());
    *got = nf;
    cols_.clear();
    if (o_.usecols) {
      for (const index_t u : usecols_) {
        const index_t c = u < 0 ? u + nf : u;
        if (c < 0 || c >= nf) {
          *valid = false;
          return true;
        }
        cols_.push_back(static_cast<std::size_t>(c));
      }
    } else {
      if (nf != nbcols_) {
        *valid = false;
        return true;
      }
      for (index_t c = 0; c < nf; ++c) cols_.push_back(static_cast<std::size_t>(c));
    }
    *valid = true;
    return true;
  }

  index_t nbcols() const { return nbcols_; }
  std::string_view value(std::size_t j) const { return fields_[cols_[j]]; }
  index_t physical_line() const { return lines_.number(); }
  std::size_t file_column(std::size_t j) const { return cols_[j]; }

 private:
  void Setup() {
    const index_t first = static_cast<index_t>(fields_.size());
    if (o_.usecols) {
      usecols_ = *o_.usecols;
      for (index_t& u : usecols_) {
        if (u < 0) u += first;
      }
      nbcols_ = static_cast<index_t>(usecols_.size());
    } else {
      nbcols_ = first;
    }
  }

  std::string_view text_;
  const GenFromTxtOptions& o_;
  LineReader lines_{std::string_view()};
  Fields fields_;
  std::vector<std::size_t> cols_;
  std::vector<index_t> usecols_;
  index_t nbcols_ = -1;
  index_t first_physical_ = 0;
  bool pending_first_ = false;
};

// Python's float() of a field (whitespace, underscores between digits, inf/nan words).
Parse PyFloat(std::string_view s, std::string* scratch, double* out) {
  const std::string_view t = StripSpace(s);
  if (t.find('_') == std::string_view::npos) return ParseDoubleText(t, out);
  if (!DropUnderscores(t, scratch)) return Parse::kBad;
  return ParseDoubleText(*scratch, out);
}

// Python's int() of a field, then int64's range (numpy builds the array with int64).
Parse PyInt(std::string_view s, std::string* scratch, bool* neg, std::uint64_t* mag) {
  const std::string_view t = StripSpace(s);
  if (t.find('_') == std::string_view::npos) return ParseIntegerText(t, neg, mag);
  if (!DropUnderscores(t, scratch)) return Parse::kBad;
  return ParseIntegerText(*scratch, neg, mag);
}

// numpy's str2bool: exactly "TRUE" or "FALSE" in any case, no stripping.
Parse PyBool(std::string_view s, bool* out) {
  if (EqualsNoCase(s, "true")) {
    *out = true;
    return Parse::kOk;
  }
  if (EqualsNoCase(s, "false")) {
    *out = false;
    return Parse::kOk;
  }
  return Parse::kBad;
}

// Column kinds of dtype inference, in upgrade order.
enum ColKind { kColBool = 0, kColInt = 1, kColFloat = 2 };

bool FitsInt64(bool neg, std::uint64_t mag) {
  return mag <=
         static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + (neg ? 1 : 0);
}

// Whether `v` reads as a value of `kind` (inference: strict, as numpy's _strict_call).
bool ReadsAs(int kind, std::string_view v, std::string* scratch) {
  if (kind == kColBool) {
    bool b;
    return PyBool(v, &b) == Parse::kOk;
  }
  if (kind == kColInt) {
    bool neg;
    std::uint64_t mag;
    return PyInt(v, scratch, &neg, &mag) == Parse::kOk && FitsInt64(neg, mag);
  }
  double d;
  return PyFloat(v, scratch, &d) == Parse::kOk;
}

std::string DtypeOfKind(int kind) {
  return kind == kColBool ? "bool" : kind == kColInt ? "int64" : "float64";
}

}  // namespace

NDArray GenFromTxtFromMemory(std::string_view text, const GenFromTxtOptions& o,
                             std::string* dropped) {
  if (dropped != nullptr) dropped->clear();
  CheckNdmin(o.ndmin);
  SHADE_CHECK(!(o.max_rows && o.skip_footer != 0))
      << "The keywords 'skip_footer' and 'max_rows' can not be specified at the same time.";
  SHADE_CHECK(!o.max_rows || *o.max_rows >= 1) << "'max_rows' must be at least 1.";
  for (const index_t w : o.widths) {
    SHADE_CHECK(w > 0) << "genfromtxt: field widths must be positive (got " << w << ")";
  }
  const bool infer = o.dtype < 0;
  if (!infer) (void)TypeFlagName(o.dtype);  // throws for an unknown flag

  GenRows rows(text, o);
  if (!rows.Start()) {
    return FinishShape(FromRows({}, 0, 1, infer ? kFloat64 : o.dtype).reshape({0}), o.ndmin,
                       o.unpack);
  }
  const index_t nbcols = rows.nbcols();
  // Pass 1: count the valid rows, list the invalid ones (numpy's "Some errors" check).
  index_t valid_count = 0;
  std::vector<std::pair<index_t, index_t>> invalid;  // (numpy line, fields)
  {
    index_t ln = 0, got = 0;
    bool valid = false;
    while ((!o.max_rows || valid_count < *o.max_rows) && rows.Next(&ln, &valid, &got)) {
      if (valid) {
        ++valid_count;
      } else {
        invalid.emplace_back(ln, got);
      }
    }
  }
  index_t skip_footer = o.skip_footer;
  if (!invalid.empty()) {
    const index_t nbrows = valid_count + static_cast<index_t>(invalid.size()) - skip_footer;
    if (skip_footer > 0) {
      const auto skipped = std::count_if(invalid.begin(), invalid.end(), [&](const auto& e) {
        return e.first > nbrows + o.skip_header;
      });
      invalid.resize(invalid.size() - static_cast<std::size_t>(skipped));
      skip_footer -= static_cast<index_t>(skipped);
    }
    if (!invalid.empty()) {
      // numpy lists every line; a hostile file could have millions, so the list stops at 100.
      std::ostringstream msg;
      msg << "Some errors were detected !";
      const std::size_t shown = std::min<std::size_t>(invalid.size(), 100);
      for (std::size_t k = 0; k < shown; ++k) {
        msg << "\n    Line #" << invalid[k].first << " (got " << invalid[k].second
            << " columns instead of " << nbcols << ")";
      }
      if (shown < invalid.size()) msg << "\n    ... and " << invalid.size() - shown << " more";
      SHADE_CHECK(!o.invalid_raise) << msg.str();
      if (dropped != nullptr) *dropped = msg.str();
    }
  }
  const index_t kept =
      skip_footer > 0 ? std::max<index_t>(valid_count - skip_footer, 0) : valid_count;

  // Per output column: missing strings and filling value.
  std::vector<std::vector<std::string>> missing(static_cast<std::size_t>(nbcols));
  std::vector<std::optional<double>> fill(static_cast<std::size_t>(nbcols), o.filling_value);
  auto position = [&](index_t p) { return p < 0 ? p + nbcols : p; };
  for (auto& m : missing) {
    m.push_back("");
    m.insert(m.end(), o.missing_values.begin(), o.missing_values.end());
  }
  for (const auto& kv : o.missing_by_column) {
    const index_t p = position(kv.first);
    if (p >= 0 && p < nbcols) {
      auto& m = missing[static_cast<std::size_t>(p)];
      m.insert(m.end(), kv.second.begin(), kv.second.end());
    }
  }
  for (const auto& kv : o.filling_by_column) {
    const index_t p = position(kv.first);
    if (p >= 0 && p < nbcols) fill[static_cast<std::size_t>(p)] = kv.second;
  }
  auto is_missing = [&](std::size_t j, std::string_view v) {
    const std::string_view t = StripSpace(v);
    for (const auto& m : missing[j]) {
      if (t == m) return true;
    }
    return false;
  };

  std::string scratch;
  // Column kinds: the dtype's, or inferred from the kept rows (pass 2).
  std::vector<int> kind(static_cast<std::size_t>(nbcols), kColBool);
  int out_flag = o.dtype;
  if (infer) {
    if (rows.Start()) {
      index_t ln = 0, got = 0, seen = 0;
      bool valid = false;
      while (seen < kept && rows.Next(&ln, &valid, &got)) {
        if (!valid) continue;
        ++seen;
        for (std::size_t j = 0; j < kind.size(); ++j) {
          const std::string_view v = rows.value(j);
          if (is_missing(j, v)) continue;
          while (kind[j] <= kColFloat && !ReadsAs(kind[j], v, &scratch)) ++kind[j];
          SHADE_CHECK_NOT_IMPLEMENTED(kind[j] <= kColFloat)
              << "genfromtxt: the value " << PyRepr(v) << " at line " << rows.physical_line()
              << ", column " << rows.file_column(j) + 1
              << " is not a number; dtype=None infers bool, int64 or float64 columns only "
                 "(shade has no string or structured dtypes)";
        }
      }
    }
    const int top = kind.empty() ? kColFloat : *std::max_element(kind.begin(), kind.end());
    out_flag = top == kColBool ? kBool : top == kColInt ? kInt64 : kFloat64;
  } else {
    const int k =
        o.dtype == kBool ? kColBool
        : DispatchDType(o.dtype, [](auto tag) { return kIsFloating<typename decltype(tag)::type>; })
            ? kColFloat
            : kColInt;
    std::fill(kind.begin(), kind.end(), k);
  }

  using DoubleFn = Parse (*)(double, unsigned char*);
  using IntFn = Parse (*)(std::int64_t, unsigned char*);
  const DoubleFn store_double = DispatchDType(
      out_flag, [](auto tag) -> DoubleFn { return &StoreDouble<typename decltype(tag)::type>; });
  const IntFn store_int = DispatchDType(
      out_flag, [](auto tag) -> IntFn { return &StoreInt64<typename decltype(tag)::type>; });
  // Integer columns are read through int64 (numpy's int), then narrowed with a range check;
  // uint64 columns read the full unsigned range.
  const FieldFn load_exact = out_flag == kUint64 ? LoadFieldFor(kUint64) : nullptr;
  const std::size_t itemsize = TypeFlagSize(out_flag);
  const char* dtype_name = TypeFlagName(out_flag);

  std::vector<unsigned char> data;
  index_t out_rows = 0;
  if (kept > 0 && rows.Start()) {
    index_t ln = 0, got = 0;
    bool valid = false;
    while (out_rows < kept && rows.Next(&ln, &valid, &got)) {
      if (!valid) continue;
      const std::size_t at = data.size();
      data.resize(at + static_cast<std::size_t>(nbcols) * itemsize);
      for (std::size_t j = 0; j < kind.size(); ++j) {
        const std::string_view v = rows.value(j);
        unsigned char* dst = data.data() + at + j * itemsize;
        auto where = [&](std::ostream& os) -> std::ostream& {
          return os << " at line " << rows.physical_line() << ", column "
                    << rows.file_column(j) + 1;
        };
        Parse st = Parse::kBad;
        if (kind[j] == kColBool) {
          bool b = false;
          st = PyBool(v, &b);
          if (st == Parse::kOk) st = store_int(b ? 1 : 0, dst);
        } else if (kind[j] == kColInt) {
          bool neg = false;
          std::uint64_t mag = 0;
          st = PyInt(v, &scratch, &neg, &mag);
          if (st == Parse::kOk && load_exact != nullptr) {
            st = load_exact(neg ? "-" + std::to_string(mag) : std::to_string(mag), dst);
          } else if (st == Parse::kOk) {
            st = FitsInt64(neg, mag)
                     ? store_int(neg ? static_cast<std::int64_t>(std::uint64_t{0} - mag)
                                     : static_cast<std::int64_t>(mag),
                                 dst)
                     : Parse::kRange;
          }
        } else {
          double d = 0;
          st = PyFloat(v, &scratch, &d);
          if (st == Parse::kOk) st = store_double(d, dst);
        }
        if (st == Parse::kRange) {
          std::ostringstream os;
          where(os << "genfromtxt: the value " << PyRepr(v))
              << " is out of range for " << dtype_name;
          SHADE_THROW << os.str();
        }
        if (st == Parse::kOk) continue;
        if (!o.loose && !is_missing(j, v)) {
          std::ostringstream os;
          where(os << "could not convert string " << PyRepr(v) << " to " << DtypeOfKind(kind[j]));
          SHADE_THROW << os.str() << " (genfromtxt with loose=False)";
        }
        // Missing or unreadable: the column's filling value, else the kind's default.
        const std::optional<double>& f = fill[j];
        if (f) {
          const Parse fs = store_double(*f, dst);
          if (fs != Parse::kOk) {
            std::ostringstream os;
            where(os << "genfromtxt: the filling value " << *f);
            SHADE_THROW << os.str() << " does not convert to " << dtype_name
                        << (std::isnan(*f)   ? " (cannot convert float NaN to integer)"
                            : std::isinf(*f) ? " (cannot convert float infinity to integer)"
                                             : " (out of range)");
          }
        } else if (kind[j] == kColFloat) {
          store_double(std::numeric_limits<double>::quiet_NaN(), dst);
        } else {
          store_int(kind[j] == kColInt ? -1 : 0, dst);
        }
      }
      ++out_rows;
    }
  }
  if (out_rows == 0) {
    return FinishShape(FromRows({}, 0, 1, out_flag).reshape({0}), o.ndmin, o.unpack);
  }
  return FinishShape(FromRows(data, out_rows, nbcols, out_flag), o.ndmin, o.unpack);
}

NDArray GenFromTxt(const std::string& path, const GenFromTxtOptions& opts,
                   std::string* dropped_rows_message) {
  const std::string text = ReadWholeFile(path);
  return GenFromTxtFromMemory(text, opts, dropped_rows_message);
}

// ------------------------------------------------------------------------------ savetxt

namespace {

// One % directive of a row format, with the literal text before it.
struct Directive {
  std::string before;
  bool minus = false, plus = false, space = false, alt = false, zero = false;
  int width = -1;
  int prec = -1;
  char conv = 0;
};

struct RowFormat {
  std::vector<Directive> dirs;
  std::string tail;
  std::string text;  // the whole format (messages)
};

constexpr int kMaxWidth = 4096;

// Parses Python %-format text. Unsupported directives are refused before anything is printed.
RowFormat ParseRowFormat(const std::string& fmt) {
  RowFormat rf;
  rf.text = fmt;
  std::string lit;
  std::size_t i = 0;
  while (i < fmt.size()) {
    if (fmt[i] != '%') {
      lit += fmt[i++];
      continue;
    }
    const std::size_t at = i++;
    if (i < fmt.size() && fmt[i] == '%') {
      lit += '%';
      ++i;
      continue;
    }
    Directive d;
    SHADE_CHECK_TYPE(i >= fmt.size() || fmt[i] != '(')
        << "savetxt: mapping keys (" << PyRepr(fmt.substr(at)) << ") are not supported";
    for (; i < fmt.size(); ++i) {
      const char c = fmt[i];
      if (c == '-') {
        d.minus = true;
      } else if (c == '+') {
        d.plus = true;
      } else if (c == ' ') {
        d.space = true;
      } else if (c == '#') {
        d.alt = true;
      } else if (c == '0') {
        d.zero = true;
      } else {
        break;
      }
    }
    auto number = [&](const char* what) {
      SHADE_CHECK(i >= fmt.size() || fmt[i] != '*')
          << "savetxt: '*' " << what << " in the format " << PyRepr(fmt) << " is not supported";
      int v = 0;
      while (i < fmt.size() && IsDigit(fmt[i])) {
        v = v * 10 + (fmt[i++] - '0');
        SHADE_CHECK(v <= kMaxWidth) << "savetxt: the " << what << " in the format " << PyRepr(fmt)
                                    << " is larger than " << kMaxWidth;
      }
      return v;
    };
    if (i < fmt.size() && (IsDigit(fmt[i]) || fmt[i] == '*')) d.width = number("width");
    if (i < fmt.size() && fmt[i] == '.') {
      ++i;
      d.prec = number("precision");
    }
    while (i < fmt.size() && (fmt[i] == 'h' || fmt[i] == 'l' || fmt[i] == 'L')) ++i;
    SHADE_CHECK(i < fmt.size()) << "incomplete format " << PyRepr(fmt);
    const char c = fmt[i];
    SHADE_CHECK(std::strchr("diouxXeEfFgGsra", c) != nullptr && c != '\0')
        << "unsupported format character " << PyRepr(std::string(1, c)) << " (0x" << std::hex
        << static_cast<int>(static_cast<unsigned char>(c)) << std::dec << ") at index " << i
        << " of " << PyRepr(fmt) << " (savetxt formats: d i u o x X e E f F g G s r a and %%)";
    d.conv = c;
    ++i;
    d.before = std::move(lit);
    lit.clear();
    rf.dirs.push_back(std::move(d));
  }
  rf.tail = std::move(lit);
  return rf;
}

void Pad(const Directive& d, const std::string& sign, const std::string& body, bool zero_ok,
         std::string* out) {
  const std::size_t len = sign.size() + body.size();
  const std::size_t w = d.width > 0 ? static_cast<std::size_t>(d.width) : 0;
  if (len >= w) {
    *out += sign;
    *out += body;
  } else if (d.minus) {
    *out += sign;
    *out += body;
    out->append(w - len, ' ');
  } else if (d.zero && zero_ok) {
    *out += sign;
    out->append(w - len, '0');
    *out += body;
  } else {
    out->append(w - len, ' ');
    *out += sign;
    *out += body;
  }
}

std::string SignText(const Directive& d, bool neg) {
  return neg ? "-" : d.plus ? "+" : d.space ? " " : "";
}

// %d %i %u %o %x %X of an integer given as sign and magnitude (or its decimal digits).
void FormatInt(const Directive& d, bool neg, std::uint64_t mag, const std::string* digits,
               std::string* out) {
  std::string body;
  if (digits != nullptr) {
    body = *digits;
  } else {
    const int base = d.conv == 'o' ? 8 : (d.conv == 'x' || d.conv == 'X') ? 16 : 10;
    char buf[72];
    auto res = std::to_chars(buf, buf + sizeof(buf), mag, base);
    body.assign(buf, res.ptr);
    if (d.conv == 'X') {
      for (char& c : body) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
  }
  if (d.prec > 0 && body.size() < static_cast<std::size_t>(d.prec)) {
    body.insert(0, static_cast<std::size_t>(d.prec) - body.size(), '0');
  }
  std::string sign = SignText(d, neg);
  if (d.alt && d.conv == 'o') sign += "0o";
  if (d.alt && (d.conv == 'x' || d.conv == 'X')) sign += d.conv == 'x' ? "0x" : "0X";
  Pad(d, sign, body, true, out);
}

void FormatFloat(const Directive& d, double v, std::string* out) {
  const bool upper = d.conv == 'E' || d.conv == 'F' || d.conv == 'G';
  if (std::isnan(v) || std::isinf(v)) {
    // Python prints nan without a sign, and pads inf/nan with zeros under the 0 flag.
    const std::string body = std::isnan(v) ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
    Pad(d, SignText(d, std::isinf(v) && v < 0), body, true, out);
    return;
  }
  // The directive rebuilt from its parsed parts: only flags, digits and one conversion letter.
  std::string spec = "%";
  if (d.minus) spec += '-';
  if (d.plus) spec += '+';
  if (d.space) spec += ' ';
  if (d.alt) spec += '#';
  if (d.zero) spec += '0';
  if (d.width >= 0) spec += std::to_string(d.width);
  spec += '.';
  spec += std::to_string(d.prec >= 0 ? d.prec : 6);
  spec += d.conv;
  const int n = std::snprintf(nullptr, 0, spec.c_str(), v);
  SHADE_CHECK(n >= 0) << "savetxt: cannot format " << v << " with " << spec;
  std::string buf(static_cast<std::size_t>(n) + 1, '\0');
  std::snprintf(&buf[0], buf.size(), spec.c_str(), v);
  buf.resize(static_cast<std::size_t>(n));
  *out += buf;
}

// str() of a NumPy float scalar: the shortest digits that read back to the value in its own
// dtype, positional for 1e-4 <= |v| < 1e16 (with ".0" when integral), else scientific.
std::string FloatRepr(double v, int flag) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  std::string sci;
  if (flag == kFloat64) {
    sci.assign(buf, std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific).ptr);
  } else if (flag == kFloat32) {
    const float f = static_cast<float>(v);
    sci.assign(buf, std::to_chars(buf, buf + sizeof(buf), f, std::chars_format::scientific).ptr);
  } else {  // float16 / bfloat16: fewest digits that round-trip through the 16-bit type
    for (int p = 0; p < 17; ++p) {
      std::snprintf(buf, sizeof(buf), "%.*e", p, v);
      const double back = std::strtod(buf, nullptr);
      const bool same =
          flag == kFloat16
              ? static_cast<float>(half_t(static_cast<float>(back))) == static_cast<float>(v)
              : static_cast<float>(bf16_t(static_cast<float>(back))) == static_cast<float>(v);
      if (same) break;
    }
    sci = buf;
  }
  // sci: [-]d[.ddd]e[+-]XX
  bool neg = false;
  if (sci[0] == '-') {
    neg = true;
    sci.erase(0, 1);
  }
  const std::size_t e = sci.find('e');
  std::string digits = sci.substr(0, e);
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const int exp = std::atoi(sci.c_str() + e + 1);
  const double a = std::fabs(v);
  std::string out = neg ? "-" : "";
  if (a == 0 || (a >= 1e-4 && a < 1e16)) {
    if (exp >= 0) {
      std::string ip = digits.substr(0, std::min<std::size_t>(digits.size(), exp + 1));
      ip.append(static_cast<std::size_t>(exp + 1) - ip.size(), '0');
      std::string fp =
          digits.size() > static_cast<std::size_t>(exp + 1) ? digits.substr(exp + 1) : "0";
      out += ip + "." + fp;
    } else {
      out += "0." + std::string(static_cast<std::size_t>(-exp - 1), '0') + digits;
    }
  } else {
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char eb[16];
    std::snprintf(eb, sizeof(eb), "e%c%02d", exp < 0 ? '-' : '+', std::abs(exp));
    out += eb;
  }
  return out;
}

// One element, in the category % formatting sees: Python int, bool or float.
struct Cell {
  bool is_float = false;
  bool is_bool = false;
  bool neg = false;
  std::uint64_t mag = 0;
  double d = 0;
};

template <typename T>
Cell MakeCell(const unsigned char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  Cell c;
  if constexpr (kIsFloating<T>) {
    c.is_float = true;
    c.d = static_cast<double>(static_cast<std::conditional_t<kIsFloat16<T>, float, T>>(v));
  } else if constexpr (std::is_same<T, bool>::value) {
    c.is_bool = true;
    c.mag = v ? 1 : 0;
  } else if constexpr (std::is_signed<T>::value) {
    c.neg = v < 0;
    c.mag =
        c.neg ? std::uint64_t{0} - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  } else {
    c.mag = static_cast<std::uint64_t>(v);
  }
  return c;
}

using CellFn = Cell (*)(const unsigned char*);

void FormatCell(const Directive& d, const Cell& c, int flag, const RowFormat& rf,
                std::string* out) {
  const char k = d.conv;
  if (k == 's' || k == 'r' || k == 'a') {  // str() and repr() of a NumPy number agree
    std::string s;
    if (c.is_float) {
      s = FloatRepr(c.d, flag);
    } else if (c.is_bool) {
      s = c.mag ? "True" : "False";
    } else {
      s = (c.neg ? "-" : "") + std::to_string(c.mag);
    }
    if (d.prec >= 0 && s.size() > static_cast<std::size_t>(d.prec)) {
      s.resize(static_cast<std::size_t>(d.prec));
    }
    Pad(d, "", s, false, out);
    return;
  }
  if (k == 'e' || k == 'E' || k == 'f' || k == 'F' || k == 'g' || k == 'G') {
    double v = c.d;
    if (!c.is_float) v = c.neg ? -static_cast<double>(c.mag) : static_cast<double>(c.mag);
    FormatFloat(d, v, out);
    return;
  }
  if (!c.is_float) {
    FormatInt(d, c.neg, c.mag, nullptr, out);
    return;
  }
  // An integer directive of a float: int() of it for d/i/u, a type error for o/x/X.
  SHADE_CHECK_TYPE(k == 'd' || k == 'i' || k == 'u')
      << "Mismatch between array dtype ('" << TypeFlagName(flag) << "') and format specifier ("
      << PyRepr(rf.text) << ")";
  SHADE_CHECK(!std::isnan(c.d)) << "cannot convert float NaN to integer";
  SHADE_CHECK(!std::isinf(c.d)) << "cannot convert float infinity to integer";
  const double t = std::trunc(c.d);
  const double a = std::fabs(t);
  if (a < 18446744073709551616.0) {
    FormatInt(d, t < 0, static_cast<std::uint64_t>(a), nullptr, out);
  } else {
    char buf[400];
    std::snprintf(buf, sizeof(buf), "%.0f", a);  // exact: a is an integer
    const std::string digits(buf);
    FormatInt(d, t < 0, 0, &digits, out);
  }
}

// numpy.savetxt's choice of the row format from fmt and the column count.
RowFormat MakeRowFormat(const SaveTxtOptions& o, index_t ncol, int flag) {
  std::string row;
  if (o.fmt_is_sequence) {
    if (static_cast<index_t>(o.fmt.size()) != ncol) {
      std::string listed = "[";
      for (std::size_t k = 0; k < o.fmt.size(); ++k) listed += (k ? ", " : "") + PyRepr(o.fmt[k]);
      SHADE_THROW << "fmt has wrong shape.  " << listed << "]";
    }
    for (std::size_t k = 0; k < o.fmt.size(); ++k) row += (k ? o.delimiter : "") + o.fmt[k];
  } else {
    SHADE_CHECK_EQ(o.fmt.size(), 1u) << "savetxt: a str fmt is one string";
    const std::string& f = o.fmt[0];
    const index_t n = static_cast<index_t>(std::count(f.begin(), f.end(), '%'));
    if (n == 1) {
      for (index_t k = 0; k < ncol; ++k) row += (k ? o.delimiter : "") + f;
    } else {
      SHADE_CHECK(n == ncol) << "fmt has wrong number of % formats:  " << f;
      row = f;
    }
  }
  RowFormat rf = ParseRowFormat(row);
  SHADE_CHECK_TYPE(static_cast<index_t>(rf.dirs.size()) == ncol)
      << "Mismatch between array dtype ('" << TypeFlagName(flag) << "') and format specifier ("
      << PyRepr(row) << "): " << rf.dirs.size() << " directives for " << ncol << " columns";
  return rf;
}

std::string CommentBlock(const std::string& text, const SaveTxtOptions& o) {
  std::string out = o.comments;
  for (const char c : text) {
    out += c;
    if (c == '\n') out += o.comments;
  }
  return out + o.newline;
}

void WriteTxt(const NDArray& array, const SaveTxtOptions& o,
              const std::function<void(const std::string&)>& sink) {
  SHADE_CHECK(array.dim() == 1 || array.dim() == 2)
      << "Expected 1D or 2D array, got " << array.dim() << "D array instead";
  const NDArray x = array.contiguous();
  const index_t nrow = x.size(0);
  const index_t ncol = x.dim() == 2 ? x.size(1) : 1;
  const int flag = x.type_flag();
  const RowFormat rf = MakeRowFormat(o, ncol, flag);
  const CellFn cell = DispatchDType(
      flag, [](auto tag) -> CellFn { return &MakeCell<typename decltype(tag)::type>; });
  const std::size_t itemsize = x.itemsize();
  const auto* p = static_cast<const unsigned char*>(x.raw_data());
  if (!o.header.empty()) sink(CommentBlock(o.header, o));
  std::string line;
  for (index_t r = 0; r < nrow; ++r) {
    line.clear();
    for (index_t c = 0; c < ncol; ++c) {
      const Directive& d = rf.dirs[static_cast<std::size_t>(c)];
      line += d.before;
      FormatCell(d, cell(p + static_cast<std::size_t>(r * ncol + c) * itemsize), flag, rf, &line);
    }
    line += rf.tail;
    line += o.newline;
    sink(line);
  }
  if (!o.footer.empty()) sink(CommentBlock(o.footer, o));
}

}  // namespace

std::string FormatTxt(const NDArray& array, const SaveTxtOptions& opts) {
  std::string out;
  WriteTxt(array, opts, [&](const std::string& s) { out += s; });
  return out;
}

void SaveTxt(const std::string& path, const NDArray& array, const SaveTxtOptions& opts) {
  WriteFileAtomically(path, [&](Stream* strm) {
    WriteTxt(array, opts, [&](const std::string& s) { strm->Write(s.data(), s.size()); });
  });
}

}  // namespace io
}  // namespace shade
