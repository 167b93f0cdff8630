// .npy: files NumPy wrote read bit-exactly, round trips for every dtype and rank 0-6 (including
// non-contiguous sources, both byte orders, versions 1-3, Fortran order), every hand-made bad
// file rejected with the file and the reason, and files shade wrote verified by NumPy.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "shade/base/error.h"
#include "shade/io/npy.h"
#include "shade/io/stream.h"
#include "shade/ndarray/ndarray.h"

namespace {

using shade::index_t;
using shade::NDArray;
using shade::TShape;
namespace io = shade::io;

const std::string kData = std::string(SHADE_TEST_DATA_DIR) + "/io/";

std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  EXPECT_TRUE(f.good()) << path;
  std::ostringstream os;
  os << f.rdbuf();
  return os.str();
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// C-order bytes of any array (through contiguous()).
std::string Bytes(const NDArray& a) {
  if (a.numel() == 0) return std::string();
  const NDArray c = a.is_contiguous() ? a : a.contiguous();
  return std::string(static_cast<const char*>(c.raw_data()), c.nbytes());
}

TShape ParseShape(const std::string& s) {
  return shade::ParseTShape(s);
}

// Every dtype NumPy has (all of shade's but bfloat16).
std::vector<int> NumpyFlags() {
  std::vector<int> flags;
  for (int f = 0; f < shade::kNumTypeFlags; ++f) {
    if (f != shade::kBfloat16) flags.push_back(f);
  }
  return flags;
}

// An array of random bit patterns (bool: 0/1), so round trips are checked bit for bit.
NDArray RandomArray(const TShape& shape, int flag, std::mt19937* rng) {
  NDArray a = NDArray::Empty(shade::IndexSpan(shape), flag);
  unsigned char* p = static_cast<unsigned char*>(a.data_ptr());
  for (std::size_t i = 0; i < a.nbytes(); ++i) {
    p[i] = static_cast<unsigned char>((*rng)() & (flag == shade::kBool ? 1u : 0xffu));
  }
  return a;
}

TEST(NpyNumpyFiles, ReadBitExactly) {
  std::ifstream manifest(kData + "npy/manifest.txt");
  ASSERT_TRUE(manifest.good());
  std::string name, dtype, shape;
  int fortran = 0, count = 0;
  while (manifest >> name >> dtype >> shape >> fortran) {
    SCOPED_TRACE(name);
    const NDArray a = io::LoadNpy(kData + "npy/" + name + ".npy");
    EXPECT_STREQ(a.dtype().name(), dtype.c_str());
    EXPECT_EQ(a.shape(), ParseShape(shape));
    EXPECT_EQ(Bytes(a), ReadFile(kData + "npy/" + name + ".bin"));
    if (fortran) {
      // Read as the strided (column-major) view, not copied.
      EXPECT_FALSE(a.is_contiguous());
      EXPECT_EQ(a.stride(0), 1);
    } else {
      EXPECT_TRUE(a.is_contiguous());
    }
    // The same image from memory gives the same array.
    const std::string img = ReadFile(kData + "npy/" + name + ".npy");
    EXPECT_EQ(Bytes(io::LoadNpyFromMemory(img.data(), img.size())), Bytes(a));
    ++count;
  }
  EXPECT_GE(count, 60);
}

TEST(NpyNumpyFiles, VersionsAreReported) {
  for (int v = 1; v <= 3; ++v) {
    io::FileStream f(kData + "npy/version" + std::to_string(v) + "_int16.npy", "r");
    const io::NpyHeader h = io::ReadNpyHeader(&f);
    EXPECT_EQ(h.major_version, v);
    EXPECT_EQ(h.data_offset % 64, 0u);
    EXPECT_EQ(h.shape, (TShape{4, 5}));
    EXPECT_EQ(h.type_flag, shade::kInt16);
  }
  io::FileStream be(kData + "npy/float64_be.npy", "r");
  EXPECT_EQ(io::ReadNpyHeader(&be).byte_order, '>');
}

TEST(NpyBadFiles, EachRejectedNamingFileAndReason) {
  std::ifstream manifest(kData + "bad/manifest.txt");
  ASSERT_TRUE(manifest.good());
  std::string line;
  int count = 0;
  while (std::getline(manifest, line)) {
    const std::size_t tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << line;
    const std::string file = kData + "bad/" + line.substr(0, tab);
    const std::string reason = line.substr(tab + 1);
    SCOPED_TRACE(file);
    try {
      io::LoadNpy(file);
      ADD_FAILURE() << "accepted " << file;
    } catch (const shade::Error& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find(file), std::string::npos) << m;
      EXPECT_NE(m.find(reason), std::string::npos) << "expected '" << reason << "' in: " << m;
    }
    const std::string img = ReadFile(file);
    try {
      io::LoadNpyFromMemory(img.data(), img.size());
      ADD_FAILURE() << "accepted from memory " << file;
    } catch (const shade::Error& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("<memory>"), std::string::npos) << m;
      EXPECT_NE(m.find(reason), std::string::npos) << m;
    }
    ++count;
  }
  EXPECT_GE(count, 30);
}

