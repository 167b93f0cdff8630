/*!
 * \file extension.h
 * \brief Every extension of the static front end (mshadow's <mshadow/extension.h>):
 *  broadcasting, reshaping and permuting, reductions, convolution and pooling helpers, softmax,
 *  one-hot and row selection. Each header can also be included on its own.
 */
#ifndef SHADE_EXPR_EXT_EXTENSION_H_
#define SHADE_EXPR_EXT_EXTENSION_H_

#include "shade/expr/ext/broadcast.h"
#include "shade/expr/ext/choose_row.h"
#include "shade/expr/ext/chpool.h"
#include "shade/expr/ext/one_hot.h"
#include "shade/expr/ext/patch2col.h"
#include "shade/expr/ext/pool.h"
#include "shade/expr/ext/reduce.h"
#include "shade/expr/ext/reshape.h"
#include "shade/expr/ext/softmax.h"
#include "shade/expr/ext/swapaxis.h"
#include "shade/expr/ext/transpose.h"
// Extensions of the other half of the set (slice, concat, flip, pad, ...) are listed below.
#include "shade/expr/ext/batch_gemm.h"
#include "shade/expr/ext/concat.h"
#include "shade/expr/ext/crop.h"
#include "shade/expr/ext/flip.h"
#include "shade/expr/ext/implicit_dot.h"
#include "shade/expr/ext/mask.h"
#include "shade/expr/ext/mirror.h"
#include "shade/expr/ext/pad.h"
#include "shade/expr/ext/range.h"
#include "shade/expr/ext/slice.h"
#include "shade/expr/ext/take.h"
#include "shade/expr/ext/upsampling.h"
#include "shade/expr/ext/vector_dot.h"

#endif  // SHADE_EXPR_EXT_EXTENSION_H_
