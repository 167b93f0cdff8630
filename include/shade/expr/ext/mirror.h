/*!
 * \file mirror.h
 * \brief `mirror(src)`: the last dimension reversed (mshadow's mirror.h). Defined in flip.h
 *  as flip(src, rank - 1); this header exists so `#include <.../mirror.h>` ports unchanged.
 */
#ifndef SHADE_EXPR_EXT_MIRROR_H_
#define SHADE_EXPR_EXT_MIRROR_H_

#include "shade/expr/ext/flip.h"

#endif  // SHADE_EXPR_EXT_MIRROR_H_