TEST(NpyRoundTrip, EveryDtypeRank0To6NonContiguousBothOrdersAllVersions) {
  std::mt19937 rng(7);
  const index_t full[6] = {3, 2, 4, 1, 2, 3};
  for (int flag : NumpyFlags()) {
    for (int rank = 0; rank <= 6; ++rank) {
      TShape shape(std::vector<index_t>(full, full + rank));
      for (int variant = 0; variant < 3; ++variant) {
        NDArray src;
        if (variant == 0 || rank == 0) {
          src = RandomArray(shape, flag, &rng);
        } else if (variant == 1) {
          // Every other element of a wider first axis: a strided, non-contiguous source.
          TShape wide = shape;
          wide[0] = shape[0] * 2;
          src = RandomArray(wide, flag, &rng).slice(0, 0, wide[0], 2);
        } else {
          src = RandomArray(shape, flag, &rng).transpose(0, rank - 1);
        }
        for (char order : {'<', '>'}) {
          for (int version : {0, 1, 2, 3}) {
            SCOPED_TRACE(std::string(shade::TypeFlagName(flag)) + " rank " + std::to_string(rank) +
                         " variant " + std::to_string(variant) + " order " + order + " v" +
                         std::to_string(version));
            io::NpyWriteOptions opts;
            opts.byte_order = order;
            opts.version = version;
            opts.fortran_order = version == 3;  // also cover explicit Fortran output
            io::MemoryStream ms;
            io::SaveNpy(&ms, src, opts);
            ms.Seek(0);
            const io::NpyHeader h = io::ReadNpyHeader(&ms);
            EXPECT_EQ(h.data_offset % 64, 0u);
            EXPECT_EQ(h.major_version, version == 0 ? 1 : version);
            const NDArray back = io::LoadNpyFromMemory(ms.buffer().data(), ms.buffer().size());
            EXPECT_EQ(back.type_flag(), flag);
            EXPECT_EQ(back.shape(), src.shape());
            ASSERT_EQ(Bytes(back), Bytes(src));
          }
        }
      }
    }
  }
}

TEST(NpyRoundTrip, FortranContiguousSourceIsWrittenWithoutReordering) {
  std::mt19937 rng(3);
  const NDArray src = RandomArray(TShape{4, 5, 6}, shade::kFloat32, &rng).permute({2, 1, 0});
  io::MemoryStream ms;
  io::SaveNpy(&ms, src);
  ms.Seek(0);
  EXPECT_TRUE(io::ReadNpyHeader(&ms).fortran_order);
  const NDArray back = io::LoadNpyFromMemory(ms.buffer().data(), ms.buffer().size());
  EXPECT_EQ(back.shape(), (TShape{6, 5, 4}));
  EXPECT_EQ(Bytes(back), Bytes(src));
}

TEST(NpyRoundTrip, FileAndZeroSize) {
  const std::string path = ::testing::TempDir() + "shade_npy_file.npy";
  std::mt19937 rng(1);
  for (const TShape& s : {TShape{0}, TShape{3, 0, 2}, TShape(), TShape{5}}) {
    const NDArray a = RandomArray(s, shade::kInt64, &rng);
    io::SaveNpy(path, a);
    const NDArray b = io::LoadNpy(path);
    EXPECT_EQ(b.shape(), s);
    EXPECT_EQ(Bytes(b), Bytes(a));
  }
  std::remove(path.c_str());
}

