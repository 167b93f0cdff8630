// mshadow source compatibility: a program written against mshadow's public CPU API, compiled
// with only the compat header (no shade names are used below).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "shade/compat/mshadow.h"
#include "shade/io/stream.h"

using namespace mshadow;        // NOLINT(build/namespaces)
using namespace mshadow::expr;  // NOLINT(build/namespaces)

namespace {

struct maxoftwo {
  MSHADOW_XINLINE static float Map(float a, float b) { return a > b ? a : b; }
};
struct saxpy_like {
  template <typename DType>
  MSHADOW_XINLINE static DType Map(DType a, DType x, DType y) {
    return a * x + y;
  }
};

TEST(CompatMshadow, TypicalProgram) {
  InitTensorEngine<cpu>();
  Stream<cpu>* stream = NewStream<cpu>();
  Tensor<cpu, 2, float> lhs = NewTensor<cpu>(Shape2(2, 3), 1.0f, true, stream);
  Tensor<cpu, 2, float> rhs = NewTensor<cpu>(Shape2(2, 3), 0.0f, false, stream);
  for (index_t i = 0; i < 2; ++i)
    for (index_t j = 0; j < 3; ++j) rhs[i][j] = static_cast<float>(i * 3 + j);
  lhs += rhs * 2.0f;
  lhs = F<maxoftwo>(lhs, rhs) + F<op::square>(rhs) - scalar<float>(1.0f);
  EXPECT_EQ(lhs[1][2], (1.0f + 10.0f) + 25.0f - 1.0f);
  TensorContainer<cpu, 2, float> prod(Shape2(2, 2));
  prod = dot(lhs, rhs.T());
  float want = 0;
  for (index_t j = 0; j < 3; ++j) want += lhs[0][j] * rhs[1][j];
  EXPECT_FLOAT_EQ(prod[0][1], want);
  TensorContainer<cpu, 2, float> out(Shape2(2, 3), 0.0f);
  out = F<saxpy_like>(scalar(2.0f), rhs, lhs);
  EXPECT_EQ(out[1][1], 2.0f * 4.0f + lhs[1][1]);
  Tensor<cpu, 2, int> ints = NewTensor<cpu>(Shape2(2, 3), 0, false, stream);
  ints = tcast<int>(rhs * 1.5f);
  EXPECT_EQ(ints[1][1], 6);
  Copy(out, rhs, stream);
  EXPECT_EQ(out[1][2], 5.0f);
  FreeSpace(&lhs);
  FreeSpace(&rhs);
  FreeSpace(&ints);
  DeleteStream(stream);
  ShutdownTensorEngine<cpu>();
}

TEST(CompatMshadow, NamesAndMacros) {
  static_assert(std::is_signed<mshadow::index_t>::value && sizeof(mshadow::index_t) == 8, "");
  static_assert(std::is_same<mshadow::default_real_t, float>::value, "");
  static_assert(mshadow::cpu::kDevMask == 1 && mshadow::gpu::kDevMask == 2, "");
  static_assert(mshadow::kFloat32 == 0 && mshadow::kFloat64 == 1 && mshadow::kFloat16 == 2 &&
                    mshadow::kUint8 == 3 && mshadow::kInt32 == 4 && mshadow::kInt8 == 5 &&
                    mshadow::kInt64 == 6,
                "");
  static_assert(mshadow::DataType<double>::kFlag == mshadow::kFloat64, "");
  static_assert(mshadow::expr::type::kComplex == 7, "");
  static_assert(std::is_same<MSHADOW_DEFAULT_DTYPE, float>::value, "");
  mshadow::half::half_t h(1.5f);
  EXPECT_EQ(static_cast<float>(h), 1.5f);
  float v = 2.0f;
  mshadow::red::sum::Reduce(v, 3.0f);
  EXPECT_EQ(v, 5.0f);
  mshadow::sv::plusto::Save(v, 1.0f);
  EXPECT_EQ(v, 6.0f);
  EXPECT_EQ(mshadow::op::plus::Map(1.0f, 2.0f), 3.0f);
  size_t bytes = 0;
  MSHADOW_TYPE_SWITCH(mshadow::kInt64, DType, { bytes = sizeof(DType); });
  EXPECT_EQ(bytes, 8u);
  MSHADOW_TYPE_SWITCH(mshadow::kFloat16, DType, { bytes = sizeof(DType); });
  EXPECT_EQ(bytes, 2u);
  EXPECT_THROW(MSHADOW_TYPE_SWITCH(99, DType, { bytes = sizeof(DType); }), mshadow::Error);
  float data[6] = {0, 1, 2, 3, 4, 5};
  mshadow::TBlob blob(data, mshadow::TShape{2, 3}, mshadow::cpu::kDevMask);
  mshadow::Tensor<mshadow::cpu, 2> t = blob.get<mshadow::cpu, 2, float>();
  EXPECT_EQ(t[1][2], 5.0f);
  mshadow::Shape<3> s = mshadow::Shape3(1, 2, 3);
  EXPECT_EQ(s.Size(), 6u);
  mshadow::Tensor<mshadow::cpu, 1> flat = t.FlatTo1D();
  mshadow::expr::Plan<mshadow::Tensor<mshadow::cpu, 1>, float> plan = mshadow::expr::MakePlan(flat);
  EXPECT_EQ(plan.Eval(0, 4), 4.0f);
}

TEST(CompatMshadow, SizeofRangeOutSizePoolShape) {
  for (int flag = 0; flag <= mshadow::kInt64; ++flag) {  // mshadow's seven flags
    std::size_t bytes = 0;
    MSHADOW_TYPE_SWITCH(flag, DType, { bytes = sizeof(DType); });
    EXPECT_EQ(mshadow::mshadow_sizeof(flag), bytes) << flag;
  }
  EXPECT_THROW(mshadow::mshadow_sizeof(99), mshadow::Error);
  // RangeOutSize against counting the elements start, start + step, ... < stop.
  for (int start : {0, 3, -4}) {
    for (int stop : {5, 9, 10}) {
      for (int step : {1, 2, 3}) {
        for (int repeat : {1, 3}) {
          int n = 0;
          for (int v = start; v < stop; v += step) ++n;
          EXPECT_EQ(mshadow::expr::RangeOutSize(start, stop, step, repeat), n * repeat);
          float fn = 0;
          for (float v = float(start); v < float(stop); v += 0.5f * float(step)) ++fn;
          EXPECT_EQ(
              mshadow::expr::RangeOutSize(float(start), float(stop), 0.5f * float(step), repeat),
              int(fn) * repeat);
        }
      }
    }
  }
  // mshadow's spatial_pool.h: (H - k) / s + 1, so a 4x4 image, 3x3 window, stride 2 -> 1x1.
  mshadow::TensorContainer<mshadow::cpu, 3, float> img(mshadow::Shape3(1, 4, 4));
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) img[0][y][x] = float(y * 4 + x);  // rows may be padded
  mshadow::TensorContainer<mshadow::cpu, 3, float> pooled(mshadow::Shape3(1, 1, 1));
  pooled = mshadow::expr::pool<mshadow::red::maximum>(img, 3, 3, 2, 2);
  EXPECT_EQ(pooled[0][0][0], 10.f);  // max of rows 0-2, columns 0-2
  EXPECT_EQ(mshadow::expr::pool<mshadow::red::maximum>(img, 3, 3, 2, 2).shape_,
            mshadow::Shape3(1, 1, 1));
  std::cout << "";  // <iostream> comes with the mshadow header, as with mshadow's tensor.h
}

