// .npy: files NumPy wrote read bit-exactly, round trips for every dtype and rank 0-6 (including
// non-contiguous sources, both byte orders, versions 1-3, Fortran order), every hand-made bad
// file rejected with the file and the reason, and files shade wrote verified by NumPy.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "shade/base/error.h"
#include "shade/io/npy.h"
#include "shade/io/stream.h"
#include "shade/ndarray/ndarray.h"

namespace {

using shade::NDArray;
using shade::TShape;
using shade::index_t;
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

TShape ParseShape(const std::string& s) { return shade::ParseTShape(s); }

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
    EXPECT_NE(std::string(e.what()).find("bfloat16 has no NumPy equivalent"), std::string::npos) << e.what();
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
  for (int rank = 0; rank <= 64; rank += 7) {
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

bool HaveNumpy() { return std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") == 0; }

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
      list << base << " " << shade::TypeFlagName(flag) << " " << (shp.str().empty() ? "-" : shp.str()) << "\n";
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
            "    want = np.frombuffer(open(base + '.bin', 'rb').read(), dtype=np.dtype(dt).newbyteorder('<')).reshape(shape)\n"
            "    if a.dtype.name != dt or a.shape != shape or a.tobytes() != want.astype(a.dtype).tobytes() \\\n"
            "       or np.ascontiguousarray(a).astype(a.dtype.newbyteorder('<')).tobytes() != want.tobytes():\n"
            "        print('MISMATCH', base, a.dtype, a.shape); bad += 1\n"
            "sys.exit(1 if bad else 0)\n");
  EXPECT_EQ(std::system(("/usr/bin/python3 " + script + " " + dir + "list.txt").c_str()), 0);
  std::system(("rm -rf " + dir).c_str());
}

}  // namespace