TEST(NpyWrite, RefusesBfloat16AndBadOptions) {
  NDArray a = NDArray::Empty({2}, shade::kBfloat16);
  io::MemoryStream ms;
  try {
    io::SaveNpy(&ms, a);
    FAIL();
  } catch (const shade::Error& e) {
    EXPECT_NE(std::string(e.what()).find("bfloat16 has no NumPy equivalent"), std::string::npos)
        << e.what();
  }
  NDArray f = NDArray::Empty({2}, shade::kFloat32);
  io::NpyWriteOptions opts;
  opts.byte_order = '|';
  EXPECT_THROW(io::SaveNpy(&ms, f, opts), shade::Error);
  opts = io::NpyWriteOptions();
  opts.version = 4;
  EXPECT_THROW(io::SaveNpy(&ms, f, opts), shade::Error);
  EXPECT_THROW(io::SaveNpy(&ms, NDArray()), shade::Error);
}

TEST(NpyHeader, AlignmentAndAutomaticVersion) {
  for (int rank = 0; rank <= io::kNpyMaxNDim; rank += 4) {
    std::vector<index_t> dims(static_cast<std::size_t>(rank), 1);
    if (rank > 0) dims[0] = 123456789;
    const TShape s(dims);
    const std::string h = io::MakeNpyHeader(shade::kFloat64, s, false);
    EXPECT_EQ(h.size() % 64, 0u);
    EXPECT_EQ(h[6], 1);  // fits version 1.0
    EXPECT_EQ(h.back(), '\n');
    const io::NpyHeader p = io::ParseNpyHeaderDict(h.data() + 10, h.size() - 10, "x");
    EXPECT_EQ(p.shape, s);
  }
  EXPECT_EQ(io::NpyDescr(shade::kBool), "|b1");
  EXPECT_EQ(io::NpyDescr(shade::kFloat16, '>'), ">f2");
  EXPECT_EQ(io::NpyDescr(shade::kUint8, '>'), "|u1");
  EXPECT_EQ(io::NpyDescr(shade::kInt64), "<i8");
}

TEST(NpyHeader, ParserAcceptsNumpyVariants) {
  auto parse = [](const std::string& t) { return io::ParseNpyHeaderDict(t.data(), t.size(), "t"); };
  io::NpyHeader h = parse("{\"shape\":(2,3),\"descr\":\"<u2\",\"fortran_order\":True}\n");
  EXPECT_EQ(h.type_flag, shade::kUint16);
  EXPECT_TRUE(h.fortran_order);
  EXPECT_EQ(h.shape, (TShape{2, 3}));
  h = parse("{'descr': '<b1', 'fortran_order': False, 'shape': ()}   \n");
  EXPECT_EQ(h.type_flag, shade::kBool);
  EXPECT_EQ(h.byte_order, '|');
  EXPECT_EQ(h.shape.ndim(), 0);
  h = parse("{'descr':'>i4','fortran_order':False,'shape':( 7 , ),}");
  EXPECT_EQ(h.shape, (TShape{7}));
  EXPECT_EQ(h.byte_order, '>');
  for (const char* bad : {"", "{", "{}", "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)",
                          "{'descr': '<f4' 'fortran_order': False, 'shape': (2,)}",
                          "{'descr': '<f4', 'fortran_order': False, 'shape': (2,),,}",
                          "{'descr': '<f44', 'fortran_order': False, 'shape': (2,)}",
                          "{'descr': '<', 'fortran_order': False, 'shape': (2,)}",
                          "{'descr': '<f4', 'fortran_order': True , 'shape': (2,,)}",
                          "{'descr': '<f4', 'fortran_order': Tru, 'shape': (2,)}",
                          "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} {"}) {
    EXPECT_THROW(parse(bad), shade::Error) << bad;
  }
}

// A stream that cannot tell its size (a pipe): the loader must grow its buffer only as
// bytes arrive, and still fail cleanly on truncation.
class PipeStream : public io::Stream {
 public:
  explicit PipeStream(std::string b) : inner_(std::move(b)) {}
  std::size_t Read(void* p, std::size_t n) override { return inner_.Read(p, n); }
  void Write(const void* p, std::size_t n) override { inner_.Write(p, n); }
  const std::string& name() const override { return name_; }

 private:
  io::MemoryStream inner_;
  std::string name_ = "<pipe>";
};

