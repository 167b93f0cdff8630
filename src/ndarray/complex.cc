// NumPy's complex-number functions (ndarray/complex.h): the parts of a complex array are strided
// float views of its memory, so real/imag/conj/angle/iscomplex/isreal reuse the elementwise ops
// on those views instead of kernels of their own.
#include "shade/ndarray/complex.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "operand_check.h"
#include "shade/ndarray/creation.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/promotion.h"
#include "shade/ndarray/shape_ops.h"

namespace shade {
namespace {

// The real (part = 0) or imaginary (part = 1) parts of complex `a` as a float view: strides
// doubled (a part is every other float), the data moved by `part` floats; the view keeps a's
// memory alive and a's writeable flag.
NDArray PartView(const NDArray& a, int part) {
  const int rflag = RealTypeOf(a.type_flag());
  std::vector<index_t> strides;
  for (index_t s : a.strides()) strides.push_back(2 * s);
  char* data = static_cast<char*>(a.data_ptr());
  if (data != nullptr) data += part * static_cast<index_t>(TypeFlagSize(rflag));
  Storage keep = a.storage();
  NDArray out = NDArray::FromBlob(
      data, a.sizes(), strides, TypeMeta::FromFlag(rflag), [keep](void*) {}, a.dev_mask());
  out.set_writeable(a.writeable());
  return out;
}

}  // namespace

bool iscomplexobj(const NDArray& a) {
  SHADE_CHECK(a.defined()) << "iscomplexobj: the NDArray is undefined";
  return IsComplexTypeFlag(a.type_flag());
}

bool isrealobj(const NDArray& a) {
  return !iscomplexobj(a);
}

NDArray real(const NDArray& a) {
  detail::CheckOperand(a, "real");
  return iscomplexobj(a) ? PartView(a, 0) : a;
}

NDArray imag(const NDArray& a) {
  detail::CheckOperand(a, "imag");
  if (iscomplexobj(a)) return PartView(a, 1);
  NDArray z = zeros(a.sizes(), a.type_flag());
  z.set_writeable(false);  // NumPy's imag of a real array is a read-only zero array
  return z;
}

NDArray conj(const NDArray& a) {
  detail::CheckOperand(a, "conjugate");
  if (!iscomplexobj(a)) return a.Clone();
  NDArray out = NDArray::Empty(a.sizes(), a.type_flag());
  PartView(out, 0).copy_(PartView(a, 0));
  negative(PartView(a, 1), PartView(out, 1));
  return out;
}

NDArray conjugate(const NDArray& a) {
  return conj(a);
}

NDArray angle(const NDArray& a, bool deg) {
  detail::CheckOperand(a, "angle");
  NDArray r = iscomplexobj(a) ? arctan2(PartView(a, 1), PartView(a, 0)).eval()
                              : arctan2(Expr(0), Expr(a)).eval();
  if (deg) multiply(r, 180.0 / 3.141592653589793, r);  // NumPy: a *= 180/pi, in r's dtype
  return r;
}

NDArray iscomplex(const NDArray& a) {
  detail::CheckOperand(a, "iscomplex");
  if (!iscomplexobj(a)) return zeros(a.sizes(), kBool);
  return not_equal(PartView(a, 1), 0).eval();
}

NDArray isreal(const NDArray& a) {
  detail::CheckOperand(a, "isreal");
  if (!iscomplexobj(a)) return ones(a.sizes(), kBool);
  return equal(PartView(a, 1), 0).eval();
}

NDArray view_as_real(const NDArray& a) {
  detail::CheckOperand(a, "view_as_real");
  SHADE_CHECK_TYPE(iscomplexobj(a)) << "view_as_real: expects a complex array, got " << a;
  std::vector<index_t> sizes = a.sizes().vec(), strides;
  for (index_t s : a.strides()) strides.push_back(2 * s);
  sizes.push_back(2);
  strides.push_back(1);
  const int rflag = RealTypeOf(a.type_flag());
  Storage keep = a.storage();
  NDArray out = NDArray::FromBlob(
      a.data_ptr(), sizes, strides, TypeMeta::FromFlag(rflag), [keep](void*) {}, a.dev_mask());
  out.set_writeable(a.writeable());
  return out;
}

complex128_t complex_item(const NDArray& a) {
  detail::CheckOperand(a, "complex_item");
  SHADE_CHECK_SHAPE_EQ(a.numel(), 1)
      << "complex_item: only one-element arrays convert to a scalar; shape is " << a.sizes();
  const NDArray c = astype(a.contiguous(), kComplex128);
  return *static_cast<const complex128_t*>(c.data_ptr());
}

}  // namespace shade
