// .npy reading and writing. The header parser is hand-written: a .npy file is hostile input,
// and NumPy's own loader runs a Python literal evaluator on it; this one accepts the headers
// NumPy 1.24 accepts (for the dtypes shade has) with bounded work and no recursion beyond 64.
#include "shade/io/npy.h"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <type_traits>
#include <vector>

#include "shade/base/checked.h"
#include "shade/base/device.h"
#include "shade/base/error.h"
#include "shade/io/atomic_file.h"
#include "shade/io/ndarray_io.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "shade's .npy code assumes a little-endian host");

namespace shade {
namespace io {

namespace {

const char kMagic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

// NumPy kind letter of a shade dtype: b(ool), i(nt), u(int), f(loat), c(omplex); 0 when NumPy
// has none.
char NpyKind(int type_flag) {
  return DispatchDTypeWithComplex(type_flag, [](auto tag) -> char {
    using T = typename decltype(tag)::type;
    if (kIsComplex<T>) return 'c';
    if (std::is_same<T, bool>::value) return 'b';
    if (std::is_same<T, bf16_t>::value) return 0;
    if (kIsFloating<T>) return 'f';
    if (std::is_signed<T>::value) return 'i';
    return 'u';
  });
}

// The shade flag of NumPy kind + itemsize, or -1.
int FlagOfKind(char kind, std::size_t size) {
  for (int f = 0; f < kNumTypeFlags; ++f) {
    if (NpyKind(f) == kind && TypeFlagSize(f) == size) return f;
  }
  return -1;
}

// NumPy 1.24 evaluates the header with ast.literal_eval (after dropping Python 2's long suffix
// `L` for versions 1.0 and 2.0), then checks it: a dict with exactly the keys descr,
// fortran_order and shape, shape a tuple of ints, fortran_order a bool, descr a dtype string.
// This parser accepts the same Python literal syntax (strings with prefixes, escapes,
// triple quotes and implicit concatenation; ints in any base with underscores and a sign;
// tuples, parentheses, lists, None, floats; comments and line continuations) into a small
// value tree, then applies NumPy's checks. What it cannot evaluate (\N{...} escapes, sets,
// nested dicts, complex literals) is refused with a message.
struct PyValue {
  enum Kind { kStr, kBytes, kInt, kBool, kNone, kTuple, kList, kFloat, kDict };
  Kind kind = kNone;
  std::string str;             // kStr / kBytes (code points >= 0x80 become '\x80')
  index_t num = 0;             // kInt (valid when !overflow)
  bool overflow = false;       // kInt beyond int64
  bool flag = false;           // kBool
  std::vector<PyValue> items;  // kTuple / kList; kDict: key, value, key, value, ...
};

// Cursor over the dict text; every failure names the source and the byte offset.
class DictParser {
 public:
  DictParser(const char* text, std::size_t len, const std::string& name, int major_version)
      : p_(text), len_(len), name_(name), long_suffix_(major_version <= 2) {}

  NpyHeader Parse() {
    if (std::memchr(p_, '\0', len_) != nullptr) {
      pos_ = static_cast<std::size_t>(static_cast<const char*>(std::memchr(p_, '\0', len_)) - p_);
      Throw("a null byte in the header");
    }
    // literal_eval strips leading spaces and tabs; the rest is one Python expression, which
    // blank lines and comments may precede and follow.
    SkipSpace(/*leading=*/true);
    const PyValue d = ParseValue();
    SkipSpace();
    if (pos_ != len_) Throw("unexpected text after the header dict");
    if (d.kind != PyValue::kDict) Throw("the header must be a dict");
    // Later duplicates win, as in a Python dict.
    const PyValue* descr = nullptr;
    const PyValue* fortran = nullptr;
    const PyValue* shape = nullptr;
    for (std::size_t i = 0; i < d.items.size(); i += 2) {
      const PyValue& k = d.items[i];
      const PyValue* v = &d.items[i + 1];
      if (k.kind == PyValue::kStr && k.str == "descr") {
        descr = v;
      } else if (k.kind == PyValue::kStr && k.str == "fortran_order") {
        fortran = v;
      } else if (k.kind == PyValue::kStr && k.str == "shape") {
        shape = v;
      } else {
        Throw(k.kind == PyValue::kStr
                  ? "unknown key '" + k.str + "' (only descr, fortran_order, shape are allowed)"
                  : std::string("a key that is not a string"));
      }
    }
    if (!descr) Throw("missing key 'descr'");
    if (!fortran) Throw("missing key 'fortran_order'");
    if (!shape) Throw("missing key 'shape'");
    NpyHeader h;
    if (descr->kind != PyValue::kStr)
      Throw("descr is not a dtype string (structured and subarray dtypes are not supported)");
    SetDescr(descr->str, &h);
    if (fortran->kind != PyValue::kBool) Throw("fortran_order must be True or False");
    h.fortran_order = fortran->flag;
    h.shape = MakeShape(*shape);
    return h;
  }