TEST(CompatMshadow, TakeGradIndexFillSortByKeyBinary) {
  using mshadow::cpu;
  using mshadow::Shape1;
  using mshadow::Shape2;
  using mshadow::TensorContainer;
  TensorContainer<cpu, 2, float> dst(Shape2(3, 2)), src(Shape2(4, 2));
  TensorContainer<cpu, 1, int> index(Shape1(4));
  const int idx[4] = {2, -1, 7, 2};  // -1 and 7 clip to rows 0 and 2
  for (int y = 0; y < 4; ++y) {
    index[y] = idx[y];
    for (int k = 0; k < 2; ++k) src[y][k] = float(10 * y + k);
  }
  dst = 0.f;
  mshadow::AddTakeGrad(dst, index, src);
  float want[3][2] = {};
  for (int y = 0; y < 4; ++y)
    for (int k = 0; k < 2; ++k) want[std::min(std::max(idx[y], 0), 2)][k] += src[y][k];
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 2; ++k) EXPECT_EQ(dst[r][k], want[r][k]);
  // IndexFill: dst[index[y]] = src[y]; an index outside dst throws instead of writing.
  TensorContainer<cpu, 1, int> fill_index(Shape1(2));
  fill_index[0] = 1;
  fill_index[1] = 0;
  TensorContainer<cpu, 2, float> rows(Shape2(2, 2));
  rows[0][0] = 5, rows[0][1] = 6, rows[1][0] = 7, rows[1][1] = 8;
  mshadow::IndexFill(dst, fill_index, rows);
  EXPECT_EQ(dst[1][1], 6.f);
  EXPECT_EQ(dst[0][0], 7.f);
  fill_index[1] = 3;
  EXPECT_THROW(mshadow::IndexFill(dst, fill_index, rows), mshadow::Error);
  // SortByKey: stable, against std::stable_sort of the pairs.
  const float keys_in[7] = {3, 1, 2, 1, 3, 0, 2};
  for (bool ascend : {true, false}) {
    TensorContainer<cpu, 1, float> keys(Shape1(7));
    TensorContainer<cpu, 1, int> values(Shape1(7));
    std::vector<std::pair<float, int>> ref;
    for (int i = 0; i < 7; ++i) {
      keys[i] = keys_in[i];
      values[i] = i;
      ref.emplace_back(keys_in[i], i);
    }
    std::stable_sort(ref.begin(), ref.end(), [ascend](const auto& a, const auto& b) {
      return ascend ? a.first < b.first : a.first > b.first;
    });
    mshadow::SortByKey(keys, values, ascend);
    for (int i = 0; i < 7; ++i) {
      EXPECT_EQ(keys[i], ref[size_t(i)].first);
      EXPECT_EQ(values[i], ref[size_t(i)].second);
    }
  }
  // SaveBinary / LoadBinary on a stream: the shape (int32 each, mshadow's default index_t), then
  // the rows unpadded.
  shade::io::MemoryStream ms;
  mshadow::SaveBinary(ms, src);
  EXPECT_EQ(ms.buffer().size(), 2 * sizeof(std::int32_t) + 8 * sizeof(float));
  TensorContainer<cpu, 2, float> back;
  shade::io::MemoryStream in(ms.buffer());
  mshadow::LoadBinary(in, &back);
  ASSERT_EQ(back.shape_, src.shape_);
  for (int y = 0; y < 4; ++y)
    for (int k = 0; k < 2; ++k) EXPECT_EQ(back[y][k], src[y][k]);
}
}  // namespace
