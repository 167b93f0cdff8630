// The static front end on the gpu (tensor/tensor_gpu.h, tensor_gpu.cuh): memory, copies,
// streams, elementwise expressions, products and sums, each checked against the cpu path or a
// naive loop. Without a CUDA device the device tests report "skipped: no CUDA device"; the
// argument checks that fail before any device work run everywhere.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "shade/backend/cuda/runtime.h"
#include "shade/compat/mshadow.h"
#include "shade/expr/expression.h"
#include "shade/functor/op.h"
#include "shade/memory/allocator.h"
#include "shade/tensor/tensor.h"
#include "shade/tensor/tensor_cpu.h"
#include "shade/tensor/tensor_gpu.cuh"
#include "shade/tensor/tensor_gpu.h"

namespace {

using shade::cpu;
using shade::gpu;
using shade::index_t;
using shade::Shape1;
using shade::Shape2;
using shade::Shape3;
using shade::Shape4;
using shade::Tensor;
using shade::TensorContainer;
namespace op = shade::op;
using shade::expr::F;

// Device tests: skipped by name without a device.
class Gpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (shade::cuda::DeviceCount() == 0) GTEST_SKIP() << "skipped: no CUDA device";
    shade::InitTensorEngine<gpu>(0);
  }
};

// Deterministic values in [-2, 2] (never 0 when `nonzero`), on every element of a cpu tensor.
template <int dim, typename T>
void Fill(Tensor<cpu, dim, T> t, int seed, bool nonzero = false) {
  Tensor<cpu, 2, T> f = t.FlatTo2D();
  std::uint32_t s = 2654435761u * static_cast<std::uint32_t>(seed + 1);
  for (index_t y = 0; y < f.size(0); ++y) {
    for (index_t x = 0; x < f.size(1); ++x) {
      s = s * 1664525u + 1013904223u;
      double v = static_cast<double>(s >> 8) / static_cast<double>(1u << 24) * 4.0 - 2.0;
      if (nonzero && std::fabs(v) < 0.25) v = v < 0 ? -0.5 : 0.5;
      f[y][x] = static_cast<T>(std::is_integral<T>::value ? std::round(v * 10) : v);
    }
  }
}

// A gpu tensor holding a copy of `host` (pitched when `pad`); free with FreeSpace.
template <int dim, typename T>
Tensor<gpu, dim, T> Upload(const Tensor<cpu, dim, T>& host, bool pad = true) {
  Tensor<gpu, dim, T> d(host.shape_);
  shade::AllocSpace(&d, pad);
  shade::Copy(d, host);
  return d;
}

// The elements of a gpu tensor, via a synchronous copy into a dense host container.
template <int dim, typename T>
std::vector<T> Download(const Tensor<gpu, dim, T>& d) {
  SHADE_CUDA_CALL(cudaDeviceSynchronize());
  TensorContainer<cpu, dim, T> h(d.shape_, false);
  shade::Copy(Tensor<cpu, dim, T>(h), d);
  return std::vector<T>(h.dptr_, h.dptr_ + h.shape_.Size());
}
template <int dim, typename T>
std::vector<T> Flat(const Tensor<cpu, dim, T>& h) {
  std::vector<T> out;
  Tensor<cpu, 2, T> f = h.FlatTo2D();
  for (index_t y = 0; y < f.size(0); ++y)
    for (index_t x = 0; x < f.size(1); ++x) out.push_back(f[y][x]);
  return out;
}
// |a - b| <= tol * max(1, |b|) elementwise.
template <typename T>
void ExpectNear(const std::vector<T>& got, const std::vector<T>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = static_cast<double>(got[i]), w = static_cast<double>(want[i]);
    ASSERT_LE(std::fabs(g - w), tol * std::fmax(1.0, std::fabs(w))) << "element " << i;
  }
}

// ---- argument checks that run without a device -----------------------------------------

