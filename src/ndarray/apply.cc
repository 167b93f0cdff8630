// The strided-iteration engine's planning step: drop, reorder and merge dimensions.
#include "shade/ndarray/apply.h"

#include <algorithm>
#include <vector>

#include "dim_order.h"

namespace shade {

void THContiguousSection(IndexSpan sizes, IndexSpan strides, index_t* dim, index_t* size,
                         index_t* stride) {
  SHADE_CHECK_SHAPE_EQ(sizes.size(), strides.size())
      << "THContiguousSection: sizes and strides differ in rank";
  const index_t nd = static_cast<index_t>(sizes.size());
  // What is the first stride (ignoring trailing size-1 dims)? It is used for the whole section.
  index_t d = nd - 1;
  for (; d >= 0; --d) {
    if (sizes[d] != 1) break;
  }
  *stride = d == -1 ? 0 : strides[d];
  // The largest contiguous section: inner dims whose stride equals the running size.
  index_t section = 1;
  for (d = nd - 1; d >= 0; --d) {
    if (sizes[d] != 1) {
      if (strides[d] == section) {
        section *= sizes[d];
      } else {
        break;
      }
    }
  }
  *size = section;
  *dim = d;
}

ApplyPlan MakeApplyPlan(IndexSpan sizes, const IndexSpan* strides, const index_t* itemsize,
                        int nops, const ApplyOptions& opt) {
  SHADE_CHECK_GE(nops, 1) << "MakeApplyPlan: need an operand";
  const int nd_in = static_cast<int>(sizes.size());
  ApplyPlan p;
  p.nops = nops;
  p.itemsize.assign(itemsize, itemsize + nops);
  p.numel = 1;
  for (int d = 0; d < nd_in; ++d) {
    SHADE_CHECK_SHAPE_GE(sizes[d], 0)
        << "MakeApplyPlan: size " << sizes[d] << " of dimension " << d;
    p.numel = CheckedMul(p.numel, sizes[d], "apply numel");
  }
  for (int o = 0; o < nops; ++o) {
    SHADE_CHECK_SHAPE_EQ(strides[o].size(), sizes.size())
        << "MakeApplyPlan: operand " << o << " rank";
    SHADE_CHECK_GT(itemsize[o], 0) << "MakeApplyPlan: operand " << o << " element size";
  }
  if (p.numel == 0) return p;

  // 1. Keep the dimensions that move (size > 1), outermost first; byte strides.
  std::vector<int> dims;
  if (opt.ordered) {
    for (int d = 0; d < nd_in; ++d) {
      if (sizes[d] != 1) dims.push_back(d);
    }
  } else {
    dims = MemoryOrderDims(sizes, strides, nops);
  }
  std::vector<index_t> msz;
  std::vector<index_t> mst;  // [d * nops + o], elements for now
  for (int d : dims) {
    const index_t s = sizes[d];
    if (!msz.empty()) {
      const std::size_t last = msz.size() - 1;
      bool can_merge = true;
      for (int o = 0; o < nops && can_merge; ++o) {
        can_merge = mst[last * nops + o] == strides[o][d] * s;
      }
      if (can_merge) {
        msz[last] *= s;
        for (int o = 0; o < nops; ++o) mst[last * nops + o] = strides[o][d];
        continue;
      }
    }
    msz.push_back(s);
    for (int o = 0; o < nops; ++o) mst.push_back(strides[o][d]);
  }
  if (msz.empty()) {  // a single element
    msz.push_back(1);
    for (int o = 0; o < nops; ++o) mst.push_back(1);
  }
  p.ndim = static_cast<int>(msz.size());
  SHADE_CHECK_SHAPE_LE(p.ndim, detail::kMaxApplyDims) << "MakeApplyPlan: too many dimensions";
  p.sizes = msz;
  p.strides.resize(mst.size());
  for (int d = 0; d < p.ndim; ++d) {
    for (int o = 0; o < nops; ++o) p.strides[d * nops + o] = mst[d * nops + o] * itemsize[o];
  }
  const int in = p.ndim - 1;
  p.inner_contiguous = true;
  for (int o = 0; o < nops; ++o) {
    p.inner_contiguous = p.inner_contiguous && p.strides[in * nops + o] == itemsize[o];
  }
  // 5. Tiling: some operand walks the second-inner dim contiguously but the inner one with a
  //    stride, so plain runs would touch one cache line per element for it.
  if (!opt.ordered && p.ndim >= 2) {
    const index_t rows = p.sizes[in - 1], cols = p.sizes[in];
    bool transposed = false;
    index_t max_item = 1;
    for (int o = 0; o < nops; ++o) {
      max_item = std::max(max_item, itemsize[o]);
      const index_t inner_st = p.strides[in * nops + o];
      if (p.strides[(in - 1) * nops + o] == itemsize[o] && inner_st != itemsize[o] &&
          inner_st != 0) {
        transposed = true;
      }
    }
    if (transposed && rows >= 16 && cols >= 16) {
      p.tiled = true;
      p.tile = max_item <= 4 ? 64 : 32;
    }
  }
  return p;
}

}  // namespace shade
