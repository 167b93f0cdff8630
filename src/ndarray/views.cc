// TH-style views: new sizes/strides/offset over the same Storage (no element is copied).
#include <algorithm>
#include <optional>
#include <vector>

#include "shade/ndarray/grad_hook.h"
#include "shade/ndarray/ndarray.h"
#include "shade/ndarray/ndarray_util.h"

namespace shade {

namespace {

// Strides for viewing (sizes, strides) as new_sizes without copying, or nullopt when a new
// dimension would span two chunks that are not laid out one after the other.
std::optional<std::vector<index_t>> ViewStrides(IndexSpan sizes, IndexSpan strides,
                                                IndexSpan new_sizes, index_t numel) {
  const index_t nd = static_cast<index_t>(sizes.size());
  const index_t nnd = static_cast<index_t>(new_sizes.size());
  std::vector<index_t> out(new_sizes.size());
  if (numel == 0 || nd == 0) {
    if (numel == 0 && sizes == new_sizes) return strides.vec();
    return ContiguousStrides(new_sizes);
  }
  // Walk the old dims from the inside, grouping them into chunks that are contiguous with
  // respect to each other; each chunk must be covered exactly by a run of new dims.
  index_t view_d = nnd - 1;
  index_t chunk_stride = strides[nd - 1];
  index_t chunk_numel = 1;
  index_t view_numel = 1;
  for (index_t d = nd - 1; d >= 0; --d) {
    chunk_numel *= sizes[d];
    const bool chunk_ends =
        d == 0 || (sizes[d - 1] != 1 && strides[d - 1] != chunk_numel * chunk_stride);
    if (!chunk_ends) continue;
    while (view_d >= 0 && (view_numel < chunk_numel || new_sizes[view_d] == 1)) {
      out[view_d] = view_numel * chunk_stride;
      view_numel *= new_sizes[view_d];
      --view_d;
    }
    if (view_numel != chunk_numel) return std::nullopt;
    if (d > 0) {
      chunk_stride = strides[d - 1];
      chunk_numel = 1;
      view_numel = 1;
    }
  }
  if (view_d != -1) return std::nullopt;
  return out;
}

// Resolves one -1 in `sizes` against numel; validates the rest.
std::vector<index_t> InferSizes(IndexSpan sizes, index_t numel, const char* what) {
  std::vector<index_t> out = sizes.vec();
  index_t known = 1;
  index_t infer = -1;
  for (std::size_t d = 0; d < out.size(); ++d) {
    if (out[d] == -1) {
      SHADE_CHECK_SHAPE_EQ(infer, -1)
          << what << ": only one dimension can be inferred (sizes " << sizes << ")";
      infer = static_cast<index_t>(d);
    } else {
      SHADE_CHECK_GE(out[d], 0) << what << ": invalid size " << out[d] << " in " << sizes;
      known = CheckedMul(known, out[d], "view numel");
    }
  }
  if (infer >= 0) {
    SHADE_CHECK_SHAPE(known > 0 && numel % known == 0)
        << what << ": shape " << sizes << " is invalid for input of size " << numel;
    out[infer] = numel / known;
  } else {
    SHADE_CHECK_SHAPE_EQ(known, numel)
        << what << ": shape " << sizes << " is invalid for input of size " << numel;
  }
  return out;
}

}  // namespace

NDArray NDArray::MakeView(IndexSpan sizes, IndexSpan strides, index_t offset) const {
  // Every view op ends here: one rule (src/autograd/derivatives.cc) differentiates them all.
  if (__builtin_expect(detail::GradTracked(*this), 0)) {
    return detail::RecordGrad(detail::GradOp::kView, {*this}, {},
                              [&] { return MakeView(sizes, strides, offset); });
  }
  auto impl = make_intrusive<NDArrayImpl>(Impl()->storage());
  impl->SetSizesAndStrides(sizes.data(), strides.data(), static_cast<int>(sizes.size()));
  impl->set_storage_offset(offset);
  impl->set_writeable(Impl()->writeable());  // a view of a read-only array is read-only (NumPy)
  return NDArray(std::move(impl));
}

NDArray NDArray::transpose(index_t a, index_t b) const {
  const index_t da = WrapDim(a), db = WrapDim(b);
  std::vector<index_t> sz = sizes().vec(), st = strides().vec();
  std::swap(sz[da], sz[db]);
  std::swap(st[da], st[db]);
  return MakeView(sz, st, storage_offset());
}

NDArray NDArray::permute(IndexSpan dims) const {
  const index_t nd = ndim();
  SHADE_CHECK_SHAPE_EQ(static_cast<index_t>(dims.size()), nd)
      << "permute: " << dims << " names " << dims.size() << " dimensions of a rank-" << nd
      << " NDArray";
  std::vector<index_t> sz(nd), st(nd);
  std::vector<bool> seen(nd, false);
  for (index_t i = 0; i < nd; ++i) {
    const index_t d = WrapDim(dims[i]);
    SHADE_CHECK(!seen[d]) << "permute: dimension " << dims[i] << " repeated in " << dims;
    seen[d] = true;
    sz[i] = size(d);
    st[i] = stride(d);
  }
  return MakeView(sz, st, storage_offset());
}

NDArray NDArray::narrow(index_t dim, index_t start, index_t length) const {
  const index_t d = WrapDim(dim);
  const index_t n = size(d);
  SHADE_CHECK_SHAPE(start >= 0 && length >= 0 && start <= n && length <= n - start)
      << "narrow: start " << start << " + length " << length << " exceeds size " << n
      << " of dimension " << dim;
  std::vector<index_t> sz = sizes().vec();
  sz[d] = length;
  return MakeView(sz, strides(), storage_offset() + start * stride(d));
}

NDArray NDArray::slice(index_t dim, index_t start, index_t end, index_t step) const {
  const index_t d = WrapDim(dim);
  SHADE_CHECK_SHAPE_GE(step, 1) << "slice: step must be positive (dimension " << dim << ")";
  const index_t n = size(d);
  // Python semantics: negative bounds count from the end, then clamp to [0, n].
  if (start < 0) start = start < -n ? 0 : start + n;
  if (end < 0) end = end < -n ? 0 : end + n;
  start = std::min(start, n);
  end = std::min(std::max(end, start), n);
  std::vector<index_t> sz = sizes().vec(), st = strides().vec();
  sz[d] = (end - start + step - 1) / step;
  st[d] = CheckedMul(st[d], step, "slice stride");
  return MakeView(sz, st, storage_offset() + start * stride(d));
}

NDArray NDArray::select(index_t dim, index_t i) const {
  const index_t d = WrapDim(dim);
  const index_t n = size(d);
  SHADE_CHECK_INDEX(i >= -n && i < n)
      << "select: index " << i << " is out of range for dimension " << dim << " of size " << n;
  if (i < 0) i += n;
  std::vector<index_t> sz = sizes().vec(), st = strides().vec();
  const index_t off = storage_offset() + i * st[d];
  sz.erase(sz.begin() + d);
  st.erase(st.begin() + d);
  return MakeView(sz, st, off);
}

NDArray NDArray::unsqueeze(index_t dim) const {
  const index_t nd = ndim();
  SHADE_CHECK_INDEX(dim >= -nd - 1 && dim <= nd)
      << "unsqueeze: dimension " << dim << " is out of range for a rank-" << nd
      << " NDArray (expected in [" << -nd - 1 << ", " << nd << "])";
  const index_t d = dim < 0 ? dim + nd + 1 : dim;
  std::vector<index_t> sz = sizes().vec(), st = strides().vec();
  const index_t new_stride = d < nd ? sz[d] * st[d] : 1;
  sz.insert(sz.begin() + d, 1);
  st.insert(st.begin() + d, new_stride);
  return MakeView(sz, st, storage_offset());
}

NDArray NDArray::squeeze() const {
  std::vector<index_t> sz, st;
  for (index_t d = 0; d < ndim(); ++d) {
    if (size(d) != 1) {
      sz.push_back(size(d));
      st.push_back(stride(d));
    }
  }
  return MakeView(sz, st, storage_offset());
}

NDArray NDArray::squeeze(index_t dim) const {
  const index_t d = WrapDim(dim);
  std::vector<index_t> sz = sizes().vec(), st = strides().vec();
  if (sz[d] == 1) {
    sz.erase(sz.begin() + d);
    st.erase(st.begin() + d);
  }
  return MakeView(sz, st, storage_offset());
}

NDArray NDArray::expand(IndexSpan target) const {
  const index_t nd = ndim();
  const index_t nt = static_cast<index_t>(target.size());
  SHADE_CHECK_SHAPE_GE(nt, nd) << "expand: the number of sizes in " << target
                               << " must be at least the rank " << nd << " of " << sizes();
  std::vector<index_t> sz(nt), st(nt);
  for (index_t i = nt - 1; i >= 0; --i) {
    const index_t od = i - (nt - nd);  // aligned input dim, < 0 for new leading dims
    const index_t t = target[i];
    if (od < 0) {
      SHADE_CHECK_SHAPE_GE(t, 0) << "expand: size " << t << " for new leading dimension " << i
                                 << " of " << target << " must be >= 0";
      sz[i] = t;
      st[i] = 0;
      continue;
    }
    const index_t s = size(od);
    if (t == -1 || t == s) {
      sz[i] = s;
      st[i] = stride(od);
    } else {
      SHADE_CHECK_SHAPE(s == 1 && t >= 0)
          << "expand: the expanded size " << t << " must match the existing size " << s
          << " at non-singleton dimension " << i << " (sizes " << sizes() << ", target " << target
          << ")";
      sz[i] = t;
      st[i] = 0;
    }
  }
  return MakeView(sz, st, storage_offset());
}

NDArray NDArray::view(IndexSpan new_sizes) const {
  const std::vector<index_t> sz = InferSizes(new_sizes, numel(), "view");
  auto st = ViewStrides(sizes(), strides(), sz, numel());
  SHADE_CHECK_SHAPE(st.has_value())
      << "view size " << IndexSpan(sz) << " is not compatible with input NDArray's size " << sizes()
      << " and stride " << strides()
      << " (at least one dimension spans across two contiguous subspaces); use reshape() instead";
  return MakeView(sz, *st, storage_offset());
}

NDArray NDArray::reshape(IndexSpan new_sizes) const {
  const std::vector<index_t> sz = InferSizes(new_sizes, numel(), "reshape");
  auto st = ViewStrides(sizes(), strides(), sz, numel());
  if (st.has_value()) return MakeView(sz, *st, storage_offset());
  return contiguous().view(sz);
}

NDArray NDArray::as_strided(IndexSpan new_sizes, IndexSpan new_strides) const {
  return as_strided(new_sizes, new_strides, storage_offset());
}

NDArray NDArray::as_strided(IndexSpan new_sizes, IndexSpan new_strides, index_t offset) const {
  detail::CheckInsideStorage(storage(), new_sizes, new_strides, offset, "as_strided");
  return MakeView(new_sizes, new_strides, offset);
}

NDArray NDArray::contiguous() const {
  if (is_contiguous()) return *this;
  return Clone();
}

}  // namespace shade