TEST(GpuArgs, CopyShapeMismatchThrowsBeforeDeviceWork) {
  Tensor<gpu, 2, float> d(reinterpret_cast<float*>(16), Shape2(2, 3));
  std::vector<float> h(8);
  Tensor<cpu, 2, float> hc(h.data(), Shape2(2, 4));
  EXPECT_THROW(shade::Copy(d, hc), shade::ShapeError);
  EXPECT_THROW(shade::Copy(hc, d), shade::ShapeError);
  Tensor<gpu, 2, float> d2(reinterpret_cast<float*>(16), Shape2(3, 2));
  EXPECT_THROW(shade::Copy(d, d2), shade::ShapeError);
}

TEST(GpuArgs, SumShapeMismatchThrows) {
  Tensor<gpu, 2, float> src(reinterpret_cast<float*>(16), Shape2(4, 5));
  Tensor<gpu, 1, float> dst(reinterpret_cast<float*>(16), Shape1(4));
  EXPECT_THROW(shade::ReduceSumRows(dst, src), shade::ShapeError);
  Tensor<gpu, 1, float> dst5(reinterpret_cast<float*>(16), Shape1(5));
  EXPECT_THROW(shade::ReduceSumCols(dst5, src), shade::ShapeError);
}

TEST(GpuArgs, BadDeviceAndDnnHandleThrow) {
  EXPECT_THROW(shade::InitTensorEngine<gpu>(shade::cuda::DeviceCount() + 3), shade::Error);
  EXPECT_THROW(shade::NewStream<gpu>(true, true), shade::NotImplementedError);
  try {
    shade::SetDevice<gpu>(-1);
    FAIL() << "SetDevice(-1) did not throw";
  } catch (const shade::Error& e) {
    EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos) << e.what();
  }
}

TEST(GpuArgs, AllocationCapAppliesToDeviceMemory) {
  const std::size_t old = shade::SetMaxAllocationBytes(1024);
  Tensor<gpu, 2, float> t(Shape2(100, 100));
  EXPECT_THROW(shade::AllocSpace(&t), shade::Error);
  EXPECT_THROW(shade::AllocSpace(&t, false), shade::Error);
  Tensor<gpu, 2, float> neg(Shape2(-1, 4));
  EXPECT_THROW(shade::AllocSpace(&neg), shade::Error);
  shade::SetMaxAllocationBytes(old);
}

// ---- memory and copies --------------------------------------------------------------------

TEST_F(Gpu, AllocPitchedAndCopyRoundTrip) {
  TensorContainer<cpu, 3, float> h(Shape3(3, 5, 37));  // padded host rows
  Fill(Tensor<cpu, 3, float>(h), 1);
  const std::uint64_t before = shade::cuda::DeviceAllocationCount();
  Tensor<gpu, 3, float> a = Upload(Tensor<cpu, 3, float>(h));
  EXPECT_GE(a.stride_, 37);
  EXPECT_EQ(a.stride_ * static_cast<index_t>(sizeof(float)) % 128, 0) << "pitched rows";
  EXPECT_TRUE(shade::cuda::IsDevicePointer(a.dptr_));
  Tensor<gpu, 3, float> b(h.shape_);
  shade::AllocSpace(&b, false);  // dense: a gpu -> gpu copy between different pitches
  EXPECT_EQ(b.stride_, 37);
  EXPECT_EQ(shade::cuda::DeviceAllocationCount(), before + 2);
  shade::Copy(b, a);
  EXPECT_EQ(Download(b), Flat(Tensor<cpu, 3, float>(h)));
  shade::FreeSpace(&a);
  shade::FreeSpace(&b);
  EXPECT_EQ(a.dptr_, nullptr);
  Tensor<gpu, 2, double> empty(Shape2(0, 7));
  shade::AllocSpace(&empty);
  shade::FreeSpace(&empty);
}

