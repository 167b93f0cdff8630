// mshadow's packet layer (packet-inl.h, packet/plain-inl.h, packet/sse-inl.h) and the node type
// names of mirror, swapaxis and broadcast_multi_axes, after #include "shade/compat/mshadow.h".
// Oracles: scalar reference loops over the same elements (packets, savers, MapPacketPlan), the
// alignment arithmetic written out, and for the nodes the element each index must read.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "shade/compat/mshadow.h"

namespace {

using mshadow::cpu;
using mshadow::index_t;
namespace pk = mshadow::packet;
namespace ex = mshadow::expr;

TEST(CompatMshadowPacket, AlignmentHelpers) {
  EXPECT_EQ(pk::AlignBytes<pk::kPlain>::value, 4);
  EXPECT_EQ(pk::AlignBytes<pk::kSSE2>::value, 4);
  EXPECT_EQ(MSHADOW_DEFAULT_PACKET, pk::kPlain);  // MSHADOW_USE_SSE is 0
  for (size_t lspace : {size_t{0}, size_t{1}, size_t{10}, size_t{16}, size_t{17}, size_t{100}}) {
    size_t pitch = 0;
    void* p = pk::AlignedMallocPitch(&pitch, lspace, 3);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(pitch, (lspace + 15) / 16 * 16) << lspace;
    EXPECT_TRUE(pk::CheckAlign<pk::kSSE2>(p));
    EXPECT_TRUE(pk::CheckAlign<pk::kSSE2>(pitch));
    pk::AlignedFree(p);
  }
  EXPECT_FALSE(pk::CheckAlign<pk::kSSE2>(size_t{24}));
  EXPECT_TRUE(pk::CheckAlign<pk::kPlain>(size_t{48}));
  alignas(16) float buf[8];  // (a plain float array may start 4 bytes past a 16-byte boundary)
  EXPECT_TRUE(pk::CheckAlign<pk::kSSE2>(static_cast<void*>(buf)));
  EXPECT_FALSE(pk::CheckAlign<pk::kSSE2>(static_cast<void*>(buf + 1)));
  EXPECT_FALSE(pk::CheckAlign<pk::kSSE2>(static_cast<void*>(buf + 2)));
  // Whole 16-byte blocks: up for UpperAlign, down for LowerAlign.
  for (index_t n = 0; n < 40; ++n) {
    EXPECT_EQ((pk::UpperAlign<float, pk::kSSE2>(n)), (n * 4 + 15) / 16 * 16 / 4) << n;
    EXPECT_EQ((pk::LowerAlign<float, pk::kSSE2>(n)), n * 4 / 16 * 16 / 4) << n;
    EXPECT_EQ((pk::UpperAlign<double, pk::kPlain>(n)), (n * 8 + 15) / 16 * 16 / 8) << n;
    EXPECT_EQ((pk::LowerAlign<std::uint8_t, pk::kSSE2>(n)), n / 16 * 16) << n;
  }
  // Sizes that overflow throw (mshadow wraps around).
  size_t pitch = 0;
  EXPECT_THROW(pk::AlignedMallocPitch(&pitch, std::numeric_limits<size_t>::max(), 1),
               mshadow::Error);
  EXPECT_THROW(pk::AlignedMallocPitch(&pitch, 64, std::numeric_limits<size_t>::max() / 8),
               mshadow::Error);
  EXPECT_THROW((pk::UpperAlign<double, pk::kSSE2>(std::numeric_limits<index_t>::max() / 4)),
               mshadow::Error);
}

TEST(CompatMshadowPacket, PlainPackets) {
  using P = pk::Packet<double, pk::kPlain>;
  static_assert(P::size == 1, "");
  static_assert(std::is_same<pk::Packet<float>, pk::Packet<float, pk::kPlain>>::value, "");
  const double src[2] = {2.5, -4.0};
  const P a = P::Load(src), b = P::LoadUnAligned(src + 1), f = P::Fill(3.0);
  EXPECT_EQ((a + b).data_, -1.5);
  EXPECT_EQ((a - b).data_, 6.5);
  EXPECT_EQ((a * f).data_, 7.5);
  EXPECT_EQ((b / a).data_, -1.6);
  EXPECT_EQ(f.Sum(), 3.0);
  P c;
  c = 9.0;
  double out = 0;
  c.Store(&out);  // mshadow's plain Store writes nothing; this one stores
  EXPECT_EQ(out, 9.0);
}

#if defined(__SSE2__)
template <typename DType>
class SsePackets : public ::testing::Test {};
using SseTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(SsePackets, SseTypes);

TYPED_TEST(SsePackets, LanewiseAgainstScalars) {
  using T = TypeParam;
  using P = pk::Packet<T, pk::kSSE2>;
  constexpr index_t n = 16 / sizeof(T);
  static_assert(P::size == n, "four floats or two doubles");
  alignas(16) T x[n + 1], y[n], out[n];
  for (index_t i = 0; i <= n; ++i) x[i] = T(0.5) * T(i) - T(1.25);
  for (index_t i = 0; i < n; ++i) y[i] = T(3) - T(i) * T(0.75);
  const P a = P::Load(x), b = P::Load(y), u = P::LoadUnAligned(x + 1);
  (a + b).Store(out);
  for (index_t i = 0; i < n; ++i) EXPECT_EQ(out[i], x[i] + y[i]);
  (a - b).Store(out);
  for (index_t i = 0; i < n; ++i) EXPECT_EQ(out[i], x[i] - y[i]);
  (a * u).Store(out);
  for (index_t i = 0; i < n; ++i) EXPECT_EQ(out[i], x[i] * x[i + 1]);
  (u / b).Store(out);
  for (index_t i = 0; i < n; ++i) EXPECT_EQ(out[i], x[i + 1] / y[i]);
  P::Fill(T(7)).Store(out);
  for (index_t i = 0; i < n; ++i) EXPECT_EQ(out[i], T(7));
  P c;
  c = T(-2);
  c.Store(out);
  for (index_t i = 0; i < n; ++i) EXPECT_EQ(out[i], T(-2));
}

TEST(CompatMshadowPacket, SseSumOrder) {
  // mshadow adds lanes (0 + 2) and (1 + 3), then the two: here 2, where a left-to-right sum
  // gives 1 (1e8 + 1 rounds back to 1e8).
  alignas(16) const float f[4] = {1e8f, 1.0f, -1e8f, 1.0f};
  EXPECT_EQ((pk::Packet<float, pk::kSSE2>::Load(f).Sum()), 2.0f);
  alignas(16) const double d[2] = {0.1, 0.2};
  EXPECT_EQ((pk::Packet<double, pk::kSSE2>::Load(d).Sum()), 0.1 + 0.2);
}
#endif  // __SSE2__

TEST(CompatMshadowPacket, PacketOpAndSaver) {
  static_assert(pk::PacketOp<mshadow::op::plus, float, pk::kSSE2>::kEnabled, "");
  static_assert(pk::PacketOp<mshadow::op::minus, float, pk::kSSE2>::kEnabled, "");
  static_assert(pk::PacketOp<mshadow::op::mul, double, pk::kPlain>::kEnabled, "");
  static_assert(pk::PacketOp<mshadow::op::div, double, pk::kPlain>::kEnabled, "");
  static_assert(pk::PacketOp<mshadow::op::identity, float, pk::kPlain>::kEnabled, "");
  static_assert(!pk::PacketOp<mshadow::op::maximum, float, pk::kSSE2>::kEnabled, "");
  using P = pk::Packet<float, pk::kPlain>;
  EXPECT_EQ((pk::PacketOp<mshadow::op::identity, float, pk::kPlain>::Map(P(4.f)).data_), 4.f);
  EXPECT_EQ((pk::PacketOp<mshadow::op::minus, float, pk::kPlain>::Map(P(4.f), P(1.f)).data_), 3.f);
  float v = 10.f;
  pk::Saver<mshadow::sv::plusto, float, pk::kPlain>::Save(&v, P(2.5f));
  EXPECT_EQ(v, 12.5f);
  pk::Saver<mshadow::sv::divto, float, pk::kPlain>::Save(&v, P(5.f));
  EXPECT_EQ(v, 2.5f);
  pk::Saver<mshadow::sv::saveto, float, pk::kPlain>::Save(&v, P(-1.f));
  EXPECT_EQ(v, -1.f);
}

// An aligned rows x cols tensor over AlignedMallocPitch memory, filled with f(i, j).
template <typename T, typename F>
mshadow::Tensor<cpu, 2, T> AlignedTensor(index_t rows, index_t cols, F f) {
  size_t pitch = 0;
  T* p = static_cast<T*>(pk::AlignedMallocPitch(&pitch, cols * sizeof(T), rows));
  mshadow::Tensor<cpu, 2, T> t(p, mshadow::Shape2(rows, cols), index_t(pitch / sizeof(T)), nullptr);
  for (index_t i = 0; i < rows; ++i)
    for (index_t j = 0; j < cols; ++j) t[i][j] = f(i, j);
  return t;
}

template <typename T, pk::PacketArch Arch>
void CheckMapPacketPlan() {
  const index_t rows = 3, cols = 7;  // a packet prefix and a scalar tail per row
  auto a = AlignedTensor<T>(rows, cols, [](index_t i, index_t j) { return T(i) - T(j) * T(0.5); });
  auto b = AlignedTensor<T>(rows, cols, [](index_t i, index_t j) { return T(1 + i + j); });
  auto dst = AlignedTensor<T>(rows, cols, [](index_t, index_t) { return T(1); });
  auto e = a * b + ex::scalar<T>(T(2)) - ex::F<mshadow::op::identity>(a) / b;
  using E = typename std::decay<decltype(e)>::type;
  static_assert(ex::PacketCheck<E, Arch>::kPass, "+ - * / identity over tensors and scalars");
  static_assert(!ex::PacketCheck<decltype(ex::F<mshadow::op::exp>(a)), Arch>::kPass, "no exp");
  static_assert(!ex::PacketCheck<mshadow::Tensor<cpu, 2, int>, Arch>::kPass, "no int packets");
  EXPECT_TRUE((ex::PacketAlignCheck<2, E, Arch>::Check(e)));
  EXPECT_TRUE(
      (ex::PacketAlignCheck<2, decltype(ex::scalar<T>(T(1))), Arch>::Check(ex::scalar<T>(T(1)))));
  mshadow::Tensor<cpu, 2, T> shifted(a.dptr_ + 1, mshadow::Shape2(rows, cols - 1), a.stride_,
                                     nullptr);
  EXPECT_FALSE((ex::PacketAlignCheck<2, decltype(shifted * b), Arch>::Check(shifted * b)));
  const auto plan = ex::MakePacketPlan<Arch>(e);
  EXPECT_EQ(plan.Eval(1, 2), a[1][2] * b[1][2] + T(2) - a[1][2] / b[1][2]);
  ex::MapPacketPlan<mshadow::sv::saveto>(dst, plan);
  for (index_t i = 0; i < rows; ++i)
    for (index_t j = 0; j < cols; ++j)
      EXPECT_EQ(dst[i][j], a[i][j] * b[i][j] + T(2) - a[i][j] / b[i][j]) << i << ',' << j;
  ex::MapPacketPlan<mshadow::sv::plusto>(dst, ex::MakePacketPlan<Arch>(a));
  for (index_t i = 0; i < rows; ++i)
    for (index_t j = 0; j < cols; ++j)
      EXPECT_EQ(dst[i][j], (a[i][j] * b[i][j] + T(2) - a[i][j] / b[i][j]) + a[i][j]);
  pk::AlignedFree(a.dptr_);
  pk::AlignedFree(b.dptr_);
  pk::AlignedFree(dst.dptr_);
}

TEST(CompatMshadowPacket, MapPacketPlanPlain) {
  CheckMapPacketPlan<float, pk::kPlain>();
  CheckMapPacketPlan<double, pk::kPlain>();
}
#if defined(__SSE2__)
TEST(CompatMshadowPacket, MapPacketPlanSse2) {
  CheckMapPacketPlan<float, pk::kSSE2>();
  CheckMapPacketPlan<double, pk::kSSE2>();
}
#endif

TEST(CompatMshadowNodes, TypeNamesOfMirrorSwapaxisBroadcast) {
  using T2 = mshadow::Tensor<cpu, 2, float>;
  using T3 = mshadow::Tensor<cpu, 3, float>;
  mshadow::TensorContainer<cpu, 2, float> m(mshadow::Shape2(2, 3));
  mshadow::TensorContainer<cpu, 3, float> c(mshadow::Shape3(2, 1, 3));
  for (index_t i = 0; i < 2; ++i)
    for (index_t j = 0; j < 3; ++j) m[i][j] = c[i][0][j] = float(10 * i + j);
  static_assert(std::is_same<decltype(ex::mirror(m)), ex::MirroringExp<T2, float, 2>>::value, "");
  static_assert(
      std::is_same<decltype(ex::swapaxis<1, 0>(m)), ex::SwapAxisExp<T2, float, 2, 1, 0>>::value,
      "");
  static_assert(
      std::is_same<decltype(ex::broadcast_multi_axes(c, mshadow::TShape{1}, mshadow::TShape{4})),
                   ex::BroadcastWithMultiAxesExp<T3, float, 3>>::value,
      "");
  // Objects of the named types evaluate as mshadow's nodes do.
  mshadow::TensorContainer<cpu, 2, float> out(mshadow::Shape2(2, 3));
  const ex::MirroringExp<T2, float, 2> mirrored(m);  // mshadow's one-argument constructor
  out = mirrored;
  for (index_t i = 0; i < 2; ++i)
    for (index_t j = 0; j < 3; ++j) EXPECT_EQ(out[i][j], m[i][2 - j]);
  mshadow::TensorContainer<cpu, 2, float> swapped(mshadow::Shape2(3, 2));
  const ex::SwapAxisExp<T2, float, 2, 1, 0> s = ex::swapaxis<1, 0>(m);
  swapped = s;
  for (index_t i = 0; i < 3; ++i)
    for (index_t j = 0; j < 2; ++j) EXPECT_EQ(swapped[i][j], m[j][i]);
  mshadow::TensorContainer<cpu, 3, float> wide(mshadow::Shape3(2, 4, 3));
  const ex::BroadcastWithMultiAxesExp<T3, float, 3> bc =
      ex::broadcast_to(c, mshadow::TShape{2, 4, 3});
  wide = bc;
  for (index_t i = 0; i < 2; ++i)
    for (index_t k = 0; k < 4; ++k)
      for (index_t j = 0; j < 3; ++j) EXPECT_EQ(wide[i][k][j], c[i][0][j]);
}

}  // namespace
