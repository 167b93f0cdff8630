// Streams (file, memory, read-only view) and TShape Save/Load through them.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "shade/base/error.h"
#include "shade/io/stream.h"
#include "shade/shape/tshape.h"

namespace {

using shade::io::FileStream;
using shade::io::MemoryStream;
using shade::io::MemoryViewStream;

std::string TempPath(const std::string& leaf) {
  return ::testing::TempDir() + "shade_io_stream_" + leaf;
}

TEST(MemoryStream, WriteThenReadBack) {
  MemoryStream s;
  const int a[3] = {1, -2, 3};
  s.Write(a, sizeof(a));
  s.Write("xy", 2);
  EXPECT_EQ(s.buffer().size(), sizeof(a) + 2);
  std::uint64_t left = 99;
  ASSERT_TRUE(s.BytesLeft(&left));
  EXPECT_EQ(left, 0u);
  s.Seek(0);
  int b[3] = {0, 0, 0};
  EXPECT_EQ(s.Read(b, sizeof(b)), sizeof(b));
  EXPECT_EQ(b[1], -2);
  char c[8];
  EXPECT_EQ(s.Read(c, sizeof(c)), 2u);  // short read at the end, no error
  EXPECT_EQ(s.Read(c, sizeof(c)), 0u);
  EXPECT_EQ(s.name(), "<memory>");
  EXPECT_THROW(s.Seek(100), shade::Error);
}

TEST(MemoryStream, OverwriteInTheMiddle) {
  MemoryStream s(std::string("abcdef"));
  s.Seek(2);
  s.Write("XY", 2);
  EXPECT_EQ(s.buffer(), "abXYef");
  EXPECT_EQ(s.Tell(), 4u);
}

TEST(MemoryViewStream, ReadsCallerBytesAndRefusesWrites) {
  const char bytes[] = "hello";
  MemoryViewStream v(bytes, 5);
  std::uint64_t left = 0;
  ASSERT_TRUE(v.BytesLeft(&left));
  EXPECT_EQ(left, 5u);
  char out[4];
  EXPECT_EQ(v.Read(out, 4), 4u);
  EXPECT_EQ(std::string(out, 4), "hell");
  ASSERT_TRUE(v.BytesLeft(&left));
  EXPECT_EQ(left, 1u);
  try {
    v.Write("x", 1);
    FAIL() << "write to a view must throw";
  } catch (const shade::Error& e) {
    EXPECT_NE(std::string(e.what()).find("read-only"), std::string::npos) << e.what();
  }
}

TEST(Stream, ReadExactNamesTheStreamAndWhat) {
  MemoryViewStream v("abc", 3);
  char out[8];
  try {
    v.ReadExact(out, 8, "the widget");
    FAIL();
  } catch (const shade::Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("<memory>"), std::string::npos) << m;
    EXPECT_NE(m.find("the widget"), std::string::npos) << m;
    EXPECT_NE(m.find("got 3"), std::string::npos) << m;
  }
}

TEST(FileStream, RoundTripAndBytesLeft) {
  const std::string path = TempPath("rt.bin");
  {
    FileStream out(path, "w");
    const double d[2] = {1.5, -2.25};
    out.Write(d, sizeof(d));
    out.Close();
    out.Close();  // idempotent
  }
  FileStream in(path, "r");
  EXPECT_EQ(in.name(), path);
  std::uint64_t left = 0;
  ASSERT_TRUE(in.BytesLeft(&left));
  EXPECT_EQ(left, 16u);
  double d[2];
  in.ReadExact(d, sizeof(d), "doubles");
  EXPECT_EQ(d[1], -2.25);
  ASSERT_TRUE(in.BytesLeft(&left));
  EXPECT_EQ(left, 0u);
  EXPECT_THROW(in.Write(d, 8), shade::Error);  // opened for reading
  std::remove(path.c_str());
}

TEST(FileStream, OpenFailureNamesPathAndReason) {
  const std::string path = "/nonexistent-dir-shade/x.bin";
  try {
    FileStream f(path, "r");
    FAIL();
  } catch (const shade::Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(path), std::string::npos) << m;
    EXPECT_NE(m.find("No such file"), std::string::npos) << m;
  }
  EXPECT_THROW(FileStream(TempPath("x"), "q"), shade::Error);
}

TEST(FileStream, AppendMode) {
  const std::string path = TempPath("append.bin");
  {
    FileStream a(path, "w");
    a.Write("ab", 2);
  }
  {
    FileStream a(path, "a");
    a.Write("cd", 2);
  }
  FileStream in(path, "r");
  char buf[8];
  EXPECT_EQ(in.Read(buf, 8), 4u);
  EXPECT_EQ(std::string(buf, 4), "abcd");
  std::remove(path.c_str());
}

// TShape::Save/Load is templated on the stream type: it must work with shade::io streams.
TEST(TShapeStream, SaveLoadThroughMemoryAndFile) {
  const std::vector<shade::TShape> shapes = {shade::TShape(), shade::TShape{7}, shade::TShape{2, 3},
                                             shade::TShape{1, 2, 3, 4, 5, 6}};
  MemoryStream m;
  for (const auto& s : shapes) s.Save(&m);
  const std::string path = TempPath("shapes.bin");
  {
    FileStream f(path, "w");
    for (const auto& s : shapes) s.Save(&f);
  }
  m.Seek(0);
  FileStream f(path, "r");
  for (const auto& s : shapes) {
    shade::TShape a{9, 9}, b;
    ASSERT_TRUE(a.Load(&m));
    ASSERT_TRUE(b.Load(&f));
    EXPECT_EQ(a, s);
    EXPECT_EQ(b, s);
  }
  shade::TShape end;
  EXPECT_FALSE(end.Load(&m));  // clean end of stream
  // A truncated stream throws and leaves the shape unchanged.
  MemoryViewStream cut(m.buffer().data() + 8, 12);  // shape (7,): rank, then half an extent
  shade::TShape keep{4, 4};
  EXPECT_THROW(keep.Load(&cut), shade::Error);
  EXPECT_EQ(keep, (shade::TShape{4, 4}));
  std::remove(path.c_str());
}

}  // namespace