TEST_F(Gpu, StreamsPinnedAsyncCopies) {
  shade::Stream<gpu>* s = shade::NewStream<gpu>(true, false, 0);
  ASSERT_NE(s->stream_, nullptr);
  ASSERT_NE(s->blas_handle_, nullptr);
  Tensor<cpu, 2, float> pin(Shape2(64, 100));
  shade::AllocHostPinned(&pin);
  Fill(pin, 2);
  Tensor<gpu, 2, float> d(Shape2(64, 100));
  d.set_stream(s);
  shade::AllocSpace(&d);
  shade::Copy(d, pin, s);
  d = d * 2.0f;
  Tensor<cpu, 2, float> back(Shape2(64, 100));
  shade::AllocHostPinned(&back);
  shade::Copy(back, d, s);
  s->Wait();
  EXPECT_TRUE(s->CheckIdle());
  for (index_t i = 0; i < 64; ++i)
    for (index_t j = 0; j < 100; ++j) ASSERT_EQ(back[i][j], 2.0f * pin[i][j]);
  shade::FreeSpace(&d);
  shade::FreeHostPinned(&pin);
  shade::FreeHostPinned(&back);
  shade::DeleteStream(s);
}

// ---- elementwise expressions against the cpu path ------------------------------------------

template <typename T>
void CheckElementwise(bool pad) {
  TensorContainer<cpu, 2, T> ha(Shape2(33, 130)), hb(Shape2(33, 130)), want(Shape2(33, 130));
  Fill(Tensor<cpu, 2, T>(ha), 3);
  Fill(Tensor<cpu, 2, T>(hb), 4, true);
  Tensor<gpu, 2, T> a = Upload(Tensor<cpu, 2, T>(ha), pad), b = Upload(Tensor<cpu, 2, T>(hb), pad);
  Tensor<gpu, 2, T> out(ha.shape_);
  shade::AllocSpace(&out, pad);
  double tol = 0;
  if constexpr (std::is_floating_point<T>::value) {
    want = ha * hb + F<op::exp>(ha) - ha / hb;
    out = a * b + F<op::exp>(a) - a / b;
    tol = std::is_same<T, float>::value ? 4e-6 : 1e-14;
  } else {
    want = ha * hb + ha - hb * T(3);
    out = a * b + a - b * T(3);
  }
  ExpectNear(Download(out), Flat(Tensor<cpu, 2, T>(want)), tol);
  // Savers and scalars.
  want += ha * T(2);
  out += a * T(2);
  want -= hb;
  out -= b;
  want *= T(3);
  out *= T(3);
  ExpectNear(Download(out), Flat(Tensor<cpu, 2, T>(want)), tol * 4);
  out = T(7);
  ExpectNear(Download(out), std::vector<T>(33 * 130, T(7)), 0);
  shade::FreeSpace(&a);
  shade::FreeSpace(&b);
  shade::FreeSpace(&out);
}

TEST_F(Gpu, ElementwiseFloatDense) {
  CheckElementwise<float>(false);
}
TEST_F(Gpu, ElementwiseFloatPitched) {
  CheckElementwise<float>(true);
}
TEST_F(Gpu, ElementwiseDoublePitched) {
  CheckElementwise<double>(true);
}
TEST_F(Gpu, ElementwiseInt32Dense) {
  CheckElementwise<std::int32_t>(false);
}

