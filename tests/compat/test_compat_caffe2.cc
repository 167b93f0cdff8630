// shade/compat/caffe2.h: Caffe2 CPU operators written as in Caffe2 (Relu, FC, a Sum with an
// argument) build and run; results checked against naive loops. Also the CAFFE_ENFORCE family.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ndarray_test_util.h"
#include "shade/compat/caffe2.h"

namespace caffe2 {

// Caffe2-style Relu (caffe2/operators/relu_op.cc's structure).
template <typename T, class Context>
class ReluOp final : public Operator<Context> {
 public:
  USE_SIMPLE_CTOR_DTOR(ReluOp);
  USE_OPERATOR_CONTEXT_FUNCTIONS;

  bool RunOnDevice() override {
    auto& X = Input(0);
    auto* Y = Output(0);
    Y->ResizeLike(X);
    const T* Xdata = X.template data<T>();
    T* Ydata = Y->template mutable_data<T>();
    for (TIndex i = 0; i < X.size(); ++i) {
      Ydata[i] = std::max(Xdata[i], T(0));
    }
    return true;
  }
};

// Caffe2-style FC: Y = X * W^T + b, with the `axis` argument flattening X to 2-D.
template <typename T, class Context>
class FullyConnectedOp final : public Operator<Context> {
 public:
  USE_OPERATOR_CONTEXT_FUNCTIONS;
  FullyConnectedOp(const OperatorDef& operator_def, Workspace* ws)
      : Operator<Context>(operator_def, ws),
        axis_(this->template GetSingleArgument<int32_t>("axis", 1)) {}

  bool RunOnDevice() override {
    const auto& X = Input(0);
    const auto& W = Input(1);
    const auto& b = Input(2);
    auto* Y = Output(0);
    CAFFE_ENFORCE(b.ndim() == 1, b.ndim());
    const auto canonical_axis = X.canonical_axis_index(axis_);
    const auto M = X.size_to_dim(canonical_axis);
    const auto K = X.size_from_dim(canonical_axis);
    const int N = W.dim32(0);
    CAFFE_ENFORCE_EQ(K, W.size() / W.dim32(0), "dimension mismatch");
    CAFFE_ENFORCE_EQ(N, b.dim32(0), "dimension mismatch");
    std::vector<TIndex> Y_shape(X.dims().begin(), X.dims().begin() + canonical_axis);
    Y_shape.push_back(N);
    Y->Resize(Y_shape);
    const T* x = X.template data<T>();
    const T* w = W.template data<T>();
    const T* bias = b.template data<T>();
    T* y = Y->template mutable_data<T>();
    for (TIndex m = 0; m < M; ++m) {
      for (int n = 0; n < N; ++n) {
        T acc = bias[n];
        for (TIndex k = 0; k < K; ++k) acc += x[m * K + k] * w[n * K + k];
        y[m * N + n] = acc;
      }
    }
    return true;
  }

 protected:
  int axis_{1};
};

// Sum of all inputs, scaled by the float argument "scale" (default 1).
template <class Context>
class ScaledSumOp final : public Operator<Context> {
 public:
  USE_SIMPLE_CTOR_DTOR(ScaledSumOp);
  USE_OPERATOR_CONTEXT_FUNCTIONS;

  bool RunOnDevice() override {
    const float scale = OperatorBase::GetSingleArgument<float>("scale", 1.f);
    auto* Y = Output(0);
    Y->ResizeLike(Input(0));
    float* y = Y->template mutable_data<float>();
    context_.template Copy<float, Context, Context>(Y->size(), Input(0).template data<float>(), y);
    for (int i = 1; i < InputSize(); ++i) {
      CAFFE_ENFORCE_EQ(Input(i).size(), Y->size(), "input ", i, " has another size");
      const float* x = Input(i).template data<float>();
      for (TIndex j = 0; j < Y->size(); ++j) y[j] += x[j];
    }
    for (TIndex j = 0; j < Y->size(); ++j) y[j] *= scale;
    return true;
  }
};

REGISTER_CPU_OPERATOR(Relu, ReluOp<float, CPUContext>);
REGISTER_CPU_OPERATOR(FC, FullyConnectedOp<float, CPUContext>);
REGISTER_CPU_OPERATOR(ScaledSum, ScaledSumOp<CPUContext>);

}  // namespace caffe2

