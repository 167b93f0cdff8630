/*!
 * \file extension.h
 * \brief Every extension of the static front end (mshadow's <mshadow/extension.h>):
 *  broadcasting, reshaping and permuting, reductions, convolution and pooling helpers, softmax,
 *  one-hot and row selection. Each header can also be included on its own.
 */
#ifndef SHADE_EXPR_EXTENSION_H_
#define SHADE_EXPR_EXTENSION_H_

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

#endif  // SHADE_EXPR_EXTENSION_H_