TEST(NpyStream, UnsizedStreamReadsAndRejectsTruncation) {
  std::mt19937 rng(5);
  const NDArray a = RandomArray(TShape{3, 7}, shade::kFloat16, &rng);
  io::MemoryStream ms;
  io::NpyWriteOptions opts;
  opts.byte_order = '>';
  io::SaveNpy(&ms, a, opts);
  PipeStream ok(ms.buffer());
  EXPECT_EQ(Bytes(io::LoadNpy(&ok)), Bytes(a));
  PipeStream cut(ms.buffer().substr(0, ms.buffer().size() - 3));
  try {
    io::LoadNpy(&cut);
    FAIL();
  } catch (const shade::Error& e) {
    EXPECT_NE(std::string(e.what()).find("<pipe>: file truncated"), std::string::npos) << e.what();
  }
  // A header claiming 8 TB on a pipe fails after reading what is there, without allocating it.
  const std::string huge = io::MakeNpyHeader(shade::kFloat64, TShape{1000000, 1000000}, false);
  PipeStream lie(huge + std::string(100, '\0'));
  EXPECT_THROW(io::LoadNpy(&lie), shade::Error);
}

TEST(NpyStream, TwoArraysBackToBackInOneStream) {
  std::mt19937 rng(9);
  const NDArray a = RandomArray(TShape{2, 2}, shade::kInt8, &rng);
  const NDArray b = RandomArray(TShape{3}, shade::kUint32, &rng);
  io::MemoryStream ms;
  io::SaveNpy(&ms, a);
  io::SaveNpy(&ms, b);
  ms.Seek(0);
  EXPECT_EQ(Bytes(io::LoadNpy(&ms)), Bytes(a));
  EXPECT_EQ(Bytes(io::LoadNpy(&ms)), Bytes(b));
}

bool HaveNumpy() {
  return std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") == 0;
}

// shade writes; NumPy reads and compares with the raw C-order little-endian elements.
TEST(NpyNumpyVerifies, FilesShadeWrote) {
  if (!HaveNumpy()) GTEST_SKIP() << "/usr/bin/python3 with numpy not available";
  const std::string dir = ::testing::TempDir() + "shade_npy_numpy/";
  ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
  std::mt19937 rng(11);
  std::ofstream list(dir + "list.txt");
  int n = 0;
  for (int flag : NumpyFlags()) {
    for (int variant = 0; variant < 4; ++variant) {
      const TShape shape = variant == 3 ? TShape() : TShape{3, 4, 2};
      NDArray a = RandomArray(shape, flag, &rng);
      if (variant == 1) a = a.transpose(0, 2);  // written Fortran order, no copy
      io::NpyWriteOptions opts;
      opts.byte_order = variant == 2 ? '>' : '<';
      opts.version = variant == 2 ? 3 : 0;
      const std::string base = dir + "a" + std::to_string(n++);
      io::SaveNpy(base + ".npy", a, opts);
      WriteFile(base + ".bin", Bytes(a));
      std::ostringstream shp;
      for (index_t d = 0; d < a.ndim(); ++d) shp << (d ? "," : "") << a.size(d);
      list << base << " " << shade::TypeFlagName(flag) << " "
           << (shp.str().empty() ? "-" : shp.str()) << "\n";
    }
  }
  list.close();
  const std::string script = dir + "check.py";
  WriteFile(script,
            "import sys, numpy as np\n"
            "bad = 0\n"
            "for line in open(sys.argv[1]):\n"
            "    base, dt, shp = line.split()\n"
            "    shape = () if shp == '-' else tuple(int(x) for x in shp.split(','))\n"
            "    a = np.load(base + '.npy', allow_pickle=False)\n"
            "    want = np.frombuffer(open(base + '.bin', 'rb').read(), "
            "dtype=np.dtype(dt).newbyteorder('<')).reshape(shape)\n"
            "    if a.dtype.name != dt or a.shape != shape or a.tobytes() != "
            "want.astype(a.dtype).tobytes() \\\n"
            "       or np.ascontiguousarray(a).astype(a.dtype.newbyteorder('<')).tobytes() != "
            "want.tobytes():\n"
            "        print('MISMATCH', base, a.dtype, a.shape); bad += 1\n"
            "sys.exit(1 if bad else 0)\n");
  EXPECT_EQ(std::system(("/usr/bin/python3 " + script + " " + dir + "list.txt").c_str()), 0);
  std::system(("rm -rf " + dir).c_str());
}