namespace {

using caffe2::CPU;
using caffe2::TIndex;
using shade_test::ExpectErrorContaining;

caffe2::Tensor* Feed(caffe2::Workspace* ws, const std::string& name, std::vector<TIndex> dims,
                     float start, float step) {
  caffe2::Tensor* t = ws->CreateBlob(name)->GetMutable<caffe2::Tensor>();
  t->Resize(dims);
  float* d = t->mutable_data<float>();
  for (TIndex i = 0; i < t->size(); ++i) d[i] = start + step * static_cast<float>(i);
  return t;
}

TEST(CompatCaffe2, ReluOperator) {
  caffe2::Workspace ws;
  const caffe2::Tensor* x = Feed(&ws, "X", {3, 4}, -5.5f, 1.f);
  caffe2::OperatorDef def;
  def.set_type("Relu");
  def.add_input("X");
  def.add_output("Y");
  auto op = caffe2::CreateOperator(def, &ws);
  ASSERT_TRUE(op->Run());
  const auto& y = ws.GetBlob("Y")->Get<caffe2::Tensor>();
  EXPECT_EQ(y.dims(), x->dims());
  for (TIndex i = 0; i < 12; ++i) EXPECT_EQ(y.data<float>()[i], std::max(-5.5f + i, 0.f));
  // Running again reuses Y's memory (same size).
  const float* before = y.data<float>();
  ASSERT_TRUE(op->Run());
  EXPECT_EQ(ws.GetBlob("Y")->Get<caffe2::Tensor>().data<float>(), before);
}

TEST(CompatCaffe2, FullyConnectedOperatorWithAxis) {
  for (int axis : {1, 2, -1}) {
    SCOPED_TRACE(axis);
    caffe2::Workspace ws;
    const caffe2::Tensor* x = Feed(&ws, "X", {2, 3, 4}, 0.5f, 0.25f);
    const TIndex canonical = axis < 0 ? axis + 3 : axis;
    const TIndex M = x->size_to_dim(static_cast<int>(canonical));
    const TIndex K = x->size() / M;
    const caffe2::Tensor* w = Feed(&ws, "W", {5, K}, -1.f, 0.125f);
    const caffe2::Tensor* b = Feed(&ws, "b", {5}, 2.f, -0.5f);
    caffe2::OperatorDef def;
    def.set_type("FC");
    for (const char* in : {"X", "W", "b"}) def.add_input(in);
    def.add_output("Y");
    caffe2::Argument* arg = def.add_arg();
    arg->set_name("axis");
    arg->set_i(axis);
    auto op = caffe2::CreateOperator(def, &ws);
    ASSERT_TRUE(op->Run());
    const auto& y = ws.GetBlob("Y")->Get<caffe2::Tensor>();
    ASSERT_EQ(y.size(), M * 5);
    EXPECT_EQ(y.dim(y.ndim() - 1), 5);
    // Naive oracle in double.
    for (TIndex m = 0; m < M; ++m) {
      for (TIndex n = 0; n < 5; ++n) {
        double acc = b->data<float>()[n];
        for (TIndex k = 0; k < K; ++k) {
          acc += double(x->data<float>()[m * K + k]) * double(w->data<float>()[n * K + k]);
        }
        EXPECT_NEAR(y.data<float>()[m * 5 + n], acc, 1e-4 * (1 + std::fabs(acc)));
      }
    }
  }
}

TEST(CompatCaffe2, OperatorErrorsAreShadeErrors) {
  caffe2::Workspace ws;
  Feed(&ws, "X", {2, 3}, 0, 1);
  Feed(&ws, "W", {4, 5}, 0, 1);  // K mismatch: 3 vs 5
  Feed(&ws, "b", {4}, 0, 1);
  caffe2::OperatorDef def;
  def.set_type("FC");
  for (const char* in : {"X", "W", "b"}) def.add_input(in);
  def.add_output("Y");
  auto op = caffe2::CreateOperator(def, &ws);
  ExpectErrorContaining([&] { op->Run(); },
                        "K == W.size() / W.dim32(0). 3 vs 5. dimension mismatch");
  caffe2::OperatorDef missing;
  missing.set_type("Relu");
  missing.add_input("nope");
  ExpectErrorContaining([&] { caffe2::CreateOperator(missing, &ws); },
                        "Encountered a non-existing input blob: nope");
  caffe2::OperatorDef unknown;
  unknown.set_type("Conv9000");
  ExpectErrorContaining([&] { caffe2::CreateOperator(unknown, &ws); },
                        "Cannot create operator of type 'Conv9000'");
}

TEST(CompatCaffe2, ScaledSumUsesArgumentsAndContextCopy) {
  caffe2::Workspace ws;
  Feed(&ws, "A", {6}, 1, 1);
  Feed(&ws, "B", {2, 3}, 10, -2);
  caffe2::OperatorDef def;
  def.set_type("ScaledSum");
  def.add_input("A");
  def.add_input("B");
  def.add_output("S");
  caffe2::Argument* arg = def.add_arg();
  arg->set_name("scale");
  arg->set_f(0.5f);
  ASSERT_TRUE(caffe2::CreateOperator(def, &ws)->Run());
  const auto& s = ws.GetBlob("S")->Get<caffe2::Tensor>();
  for (TIndex i = 0; i < 6; ++i) EXPECT_EQ(s.data<float>()[i], ((1.f + i) + (10.f - 2 * i)) * 0.5f);
  Feed(&ws, "C", {5}, 0, 0);
  def.add_input("C");
  ExpectErrorContaining([&] { caffe2::CreateOperator(def, &ws)->Run(); },
                        "input 2 has another size");
}

TEST(CompatCaffe2, EnforceFamily) {
  ExpectErrorContaining([] { CAFFE_ENFORCE(1 + 1 == 3, "math is ", "broken"); },
                        "] 1 + 1 == 3. math is broken");
  ExpectErrorContaining([] { CAFFE_ENFORCE_EQ(2, 3); }, "] 2 == 3. 2 vs 3");
  ExpectErrorContaining([] { CAFFE_ENFORCE_GE(1, 4, "need more"); }, "1 >= 4. 1 vs 4. need more");
  ExpectErrorContaining([] { CAFFE_ENFORCE_LT(5, 4); }, "5 < 4. 5 vs 4");
  ExpectErrorContaining([] { CAFFE_ENFORCE_NE(4, 4); }, "4 != 4. 4 vs 4");
  ExpectErrorContaining([] { CAFFE_THROW("fatal ", 42); }, "fatal 42");
  ExpectErrorContaining([] { CAFFE_ENFORCE_EQ_WITH_CALLER(1, 2, "who"); }, "1 vs 2. who");
  try {
    CAFFE_ENFORCE_GT(0, 1);
    ADD_FAILURE() << "no throw";
  } catch (const caffe2::EnforceNotMet& e) {
    EXPECT_NE(std::string(e.what()).find("[enforce fail at"), std::string::npos);
  }
  CAFFE_ENFORCE(true);
  CAFFE_ENFORCE_LE(3, 3);
  caffe2::Tensor t(std::vector<TIndex>{2, 3}, CPU);
  ExpectErrorContaining([&] { t.dim(2); }, "Exceeding ndim limit");
  ExpectErrorContaining([&] { t.canonical_axis_index(-3); }, "axis_index >= -ndim()");
  EXPECT_EQ(t.canonical_axis_index(-1), 1);
  EXPECT_EQ(t.size_between_dim(0, 1), 1);
  EXPECT_EQ(t.size_from_dim(1), 3);
  EXPECT_EQ(t.size_to_dim(2), 6);
}

TEST(CompatCaffe2, ReserveSpaceAndZeroSize) {
  caffe2::Tensor t(std::vector<TIndex>{0, 4}, CPU);
  EXPECT_EQ(t.size(), 0);
  t.mutable_data<float>();
  t.ReserveSpace(8);
  EXPECT_GE(t.capacity_nbytes(), 8 * 4 * sizeof(float));
  caffe2::CPUContext context;
  for (int i = 0; i < 8; ++i) t.Extend(1, 100, &context);  // within the reserve
  EXPECT_EQ(t.dims(), (std::vector<TIndex>{8, 4}));
  EXPECT_EQ(t.capacity_nbytes(), 8 * 4 * sizeof(float));
}

// Caffe2 programs set the shrink flags as variables (FLAGS_...); the setter functions and the
// variables are one state, and Resize honours it.
TEST(CompatCaffe2, ShrinkFlagsAsVariables) {
  const bool keep_before = caffe2::FLAGS_caffe2_keep_on_shrink;
  const std::int64_t max_before = caffe2::FLAGS_caffe2_max_keep_on_shrink_memory;
  EXPECT_TRUE(keep_before);
  caffe2::Tensor t(std::vector<TIndex>{64}, CPU);
  t.mutable_data<float>();
  caffe2::FLAGS_caffe2_keep_on_shrink = false;
  EXPECT_FALSE(shade::NDArray::KeepOnShrink());
  t.Resize(8);
  t.mutable_data<float>();
  EXPECT_EQ(t.capacity_nbytes(), 8 * sizeof(float));  // not kept: reallocated
  caffe2::FLAGS_caffe2_keep_on_shrink = true;
  caffe2::FLAGS_caffe2_max_keep_on_shrink_memory = 16;
  EXPECT_EQ(shade::NDArray::MaxKeepOnShrinkMemory(), 16);
  caffe2::Tensor u(std::vector<TIndex>{64}, CPU);
  u.mutable_data<float>();
  u.Resize(60);  // 16 unused bytes: kept
  u.mutable_data<float>();
  EXPECT_EQ(u.capacity_nbytes(), 64 * sizeof(float));
  u.Resize(8);  // 224 unused bytes > 16: reallocated
  u.mutable_data<float>();
  EXPECT_EQ(u.capacity_nbytes(), 8 * sizeof(float));
  caffe2::SetMaxKeepOnShrinkMemory(32);
  EXPECT_EQ(static_cast<std::int64_t>(caffe2::FLAGS_caffe2_max_keep_on_shrink_memory), 32);
  EXPECT_THROW(caffe2::FLAGS_caffe2_max_keep_on_shrink_memory = -1, shade::Error);
  caffe2::FLAGS_caffe2_keep_on_shrink = keep_before;
  caffe2::FLAGS_caffe2_max_keep_on_shrink_memory = max_before;
}

}  // namespace
