// copy_ and Fill: the only whole-array element loops of NDArray, both on the apply engine.
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "shade/backend/cpu/kernels.h"
#include "shade/ndarray/apply.h"
#include "shade/ndarray/ndarray.h"
#include "shade/ndarray/ndarray_util.h"
#include "simd_table.h"

namespace shade {
namespace {

// ---------------------------------------------------------------------------------------------
// Run kernels: THE one place where a run's element loop is written. Contiguous runs (the bodies
// marked "contiguous") go to backend/cpu/kernels.h's single-thread CopyRun / FillRun / CastRun
// (the apply engine already threads over runs); strided runs are the loops below.
// ---------------------------------------------------------------------------------------------

// Same element type, moved as raw words of the element's size.
template <typename U>
void CopySameRun(const StridedRun<2>& r) {
  char* d = r.data[0];
  const char* s = r.data[1];
  if (r.contiguous) {  // contiguous
    kernel::CopyRun(r.n, reinterpret_cast<U*>(d), reinterpret_cast<const U*>(s));
    return;
  }
  const index_t ds = r.stride[0], ss = r.stride[1];
  if (ds == static_cast<index_t>(sizeof(U))) {  // sequential writes (transpose tiles)
    U* dp = reinterpret_cast<U*>(d);
    for (index_t i = 0; i < r.n; ++i) std::memcpy(dp + i, s + i * ss, sizeof(U));
    return;
  }
  for (index_t i = 0; i < r.n; ++i) std::memcpy(d + i * ds, s + i * ss, sizeof(U));
}

// Same-type copy as a kernel object: runs, plus whole tiles of a transposing plan.
template <typename U>
struct CopySameKernel {
  void operator()(const StridedRun<2>& r) const { CopySameRun<U>(r); }
  void Tile(const StridedTile<2>& t) const {
    constexpr index_t kU = static_cast<index_t>(sizeof(U));
    // dst rows contiguous, src contiguous down the columns: the tile is the transpose of a
    // t.cols x t.rows source matrix, done by the kernel layer's blocked transpose (register
    // transposes of cache-line squares for 4- and 8-byte elements).
    // Element-aligned pointers only (typed loads below); anything else copies row by row.
    const auto aligned = [](const char* p) {
      return reinterpret_cast<std::uintptr_t>(p) % alignof(U) == 0;
    };
    if (t.col_stride[0] == kU && t.row_stride[1] == kU && t.row_stride[0] % kU == 0 &&
        t.col_stride[1] % kU == 0 && t.row_stride[0] > 0 && t.col_stride[1] > 0 &&
        aligned(t.data[0]) && aligned(t.data[1])) {
      dyn::Simd().transpose(static_cast<int>(kU), index_t{0}, t.cols, t.rows, t.data[1],
                            t.col_stride[1] / kU, t.data[0], t.row_stride[0] / kU);
      return;
    }
    Rows(t);
  }
  // The tile's rows as strided runs.
  void Rows(const StridedTile<2>& t) const {
    StridedRun<2> run;
    run.stride = t.col_stride;
    run.contiguous = false;
    run.n = t.cols;
    for (index_t r = 0; r < t.rows; ++r) {
      for (int o = 0; o < 2; ++o) run.data[o] = t.data[o] + r * t.row_stride[o];
      CopySameRun<U>(run);
    }
  }
};

// Element type conversion; contiguous runs go to the SIMD target's conversion kernel.
template <typename D, typename S>
void CastRun(const StridedRun<2>& r, dyn::CastKernel contiguous) {
  // One element conversion for both paths: kernel::ConvertScalar (to bool it is v != 0 in the
  // source type, so 1e-300 and denormals are true, as NumPy; never via float).
  if (r.contiguous) {
    contiguous(r.n, r.data[0], r.data[1]);
    return;
  }
  for (index_t i = 0; i < r.n; ++i) {
    S v;
    std::memcpy(&v, r.data[1] + i * r.stride[1], sizeof(S));
    const D out = kernel::ConvertScalar<D>(v);
    std::memcpy(r.data[0] + i * r.stride[0], &out, sizeof(D));
  }
}

template <typename T>
void FillRun(const StridedRun<1>& r, T value) {
  if (r.contiguous) {  // contiguous
    dyn::FillElements(static_cast<int>(sizeof(T)), r.n, r.data[0], &value);
    return;
  }
  for (index_t i = 0; i < r.n; ++i) std::memcpy(r.data[0] + i * r.stride[0], &value, sizeof(T));
}

// Non-trivial element types (std::string, ...): the TypeMeta's copy, element by element.
void CopyObjectsRun(const StridedRun<2>& r, TypeMeta meta) {
  if (r.contiguous) {
    meta.CopyItems(r.data[1], r.data[0], static_cast<std::size_t>(r.n));
    return;
  }
  for (index_t i = 0; i < r.n; ++i)
    meta.CopyItems(r.data[1] + i * r.stride[1], r.data[0] + i * r.stride[0], 1);
}

// [first byte, one past the last byte) that a layout touches.
std::pair<const char*, const char*> ByteRange(const NDArray& a) {
  const char* lo = static_cast<const char*>(a.data_ptr());
  index_t reach = 0;
  for (index_t d = 0; d < a.ndim(); ++d) reach += (a.size(d) - 1) * a.stride(d);
  return {lo, lo + (reach + 1) * static_cast<index_t>(a.itemsize())};
}

}  // namespace

void NDArray::copy_(const NDArray& src) const {
  SHADE_CHECK(defined()) << "copy_: the destination NDArray is undefined";
  SHADE_CHECK(src.defined()) << "copy_: the source NDArray is undefined";
  const TypeMeta dmeta = dtype(), smeta = src.dtype();
  SHADE_CHECK_TYPE(dmeta.initialized())
      << "copy_: the destination " << *this << " has no element type";
  SHADE_CHECK_TYPE(smeta.initialized()) << "copy_: the source " << src << " has no element type";
  CheckWriteable("copy_");
  NDArray source = src.sizes() == sizes() ? src : src.expand(sizes());
  if (numel() == 0) return;
  SHADE_CHECK(data_ptr() != nullptr)
      << "copy_: the destination " << *this << " has no memory allocated (call mutable_data first)";
  SHADE_CHECK(source.data_ptr() != nullptr)
      << "copy_: the source " << src << " has no memory allocated";
  SHADE_CHECK(is_non_overlapping())
      << "copy_: cannot write into " << *this
      << ": its elements overlap (an expanded view with zero strides, or as_strided)";
  SHADE_CHECK(dmeta == smeta || (dmeta.flag() >= 0 && smeta.flag() >= 0))
      << "copy_: cannot convert " << smeta.name() << " to " << dmeta.name();
  if (source.storage().is_alias_of(storage())) {
    if (source.data_ptr() == data_ptr() && source.strides() == strides() && dmeta == smeta) return;
    const auto a = ByteRange(*this), b = ByteRange(source);
    // Overlapping source and destination: read from a private copy first.
    if (a.first < b.second && b.first < a.second) source = source.Clone();
  }
  std::array<NDArray, 2> ops{*this, source};
  if (dmeta == smeta) {
    if (dmeta.copy() != nullptr) {
      ApplyNDArrays<2>(ops, [dmeta](const StridedRun<2>& r) { CopyObjectsRun(r, dmeta); });
      return;
    }
    switch (dmeta.itemsize()) {  // raw types move as words of their size (not a dtype switch)
      case 1:
        ApplyNDArrays<2>(ops, CopySameKernel<std::uint8_t>());
        return;
      case 2:
        ApplyNDArrays<2>(ops, CopySameKernel<std::uint16_t>());
        return;
      case 4:
        ApplyNDArrays<2>(ops, CopySameKernel<std::uint32_t>());
        return;
      case 8:
        ApplyNDArrays<2>(ops, CopySameKernel<std::uint64_t>());
        return;
      default: {
        const std::size_t n = dmeta.itemsize();
        ApplyNDArrays<2>(ops, [n](const StridedRun<2>& r) {
          for (index_t i = 0; i < r.n; ++i)
            std::memcpy(r.data[0] + i * r.stride[0], r.data[1] + i * r.stride[1], n);
        });
        return;
      }
    }
  }
  const dyn::CastKernel contiguous = dyn::GetCastKernel(dmeta.flag(), smeta.flag());
  if (IsComplexTypeFlag(dmeta.flag()) || IsComplexTypeFlag(smeta.flag())) {
    // Complex conversions (scalar kernels): a strided run converts element by element through
    // the same kernel, so both paths give the same values.
    ApplyNDArrays<2>(ops, [contiguous](const StridedRun<2>& r) {
      if (r.contiguous) {
        contiguous(r.n, r.data[0], r.data[1]);
        return;
      }
      for (index_t i = 0; i < r.n; ++i)
        contiguous(1, r.data[0] + i * r.stride[0], r.data[1] + i * r.stride[1]);
    });
    return;
  }
  DispatchDType(dmeta.flag(), [&](auto dtag) {
    using D = typename decltype(dtag)::type;
    DispatchDType(smeta.flag(), [&](auto stag) {
      using S = typename decltype(stag)::type;
      ApplyNDArrays<2>(ops, [contiguous](const StridedRun<2>& r) { CastRun<D, S>(r, contiguous); });
    });
  });
}

void NDArray::Fill(double value) const {
  SHADE_CHECK(defined()) << "Fill: the NDArray is undefined";
  SHADE_CHECK_TYPE_GE(type_flag(), 0)
      << "Fill: element type " << dtype().name() << " is not numeric";
  CheckWriteable("Fill");
  if (numel() == 0) return;
  SHADE_CHECK(data_ptr() != nullptr) << "Fill: " << *this << " has no memory allocated";
  SHADE_CHECK(is_non_overlapping())
      << "Fill: cannot write into " << *this
      << ": its elements overlap (an expanded view with zero strides, or as_strided)";
  const std::array<NDArray, 1> ops{*this};
  if (IsComplexTypeFlag(type_flag())) {  // value + 0j, moved as bytes (16-byte elements too)
    DispatchDTypeWithComplex(type_flag(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (kIsComplex<T>) {
        const T v(static_cast<typename T::value_type>(value), 0);
        ApplyNDArrays<1>(ops, [v](const StridedRun<1>& r) {
          const index_t step = r.contiguous ? static_cast<index_t>(sizeof(T)) : r.stride[0];
          for (index_t i = 0; i < r.n; ++i) std::memcpy(r.data[0] + i * step, &v, sizeof(T));
        });
      }
    });
    return;
  }
  DispatchDType(type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = detail::CastScalar<T>(value, "Fill");
    ApplyNDArrays<1>(ops, [v](const StridedRun<1>& r) { FillRun<T>(r, v); });
  });
}

}  // namespace shade