TEST_F(Gpu, TypecastTransposeRanksAndEmpty) {
  TensorContainer<cpu, 2, std::int32_t> hi(Shape2(17, 9));
  Fill(Tensor<cpu, 2, std::int32_t>(hi), 5);
  Tensor<gpu, 2, std::int32_t> di = Upload(Tensor<cpu, 2, std::int32_t>(hi));
  TensorContainer<cpu, 2, float> want(Shape2(9, 17));
  want = shade::expr::tcast<float>(hi.T()) * 0.5f;
  Tensor<gpu, 2, float> out(Shape2(9, 17));
  shade::AllocSpace(&out);
  out = shade::expr::tcast<float>(di.T()) * 0.5f;
  EXPECT_EQ(Download(out), Flat(Tensor<cpu, 2, float>(want)));
  // Rank 1 and rank 4 (rows joined when unpadded).
  TensorContainer<cpu, 1, float> h1(Shape1(1000));
  Fill(Tensor<cpu, 1, float>(h1), 6);
  Tensor<gpu, 1, float> d1 = Upload(Tensor<cpu, 1, float>(h1));
  d1 = F<op::square>(d1) + 1.0f;
  TensorContainer<cpu, 1, float> w1(Shape1(1000));
  w1 = F<op::square>(h1) + 1.0f;
  EXPECT_EQ(Download(d1), Flat(Tensor<cpu, 1, float>(w1)));
  TensorContainer<cpu, 4, float> h4(Shape4(2, 3, 4, 5));
  Fill(Tensor<cpu, 4, float>(h4), 7);
  Tensor<gpu, 4, float> d4 = Upload(Tensor<cpu, 4, float>(h4), false);
  d4 = F<op::maximum>(d4, shade::expr::scalar(0.0f)) - d4;
  TensorContainer<cpu, 4, float> w4(h4.shape_);
  w4 = F<op::maximum>(h4, shade::expr::scalar(0.0f)) - h4;
  EXPECT_EQ(Download(d4), Flat(Tensor<cpu, 4, float>(w4)));
  Tensor<gpu, 2, float> e(Shape2(0, 5));
  shade::AllocSpace(&e);
  e = e * 2.0f;  // nothing to do, no launch
  Tensor<gpu, 2, float> wrong(Shape2(5, 5));
  EXPECT_THROW(wrong = e * 2.0f, shade::ShapeError);
  shade::FreeSpace(&e);
  shade::FreeSpace(&di);
  shade::FreeSpace(&out);
  shade::FreeSpace(&d1);
  shade::FreeSpace(&d4);
}

// ---- products against the cpu dot engine -------------------------------------------------

