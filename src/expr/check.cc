// The cold half of the static front end's shape checks (expr/check.h): building and throwing
// the mismatch message, kept out of line so that the checks inline into the element loop.
#include "shade/expr/check.h"

#include "shade/shape/tshape.h"

namespace shade {
namespace expr {
namespace detail {

void ThrowShapeMismatch(const char* file, int line, std::initializer_list<const char*> texts,
                        std::initializer_list<ShapeRef> shapes) {
  ::shade::detail::ErrorMessage message(file, line);
  const char* const* text = texts.begin();
  for (const ShapeRef& shape : shapes) {
    if (text != texts.end()) message << *text++;
    if (shape.ndim > 0 && shape.dims[0] == kShapeWildcard) {
      message << "scalar";
    } else {
      message << TShape(shape.dims, shape.dims + shape.ndim);  // the tuple form: (3,4), (4,)
    }
  }
  for (; text != texts.end(); ++text) message << *text;
  ::shade::detail::ErrorThrower<ShapeError>() & message;
}

}  // namespace detail
}  // namespace expr
}  // namespace shade
