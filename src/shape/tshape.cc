// TShape text I/O: a strict hand-written parser, locale-independent.
#include "shade/shape/tshape.h"

#include <cctype>
#include <istream>
#include <ostream>
#include <sstream>
#include <vector>

namespace shade {

std::ostream& operator<<(std::ostream& os, const TShape& shape) {
  os << '(';
  for (index_t i = 0; i < shape.ndim(); ++i) {
    if (i != 0) os << ',';
    os << shape.data()[i];
  }
  if (shape.ndim() == 1) os << ',';
  os << ')';
  return os;
}

namespace {

bool IsDigit(int ch) {
  return ch >= '0' && ch <= '9';
}
bool IsSpace(int ch) {
  return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f';
}

void SkipSpace(std::istream& is) {
  while (IsSpace(is.peek())) is.get();
}

// Reads an optionally negative decimal integer; false on no digits or int64 overflow.
bool ReadInteger(std::istream& is, index_t* out) {
  bool negative = false;
  if (is.peek() == '-') {
    negative = true;
    is.get();
  }
  if (!IsDigit(is.peek())) return false;
  index_t value = 0;
  while (IsDigit(is.peek())) {
    const int digit = is.get() - '0';
    if (__builtin_mul_overflow(value, index_t(10), &value) ||
        __builtin_add_overflow(value, index_t(digit), &value)) {
      return false;
    }
  }
  *out = negative ? -value : value;
  return true;
}

}  // namespace

std::istream& operator>>(std::istream& is, TShape& shape) {
  auto fail = [&is]() -> std::istream& {
    is.setstate(std::ios::failbit);
    return is;
  };
  SkipSpace(is);
  index_t value = 0;
  if (IsDigit(is.peek())) {  // a bare integer is a rank-1 shape
    if (!ReadInteger(is, &value)) return fail();
    shape = TShape{value};
    return is;
  }
  if (is.get() != '(') return fail();
  std::vector<index_t> dims;
  SkipSpace(is);
  if (is.peek() == ')') {  // "()" is the rank-0 shape
    is.get();
    shape = TShape();
    return is;
  }
  while (true) {
    SkipSpace(is);
    if (!ReadInteger(is, &value)) return fail();
    dims.push_back(value);
    if (is.peek() == 'L' || is.peek() == 'l') is.get();  // python 2 long suffix
    SkipSpace(is);
    const int ch = is.get();
    if (ch == ')') break;
    if (ch != ',') return fail();
    SkipSpace(is);
    if (is.peek() == ')') {  // trailing comma: "(7,)"
      is.get();
      break;
    }
  }
  shape = TShape(dims);
  return is;
}

TShape ParseTShape(const std::string& text) {
  std::istringstream is(text);
  TShape shape;
  is >> shape;
  SHADE_CHECK_SHAPE(!is.fail()) << "invalid shape '" << text
                                << "': expected an integer or a tuple such as (3,4)";
  SkipSpace(is);
  SHADE_CHECK_SHAPE(is.peek() == std::char_traits<char>::eof())
      << "invalid shape '" << text << "': unexpected text after the shape";
  return shape;
}

}  // namespace shade
