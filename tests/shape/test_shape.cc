// Tests of Shape<N> and TShape against hand-computed expectations.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "shade/shape/broadcast.h"
#include "shade/shape/shape.h"
#include "shade/shape/tshape.h"

using shade::index_t;
using shade::Shape;
using shade::TShape;

namespace {

template <typename T>
std::string Str(const T& v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

// A byte stream with the seed's Read/Write interface, for Save/Load.
struct BytesStream {
  std::string bytes;
  size_t pos = 0;
  void Write(const void* p, size_t n) { bytes.append(static_cast<const char*>(p), n); }
  size_t Read(void* p, size_t n) {
    const size_t k = std::min(n, bytes.size() - pos);
    std::memcpy(p, bytes.data() + pos, k);
    pos += k;
    return k;
  }
};

TEST(Shape, Basics) {
  const Shape<4> s = shade::Shape4(2, 3, 4, 5);
  EXPECT_EQ(s.Size(), 120u);
  EXPECT_EQ(s.FlatTo1D()[0], 120);
  EXPECT_EQ(s.FlatTo2D(), shade::Shape2(24, 5));
  EXPECT_EQ(s.ProdShape(1, 3), 12);
  EXPECT_EQ(s.SubShape(), shade::Shape3(3, 4, 5));
  EXPECT_EQ((s.Slice<1, 3>()), shade::Shape2(3, 4));
  EXPECT_TRUE(s != shade::Shape4(2, 3, 4, 6));
  EXPECT_EQ(Str(s), "(2,3,4,5)");
  EXPECT_EQ(Str(shade::Shape1(4)), "(4,)");
  const Shape<5> five = shade::Shape5(3, 4, 5, 6, 7);
  EXPECT_EQ(Str(five.Slice<2, 5>()), "(5,6,7)");
}

TEST(Shape, ConvertLayout) {
  const Shape<4> nchw = shade::Shape4(2, 3, 5, 7);
  const Shape<4> nhwc = shade::ConvertLayout(nchw, shade::kNCHW, shade::kNHWC);
  EXPECT_EQ(nhwc, shade::Shape4(2, 5, 7, 3));
  EXPECT_EQ(shade::ConvertLayout(nhwc, shade::kNHWC, shade::kNCHW), nchw);
  EXPECT_EQ(shade::ConvertLayout(nchw, shade::kNCHW, shade::kCHWN), shade::Shape4(3, 5, 7, 2));
  const Shape<5> ncdhw = shade::Shape5(2, 3, 4, 5, 6);
  const Shape<5> ndhwc = shade::ConvertLayout(ncdhw, shade::kNCDHW, shade::kNDHWC);
  EXPECT_EQ(ndhwc, shade::Shape5(2, 4, 5, 6, 3));
  EXPECT_EQ(shade::ConvertLayout(ndhwc, shade::kNDHWC, shade::kNCDHW), ncdhw);
  EXPECT_THROW(shade::ConvertLayout(nchw, shade::kNCDHW, shade::kNCHW), shade::Error);
  EXPECT_THROW(shade::ConvertLayout(ncdhw, shade::kNCDHW, shade::kNHWC), shade::Error);
}

TEST(TShape, ConstructorsInlineAndHeap) {
  EXPECT_EQ(TShape().ndim(), 0);
  EXPECT_EQ(TShape(3), (TShape{1, 1, 1}));
  EXPECT_EQ(TShape(6), (TShape{1, 1, 1, 1, 1, 1}));
  const std::vector<index_t> v = {2, 3, 4, 5, 6, 7};
  TShape big(v.begin(), v.end());
  EXPECT_EQ(big.ndim(), 6);
  EXPECT_EQ(big[5], 7);
  TShape copy(big);
  EXPECT_EQ(copy, big);
  EXPECT_NE(copy.data(), big.data());  // deep copy
  TShape moved(std::move(copy));
  EXPECT_EQ(moved, big);
  EXPECT_EQ(copy.ndim(), 0);  // moved-from is a valid empty shape
  TShape small{2, 3};
  small = big;  // grow onto the heap
  EXPECT_EQ(small, big);
  small = TShape{9};  // back inline
  EXPECT_EQ(Str(small), "(9,)");
  TShape from_shape(shade::Shape3(4, 5, 6));
  EXPECT_TRUE(from_shape == shade::Shape3(4, 5, 6));
  EXPECT_TRUE(from_shape != shade::Shape2(4, 5));
  TShape assigned;
  assigned = v;
  EXPECT_EQ(assigned, big);
  assigned = shade::Shape2(1, 2);
  EXPECT_EQ(assigned, (TShape{1, 2}));
  TShape self{1, 2, 3, 4, 5};
  const TShape& alias = self;  // a reference: clang's -Wself-assign-overloaded rejects self = self
  self = alias;                // self-assignment keeps the value
  EXPECT_EQ(self, (TShape{1, 2, 3, 4, 5}));
  EXPECT_THROW(TShape(-1), shade::Error);
}

TEST(TShape, IndexIsBoundChecked) {
  TShape s{2, 3};
  EXPECT_EQ(s[1], 3);
  EXPECT_THROW(s[2], shade::Error);
  EXPECT_THROW(s[-1], shade::Error);
  const TShape empty;
  EXPECT_THROW(empty[0], shade::Error);
}

TEST(TShape, SizeAndFlatten) {
  const TShape s{2, 3, 4, 5, 6};
  EXPECT_EQ(s.Size(), 720u);
  EXPECT_EQ(TShape().Size(), 1u);  // rank 0 holds one element
  EXPECT_EQ(s.FlatTo2D(), shade::Shape2(120, 6));
  EXPECT_EQ(s.FlatTo3D(2), shade::Shape3(6, 4, 30));
  EXPECT_EQ(s.FlatTo3D(1, 3), shade::Shape3(2, 60, 6));
  EXPECT_EQ(s.ProdShape(1, 4), 60);
  EXPECT_EQ(TShape().FlatTo2D(), shade::Shape2(0, 0));
  EXPECT_THROW(s.FlatTo3D(3, 1), shade::Error);
  EXPECT_THROW(s.FlatTo3D(5), shade::Error);
  EXPECT_THROW(s.ProdShape(2, 9), shade::Error);
  const index_t huge = index_t(1) << 40;
  EXPECT_THROW((TShape{huge, huge}).Size(), shade::Error);
  EXPECT_THROW((TShape{2, -3}).Size(), shade::Error);
}

TEST(TShape, GetChecksRank) {
  const TShape s{2, 3};
  EXPECT_EQ(s.get<2>(), shade::Shape2(2, 3));
  try {
    s.get<3>();
    FAIL();
  } catch (const shade::Error& e) {
    EXPECT_NE(std::string(e.what()).find("dimension do not match target dimension 3 vs 2"),
              std::string::npos);
  }
}

TEST(TShape, SaveLoadRoundTrip) {
  for (const TShape& s : {TShape(), TShape{7}, TShape{2, 3, 4, 5, 6, 7, 8}}) {
    BytesStream stream;
    s.Save(&stream);
    TShape back{1};
    ASSERT_TRUE(back.Load(&stream));
    EXPECT_EQ(back, s);
    EXPECT_FALSE(back.Load(&stream));  // clean end of stream
  }
}

TEST(TShape, LoadRejectsHostileStreams) {
  const TShape original{4, 5};
  auto load = [&](const std::string& bytes) {
    BytesStream stream{bytes};
    TShape s = original;
    EXPECT_THROW(s.Load(&stream), shade::Error);
    EXPECT_EQ(s, original);  // unchanged on failure
  };
  index_t rank = -1;
  load(std::string(reinterpret_cast<char*>(&rank), 8));
  rank = std::numeric_limits<index_t>::max();
  load(std::string(reinterpret_cast<char*>(&rank), 8));
  rank = 3;  // claims 3 extents, holds 1
  std::string bytes(reinterpret_cast<char*>(&rank), 8);
  index_t one = 1;
  bytes.append(reinterpret_cast<char*>(&one), 8);
  load(bytes);
  load(std::string("\x02\x00\x00", 3));  // truncated inside the rank
}

TEST(TShape, PrintAndParse) {
  EXPECT_EQ(Str(TShape{3, 4}), "(3,4)");
  EXPECT_EQ(Str(TShape{7}), "(7,)");
  EXPECT_EQ(Str(TShape()), "()");
  EXPECT_EQ(shade::ParseTShape("()"), TShape());
  EXPECT_EQ(shade::ParseTShape("  (1, 2, 3, 4, 5, 6)  "), (TShape{1, 2, 3, 4, 5, 6}));
  // Negative extents parse, as in dmlc/MXNet, whose reshape parameters use -1 ("infer"), 0
  // and -2; anything that would size memory from such a shape refuses it.
  EXPECT_EQ(shade::ParseTShape("(-1,2)"), (TShape{-1, 2}));
  EXPECT_THROW((void)shade::ParseTShape("(-1,2)").Size(), shade::Error);
  EXPECT_THROW((void)shade::ParseTShape("(4,-3)").ProdShape(0, 2), shade::Error);
  for (const char* bad : {"", "(", "(3", "(3,,4)", "(,)", "3x", "(3)4", "(99999999999999999999)",
                          "(3;4)", "[3,4]", "(3 4)", "-"}) {
    EXPECT_THROW(shade::ParseTShape(bad), shade::Error) << bad;
  }
}

}  // namespace

// NumPy's broadcasting rule (shape/broadcast.h), against np.broadcast_shapes' documented cases.
TEST(BroadcastShapes, NumPyRule) {
  using shade::index_t;
  auto bc = [](std::vector<index_t> a, std::vector<index_t> b, std::vector<index_t>* out) {
    out->assign(std::max(a.size(), b.size()), -7);
    return shade::BroadcastShapes(a.data(), static_cast<int>(a.size()), b.data(),
                                  static_cast<int>(b.size()), out->data());
  };
  std::vector<index_t> out;
  EXPECT_TRUE(bc({8, 1, 6, 1}, {7, 1, 5}, &out));
  EXPECT_EQ(out, (std::vector<index_t>{8, 7, 6, 5}));
  EXPECT_TRUE(bc({}, {3, 4}, &out));  // a scalar broadcasts to anything
  EXPECT_EQ(out, (std::vector<index_t>{3, 4}));
  EXPECT_TRUE(bc({0, 1}, {1, 5}, &out));  // 1 with 0 gives 0
  EXPECT_EQ(out, (std::vector<index_t>{0, 5}));
  EXPECT_TRUE(bc({}, {}, &out));
  EXPECT_TRUE(out.empty());
  EXPECT_FALSE(bc({2, 1}, {8, 4, 3}, &out));
  EXPECT_FALSE(bc({0}, {2}, &out));
  // The result may overwrite an input: extents are read right to left before being written.
  std::vector<index_t> a = {3, 1}, b = {1, 4};
  ASSERT_TRUE(shade::BroadcastShapes(a.data(), 2, b.data(), 2, a.data()));
  EXPECT_EQ(a, (std::vector<index_t>{3, 4}));
  std::vector<index_t> c = {5, 0, 0}, d = {2, 1, 1};
  ASSERT_TRUE(shade::BroadcastShapes(c.data(), 1, d.data(), 3, c.data()));
  EXPECT_EQ(c, (std::vector<index_t>{2, 1, 5}));
}