 private:
  // Bounds the recursion on hostile input such as "((((((...".
  static constexpr int kMaxDepth = 64;

  char Peek(std::size_t ahead = 0) const { return pos_ + ahead < len_ ? p_[pos_ + ahead] : '\0'; }
  [[noreturn]] void Throw(const std::string& why) const {
    SHADE_THROW << name_ << ": invalid .npy header: " << why << " (at byte " << pos_
                << " of the header dict)";
  }
  static bool IsIdent(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }
  // Whitespace, comments and backslash-newline continuations; newlines only count as
  // whitespace inside brackets (depth_ > 0) or at the very end.
  void SkipSpace(bool leading = false) {
    while (pos_ < len_) {
      const char c = p_[pos_];
      if (c == ' ' || c == '\t' || c == '\f') {
        ++pos_;
      } else if (c == '\n' || c == '\r') {
        if (depth_ == 0 && !leading) {
          // A newline ends the expression: only blank lines and comments may follow.
          std::size_t q = pos_;
          bool blank = true;
          while (q < len_ && blank) {
            if (p_[q] == '#') {
              while (q < len_ && p_[q] != '\n' && p_[q] != '\r') ++q;
            } else if (p_[q] == ' ' || p_[q] == '\t' || p_[q] == '\f' || p_[q] == '\n' ||
                       p_[q] == '\r') {
              ++q;
            } else {
              blank = false;
            }
          }
          if (!blank) Throw("a newline outside brackets ends the header expression");
          pos_ = len_;
          return;
        }
        ++pos_;
      } else if (c == '#') {
        while (pos_ < len_ && p_[pos_] != '\n' && p_[pos_] != '\r') {
          if (p_[pos_] == '\0') Throw("a null byte in the header");
          ++pos_;
        }
      } else if (c == '\\' && (Peek(1) == '\n' || (Peek(1) == '\r' && Peek(2) == '\n'))) {
        pos_ += Peek(1) == '\n' ? 2 : 3;
      } else {
        return;
      }
    }
  }
  void Expect(char c, const char* why) {
    if (Peek() != c || pos_ >= len_) Throw(why);
    ++pos_;
  }

  PyValue ParseValue() {
    if (++depth_ > kMaxDepth) Throw("the header nests brackets too deeply");
    PyValue v = ParseValueAt();
    --depth_;
    return v;
  }

  PyValue ParseValueAt() {
    const char c = Peek();
    if (c == '{') return ParseDict();
    if (c == '(' || c == '[') return ParseSequence(c);
    if (c == '\'' || c == '"') return ParseStrings();
    if ((c == 'r' || c == 'R' || c == 'u' || c == 'U' || c == 'b' || c == 'B') &&
        (Peek(1) == '\'' || Peek(1) == '"' ||
         ((Peek(1) == 'r' || Peek(1) == 'R' || Peek(1) == 'b' || Peek(1) == 'B') &&
          (Peek(2) == '\'' || Peek(2) == '"')))) {
      return ParseStrings();
    }
    if (c == '+' || c == '-' || (c >= '0' && c <= '9') ||
        (c == '.' && Peek(1) >= '0' && Peek(1) <= '9')) {
      return ParseNumber();
    }
    if (IsIdent(c)) {
      const std::size_t start = pos_;
      while (IsIdent(Peek())) ++pos_;
      const std::string word(p_ + start, pos_ - start);
      PyValue v;
      if (word == "True" || word == "False") {
        v.kind = PyValue::kBool;
        v.flag = word == "True";
      } else if (word == "None") {
        v.kind = PyValue::kNone;
      } else {
        pos_ = start;
        Throw("'" + word + "' is not a Python literal");
      }
      return v;
    }
    Throw(c == '\0' && pos_ < len_ ? std::string("a null byte in the header")
                                   : std::string("expected a value"));
  }

  PyValue ParseDict() {
    ++pos_;  // '{'
    PyValue d;
    d.kind = PyValue::kDict;
    SkipSpace();
    while (Peek() != '}') {
      d.items.push_back(ParseValue());
      SkipSpace();
      Expect(':', "expected ':' after a key");
      SkipSpace();
      d.items.push_back(ParseValue());
      SkipSpace();
      if (Peek() == ',') {
        ++pos_;
        SkipSpace();
      } else if (Peek() != '}') {
        Throw("expected ',' or '}' in the dict");
      }
    }
    ++pos_;
    return d;
  }