// One header variant: the dict text, the format version and the data bytes that follow.
struct HeaderCase {
  int version;
  std::string dict;
  std::size_t data_bytes;
};

// A .npy file around `dict`, padded to 64 bytes as NumPy writes it.
std::string NpyWithDict(const HeaderCase& c) {
  std::string head = "\x93NUMPY";
  head.push_back(static_cast<char>(c.version));
  head.push_back('\0');
  const std::size_t len_bytes = c.version == 1 ? 2 : 4;
  std::string dict = c.dict;
  while ((head.size() + len_bytes + dict.size() + 1) % 64 != 0) dict.push_back(' ');
  dict.push_back('\n');
  for (std::size_t i = 0; i < len_bytes; ++i) {
    head.push_back(static_cast<char>((dict.size() >> (8 * i)) & 0xff));
  }
  std::string data(c.data_bytes, '\0');
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>(i % 2);  // valid bools
  return head + dict + data;
}

std::vector<HeaderCase> HeaderVariants() {
  const std::string d = "'descr': '<f4', 'fortran_order': False, ";
  const std::string f = "'fortran_order': False, 'shape': (2,)}";
  const std::string ones32 = "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1";
  return {
      // Python 2's long suffix: versions 1.0 and 2.0 only, upper-case L only.
      {1, "{" + d + "'shape': (2L, 1L), }", 8},
      {2, "{" + d + "'shape': (2L, 1L), }", 8},
      {3, "{" + d + "'shape': (2L, 1L), }", 8},
      {1, "{" + d + "'shape': (2l,), }", 8},
      {1, "{" + d + "'shape': (2 L,), }", 8},
      {1, "{'descr': '<i8', 'fortran_order': True, 'shape': (2L,2L)}", 32},
      {1, "{" + d + "'shape': (0x2L,)}", 8},
      {1, "{" + d + "'shape': (2LL,)}", 8},
      // Integer literal forms.
      {1, "{" + d + "'shape': (0x2,), }", 8},
      {1, "{" + d + "'shape': (0o2,), }", 8},
      {1, "{" + d + "'shape': (0b10,), }", 8},
      {1, "{" + d + "'shape': (1_0,), }", 40},
      {1, "{" + d + "'shape': (1__0,), }", 40},
      {1, "{" + d + "'shape': (10_,), }", 40},
      {1, "{" + d + "'shape': (0x_a,), }", 40},
      {1, "{" + d + "'shape': (0b12,), }", 8},
      {1, "{" + d + "'shape': (+2,), }", 8},
      {1, "{" + d + "'shape': (- 0,), }", 0},
      {1, "{" + d + "'shape': (-2,), }", 8},
      {1, "{" + d + "'shape': (+-2,), }", 8},
      {1, "{" + d + "'shape': (02,), }", 8},
      {1, "{" + d + "'shape': (00,), }", 0},
      {1, "{" + d + "'shape': (True, 2), }", 8},
      {1, "{" + d + "'shape': (2.0,), }", 8},
      {1, "{" + d + "'shape': (2e0,), }", 8},
      {1, "{" + d + "'shape': (2j,), }", 8},
      {1, "{" + d + "'shape': [2], }", 8},
      {1, "{" + d + "'shape': 2, }", 8},
      {1, "{" + d + "'shape': ((2,)), }", 8},
      {1, "{" + d + "'shape': ((2),), }", 8},
      {1, "{" + d + "'shape': (2,) # comment\n}", 8},
      {1, "{" + d + "'shape': (2,)} # c\n\n", 8},
      {1, "{" + d + "'shape': \\\n(2,)}", 8},
      {1, "{" + d + "'shape': (2,),,}", 8},
      {1, "{" + d + "'shape': (,)}", 0},
      {1, "{" + d + "'shape': (2,) , }", 8},
      {1, "{" + d + "'shape': (2, 3,)}", 24},
      {1, "{" + d + "'shape': ( )}", 4},
      {1, "{" + d + "'shape': (2,), 'x': 1}", 8},
      {1, "{" + d + "'shape': (2,), 1: 1}", 8},
      {1, "{" + d + "'shape': (2,3)\n}", 24},
      {1, "{" + d + "'shape': (2,\n3)}", 24},
      {1, "{" + d + "'shape': (2,)}\n+1", 8},
      {1, "{" + d + "'shape': (2,)}\x0c", 8},
      {1, "{" + d + "'shape': (2,)}\r\n", 8},
      {1, "{" + d + "'shape': (2,)}\x01", 8},
      {1, "{" + d + "'shape': (0, 4611686018427387904, 4611686018427387904)}", 0},
      {1, "{" + d + "'shape': (99999999999999999999999,)}", 0},
      // Rank limit (NumPy's 32).
      {1, "{" + d + "'shape': (" + ones32 + ")}", 4},
      {1, "{" + d + "'shape': (" + ones32 + ",1)}", 4},
      // Dict forms: order, duplicates (the last wins), quotes, outer parentheses, whitespace.
      {1, "{'shape': (2,), 'fortran_order': False, 'descr': '<f4'}", 8},
      {1, "{'descr': '<f4', 'descr': '<i4', " + f, 8},
      {1, "{'descr': None, 'descr': '<i4', " + f, 8},
      {1, "{'descr': [1, 2.5], 'descr': '<i4', " + f, 8},
      {1, "{'descr': '<i4', 'descr': None, " + f, 8},
      {1, "{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (2,)}", 8},
      {1, "({'descr': '<f4', " + f + ")", 8},
      {1, "  {'descr': '<f4', " + f, 8},
      {1, "\n{'descr': '<f4', " + f, 8},
      {1, "\t{'descr': '<f4', " + f, 8},
      {1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)", 8},
      {1, "{}", 0},
      {1, "", 0},
      {1, "[]", 0},
      // Strings: escapes, prefixes, triple quotes, implicit concatenation.
      {1, "{'descr': '<f\\x34', " + f, 8},
      {1, "{'descr': '<f\\64', " + f, 8},
      {1, "{'descr': '<f\\u0034', " + f, 8},
      {1, "{'descr': '\\<f4', " + f, 8},
      {1, "{'descr': '<f' '4', " + f, 8},
      {1, "{'descr': '<f' \"4\", " + f, 8},
      {1, "{'descr': '<f' b'4', " + f, 8},
      {1, "{'descr': r'<f4', " + f, 8},
      {1, "{'descr': u'<f4', " + f, 8},
      {1, "{'descr': b'<f4', " + f, 8},
      {1, "{'descr': Rb'<f4', " + f, 8},
      {1, "{'descr': '''<f4''', " + f, 8},
      {1, "{'descr': ('<f4'), " + f, 8},
      {1, "{'descr': '<f4, " + f, 8},
      {1, "{'desc' 'r': '<f4', " + f, 8},
      {1, "{b'descr': '<f4', " + f, 8},
      // descr spellings.
      {1, "{'descr': 'f4', " + f, 8},
      {1, "{'descr': '=f4', " + f, 8},
      {1, "{'descr': '|f4', " + f, 8},
      {1, "{'descr': '>f4', " + f, 8},
      {1, "{'descr': 'float32', " + f, 8},
      {1, "{'descr': '<float32', " + f, 8},
      {1, "{'descr': 'f', " + f, 8},
      {1, "{'descr': '<f', " + f, 8},
      {1, "{'descr': 'd', 'fortran_order': False, 'shape': (1,)}", 8},
      {1, "{'descr': 'e', " + f, 4},
      {1, "{'descr': '<f2', " + f, 4},
      {1, "{'descr': '<b1', " + f, 2},
      {1, "{'descr': '<?', " + f, 2},
      {1, "{'descr': 'b', " + f, 2},
      {1, "{'descr': 'B', " + f, 2},
      {1, "{'descr': '>u1', " + f, 2},
      {1, "{'descr': '<f004', " + f, 8},
      {1, "{'descr': ' <f4', " + f, 8},
      {1, "{'descr': '<f4 ', " + f, 8},
      {1, "{'descr': '<i3', " + f, 6},
      {1, "{'descr': '<', " + f, 0},
      {1, "{'descr': 'int64', " + f, 16},
      {1, "{'descr': 'uint16', " + f, 4},
      {1, "{'descr': 'double', " + f, 16},
      {1, "{'descr': 'h', " + f, 4},
      {1, "{'descr': 'L', " + f, 16},
      {1, "{'descr': 'q', " + f, 16},
      {1, "{'descr': 'bool', " + f, 2},
      {1, "{'descr': 'int', " + f, 16},
      {1, "{'descr': 'float', " + f, 16},
      {1, "{'descr': 'Float32', " + f, 8},
      {1, "{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}", 8},
      {1, "{'descr': '<f4', 'fortran_order': (False), 'shape': (2,)}", 8},
      {1, "{'descr': '<f4', 'fortran_order': false, 'shape': (2,)}", 8},
      {1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2,3)}", 24},
      {3, "{'descr': '<f4', " + f, 8},
      {2, "{'descr': '>i2', " + f, 4},
  };
}

