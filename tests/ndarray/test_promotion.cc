// NEP 50 type promotion: the tables NumPy itself produced (tests/data/dyn/make_oracle.py, run
// with np._set_promotion_state('weak')), the result dtype of every elementwise op for every
// dtype pair, and shade's stated bfloat16 rule (NumPy has no bfloat16).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "shade/ndarray/ops.h"
#include "shade/ndarray/promotion.h"

namespace shade {
namespace {

int FlagOf(const std::string& name) {
  for (int f = 0; f < kNumTypeFlags; ++f) {
    if (name == TypeFlagName(f)) return f;
  }
  ADD_FAILURE() << "unknown dtype " << name;
  return -1;
}

OpCode OpOf(const std::string& name) {
  for (int i = 0; i < static_cast<int>(OpCode::kNumOps); ++i) {
    if (name == OpName(static_cast<OpCode>(i))) return static_cast<OpCode>(i);
  }
  ADD_FAILURE() << "unknown op " << name;
  return OpCode::kAdd;
}

std::vector<std::vector<std::string>> ReadLines(const std::string& file) {
  std::ifstream in(std::string(SHADE_TEST_DATA_DIR) + "/dyn/" + file);
  EXPECT_TRUE(in.good()) << "missing " << file << " (run tests/data/dyn/make_oracle.py)";
  std::vector<std::vector<std::string>> out;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::vector<std::string> w;
    std::string t;
    while (ls >> t) w.push_back(t);
    if (!w.empty()) out.push_back(w);
  }
  return out;
}

// A 1-element array of value 1 (NumPy's np.ones(1, dtype)).
NDArray One(int flag) {
  NDArray a = NDArray::Empty({1}, flag);
  a.Fill(1);
  return a;
}

TEST(Promotion, NumPyPromoteTypesCanCastAndWeakScalars) {
  int promote = 0, cast = 0, weak = 0;
  for (const auto& w : ReadLines("promotion.txt")) {
    if (w[0] == "promote") {
      EXPECT_EQ(TypeFlagName(PromoteTypes(FlagOf(w[1]), FlagOf(w[2]))), w[3]) << w[1] << " " << w[2];
      ++promote;
    } else if (w[0] == "cast") {
      const int a = FlagOf(w[1]), b = FlagOf(w[2]);
      EXPECT_EQ(CanCast(a, b, Casting::kSafe), w[3] == "1") << "safe " << w[1] << " -> " << w[2];
      EXPECT_EQ(CanCast(a, b, Casting::kSameKind), w[4] == "1") << "same_kind " << w[1] << " -> " << w[2];
      ++cast;
    } else if (w[0] == "weak") {
      const WeakKind k = w[2] == "int" ? WeakKind::kInt : WeakKind::kFloat;
      EXPECT_EQ(TypeFlagName(ResultType({PromotionOperand::Strong(FlagOf(w[1])), PromotionOperand::Weak(k)})), w[3])
          << w[1] << " with a weak " << w[2];
      ++weak;
    }
  }
  EXPECT_EQ(promote, 144);
  EXPECT_EQ(cast, 144);
  EXPECT_EQ(weak, 24);
}

TEST(Promotion, WeakScalarsAlone) {
  EXPECT_EQ(ResultType({PromotionOperand::Weak(WeakKind::kInt)}), kInt64);
  EXPECT_EQ(ResultType({PromotionOperand::Weak(WeakKind::kFloat)}), kFloat64);
  EXPECT_EQ(ResultType({PromotionOperand::Weak(WeakKind::kInt), PromotionOperand::Weak(WeakKind::kFloat)}), kFloat64);
  EXPECT_THROW(ResultType(nullptr, 0), Error);
  EXPECT_THROW(PromoteTypes(kFloat32, 99), Error);
  EXPECT_THROW(CanCast(-1, kFloat32, Casting::kSafe), Error);
}

// Result dtype of every op for every dtype pair (and with weak scalars), or an error where
// NumPy has none (subtract on bool, bitwise on floats, negative/sign on bool, ...). Each is
// evaluated, so the kernel for the resolved dtype must exist too.
TEST(Promotion, EveryOpResultDTypeMatchesNumPy) {
  int checked = 0;
  for (const auto& w : ReadLines("promotion.txt")) {
    if (w[0] != "dtype" && w[0] != "dtype_weak") continue;
    const OpCode op = OpOf(w[1]);
    const std::string& expect = w.back();
    std::vector<Expr> ins;
    if (w[0] == "dtype_weak") {
      ins.emplace_back(One(FlagOf(w[2])));
      ins.push_back(w[3] == "int" ? Expr(1) : Expr(1.0));
    } else {
      for (std::size_t k = 2; k + 1 < w.size(); ++k) ins.emplace_back(One(FlagOf(w[k])));
    }
    auto build = [&]() {
      switch (OpArity(op)) {
        case 1: return Expr::Make(op, ins[0]);
        case 2: return Expr::Make(op, ins[0], ins[1]);
        default:
          // where(cond: bool, a, b) and clip(a, b, b) as the generator calls them.
          if (op == OpCode::kWhere) return Expr::Make(op, Expr(One(kBool)), ins[0], ins[1]);
          return Expr::Make(op, ins[0], ins[1], ins[1]);
      }
    };
    std::string line;
    for (const auto& t : w) line += t + " ";
    if (expect == "error") {
      EXPECT_THROW(build().eval(), Error) << line;
    } else {
      NDArray r;
      ASSERT_NO_THROW(r = build().eval()) << line;
      EXPECT_EQ(TypeFlagName(r.type_flag()), expect) << line;
    }
    ++checked;
  }
  EXPECT_GT(checked, 3000);
}

// bfloat16 (absent from NumPy): treated like float16 in the integer lattice (both hold every
// 8-bit integer exactly and no 16-bit one), float16 with bfloat16 gives float32 (PyTorch's rule).
TEST(Promotion, Bfloat16Rule) {
  struct Row {
    int other;
    int expect;
  };
  const Row rows[] = {{kBool, kBfloat16},   {kUint8, kBfloat16},   {kInt8, kBfloat16},
                      {kUint16, kFloat32},  {kInt16, kFloat32},    {kUint32, kFloat64},
                      {kInt32, kFloat64},   {kUint64, kFloat64},   {kInt64, kFloat64},
                      {kFloat16, kFloat32}, {kFloat32, kFloat32},  {kFloat64, kFloat64},
                      {kBfloat16, kBfloat16}};
  for (const Row& r : rows) {
    EXPECT_EQ(PromoteTypes(kBfloat16, r.other), r.expect) << TypeFlagName(r.other);
    EXPECT_EQ(PromoteTypes(r.other, kBfloat16), r.expect) << TypeFlagName(r.other);
    EXPECT_EQ((One(kBfloat16) + One(r.other)).eval().type_flag(), r.expect);
  }
  EXPECT_EQ(ResultType({PromotionOperand::Strong(kBfloat16), PromotionOperand::Weak(WeakKind::kInt)}), kBfloat16);
  EXPECT_EQ(ResultType({PromotionOperand::Strong(kBfloat16), PromotionOperand::Weak(WeakKind::kFloat)}), kBfloat16);
  EXPECT_EQ(FloatTypeFor(kBfloat16), kBfloat16);
  EXPECT_TRUE(CanCast(kBfloat16, kFloat32, Casting::kSafe));
  EXPECT_FALSE(CanCast(kBfloat16, kFloat16, Casting::kSafe));
  EXPECT_TRUE(CanCast(kBfloat16, kFloat16, Casting::kSameKind));
  EXPECT_TRUE(CanCast(kUint8, kBfloat16, Casting::kSafe));
  EXPECT_FALSE(CanCast(kInt16, kBfloat16, Casting::kSafe));
  EXPECT_FALSE(CanCast(kBfloat16, kInt32, Casting::kSameKind));
  // Values: bf16 arithmetic rounds once from float (round to nearest even).
  NDArray a = NDArray::Empty({3}, kBfloat16), b = NDArray::Empty({3}, kInt8);
  const float av[] = {1.5f, -3.0f, 100.0f};
  const std::int8_t bv[] = {2, 7, -128};
  for (int i = 0; i < 3; ++i) {
    a.at<bf16_t>(i) = bf16_t(av[i]);
    b.at<std::int8_t>(i) = bv[i];
  }
  NDArray c = a * b + 1;
  ASSERT_EQ(c.type_flag(), kBfloat16);
  for (int i = 0; i < 3; ++i) {
    const float prod = static_cast<float>(bf16_t(av[i] * static_cast<float>(bv[i])));
    EXPECT_EQ(static_cast<float>(c.at<bf16_t>(i)), static_cast<float>(bf16_t(prod + 1.0f))) << i;
  }
  NDArray e = exp(a);
  EXPECT_EQ(e.type_flag(), kBfloat16);
  EXPECT_EQ(static_cast<float>(e.at<bf16_t>(0)), static_cast<float>(bf16_t(std::exp(1.5f))));
}

TEST(Promotion, KindsAndFloatRule) {
  EXPECT_EQ(KindOf(kBool), DTypeKind::kBool);
  EXPECT_EQ(KindOf(kUint32), DTypeKind::kUnsigned);
  EXPECT_EQ(KindOf(kInt8), DTypeKind::kSigned);
  EXPECT_EQ(KindOf(kFloat16), DTypeKind::kFloat);
  EXPECT_EQ(FloatTypeFor(kBool), kFloat16);
  EXPECT_EQ(FloatTypeFor(kUint8), kFloat16);
  EXPECT_EQ(FloatTypeFor(kInt16), kFloat32);
  EXPECT_EQ(FloatTypeFor(kUint64), kFloat64);
  EXPECT_EQ(FloatTypeFor(kFloat32), kFloat32);
  EXPECT_EQ(KindOf(kComplex64), DTypeKind::kComplex);
  EXPECT_THROW(KindOf(kNumTypeFlags), Error);
}

}  // namespace
}  // namespace shade
