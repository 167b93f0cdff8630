// The whole-tensor evaluators of the extensions (TensorEvaluator: patch2col, col2patch, pool,
// unpool, transpose/swapaxis, reshape, broadcast<dim>) against the element loop, which every
// other test_ext_* file checks against naive loops. `dst S= ext(tensors)` takes the evaluator;
// `dst S= ext(tensors) * 1` nests the extension in a map, so the element loop evaluates the
// same values: they must agree bit for bit, for the savers =, +=, -=, at 1 and 2 threads (the
// shapes exceed the threading grain), on odd, pitched shapes with strides, dilations, clipped
// borders and overlapping windows. A few direct naive checks of the CNN's layout copies too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "ext_test_util.h"
#include "shade/backend/cpu/parallel.h"
#include "shade/expr/ext/broadcast.h"
#include "shade/expr/ext/chpool.h"
#include "shade/expr/ext/patch2col.h"
#include "shade/expr/ext/pool.h"
#include "shade/expr/ext/reshape.h"
#include "shade/expr/ext/swapaxis.h"
#include "shade/expr/ext/transpose.h"
#include "shade/tensor/tensor_cpu.h"

namespace {

using namespace ext_test;     // NOLINT(build/namespaces)
using namespace shade::expr;  // NOLINT(build/namespaces)
namespace red = shade::red;

template <typename DType>
class FastPathTest : public ::testing::Test {
 protected:
  void TearDown() override { shade::SetNumThreads(saved_threads_); }
  int saved_threads_ = shade::GetNumThreads();
};
TYPED_TEST_SUITE(FastPathTest, ExtTypes);

/*! True when every element of a and b has the same bytes (and the padding is untouched). */
template <typename T, int dim>
::testing::AssertionResult SameBits(Buf<T, dim>& a, Buf<T, dim>& b) {
  if (!a.PaddingIntact() || !b.PaddingIntact())
    return ::testing::AssertionFailure() << "padding written";
  for (index_t k = 0; k < a.size(); ++k) {
    if (std::memcmp(&a.flat(k), &b.flat(k), sizeof(T)) != 0) {
      return ::testing::AssertionFailure()
             << "element " << k << ": " << +a.flat(k) << " vs " << +b.flat(k);
    }
  }
  return ::testing::AssertionSuccess();
}

/*!
 * Runs `eval(dst, saver, general)` for the savers 0 (=), 1 (+=), 2 (-=) with the evaluator
 * (general false, 1 and 2 threads) and the element loop (general true), starting from the same
 * destination contents each time, and checks the results are identical.
 */
template <typename T, int dim, typename Eval>
void CompareWithElementLoop(const Shape<dim>& dshape, index_t pad, Eval eval) {
  for (int saver = 0; saver < 3; ++saver) {
    Buf<T, dim> want(dshape, pad);
    want.FillSeq(13, -6);
    shade::SetNumThreads(1);
    eval(want.t, saver, true);
    for (int threads = 1; threads <= 2; ++threads) {
      shade::SetNumThreads(threads);
      Buf<T, dim> got(dshape, pad);
      got.FillSeq(13, -6);
      eval(got.t, saver, false);
      ASSERT_TRUE(SameBits(got, want)) << "saver " << saver << ", " << threads << " threads";
    }
  }
}

/*! dst S= e, S chosen by `saver` (0 =, 1 +=, 2 -=). */
template <typename Dst, typename E>
void Store(Dst& dst, int saver, const E& e) {  // NOLINT(runtime/references)
  if (saver == 0) dst = e;
  if (saver == 1) dst += e;
  if (saver == 2) dst -= e;
}
/*! Stores e through the evaluator, or nested in `* 1` (the element loop) when `general`. */
template <typename T, typename Dst, typename E>
void StoreEither(Dst& dst, int saver, bool general, const E& e) {  // NOLINT(runtime/references)
  if (general) {
    Store(dst, saver, e * T(1));
  } else {
    Store(dst, saver, e);
  }
}

// The direct paths' overlap test: ranges that touch are apart, any shared byte is not.
TEST(FastPathHelpers, RangesApart) {
  // Only addresses are compared; zeroed because gcc -O0 warns of passing uninitialized memory.
  unsigned char b[16] = {};
  EXPECT_TRUE(shade::expr::detail::RangesApart(b, b + 4, b + 4, b + 8));   // touching
  EXPECT_TRUE(shade::expr::detail::RangesApart(b + 8, b + 12, b, b + 8));  // touching, reversed
  EXPECT_FALSE(shade::expr::detail::RangesApart(b, b + 5, b + 4, b + 8));  // one byte shared
  EXPECT_FALSE(shade::expr::detail::RangesApart(b + 4, b + 8, b, b + 5));
  EXPECT_FALSE(shade::expr::detail::RangesApart(b, b + 16, b + 6, b + 7));  // contained
  EXPECT_TRUE(shade::expr::detail::RangesApart(b, b + 2, b + 9, b + 16));   // disjoint
}

TYPED_TEST(FastPathTest, Patch2ColAndCol2Patch) {
  using T = TypeParam;
  struct Case {
    Shape<4> img;
    index_t ky, kx, sy, sx, dy, dx;
  };
  const Case cases[] = {{Shape4(9, 3, 17, 13), 3, 2, 1, 1, 1, 1},
                        {Shape4(7, 2, 19, 23), 4, 3, 2, 3, 1, 2},
                        {Shape4(5, 4, 21, 18), 2, 5, 3, 1, 3, 1},
                        // Planes large enough for two chunks at two threads, the second
                        // starting at image 2 of a column-matrix row: short-run copies (28
                        // wide) and longer rows (38 wide).
                        {Shape4(5, 1, 60, 30), 3, 3, 1, 1, 1, 1},
                        {Shape4(5, 1, 40, 40), 3, 3, 1, 1, 1, 1},
                        // col2patch planes of 33 KB (float): blocks of 3 images and a last
                        // block of 2 (1 image per block for 8-byte types).
                        {Shape4(5, 2, 64, 130), 3, 3, 1, 1, 1, 1}};
  for (const Case& c : cases) {
    Buf<T, 4> img(c.img, 3);
    img.FillRandom(7, -50, 50);
    const index_t oh = (c.img[2] - (c.dy * (c.ky - 1) + 1)) / c.sy + 1;
    const index_t ow = (c.img[3] - (c.dx * (c.kx - 1) + 1)) / c.sx + 1;
    const Shape<2> cs = Shape2(c.img[1] * c.ky * c.kx, c.img[0] * oh * ow);
    CompareWithElementLoop<T, 2>(cs, 2, [&](Tensor<cpu, 2, T>& dst, int saver, bool general) {
      StoreEither<T>(dst, saver, general,
                     unpack_patch2col(img.t, c.ky, c.kx, c.sy, c.sx, c.dy, c.dx));
    });
    Buf<T, 2> col(cs, 1);
    col.FillRandom(8, -50, 50);
    // Padded rows (summed in a buffer) and dense ones (`=` sums in the image itself).
    for (index_t pad : {3, 0}) {
      CompareWithElementLoop<T, 4>(
          c.img, pad, [&](Tensor<cpu, 4, T>& dst, int saver, bool general) {
            StoreEither<T>(dst, saver, general,
                           pack_col2patch(col.t, c.img, c.ky, c.kx, c.sy, c.sx, c.dy, c.dx));
          });
    }
  }
}

// col2patch of every image width up to past one AVX-512 vector of floats and some far wider,
// with kernels up to the width, vertical strides and dilations: the packet rows and the blocks
// must give the element loop's bits (the same additions in the same order), whatever the row
// length.
TYPED_TEST(FastPathTest, Col2PatchEveryWidthAndKernel) {
  using T = TypeParam;
  // Every width to 18, then patch rows of 19 to 90 elements: 1 to 4 full packets of 4, 8 or 16
  // lanes (a fixed count) or more (a counted loop), with and without a half packet and single
  // elements after them.
  std::vector<index_t> widths;
  for (index_t width = 1; width <= 18; ++width) widths.push_back(width);
  for (index_t width : {23, 29, 36, 41, 52, 67, 90}) widths.push_back(width);
  for (index_t width : widths) {
    for (index_t kx = 1; kx <= std::min<index_t>(width, 5); kx += 2) {
      // (stride, dilation) down the rows: (1, 1) takes the packet rows where the width fits
      // a packet (in pairs where two patch rows fit one; heights 9 and 10 give an odd and an
      // even number of patch rows), (1, 2) and (2, 1) the blocks.
      for (index_t case_id = 0; case_id < 4; ++case_id) {
        const index_t ky = 3, sy = case_id == 2 ? 2 : 1, dy = case_id == 1 ? 2 : 1;
        const index_t height = case_id == 3 ? 10 : 9;
        const Shape<4> ishape = Shape4(2, 3, height, width);
        const index_t oh = (height - (dy * (ky - 1) + 1)) / sy + 1;
        const index_t ow = width - kx + 1;
        Buf<T, 2> col(Shape2(3 * ky * kx, 2 * oh * ow), 1);
        col.FillRandom(static_cast<unsigned>(width * 7 + kx), -50, 50);
        for (index_t pad : {2, 0}) {
          CompareWithElementLoop<T, 4>(
              ishape, pad, [&](Tensor<cpu, 4, T>& dst, int saver, bool general) {
                StoreEither<T>(dst, saver, general,
                               pack_col2patch(col.t, ishape, ky, kx, sy, 1, dy, 1));
              });
        }
      }
    }
  }
}

// im2col's row copies of every short length (every size class of the fixed-size moves up to
// 128 bytes, and the general copy above), for each element size of ExtTypes.
TYPED_TEST(FastPathTest, Patch2ColEveryRunLength) {
  using T = TypeParam;
  for (index_t width = 1; width <= 40; ++width) {
    const Shape<4> ishape = Shape4(3, 2, 5, width);
    Buf<T, 4> img(ishape, 1);
    img.FillRandom(11, -50, 50);
    const Shape<2> cs = Shape2(2 * 2 * 1, 3 * 4 * width);
    CompareWithElementLoop<T, 2>(cs, 1, [&](Tensor<cpu, 2, T>& dst, int saver, bool general) {
      StoreEither<T>(dst, saver, general, unpack_patch2col(img.t, 2, 1, 1, 1, 1, 1));
    });
  }
}

TYPED_TEST(FastPathTest, PoolAndUnpool) {
  using T = TypeParam;
  struct Case {
    Shape<4> src;
    index_t ky, kx, sy, sx;
  };
  const Case cases[] = {{Shape4(6, 9, 24, 22), 2, 2, 2, 2},   // the CNN's pooling
                        {Shape4(3, 4, 9, 37), 2, 2, 2, 2},    // 2x2/2 rows of 18 windows: every
                                                              // packet width, a scalar rest, a
                                                              // trailing row and column
                        {Shape4(2, 3, 8, 8), 2, 2, 2, 2},     // the CNN's second pooling (4 wide)
                        {Shape4(1, 3, 10, 8), 2, 2, 2, 2},    // 15 pooled rows of 4: groups of
                                                              // four (or two) rows and a rest
                        {Shape4(3, 1, 6, 5), 2, 2, 2, 2},     // 2 windows and a trailing column
                        {Shape4(2, 3, 6, 15), 2, 2, 2, 2},    // 7 windows: one masked packet
                                                              // per row (AVX2; double on AVX-512)
                        {Shape4(2, 3, 6, 58), 2, 2, 2, 2},    // 29 windows: 16 + 8 + 4 + 1
                        {Shape4(2, 5, 10, 24), 2, 2, 2, 2},   // 12 and 18 windows: rows in
                        {Shape4(3, 1, 10, 36), 2, 2, 2, 2},   // pairs where they are whole
                        {Shape4(1, 3, 6, 48), 2, 2, 2, 2},    // packets and a half (and 24)
                        {Shape4(2, 3, 11, 70), 3, 2, 3, 2},   // 2-wide windows 3 rows high
                        {Shape4(5, 7, 23, 19), 3, 2, 2, 3},   // trailing rows / columns unpooled
                        {Shape4(4, 9, 17, 20), 3, 3, 1, 2},   // overlapping windows
                        {Shape4(3, 5, 20, 23), 2, 3, 3, 4}};  // gaps between windows
  for (const Case& c : cases) {
    Buf<T, 4> src(c.src, 2);
    src.FillSeq(7, -3);  // many ties inside windows
    const index_t ph = (c.src[2] - c.ky) / c.sy + 1;  // mshadow's spatial_pool.h
    const index_t pw = (c.src[3] - c.kx) / c.sx + 1;
    const Shape<4> ps = Shape4(c.src[0], c.src[1], ph, pw);
    Buf<T, 4> pmax(ps, 1), psum(ps, 1), pavg(ps, 1), grad(ps, 2);
    pmax.t = pool<red::maximum>(src.t * T(1), c.ky, c.kx, c.sy, c.sx);
    psum.t = pool<red::sum>(src.t * T(1), c.ky, c.kx, c.sy, c.sx);
    pavg.t = pool<red::avg>(src.t * T(1), c.ky, c.kx, c.sy, c.sx);
    grad.FillRandom(3, -4, 4);
    // Padded and dense destinations: a dense one whose rows are a quarter (a half) of a packet
    // takes four (two) pooled rows per packet.
    for (index_t pad : {1, 0}) {
      CompareWithElementLoop<T, 4>(ps, pad, [&](Tensor<cpu, 4, T>& dst, int saver, bool general) {
        StoreEither<T>(dst, saver, general, pool<red::maximum>(src.t, c.ky, c.kx, c.sy, c.sx));
      });
      CompareWithElementLoop<T, 4>(
          ps, pad + 1, [&](Tensor<cpu, 4, T>& dst, int saver, bool general) {
            StoreEither<T>(dst, saver, general, pool<red::sum>(src.t, c.ky, c.kx, c.sy, c.sx));
          });
    }
    CompareWithElementLoop<T, 4>(ps, 0, [&](Tensor<cpu, 4, T>& dst, int saver, bool general) {
      StoreEither<T>(dst, saver, general, pool<red::avg>(src.t, c.ky, c.kx, c.sy, c.sx));
    });
    CompareWithElementLoop<T, 4>(c.src, 3, [&](Tensor<cpu, 4, T>& dst, int saver, bool general) {
      StoreEither<T>(dst, saver, general,
                     unpool<red::maximum>(src.t, pmax.t, grad.t, c.ky, c.kx, c.sy, c.sx));
    });
    CompareWithElementLoop<T, 4>(c.src, 1, [&](Tensor<cpu, 4, T>& dst, int saver, bool general) {
      StoreEither<T>(dst, saver, general,
                     unpool<red::sum>(src.t, psum.t, grad.t, c.ky, c.kx, c.sy, c.sx));
    });
    CompareWithElementLoop<T, 4>(c.src, 2, [&](Tensor<cpu, 4, T>& dst, int saver, bool general) {
      StoreEither<T>(dst, saver, general,
                     unpool<red::avg>(src.t, pavg.t, grad.t, c.ky, c.kx, c.sy, c.sx));
    });
    // Dense source, pooled values, gradient and destination: where a source row is half a
    // packet, unpool takes four pooled rows per packet.
    Buf<T, 4> dense_src(c.src, 0), dense_max(ps, 0), dense_sum(ps, 0), dense_grad(ps, 0);
    dense_src.t = src.t * T(1);
    dense_max.t = pmax.t * T(1);
    dense_sum.t = psum.t * T(1);
    dense_grad.t = grad.t * T(1);
    CompareWithElementLoop<T, 4>(c.src, 0, [&](Tensor<cpu, 4, T>& dst, int saver, bool general) {
      StoreEither<T>(
          dst, saver, general,
          unpool<red::maximum>(dense_src.t, dense_max.t, dense_grad.t, c.ky, c.kx, c.sy, c.sx));
    });
    CompareWithElementLoop<T, 4>(c.src, 0, [&](Tensor<cpu, 4, T>& dst, int saver, bool general) {
      StoreEither<T>(
          dst, saver, general,
          unpool<red::sum>(dense_src.t, dense_sum.t, dense_grad.t, c.ky, c.kx, c.sy, c.sx));
    });
  }
}

// Max and sum pooling and their gradients over NaN, inf and signed zeros: the packet paths of
// 2x2/2 windows must keep the element loop's tie and NaN rules bit for bit (max of 0 and -0
// keeps the first; a NaN never wins; 0 * inf is NaN in the gradient).
TYPED_TEST(FastPathTest, PoolSpecialValues) {
  using T = TypeParam;
  if constexpr (std::is_floating_point<T>::value) {
    const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
    // no -inf: inf + -inf makes the negative default NaN, and which of two different NaNs an
    // addition returns depends on operand order, which the compiler may swap
    const T specials[] = {T(0), -T(0), nan, inf, T(2), T(1), -T(1), T(0.5)};
    // Rows of 18 windows from a padded source into padded destinations; rows of 12, 8, 4 and 2
    // dense throughout (pool: four or two pooled rows per packet where a source row is half a
    // packet or one; unpool: a pair of source rows as whole packets, one, two or three).
    for (index_t width : {36, 24, 16, 8, 4}) {
      const Shape<4> ss = Shape4(3, 5, 10, width), ps = Shape4(3, 5, 5, width / 2);
      const index_t dst_pad = width == 36 ? 1 : 0;
      Buf<T, 4> src(ss, dst_pad), grad(ps, 0), pmax(ps, 0), psum(ps, 0);
      std::uint32_t state = 12345;
      auto next = [&state] { return (state = state * 1664525u + 1013904223u) >> 16; };
      for (index_t k = 0; k < src.size(); ++k) src.flat(k) = specials[next() % 8];
      for (index_t k = 0; k < grad.size(); ++k) grad.flat(k) = specials[next() % 8];
      pmax.t = pool<red::maximum>(src.t * T(1), 2, 2, 2, 2);
      psum.t = pool<red::sum>(src.t * T(1), 2, 2, 2, 2);
      for (auto* pooled : {&pmax, &psum}) {
        const bool is_max = pooled == &pmax;
        CompareWithElementLoop<T, 4>(
            ps, dst_pad, [&](Tensor<cpu, 4, T>& dst, int saver, bool general) {
              if (is_max) {
                StoreEither<T>(dst, saver, general, pool<red::maximum>(src.t, 2, 2, 2, 2));
              } else {
                StoreEither<T>(dst, saver, general, pool<red::sum>(src.t, 2, 2, 2, 2));
              }
            });
        CompareWithElementLoop<T, 4>(
            ss, 2 * dst_pad, [&](Tensor<cpu, 4, T>& dst, int saver, bool general) {
              if (is_max) {
                StoreEither<T>(dst, saver, general,
                               unpool<red::maximum>(src.t, pooled->t, grad.t, 2, 2, 2, 2));
              } else {
                StoreEither<T>(dst, saver, general,
                               unpool<red::sum>(src.t, pooled->t, grad.t, 2, 2, 2, 2));
              }
            });
      }
    }
  }
}

// Channel pooling over dense planes (a plane is one row) and padded rows (row by row), odd and
// even windows, strides and pads, windows that are clipped or lie wholly in the padding; the
// specials keep the element loop's NaN and signed-zero rules (max keeps the first of equals).
TYPED_TEST(FastPathTest, ChannelPool) {
  using T = TypeParam;
  struct Case {
    Shape<4> src;
    index_t nsize, stride, pad;
  };
  const Case cases[] = {{Shape4(3, 7, 5, 9), 3, 1, 1},
                        {Shape4(2, 6, 4, 16), 5, 2, 1},
                        {Shape4(2, 5, 3, 37), 4, 1, 3},
                        {Shape4(1, 9, 6, 6), 1, 1, 0},
                        {Shape4(2, 4, 2, 3), 2, 3, 2},
                        {Shape4(4, 16, 8, 8), 5, 1, 2},
                        // Two chunks at two threads, the second starting inside an image (and,
                        // row by row, inside a plane).
                        {Shape4(3, 7, 41, 33), 3, 1, 1}};
  const T specials[] = {T(0), T(-0.0), T(2), T(1), T(-1), T(0.5), T(3), T(-2)};
  for (const Case& c : cases) {
    const index_t pc = (c.src[1] + 2 * c.pad - c.nsize) / c.stride + 1;
    const Shape<4> ps = Shape4(c.src[0], pc, c.src[2], c.src[3]);
    // A window wholly in the padding gives max's initial value, the type's lowest: for integers
    // `+=` and `-=` of it would overflow (undefined), so max runs only where no window is empty.
    bool empty_window = false;
    for (index_t o = 0; o < pc; ++o) {
      const index_t start = o * c.stride - c.pad;
      empty_window |= std::min(start + c.nsize, c.src[1]) <= std::max<index_t>(start, 0);
    }
    const bool run_max = std::is_floating_point<T>::value || !empty_window;
    for (index_t pad : {0, 2}) {
      Buf<T, 4> src(c.src, pad);
      src.FillSeq(11, -5);  // ties inside windows
      if constexpr (std::is_floating_point<T>::value) {
        std::uint32_t state = 7;
        for (index_t k = 0; k < src.size(); k += 3) {
          state = state * 1664525u + 1013904223u;
          src.flat(k) = (state >> 20) % 9 == 0 ? std::numeric_limits<T>::quiet_NaN()
                                               : specials[(state >> 16) % 8];
        }
      }
      if (run_max) {
        CompareWithElementLoop<T, 4>(ps, pad, [&](Tensor<cpu, 4, T>& dst, int saver, bool general) {
          StoreEither<T>(dst, saver, general,
                         chpool<red::maximum>(src.t, c.nsize, c.stride, c.pad));
        });
      }
      CompareWithElementLoop<T, 4>(ps, pad, [&](Tensor<cpu, 4, T>& dst, int saver, bool general) {
        StoreEither<T>(dst, saver, general, chpool<red::sum>(src.t, c.nsize, c.stride, c.pad));
      });
    }
  }
}

/*! A dense tensor in 64-byte aligned memory (AllocSpace without row padding), freed on exit. */
template <typename T, int dim>
struct AlignedDense {
  Tensor<cpu, dim, T> t;
  explicit AlignedDense(const Shape<dim>& s) : t(s) { shade::AllocSpace(&t, false); }
  ~AlignedDense() { shade::FreeSpace(&t); }
  AlignedDense(const AlignedDense&) = delete;
  AlignedDense& operator=(const AlignedDense&) = delete;
};

// From kernel::kStreamingStoreBytes (64 MiB read and written) on, chpool and the dense 2x2 unpool
// store `=` results with non-temporal stores into aligned destinations: the same bits as the
// element loop, whole and split over 2 threads. Below it (every other test here) they do not.
TEST(FastPathStreaming, ChannelPoolAndUnpoolAboveTheThreshold) {
  using T = float;
  struct RestoreThreads {
    int saved = shade::GetNumThreads();
    ~RestoreThreads() { shade::SetNumThreads(saved); }
  } restore;
  {
    const Shape<4> cs = Shape4(32, 64, 64, 64);  // chpool: 32 MiB read, 32 MiB written
    ASSERT_GE(index_t(2 * cs.Size() * sizeof(T)), shade::kernel::kStreamingStoreBytes);
    AlignedDense<T, 4> src(cs), want(cs), got(cs);
    for (index_t k = 0; k < index_t(cs.Size()); ++k) src.t.dptr_[k] = T((k * 37 + 11) % 97 - 40);
    shade::SetNumThreads(1);
    want.t = chpool<red::sum>(src.t, 5, 1, 2) * T(1);  // the element loop
    for (int threads = 1; threads <= 2; ++threads) {
      shade::SetNumThreads(threads);
      got.t = chpool<red::sum>(src.t, 5, 1, 2);
      ASSERT_EQ(0, std::memcmp(got.t.dptr_, want.t.dptr_, sizeof(T) * cs.Size()))
          << "chpool, " << threads << " threads";
    }
  }
  // unpool of 2x2/2 max pooling over 24-wide planes: 2.5 x 27 MiB moved.
  const Shape<4> us = Shape4(256, 48, 24, 24), ps = Shape4(256, 48, 12, 12);
  ASSERT_GE(index_t(5 * us.Size() / 2 * sizeof(T)), shade::kernel::kStreamingStoreBytes);
  AlignedDense<T, 4> in(us), pooled(ps), grad(ps), want(us), got(us);
  for (index_t k = 0; k < index_t(us.Size()); ++k) in.t.dptr_[k] = T((k * 29 + 5) % 13);  // ties
  for (index_t k = 0; k < index_t(ps.Size()); ++k) grad.t.dptr_[k] = T((k * 7 + 3) % 11 - 5);
  pooled.t = pool<red::maximum>(in.t, 2, 2, 2, 2);
  shade::SetNumThreads(1);
  want.t = unpool<red::maximum>(in.t, pooled.t, grad.t, 2, 2, 2, 2) * T(1);
  for (int threads = 1; threads <= 2; ++threads) {
    shade::SetNumThreads(threads);
    got.t = unpool<red::maximum>(in.t, pooled.t, grad.t, 2, 2, 2, 2);
    ASSERT_EQ(0, std::memcmp(got.t.dptr_, want.t.dptr_, sizeof(T) * us.Size()))
        << "unpool, " << threads << " threads";
  }
}

TYPED_TEST(FastPathTest, TransposeSwapaxisReshape) {
  using T = TypeParam;
  Buf<T, 4> src(Shape4(7, 11, 13, 29), 3);
  src.FillRandom(5, -100, 100);
  // last axis kept (block copies) and moved (strided gather, dense source only)
  const Shape<4> perms[] = {Shape4(1, 0, 2, 3), Shape4(2, 0, 1, 3), Shape4(0, 3, 2, 1),
                            Shape4(3, 2, 1, 0)};
  for (const Shape<4>& axes : perms) {
    Shape<4> rs;
    for (int k = 0; k < 4; ++k) rs[k] = src.t.shape_[axes[k]];
    CompareWithElementLoop<T, 4>(rs, 2, [&](Tensor<cpu, 4, T>& dst, int saver, bool general) {
      StoreEither<T>(dst, saver, general, transpose(src.t, axes));
    });
    Buf<T, 4> dense(src.t.shape_, 0);
    dense.t = src.t * T(1);
    CompareWithElementLoop<T, 4>(rs, 1, [&](Tensor<cpu, 4, T>& dst, int saver, bool general) {
      StoreEither<T>(dst, saver, general, transpose(dense.t, axes));
    });
  }
  // the CNN's two layout changes: (C, N*P) <-> (N, C, P), dense and pitched, into dense and
  // pitched destinations (a pitched one with another last extent takes the element loop)
  const index_t C = 5, N = 37, H = 7, W = 9;
  for (index_t pad : {0, 2}) {
    Buf<T, 2> gemm(Shape2(C, N * H * W), pad);
    gemm.FillRandom(9, -100, 100);
    CompareWithElementLoop<T, 4>(
        Shape4(N, C, H, W), pad, [&](Tensor<cpu, 4, T>& dst, int saver, bool general) {
          StoreEither<T>(dst, saver, general, swapaxis<1, 0>(reshape(gemm.t, Shape4(C, N, H, W))));
        });
    Buf<T, 4> nchw(Shape4(N, C, H, W), pad);
    nchw.FillRandom(10, -100, 100);
    for (index_t dpad : {0, 1}) {
      CompareWithElementLoop<T, 2>(
          Shape2(C, N * H * W), dpad, [&](Tensor<cpu, 2, T>& dst, int saver, bool general) {
            StoreEither<T>(dst, saver, general, reshape(swapaxis<1, 0>(nchw.t), dst.shape_));
          });
    }
    // against the naive copy
    Buf<T, 4> out(Shape4(N, C, H, W), 1);
    out.t = swapaxis<1, 0>(reshape(gemm.t, Shape4(C, N, H, W)));
    for (index_t n = 0; n < N; ++n)
      for (index_t c = 0; c < C; ++c)
        for (index_t p = 0; p < H * W; ++p)
          ASSERT_EQ(out.at({n, c, p / W, p % W}), gemm.at({c, n * H * W + p}));
  }
  // a reshape of an expression (evaluated into the destination's view by the packet loop:
  // an exact negation, since a fused multiply-add there may round differently from the
  // element loop) and of a reshape
  CompareWithElementLoop<T, 3>(
      Shape3(7, 11, 13 * 29), 0, [&](Tensor<cpu, 3, T>& dst, int saver, bool general) {
        StoreEither<T>(dst, saver, general,
                       reshape(reshape(-src.t, Shape2(7 * 11, 13 * 29)), dst.shape_));
      });
}

TYPED_TEST(FastPathTest, Broadcast) {
  using T = TypeParam;
  Buf<T, 1> bias(Shape1(23), 0);
  bias.FillRandom(4, -9, 9);
  CompareWithElementLoop<T, 4>(
      Shape4(17, 23, 11, 13), 2, [&](Tensor<cpu, 4, T>& dst, int saver, bool general) {
        StoreEither<T>(dst, saver, general, broadcast<1>(bias.t, dst.shape_));
      });
  CompareWithElementLoop<T, 3>(
      Shape3(41, 37, 23), 1, [&](Tensor<cpu, 3, T>& dst, int saver, bool general) {
        StoreEither<T>(dst, saver, general, broadcast<2>(bias.t, dst.shape_));
      });
  CompareWithElementLoop<T, 2>(
      Shape2(23, 1601), 3, [&](Tensor<cpu, 2, T>& dst, int saver, bool general) {
        StoreEither<T>(dst, saver, general, broadcast<0>(bias.t, dst.shape_));
      });
  // the general broadcasts (StepGatherInto): inserted, kept-dim and last-axis broadcasts
  Buf<T, 3> m(Shape3(7, 1, 29), 0);
  m.FillRandom(6, -9, 9);
  CompareWithElementLoop<T, 4>(
      Shape4(7, 31, 1, 29), 2, [&](Tensor<cpu, 4, T>& dst, int saver, bool general) {
        StoreEither<T>(dst, saver, general, broadcast_with_axis(m.t, 0, 31));
      });
  CompareWithElementLoop<T, 3>(
      Shape3(7, 301, 29), 1, [&](Tensor<cpu, 3, T>& dst, int saver, bool general) {
        StoreEither<T>(dst, saver, general, broadcast_keepdim(m.t, 1, 301));
      });
  Buf<T, 3> col(Shape3(41, 17, 1), 0);
  col.FillRandom(2, -9, 9);
  CompareWithElementLoop<T, 3>(
      Shape3(41, 17, 53), 3, [&](Tensor<cpu, 3, T>& dst, int saver, bool general) {
        StoreEither<T>(dst, saver, general, broadcast_keepdim(col.t, 2, 53));
      });
  Buf<T, 4> out(Shape4(3, 23, 2, 5), 1);
  out.t = broadcast<1>(bias.t, out.t.shape_);
  for (index_t k = 0; k < out.size(); ++k) ASSERT_EQ(out.flat(k), bias.flat((k / 10) % 23));
}

}  // namespace