  // '(' ... ')' is a tuple when empty or when a comma appears, else just grouping.
  PyValue ParseSequence(char open) {
    const char close = open == '(' ? ')' : ']';
    ++pos_;
    PyValue t;
    t.kind = open == '(' ? PyValue::kTuple : PyValue::kList;
    bool comma = false;
    SkipSpace();
    while (Peek() != close) {
      t.items.push_back(ParseValue());
      SkipSpace();
      if (Peek() == ',') {
        ++pos_;
        comma = true;
        SkipSpace();
      } else if (Peek() != close) {
        Throw(open == '(' ? "expected ',' or ')'" : "expected ',' or ']'");
      }
    }
    ++pos_;
    if (open == '(' && t.items.size() == 1 && !comma) return t.items[0];
    return t;
  }

  // One or more adjacent string literals (concatenated); str and bytes may not mix.
  PyValue ParseStrings() {
    PyValue v;
    bool first = true;
    while (true) {
      bool raw = false, bytes = false;
      while (Peek() != '\'' && Peek() != '"') {
        const char c = Peek();
        if (c == 'r' || c == 'R') raw = true;
        if (c == 'b' || c == 'B') bytes = true;
        ++pos_;
      }
      const PyValue::Kind kind = bytes ? PyValue::kBytes : PyValue::kStr;
      if (!first && kind != v.kind) Throw("cannot mix bytes and str literals");
      v.kind = kind;
      first = false;
      ParseOneString(raw, &v.str);
      SkipSpace();
      const char c = Peek();
      const bool prefix =
          (c == 'r' || c == 'R' || c == 'u' || c == 'U' || c == 'b' || c == 'B') &&
          (Peek(1) == '\'' || Peek(1) == '"' ||
           ((Peek(1) == 'r' || Peek(1) == 'R' || Peek(1) == 'b' || Peek(1) == 'B') &&
            (Peek(2) == '\'' || Peek(2) == '"')));
      if (c != '\'' && c != '"' && !prefix) return v;
    }
  }

  void ParseOneString(bool raw, std::string* out) {
    const char q = Peek();
    const bool triple = Peek(1) == q && Peek(2) == q;
    pos_ += triple ? 3 : 1;
    while (true) {
      if (pos_ >= len_) Throw("unterminated string");
      const char c = p_[pos_];
      if (c == q && (!triple || (Peek(1) == q && Peek(2) == q))) {
        pos_ += triple ? 3 : 1;
        return;
      }
      if (c == '\0') Throw("a null byte in the header");
      if ((c == '\n' || c == '\r') && !triple) Throw("unterminated string");
      if (c != '\\') {
        out->push_back(static_cast<unsigned char>(c) >= 0x80 ? '\x80' : c);
        ++pos_;
        continue;
      }
      if (pos_ + 1 >= len_) Throw("unterminated string");
      const char e = p_[pos_ + 1];
      if (raw) {  // a raw string keeps the backslash (and the escaped quote)
        out->push_back('\\');
        out->push_back(e);
        pos_ += 2;
        continue;
      }
      pos_ += 2;
      switch (e) {
        case '\n':
          break;
        case '\\':
          out->push_back('\\');
          break;
        case '\'':
          out->push_back('\'');
          break;
        case '"':
          out->push_back('"');
          break;
        case 'a':
          out->push_back('\a');
          break;
        case 'b':
          out->push_back('\b');
          break;
        case 'f':
          out->push_back('\f');
          break;
        case 'n':
          out->push_back('\n');
          break;
        case 'r':
          out->push_back('\r');
          break;
        case 't':
          out->push_back('\t');
          break;
        case 'v':
          out->push_back('\v');
          break;
        case 'x':
          PushCodePoint(ReadHex(2), out);
          break;
        case 'u':
          PushCodePoint(ReadHex(4), out);
          break;
        case 'U':
          PushCodePoint(ReadHex(8), out);
          break;
        case 'N':
          Throw("\\N{...} escapes are not supported in header strings");
        default:
          if (e >= '0' && e <= '7') {
            std::uint32_t v = static_cast<std::uint32_t>(e - '0');
            for (int i = 0; i < 2 && Peek() >= '0' && Peek() <= '7'; ++i, ++pos_)
              v = v * 8 + static_cast<std::uint32_t>(Peek() - '0');
            PushCodePoint(v, out);
          } else {
            out->push_back('\\');  // Python keeps unknown escapes as written
            out->push_back(e);
          }
      }
    }
  }
  std::uint32_t ReadHex(int n) {
    std::uint32_t v = 0;
    for (int i = 0; i < n; ++i, ++pos_) {
      const char c = Peek();
      int d;
      if (c >= '0' && c <= '9')
        d = c - '0';
      else if (c >= 'a' && c <= 'f')
        d = c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        d = c - 'A' + 10;
      else
        Throw("truncated \\x, \\u or \\U escape");
      v = v * 16 + static_cast<std::uint32_t>(d);
    }
    if (v > 0x10FFFF) Throw("escape beyond the Unicode range");
    return v;
  }
  static void PushCodePoint(std::uint32_t v, std::string* out) {
    out->push_back(v < 0x80 ? static_cast<char>(v) : '\x80');
  }

