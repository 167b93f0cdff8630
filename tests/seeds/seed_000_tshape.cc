// Seed notes 000/003 (tensor_blob.h): the TShape examples with the outputs the notes state,
// and the corrections the notes ask for (bound checks, no partial shape on a parse error).
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "shade/shape/tshape.h"

using shade::TShape;

namespace {

// Runs the note's program: `TShape a; cout << (cin >> a)`; returns the printed shape or "wrong!".
std::string ParseLikeTheNote(const std::string& input, TShape* out) {
  std::istringstream in(input);
  if (!(in >> *out)) return "wrong!";
  std::ostringstream os;
  os << *out;
  return os.str();
}

TEST(SeedTShape, ParsingTable) {
  // correct examples of the note
  TShape a;
  EXPECT_EQ(ParseLikeTheNote("3", &a), "(3,)");
  EXPECT_EQ(ParseLikeTheNote("(3,5)", &a), "(3,5)");
  EXPECT_EQ(ParseLikeTheNote("(3 , 5)", &a), "(3,5)");
  EXPECT_EQ(ParseLikeTheNote("(3, 4L, 5)", &a), "(3,4,5)");
  EXPECT_EQ(ParseLikeTheNote("(7,)", &a), "(7,)");
  // incorrect examples: both fail, and the shape is left as it was
  TShape b{9, 9};
  EXPECT_EQ(ParseLikeTheNote("a", &b), "wrong!");
  EXPECT_EQ(b, (TShape{9, 9}));
  EXPECT_EQ(ParseLikeTheNote("(3,4,a)", &b), "wrong!");  // the old code returned (3,4)
  EXPECT_EQ(b, (TShape{9, 9}));
}

TEST(SeedTShape, ExplicitConstructorIsAllOnes) {
  EXPECT_EQ(TShape(4), (TShape{1, 1, 1, 1}));
  EXPECT_EQ(TShape(5), (TShape{1, 1, 1, 1, 1}));  // beyond kStackCache: heap
}

TEST(SeedTShape, StackCacheIsFour) { EXPECT_EQ(TShape::kStackCache, 4); }

TEST(SeedTShape, FlatTo3DSplitsAroundTheAxes) {
  const TShape s{2, 3, 4, 5};
  EXPECT_EQ(s.FlatTo3D(1), shade::Shape3(2, 3, 20));
  EXPECT_EQ(s.FlatTo3D(1, 2), shade::Shape3(2, 12, 5));
  EXPECT_EQ(s.FlatTo2D(), shade::Shape2(24, 5));
}

TEST(SeedTShape, BoundCheckAnswersTheNotesQuestion) {
  // "Is it safe to leave the bound check out?" No: a shape index is caller input.
  TShape s{3, 4};
  EXPECT_THROW(s[2], shade::Error);
}

}  // namespace