template <typename T>
void CheckDot() {
  const double tol = std::is_same<T, float>::value ? 1e-4 : 1e-12;
  TensorContainer<cpu, 2, T> ha(Shape2(23, 31)), hb(Shape2(31, 19)), hbt(Shape2(19, 31));
  Fill(Tensor<cpu, 2, T>(ha), 8);
  Fill(Tensor<cpu, 2, T>(hb), 9);
  Fill(Tensor<cpu, 2, T>(hbt), 10);
  Tensor<gpu, 2, T> a = Upload(Tensor<cpu, 2, T>(ha)), b = Upload(Tensor<cpu, 2, T>(hb)),
                    bt = Upload(Tensor<cpu, 2, T>(hbt));
  TensorContainer<cpu, 2, T> want(Shape2(23, 19));
  Tensor<gpu, 2, T> c(Shape2(23, 19));
  shade::AllocSpace(&c);
  want = shade::expr::dot(ha, hb);
  c = shade::expr::dot(a, b);
  ExpectNear(Download(c), Flat(Tensor<cpu, 2, T>(want)), tol);
  want += shade::expr::dot(ha, hbt.T()) * T(2);
  c += shade::expr::dot(a, bt.T()) * T(2);
  ExpectNear(Download(c), Flat(Tensor<cpu, 2, T>(want)), tol);
  // A^T-forms: (31 x 23)^T (31 x 19).
  TensorContainer<cpu, 2, T> hat(Shape2(31, 23));
  Fill(Tensor<cpu, 2, T>(hat), 11);
  Tensor<gpu, 2, T> at = Upload(Tensor<cpu, 2, T>(hat));
  want -= shade::expr::dot(hat.T(), hb);
  c -= shade::expr::dot(at.T(), b);
  want = shade::expr::dot(hat.T(), hbt.T());
  c = shade::expr::dot(at.T(), bt.T());
  ExpectNear(Download(c), Flat(Tensor<cpu, 2, T>(want)), tol);
  // Matrix-vector, vector-matrix, outer product.
  TensorContainer<cpu, 1, T> hv(Shape1(31)), hw(Shape1(23)), r1(Shape1(23)), r2(Shape1(31));
  Fill(Tensor<cpu, 1, T>(hv), 12);
  Fill(Tensor<cpu, 1, T>(hw), 13);
  Tensor<gpu, 1, T> v = Upload(Tensor<cpu, 1, T>(hv)), w = Upload(Tensor<cpu, 1, T>(hw));
  Tensor<gpu, 1, T> g1(Shape1(23)), g2(Shape1(31));
  shade::AllocSpace(&g1);
  shade::AllocSpace(&g2);
  r1 = shade::expr::dot(ha, hv);
  g1 = shade::expr::dot(a, v);
  ExpectNear(Download(g1), Flat(Tensor<cpu, 1, T>(r1)), tol);
  r2 = shade::expr::dot(hw, ha);
  g2 = shade::expr::dot(w, a);
  ExpectNear(Download(g2), Flat(Tensor<cpu, 1, T>(r2)), tol);
  TensorContainer<cpu, 2, T> ho(Shape2(23, 31));
  Tensor<gpu, 2, T> go(Shape2(23, 31));
  shade::AllocSpace(&go);
  ho = shade::expr::dot(hw.T(), hv);
  go = shade::expr::dot(w.T(), v);
  ExpectNear(Download(go), Flat(Tensor<cpu, 2, T>(ho)), tol);
  // batch_dot over pitched 3-D operands.
  TensorContainer<cpu, 3, T> bx(Shape3(4, 7, 5)), by(Shape3(4, 5, 6)), bz(Shape3(4, 7, 6));
  Fill(Tensor<cpu, 3, T>(bx), 14);
  Fill(Tensor<cpu, 3, T>(by), 15);
  Tensor<gpu, 3, T> gx = Upload(Tensor<cpu, 3, T>(bx)), gy = Upload(Tensor<cpu, 3, T>(by));
  Tensor<gpu, 3, T> gz(Shape3(4, 7, 6));
  shade::AllocSpace(&gz);
  bz = shade::expr::batch_dot(bx, by);
  gz = shade::expr::batch_dot(gx, gy);
  ExpectNear(Download(gz), Flat(Tensor<cpu, 3, T>(bz)), tol);
  EXPECT_THROW(c = shade::expr::dot(a, a), shade::ShapeError);
  for (auto* p : {&a, &b, &bt, &c, &at, &go}) shade::FreeSpace(p);
  for (auto* p : {&v, &w, &g1, &g2}) shade::FreeSpace(p);
  for (auto* p : {&gx, &gy, &gz}) shade::FreeSpace(p);
}

TEST_F(Gpu, DotFloat) {
  CheckDot<float>();
}
TEST_F(Gpu, DotDouble) {
  CheckDot<double>();
}

// ---- sums against a naive loop -----------------------------------------------------------