  // Python int literals (any base, underscores between digits, one sign, the long suffix for
  // versions 1.0 / 2.0); floats and complex numbers parse as kFloat.
  PyValue ParseNumber() {
    PyValue v;
    v.kind = PyValue::kInt;
    bool negative = false;
    if (Peek() == '+' || Peek() == '-') {
      negative = Peek() == '-';
      ++pos_;
      SkipSpace();
    }
    int base = 10;
    if (Peek() == '0' && (Peek(1) == 'x' || Peek(1) == 'X')) base = 16;
    if (Peek() == '0' && (Peek(1) == 'o' || Peek(1) == 'O')) base = 8;
    if (Peek() == '0' && (Peek(1) == 'b' || Peek(1) == 'B')) base = 2;
    if (base != 10) pos_ += 2;
    std::string digits;
    bool prev_underscore = false;
    unsigned __int128 acc = 0;
    while (true) {
      const char c = Peek();
      if (c == '_') {
        // One underscore between digits (or right after a base prefix).
        if (prev_underscore || (digits.empty() && base == 10))
          Throw("invalid integer literal (underscore)");
        prev_underscore = true;
        ++pos_;
        continue;
      }
      int d = -1;
      if (c >= '0' && c <= '9')
        d = c - '0';
      else if (base == 16 && c >= 'a' && c <= 'f')
        d = c - 'a' + 10;
      else if (base == 16 && c >= 'A' && c <= 'F')
        d = c - 'A' + 10;
      if (d < 0) break;
      if (d >= base) Throw("digit out of range for the integer's base");
      digits.push_back(c);
      prev_underscore = false;
      if (acc <= (static_cast<unsigned __int128>(1) << 64)) {
        acc = acc * static_cast<unsigned>(base) + static_cast<unsigned>(d);
      }
      ++pos_;
    }
    if (prev_underscore) Throw("invalid integer literal (trailing underscore)");
    if (base == 10 &&
        (Peek() == '.' || Peek() == 'e' || Peek() == 'E' || Peek() == 'j' || Peek() == 'J')) {
      // A float or imaginary literal: valid Python, but never a valid shape extent.
      ++pos_;
      while (IsIdent(Peek()) || Peek() == '.' ||
             ((Peek() == '+' || Peek() == '-') && (p_[pos_ - 1] == 'e' || p_[pos_ - 1] == 'E'))) {
        ++pos_;
      }
      v.kind = PyValue::kFloat;
      return v;
    }
    if (digits.empty()) Throw("expected a number");
    // Python 3 refuses "02" (but allows "00").
    if (base == 10 && digits[0] == '0' && digits.find_first_not_of('0') != std::string::npos) {
      Throw("leading zeros in a decimal integer are not allowed");
    }
    if (IsIdent(Peek())) {
      if (long_suffix_ && Peek() == 'L' && !IsIdent(Peek(1))) {
        ++pos_;
      } else {
        Throw("invalid number literal");
      }
    } else if (long_suffix_) {
      // tokenize drops a NAME "L" after a NUMBER even with spaces between.
      std::size_t q = pos_;
      while (q < len_ && (p_[q] == ' ' || p_[q] == '\t' || p_[q] == '\f')) ++q;
      if (q < len_ && p_[q] == 'L' && (q + 1 >= len_ || !IsIdent(p_[q + 1]))) pos_ = q + 1;
    }
    const unsigned __int128 limit = static_cast<unsigned __int128>(INT64_MAX) + (negative ? 1 : 0);
    if (acc > limit) {
      v.overflow = true;
    } else {
      v.num =
          negative ? static_cast<index_t>(-static_cast<__int128>(acc)) : static_cast<index_t>(acc);
    }
    return v;
  }