// Every header variant: shade accepts exactly those NumPy's np.load accepts (here 1.24), and
// reads the same dtype, shape and elements from them. NumPy reads from memory here: from a real
// file it passes a negative extent to fromfile as "read everything" and then reshapes with it
// as an unknown dimension, so (-2,) loads; shade refuses negative extents from any source.
TEST(NpyHeader, AcceptsExactlyWhatNumpyAccepts) {
  if (!HaveNumpy()) GTEST_SKIP() << "/usr/bin/python3 with numpy not available";
  const std::string dir = ::testing::TempDir() + "shade_npy_variants/";
  ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
  const std::vector<HeaderCase> cases = HeaderVariants();
  for (std::size_t i = 0; i < cases.size(); ++i) {
    WriteFile(dir + std::to_string(i) + ".npy", NpyWithDict(cases[i]));
  }
  const std::string script = dir + "verdicts.py";
  WriteFile(script,
            "import io, sys, warnings, numpy as np\n"
            "warnings.simplefilter('ignore')\n"
            "d, n = sys.argv[1], int(sys.argv[2])\n"
            "with open(d + 'verdicts.txt', 'w') as out:\n"
            "    for i in range(n):\n"
            "        try:\n"
            "            a = np.load(io.BytesIO(open(d + '%d.npy' % i, 'rb').read()), "
            "allow_pickle=False)\n"
            "        except Exception:\n"
            "            out.write('FAIL\\n'); continue\n"
            "        c = np.ascontiguousarray(a).astype(a.dtype.newbyteorder('<'))\n"
            "        open(d + '%d.bin' % i, 'wb').write(c.tobytes())\n"
            "        out.write('OK %s %s\\n' % (a.dtype.name, ','.join(str(x) for x in a.shape) or "
            "'-'))\n");
  ASSERT_EQ(
      std::system(
          ("/usr/bin/python3 " + script + " " + dir + " " + std::to_string(cases.size())).c_str()),
      0);
  std::ifstream verdicts(dir + "verdicts.txt");
  int accepted = 0, rejected = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    std::string line;
    ASSERT_TRUE(std::getline(verdicts, line)) << i;
    SCOPED_TRACE("case " + std::to_string(i) + " (version " + std::to_string(cases[i].version) +
                 "): " + cases[i].dict);
    const bool numpy_ok = line.rfind("OK", 0) == 0;
    NDArray a;
    std::string error;
    try {
      a = io::LoadNpy(dir + std::to_string(i) + ".npy");
    } catch (const shade::Error& e) {
      error = e.what();
    }
    EXPECT_EQ(a.defined(), numpy_ok)
        << "NumPy: " << line << "; shade: " << (error.empty() ? "loaded" : error);
    if (!numpy_ok || !a.defined()) {
      ++rejected;
      continue;
    }
    ++accepted;
    std::istringstream fields(line.substr(3));
    std::string dtype, shape;
    fields >> dtype >> shape;
    EXPECT_EQ(shade::TypeFlagName(a.type_flag()), dtype);
    std::ostringstream got;
    for (index_t k = 0; k < a.ndim(); ++k) got << (k ? "," : "") << a.size(k);
    EXPECT_EQ(got.str().empty() ? "-" : got.str(), shape);
    std::ifstream bin(dir + std::to_string(i) + ".bin", std::ios::binary);
    const std::string want((std::istreambuf_iterator<char>(bin)), std::istreambuf_iterator<char>());
    EXPECT_EQ(Bytes(a), want);
  }
  EXPECT_GT(accepted, 30);  // the table exercises both verdicts
  EXPECT_GT(rejected, 30);
  std::system(("rm -rf " + dir).c_str());
}

}  // namespace