template <typename T>
void CheckSums(index_t rows, index_t cols) {
  TensorContainer<cpu, 2, T> h(Shape2(rows, cols));
  Fill(Tensor<cpu, 2, T>(h), 16);
  Tensor<gpu, 2, T> d = Upload(Tensor<cpu, 2, T>(h));
  std::vector<double> col_sum(static_cast<std::size_t>(cols)),
      row_sum(static_cast<std::size_t>(rows));
  for (index_t i = 0; i < rows; ++i)
    for (index_t j = 0; j < cols; ++j) {
      col_sum[j] += static_cast<double>(h[i][j]);
      row_sum[i] += static_cast<double>(h[i][j]);
    }
  Tensor<gpu, 1, T> sr(Shape1(cols)), sc(Shape1(rows));
  shade::AllocSpace(&sr);
  shade::AllocSpace(&sc);
  shade::ReduceSumRows(sr, d);
  shade::ReduceSumCols(sc, d);
  const double tol = std::is_same<T, float>::value ? 1e-5 * std::sqrt(double(rows + cols)) : 1e-12;
  std::vector<T> got_r = Download(sr), got_c = Download(sc);
  for (index_t j = 0; j < cols; ++j)
    ASSERT_NEAR(got_r[j], col_sum[j], tol * (1 + std::fabs(col_sum[j])));
  for (index_t i = 0; i < rows; ++i)
    ASSERT_NEAR(got_c[i], row_sum[i], tol * (1 + std::fabs(row_sum[i])));
  // scale and beta: dst = 2 * sum + 1 * dst.
  shade::ReduceSumRows(sr, d, T(2), T(1));
  got_r = Download(sr);
  for (index_t j = 0; j < cols; ++j)
    ASSERT_NEAR(got_r[j], 3 * col_sum[j], 3 * tol * (1 + std::fabs(col_sum[j])));
  shade::FreeSpace(&d);
  shade::FreeSpace(&sr);
  shade::FreeSpace(&sc);
}

TEST_F(Gpu, SumsFloat) {
  CheckSums<float>(1000, 77);
  CheckSums<float>(3, 5000);
  CheckSums<float>(1, 1);
}
TEST_F(Gpu, SumsDouble) {
  CheckSums<double>(257, 300);
}

// ---- an mshadow program through compat/mshadow.h --------------------------------------------

static_assert(MSHADOW_USE_CUDA == 1, "a .cu source of a CUDA build takes mshadow's gpu branches");

}  // namespace

namespace mshadow_port {
// mshadow's gpu usage, unchanged but for the include: returns the result copied to the host.
using namespace mshadow;        // NOLINT(build/namespaces)
using namespace mshadow::expr;  // NOLINT(build/namespaces)
template <typename xpu>
std::vector<float> Run() {
  Stream<xpu>* stream = NewStream<xpu>();
  Tensor<cpu, 2, float> host = NewTensor<cpu>(Shape2(3, 4), 0.0f);
  for (index_t i = 0; i < 3; ++i)
    for (index_t j = 0; j < 4; ++j) host[i][j] = static_cast<float>(i * 4 + j) * 0.25f;
  Tensor<xpu, 2, float> a = NewTensor<xpu>(Shape2(3, 4), 0.0f, MSHADOW_ALLOC_PAD, stream);
  Tensor<xpu, 2, float> b = NewTensor<xpu>(Shape2(4, 3), 0.5f, MSHADOW_ALLOC_PAD, stream);
  Tensor<xpu, 2, float> c = NewTensor<xpu>(Shape2(3, 3), 0.0f, MSHADOW_ALLOC_PAD, stream);
  Copy(a, host, stream);
  a = F<op::square>(a) * 2.0f + 1.0f;
  c = dot(a, b);
  c += dot(a, a.T()) * 0.5f;
  Tensor<cpu, 2, float> out = NewTensor<cpu>(Shape2(3, 3), 0.0f);
  Copy(out, c, stream);
  stream->Wait();
  std::vector<float> r;
  for (index_t i = 0; i < 3; ++i)
    for (index_t j = 0; j < 3; ++j) r.push_back(out[i][j]);
  FreeSpace(&a);
  FreeSpace(&b);
  FreeSpace(&c);
  FreeSpace(&host);
  FreeSpace(&out);
  DeleteStream(stream);
  return r;
}
}  // namespace mshadow_port

namespace {
TEST_F(Gpu, MshadowProgramThroughCompat) {
  const std::vector<float> on_gpu = mshadow_port::Run<gpu>();
  const std::vector<float> on_cpu = mshadow_port::Run<cpu>();
  ExpectNear(on_gpu, on_cpu, 1e-5);
  shade::ShutdownTensorEngine<gpu>();
}
}  // namespace