  // NumPy's dtype strings for the kinds shade has: an optional byte order, then a kind and
  // item size ("f4", "b1", "u8"), a one-character type code ("f", "d", "?", "B", ...), or
  // (without a byte order) a type name ("float32", "int64", "bool", ...).
  void SetDescr(const std::string& d, NpyHeader* h) const {
    std::string rest = d;
    char order = '=';
    if (!rest.empty() && (rest[0] == '<' || rest[0] == '>' || rest[0] == '=' || rest[0] == '|')) {
      order = rest[0];
      rest = rest.substr(1);
    }
    int flag = -1;
    if (!rest.empty() && rest[0] == 'O')
      Throw("object dtype '" + d + "' is refused (it holds Python pointers)");
    if (rest.size() >= 2 &&
        (rest[0] == 'b' || rest[0] == 'i' || rest[0] == 'u' || rest[0] == 'f' || rest[0] == 'c' ||
         rest[0] == 'V' || rest[0] == 'S' || rest[0] == 'U' || rest[0] == 'O' || rest[0] == 'M' ||
         rest[0] == 'm') &&
        std::all_of(rest.begin() + 1, rest.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      std::size_t size = 0;
      for (std::size_t i = 1; i < rest.size() && size < 1000; ++i)
        size = size * 10 + static_cast<std::size_t>(rest[i] - '0');
      if (rest[0] == 'b' || rest[0] == 'i' || rest[0] == 'u' || rest[0] == 'f' || rest[0] == 'c')
        flag = FlagOfKind(rest[0], size);
    } else if (rest.size() == 1) {
      static const struct {
        char code;
        int flag;
      } kCodes[] = {{'?', kBool},    {'b', kInt8},    {'B', kUint8},     {'h', kInt16},
                    {'H', kUint16},  {'i', kInt32},   {'I', kUint32},    {'l', kInt64},
                    {'L', kUint64},  {'q', kInt64},   {'Q', kUint64},    {'e', kFloat16},
                    {'f', kFloat32}, {'d', kFloat64}, {'F', kComplex64}, {'D', kComplex128}};
      for (const auto& c : kCodes) {
        if (c.code == rest[0]) flag = c.flag;
      }
    } else if (order == '=' && d == rest) {
      static const struct {
        const char* name;
        int flag;
      } kNames[] = {{"bool", kBool},       {"bool_", kBool},       {"int8", kInt8},
                    {"uint8", kUint8},     {"int16", kInt16},      {"uint16", kUint16},
                    {"int32", kInt32},     {"uint32", kUint32},    {"int64", kInt64},
                    {"uint64", kUint64},   {"float16", kFloat16},  {"float32", kFloat32},
                    {"float64", kFloat64}, {"half", kFloat16},     {"single", kFloat32},
                    {"double", kFloat64},  {"float", kFloat64},    {"int", kInt64},
                    {"byte", kInt8},       {"ubyte", kUint8},      {"short", kInt16},
                    {"ushort", kUint16},   {"intc", kInt32},       {"uintc", kUint32},
                    {"longlong", kInt64},  {"ulonglong", kUint64}, {"int_", kInt64},
                    {"float_", kFloat64},  {"uint", kUint64},      {"long", kInt64},
                    {"intp", kInt64},      {"uintp", kUint64},     {"bool8", kBool}};
      for (const auto& n : kNames) {
        if (rest == n.name) flag = n.flag;
      }
      static const struct {
        const char* name;
        int flag;
      } kComplexNames[] = {{"complex64", kComplex64},   {"csingle", kComplex64},
                           {"complex128", kComplex128}, {"cdouble", kComplex128},
                           {"complex_", kComplex128},   {"cfloat", kComplex128}};
      for (const auto& n : kComplexNames) {
        if (rest == n.name) flag = n.flag;
      }
    }
    if (flag < 0 || !FlagIsNumpy(flag)) {
      Throw("unsupported dtype '" + d + "' (not a NumPy dtype string, or a kind shade lacks)");
    }
    h->type_flag = flag;
    // '|' and '=' mean the native order (little-endian here); one-byte types have none.
    h->byte_order = TypeFlagSize(flag) == 1 ? '|' : (order == '>' ? '>' : '<');
  }
  static bool FlagIsNumpy(int flag) {
    return flag >= 0 && flag < kNumTypeFlags && NpyKind(flag) != 0;
  }

  TShape MakeShape(const PyValue& v) const {
    if (v.kind != PyValue::kTuple) Throw("shape must be a tuple of ints");
    // NumPy's limit (NPY_MAXDIMS).
    if (static_cast<index_t>(v.items.size()) > kNpyMaxNDim) {
      std::ostringstream os;
      os << "shape has " << v.items.size() << " dimensions, more than " << kNpyMaxNDim;
      Throw(os.str());
    }
    std::vector<index_t> dims;
    for (const PyValue& e : v.items) {
      if (e.kind != PyValue::kInt) Throw("shape must be a tuple of ints");
      if (e.overflow) Throw("shape extent overflows int64");
      if (e.num < 0) Throw("negative extent in shape");
      dims.push_back(e.num);
    }
    // The element count must fit in int64 (it is multiplied by the item size later), and so
    // must the product of the non-zero extents: strides are built from it even when a zero
    // extent makes the array empty (NumPy refuses those as "array is too big" too).
    std::uint64_t count = 1;
    for (index_t d : dims) {
      const std::uint64_t f = static_cast<std::uint64_t>(d == 0 ? 1 : d);
      if (__builtin_mul_overflow(count, f, &count) ||
          count > static_cast<std::uint64_t>(INT64_MAX)) {
        Throw("shape element count overflows int64");
      }
    }
    return TShape(dims);
  }

  const char* p_;
  std::size_t len_;
  std::size_t pos_ = 0;
  const std::string& name_;
  bool long_suffix_;
  int depth_ = 0;
};

std::uint32_t LoadLE(const unsigned char* b, int n) {
  std::uint32_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | b[i];
  return v;
}

}  // namespace

std::uint64_t NpyHeader::NumElements() const {
  return static_cast<std::uint64_t>(
      CheckedProduct(shape.data(), shape.ndim(), ".npy element count"));
}

std::uint64_t NpyHeader::DataBytes() const {
  return static_cast<std::uint64_t>(CheckedMul(static_cast<index_t>(NumElements()),
                                               static_cast<index_t>(TypeFlagSize(type_flag)),
                                               ".npy data size"));
}

NpyHeader ParseNpyHeaderDict(const char* text, std::size_t len, const std::string& name) {
  return ParseNpyHeaderDict(text, len, name, 1);
}

NpyHeader ParseNpyHeaderDict(const char* text, std::size_t len, const std::string& name,
                             int major_version) {
  return DictParser(text, len, name, major_version).Parse();
}

NpyHeader ReadNpyHeader(Stream* strm) {
  const std::string& name = strm->name();
  unsigned char pre[8];
  const std::size_t got = strm->Read(pre, sizeof(pre));
  SHADE_CHECK_EQ(got, sizeof(pre))
      << name << ": not a .npy file: only " << got << " bytes where the 8-byte preamble should be";
  SHADE_CHECK(std::memcmp(pre, kMagic, sizeof(kMagic)) == 0)
      << name << ": not a .npy file: bad magic (expected \\x93NUMPY)";
  const int major = pre[6], minor = pre[7];
  SHADE_CHECK(major >= 1 && major <= 3 && minor == 0)
      << name << ": unsupported .npy format version " << major << "." << minor
      << " (1.0, 2.0 and 3.0 are supported)";
  const int len_bytes = major == 1 ? 2 : 4;
  unsigned char lb[4];
  strm->ReadExact(lb, static_cast<std::size_t>(len_bytes), "the .npy header length");
  const std::uint32_t hlen = LoadLE(lb, len_bytes);
  SHADE_CHECK_LE(hlen, kNpyMaxHeaderLen)
      << name << ": .npy header length " << hlen << " exceeds the limit of " << kNpyMaxHeaderLen
      << " bytes";
  std::uint64_t left = 0;
  if (strm->BytesLeft(&left)) {
    SHADE_CHECK_LE(hlen, left) << name << ": .npy header length " << hlen
                               << " is beyond the end of the file (" << left << " bytes left)";
  }
  std::string dict(hlen, '\0');
  strm->ReadExact(&dict[0], hlen, "the .npy header dict");
  NpyHeader h = ParseNpyHeaderDict(dict.data(), dict.size(), name, major);
  h.major_version = major;
  h.minor_version = minor;
  h.data_offset = 8u + static_cast<unsigned>(len_bytes) + hlen;
  // Check the byte size now, naming the file, rather than at allocation.
  index_t bytes = 0;
  SHADE_CHECK(!__builtin_mul_overflow(static_cast<index_t>(h.NumElements()),
                                      static_cast<index_t>(TypeFlagSize(h.type_flag)), &bytes))
      << name << ": .npy data size overflows int64 (shape " << h.shape << ", "
      << TypeFlagName(h.type_flag) << ")";
  return h;
}

void CheckNpyDataAvailable(Stream* strm, const NpyHeader& header, bool exact) {
  std::uint64_t left = 0;
  if (!strm->BytesLeft(&left)) return;
  const std::uint64_t need = header.DataBytes();
  SHADE_CHECK_IO_LE(need, left) << strm->name() << ": .npy file truncated: the header declares "
                                << need << " data bytes (shape " << header.shape << ", "
                                << TypeFlagName(header.type_flag) << ") but only " << left
                                << " remain";
  if (exact) {
    SHADE_CHECK_EQ(need, left) << strm->name() << ": " << (left - need)
                               << " unexpected bytes after the .npy data";
  }
}

namespace {
// The unit a byte-order swap reverses: the element, or each part of a complex element.
std::size_t SwapUnit(int type_flag) {
  const std::size_t size = TypeFlagSize(type_flag);
  return IsComplexTypeFlag(type_flag) ? size / 2 : size;
}
}  // namespace

void ByteSwapInPlace(void* data, std::size_t itemsize, std::uint64_t count) {
  unsigned char* p = static_cast<unsigned char*>(data);
  if (itemsize <= 1) return;
  for (std::uint64_t i = 0; i < count; ++i, p += itemsize) std::reverse(p, p + itemsize);
}

void ReadNpyData(Stream* strm, const NpyHeader& header, void* dst) {
  const std::uint64_t bytes = header.DataBytes();
  strm->ReadExact(dst, static_cast<std::size_t>(bytes), "the .npy data");
  if (header.byte_order == '>') {
    const std::size_t unit = SwapUnit(header.type_flag);
    ByteSwapInPlace(dst, unit, header.NumElements() * (TypeFlagSize(header.type_flag) / unit));
  }
}

std::string NpyDescr(int type_flag, char byte_order) {
  const char kind = NpyKind(type_flag);
  SHADE_CHECK_TYPE(kind != 0) << "dtype " << TypeFlagName(type_flag)
                              << " has no NumPy equivalent and cannot be written to .npy";
  SHADE_CHECK(byte_order == '<' || byte_order == '>')
      << "npy byte order must be '<' or '>', got '" << byte_order << "'";
  const std::size_t size = TypeFlagSize(type_flag);
  std::string d;
  d += size == 1 ? '|' : byte_order;
  d += kind;
  d += std::to_string(size);
  return d;
}

std::string MakeNpyHeader(int type_flag, const TShape& shape, bool fortran_order,
                          const NpyWriteOptions& opts) {
  SHADE_CHECK(opts.version >= 0 && opts.version <= 3)
      << "npy version must be 0 (auto), 1, 2 or 3, got " << opts.version;
  std::ostringstream dict;
  dict << "{'descr': '" << NpyDescr(type_flag, opts.byte_order)
       << "', 'fortran_order': " << (fortran_order ? "True" : "False") << ", 'shape': (";
  for (index_t i = 0; i < shape.ndim(); ++i) {
    SHADE_CHECK_SHAPE_GE(shape.data()[i], 0) << "npy: negative extent in shape " << shape;
    dict << (i ? ", " : "") << shape.data()[i];
  }
  dict << (shape.ndim() == 1 ? ",), }" : "), }");
  const std::string text = dict.str();
  auto pad_for = [&](std::size_t len_bytes) {
    const std::size_t unpadded = 8 + len_bytes + text.size() + 1;  // + '\n'
    return (kNpyDataAlign - unpadded % kNpyDataAlign) % kNpyDataAlign;
  };
  int version = opts.version;
  if (version == 0) version = text.size() + 1 + pad_for(2) <= 0xffff ? 1 : 2;
  const std::size_t len_bytes = version == 1 ? 2 : 4;
  const std::size_t hlen = text.size() + pad_for(len_bytes) + 1;
  SHADE_CHECK(version != 1 || hlen <= 0xffff)
      << "npy: header of " << hlen << " bytes does not fit version 1.0";
  std::string out(kMagic, sizeof(kMagic));
  out += static_cast<char>(version);
  out += '\0';
  for (std::size_t i = 0; i < len_bytes; ++i) out += static_cast<char>((hlen >> (8 * i)) & 0xff);
  out += text;
  out.append(pad_for(len_bytes), ' ');
  out += '\n';
  SHADE_DCHECK(out.size() % kNpyDataAlign == 0);
  return out;
}

void WriteNpy(Stream* strm, int type_flag, const TShape& shape, const void* data,
              bool fortran_order, const NpyWriteOptions& opts) {
  const std::string head = MakeNpyHeader(type_flag, shape, fortran_order, opts);
  const std::size_t itemsize = TypeFlagSize(type_flag);
  const std::uint64_t count = shape.Size();
  const std::size_t bytes = static_cast<std::size_t>(
      CheckedMul(static_cast<index_t>(count), static_cast<index_t>(itemsize), "npy data size"));
  strm->Write(head.data(), head.size());
  if (opts.byte_order == '>' && itemsize > 1) {
    // Swap through a bounded scratch buffer so a big array is never copied whole.
    const unsigned char* src = static_cast<const unsigned char*>(data);
    std::vector<unsigned char> chunk;
    const std::size_t step = (std::size_t(1) << 16) / itemsize * itemsize;
    for (std::size_t off = 0; off < bytes; off += step) {
      const std::size_t n = std::min(step, bytes - off);
      chunk.assign(src + off, src + off + n);
      ByteSwapInPlace(chunk.data(), SwapUnit(type_flag), n / SwapUnit(type_flag));
      strm->Write(chunk.data(), n);
    }
  } else {
    strm->Write(data, bytes);
  }
}

std::vector<unsigned char> ReadBounded(Stream* strm, std::uint64_t size, const char* what) {
  constexpr std::uint64_t kChunk = std::uint64_t(1) << 20;
  std::vector<unsigned char> out;
  while (out.size() < size) {
    const std::size_t n =
        static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, size - out.size()));
    const std::size_t at = out.size();
    out.resize(at + n);
    const std::size_t got = strm->Read(out.data() + at, n);
    SHADE_CHECK_IO_EQ(got, n) << strm->name() << ": file truncated while reading " << what
                              << " (needed " << size << " bytes, got " << at + got << ")";
  }
  return out;
}

namespace {

std::vector<index_t> ReversedAxes(index_t ndim) {
  std::vector<index_t> axes(static_cast<std::size_t>(ndim));
  for (index_t i = 0; i < ndim; ++i) axes[static_cast<std::size_t>(i)] = ndim - 1 - i;
  return axes;
}

NDArray LoadNpyImpl(Stream* strm, bool exact) {
  const NpyHeader h = ReadNpyHeader(strm);
  CheckNpyDataAvailable(strm, h, exact);
  std::uint64_t left = 0;
  const bool sized = strm->BytesLeft(&left);
  // Fortran order: the file holds the transpose in C order; read that, then view it reversed.
  TShape alloc_shape = h.shape;
  if (h.fortran_order) std::reverse(alloc_shape.data(), alloc_shape.data() + alloc_shape.ndim());
  NDArray out;
  if (sized) {
    // The stream holds the bytes (checked above): allocating the declared size is safe.
    out = NDArray::Empty(IndexSpan(alloc_shape), h.type_flag);
    ReadNpyData(strm, h, out.data_ptr());
  } else {
    std::vector<unsigned char> bytes = ReadBounded(strm, h.DataBytes(), "the .npy data");
    if (h.byte_order == '>') {
      const std::size_t unit = SwapUnit(h.type_flag);
      ByteSwapInPlace(bytes.data(), unit, h.NumElements() * (TypeFlagSize(h.type_flag) / unit));
    }
    out = NDArray::Empty(IndexSpan(alloc_shape), h.type_flag);
    if (!bytes.empty()) std::memcpy(out.data_ptr(), bytes.data(), bytes.size());
  }
  if (h.type_flag == kBool) CheckBoolBytes(out.data_ptr(), h.NumElements(), strm->name());
  if (h.fortran_order && h.shape.ndim() > 1)
    out = out.permute(IndexSpan(ReversedAxes(h.shape.ndim())));
  return out;
}

}  // namespace

NDArray LoadNpy(const std::string& path) {
  FileStream f(path, "rb");
  return LoadNpyImpl(&f, true);
}

NDArray LoadNpy(Stream* strm) {
  return LoadNpyImpl(strm, false);
}

NDArray LoadNpyFromMemory(const void* data, std::size_t size) {
  MemoryViewStream v(data, size);
  return LoadNpyImpl(&v, true);
}

void SaveNpy(Stream* strm, const NDArray& array, const NpyWriteOptions& opts) {
  SHADE_CHECK(array.defined()) << "SaveNpy: undefined NDArray (writing " << strm->name() << ")";
  SHADE_CHECK_EQ(array.dev_mask(), cpu::kDevMask)
      << "SaveNpy: only CPU arrays can be written (writing " << strm->name() << ")";
  const int flag = array.type_flag();
  SHADE_CHECK_TYPE(IsValidTypeFlag(flag))
      << "SaveNpy: element type " << array.dtype().name() << " is not a numeric dtype (writing "
      << strm->name() << ")";
  const TShape shape = array.shape();
  const index_t nd = shape.ndim();
  bool fortran = opts.fortran_order && nd > 1;
  NDArray src = array;
  if (nd > 1) {
    const NDArray reversed = array.permute(IndexSpan(ReversedAxes(nd)));
    if (!fortran && !array.is_contiguous() && reversed.is_contiguous()) fortran = true;
    // In Fortran order the file holds the reversed-axes array in C order.
    if (fortran) src = reversed;
  }
  if (!src.is_contiguous()) src = src.contiguous();
  WriteNpy(strm, flag, shape, src.numel() == 0 ? nullptr : src.raw_data(), fortran, opts);
}

void SaveNpy(const std::string& path, const NDArray& array, const NpyWriteOptions& opts) {
  AtomicFileStream f(path);
  SaveNpy(&f, array, opts);
  f.Commit();
}

}  // namespace io
}  // namespace shade
