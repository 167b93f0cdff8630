// .npz: archives NumPy wrote (savez stored, savez_compressed deflated) read bit-exactly,
// round trips of named arrays, archives shade wrote verified by NumPy, bad archives refused.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "shade/base/error.h"
#include "shade/io/npz.h"

namespace {

using shade::NDArray;
using shade::TShape;
namespace io = shade::io;

const std::string kData = std::string(SHADE_TEST_DATA_DIR) + "/io/";

std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream os;
  os << f.rdbuf();
  return os.str();
}

std::string Bytes(const NDArray& a) {
  if (a.numel() == 0) return std::string();
  const NDArray c = a.is_contiguous() ? a : a.contiguous();
  return std::string(static_cast<const char*>(c.raw_data()), c.nbytes());
}

NDArray RandomArray(const TShape& shape, int flag, std::mt19937* rng) {
  NDArray a = NDArray::Empty(shade::IndexSpan(shape), flag);
  unsigned char* p = static_cast<unsigned char*>(a.data_ptr());
  for (std::size_t i = 0; i < a.nbytes(); ++i) {
    p[i] = static_cast<unsigned char>((*rng)() & (flag == shade::kBool ? 1u : 0xffu));
  }
  return a;
}

void ExpectNumpyArchive(const std::map<std::string, NDArray>& m) {
  ASSERT_EQ(m.size(), 5u);
  const struct {
    const char* key;
    const char* dtype;
    TShape shape;
  } want[] = {{"weights", "float32", TShape{3, 4}}, {"ids", "int64", TShape{5}},
              {"mask", "bool", TShape{2, 2}},       {"scalar", "float64", TShape()},
              {"empty", "uint8", TShape{0, 3}}};
  for (const auto& w : want) {
    SCOPED_TRACE(w.key);
    auto it = m.find(w.key);
    ASSERT_NE(it, m.end());
    EXPECT_STREQ(it->second.dtype().name(), w.dtype);
    EXPECT_EQ(it->second.shape(), w.shape);
    EXPECT_EQ(Bytes(it->second), ReadFile(kData + "npy/npz_" + w.key + ".bin"));
  }
}

TEST(NpzNumpyFiles, StoredAndDeflatedReadBitExactly) {
  ExpectNumpyArchive(io::LoadNpz(kData + "npy/stored.npz"));
  ExpectNumpyArchive(io::LoadNpz(kData + "npy/deflated.npz"));
  const std::string img = ReadFile(kData + "npy/deflated.npz");
  ExpectNumpyArchive(io::LoadNpzFromMemory(img.data(), img.size()));
}

TEST(NpzRoundTrip, StoredAndCompressed) {
  std::mt19937 rng(2);
  io::NamedArrays arrays = {
      {"a", RandomArray(TShape{4, 5}, shade::kFloat32, &rng)},
      {"b_strided", RandomArray(TShape{6, 3}, shade::kInt16, &rng).slice(0, 1, 6, 2)},
      {"c", RandomArray(TShape(), shade::kUint64, &rng)},
      {"d", RandomArray(TShape{0}, shade::kFloat16, &rng)},
      {"e", RandomArray(TShape{2, 3, 4}, shade::kBool, &rng).transpose(0, 2)}};
  const std::string path = ::testing::TempDir() + "shade_npz_rt.npz";
  for (bool compress : {false, true}) {
    io::SaveNpz(path, arrays, compress);
    const auto back = io::LoadNpz(path);
    ASSERT_EQ(back.size(), arrays.size());
    for (const auto& kv : arrays) {
      SCOPED_TRACE(kv.first);
      const NDArray& b = back.at(kv.first);
      EXPECT_EQ(b.type_flag(), kv.second.type_flag());
      EXPECT_EQ(b.shape(), kv.second.shape());
      EXPECT_EQ(Bytes(b), Bytes(kv.second));
    }
  }
  if (std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") == 0) {
    // NumPy reads shade's (deflated) archive: names, dtypes, shapes.
    const std::string cmd =
        "/usr/bin/python3 -c \"import numpy as np; z = np.load('" + path +
        "'); assert sorted(z.files) == ['a','b_strided','c','d','e'], z.files; "
        "assert z['a'].shape == (4,5) and z['a'].dtype == np.float32; "
        "assert z['b_strided'].shape == (3,3) and z['e'].shape == (4,3,2) and z['e'].dtype == bool; "
        "assert z['c'].shape == () and z['d'].shape == (0,)\"";
    EXPECT_EQ(std::system(cmd.c_str()), 0);
  }
  std::remove(path.c_str());
}

TEST(NpzWrite, RefusesEmptyAndDuplicateNames) {
  const std::string path = ::testing::TempDir() + "shade_npz_bad.npz";
  NDArray a = NDArray::Empty({2}, shade::kFloat32);
  EXPECT_THROW(io::SaveNpz(path, {{"", a}}), shade::Error);
  try {
    io::SaveNpz(path, {{"x", a}, {"x", a}});
    FAIL();
  } catch (const shade::Error& e) {
    EXPECT_NE(std::string(e.what()).find("duplicate name 'x'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(io::SaveNpz("/nonexistent-dir-shade/x.npz", {{"x", a}}), shade::Error);
}

TEST(NpzBadFiles, RejectedNamingArchiveMemberAndReason) {
  const struct {
    const char* file;
    const char* reason;
  } cases[] = {{"not_a_zip.npz", "cannot open as an npz"},
               {"truncated_member.npz", "truncated"},
               {"member_not_npy.npz", "not a .npy file"},
               {"../npy/float32_le.npy", "cannot open as an npz"}};
  for (const auto& c : cases) {
    const std::string path = kData + "bad/" + c.file;
    SCOPED_TRACE(path);
    try {
      io::LoadNpz(path);
      ADD_FAILURE() << "accepted";
    } catch (const shade::Error& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find(path), std::string::npos) << m;
      EXPECT_NE(m.find(c.reason), std::string::npos) << m;
    }
    const std::string img = ReadFile(path);
    EXPECT_THROW(io::LoadNpzFromMemory(img.data(), img.size()), shade::Error);
  }
  EXPECT_THROW(io::LoadNpz(kData + "bad/does_not_exist.npz"), shade::Error);
}

}  // namespace
