// shade's complex-number functions and the ndarray's real / imag / conj (ndarray/complex.h),
// bound thinly. The complex dtypes travel through the existing paths: ParseDType / DTypeObject
// (complex64, complex128), the buffer formats "Zf" / "Zd", Python complex scalars as weak
// operands (interop.cc) and complex elements as NumPy scalars (indexing.cc).
#include "shade/ndarray/complex.h"
#include "shade_py.h"

namespace shade {
namespace python {

void BindComplex(py::module_& m, py::class_<PyArray>& cls) {
  cls.def_property(
      "real",
      [](py::handle self) {
        py::object r = Wrap(real(AsPyArray(self)->Get()));
        SetViewBase(r, self, false);
        return r;
      },
      [](PyArray& self, py::handle value) {
        EvaluateAllPending();
        real(self.Get()).copy_(AsNDArray(value));
      },
      "The real parts: a view of a complex array's memory, the array itself when real.");
  cls.def_property(
      "imag",
      [](py::handle self) {
        py::object r = Wrap(imag(AsPyArray(self)->Get()));
        SetViewBase(r, self, false);
        return r;
      },
      [](PyArray& self, py::handle value) {
        EvaluateAllPending();
        SHADE_CHECK_TYPE(iscomplexobj(self.Get()))
            << "array does not have imaginary part to set (dtype "
            << TypeFlagName(self.Get().type_flag()) << ")";
        imag(self.Get()).copy_(AsNDArray(value));
      },
      "The imaginary parts: a view of a complex array's memory; read-only zeros when real.");
  cls.def(
      "conj", [](PyArray& self) { return Wrap(conj(self.Get())); },
      "Complex conjugate, element-wise (a new array).");
  cls.def(
      "conjugate", [](PyArray& self) { return Wrap(conj(self.Get())); },
      "Complex conjugate, element-wise (a new array).");

  m.def(
      "real", [](py::handle a) { return Wrap(real(AsNDArray(a))); }, py::arg("val"),
      "Return the real part of the complex argument (numpy.real).");
  m.def(
      "imag", [](py::handle a) { return Wrap(imag(AsNDArray(a))); }, py::arg("val"),
      "Return the imaginary part of the complex argument (numpy.imag).");
  m.def(
      "conj", [](py::handle a) { return Wrap(conj(AsNDArray(a))); }, py::arg("x"),
      "Return the complex conjugate, element-wise (numpy.conj).");
  m.def(
      "conjugate", [](py::handle a) { return Wrap(conj(AsNDArray(a))); }, py::arg("x"),
      "Return the complex conjugate, element-wise (numpy.conjugate).");
  m.def(
      "angle", [](py::handle z, bool deg) { return Wrap(angle(AsNDArray(z), deg)); }, py::arg("z"),
      py::arg("deg") = false,
      "Return the angle of the complex argument, in radians or degrees (numpy.angle).");
  m.def(
      "iscomplexobj", [](py::handle x) { return iscomplexobj(AsNDArray(x)); }, py::arg("x"),
      "True when the input has a complex dtype (numpy.iscomplexobj).");
  m.def(
      "isrealobj", [](py::handle x) { return isrealobj(AsNDArray(x)); }, py::arg("x"),
      "True when the input has no complex dtype (numpy.isrealobj).");
  m.def(
      "iscomplex", [](py::handle x) { return Wrap(iscomplex(AsNDArray(x))); }, py::arg("x"),
      "Bool array, True where the element has a nonzero imaginary part (numpy.iscomplex).");
  m.def(
      "isreal", [](py::handle x) { return Wrap(isreal(AsNDArray(x))); }, py::arg("x"),
      "Bool array, True where the element has a zero imaginary part (numpy.isreal).");
}

}  // namespace python
}  // namespace shade
