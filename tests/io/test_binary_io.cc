// SaveBinary/LoadBinary (mshadow's format) for Tensor and TensorContainer, and shade's NDArray
// binary format: layout, round trips for every dtype and rank 0-6, and every rejection.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "shade/base/error.h"
#include "shade/io/binary.h"
#include "shade/io/ndarray_io.h"
#include "shade/io/stream.h"
#include "shade/ndarray/ndarray.h"
#include "shade/tensor/tensor_cpu.h"

namespace {

using shade::cpu;
using shade::index_t;
using shade::NDArray;
using shade::Shape;
using shade::Tensor;
using shade::TensorContainer;
using shade::TShape;
namespace io = shade::io;

template <int dim, typename DType>
void FillTensor(const Tensor<cpu, dim, DType>& t, int seed) {
  const Tensor<cpu, 2, DType> t2 = t.FlatTo2D();
  for (index_t i = 0; i < t2.size(0); ++i) {
    for (index_t j = 0; j < t2.size(1); ++j)
      t2[i][j] = DType(static_cast<float>((i * 31 + j * 7 + seed) % 97) - 40);
  }
}

// The oracle: mshadow's layout written by hand (the shape as int32 extents, mshadow's default
// index_t, then the unpadded rows).
template <int dim, typename DType>
std::string MshadowBytes(const Tensor<cpu, dim, DType>& t) {
  std::string out;
  for (int i = 0; i < dim; ++i) {
    const std::int32_t extent = static_cast<std::int32_t>(t.shape_[i]);
    out.append(reinterpret_cast<const char*>(&extent), sizeof(extent));
  }
  const Tensor<cpu, 2, DType> t2 = t.FlatTo2D();
  for (index_t i = 0; i < t2.size(0); ++i) {
    for (index_t j = 0; j < t2.size(1); ++j) {
      out.append(reinterpret_cast<const char*>(&t2[i][j]), sizeof(DType));
    }
  }
  return out;
}

template <int dim, typename DType>
bool SameValues(const Tensor<cpu, dim, DType>& a, const Tensor<cpu, dim, DType>& b) {
  if (a.shape_ != b.shape_) return false;
  const Tensor<cpu, 2, DType> a2 = a.FlatTo2D(), b2 = b.FlatTo2D();
  for (index_t i = 0; i < a2.size(0); ++i) {
    if (std::memcmp(a2[i].dptr_, b2[i].dptr_,
                    sizeof(DType) * static_cast<std::size_t>(a2.size(1))) != 0)
      return false;
  }
  return true;
}

template <int dim, typename DType>
void RoundTripTensor(const Shape<dim>& shape) {
  Tensor<cpu, dim, DType> src(shape);
  shade::AllocSpace(&src);  // padded rows: the format must skip the padding
  FillTensor(src, 3);
  io::MemoryStream ms;
  shade::SaveBinary(ms, src);
  EXPECT_EQ(ms.buffer(), MshadowBytes(src));
  ms.Seek(0);
  Tensor<cpu, dim, DType> fresh;
  shade::LoadBinary(ms, &fresh, false);
  EXPECT_TRUE(SameValues(src, fresh));
  shade::FreeSpace(&fresh);
  // pre_alloc: reuse dst's memory.
  Tensor<cpu, dim, DType> pre(shape);
  shade::AllocSpace(&pre, false);
  ms.Seek(0);
  shade::LoadBinary(ms, &pre, true);
  EXPECT_TRUE(SameValues(src, pre));
  shade::FreeSpace(&pre);
  // Container.
  ms.Seek(0);
  TensorContainer<cpu, dim, DType> box;
  shade::LoadBinary(ms, &box);
  EXPECT_TRUE((SameValues<dim, DType>(src, box)));
  io::MemoryStream again;
  shade::SaveBinary(again, box);
  EXPECT_EQ(again.buffer(), ms.buffer());
  shade::FreeSpace(&src);
}

TEST(BinaryTensor, RoundTripsInMshadowFormat) {
  RoundTripTensor<1, float>(shade::Shape1(7));
  RoundTripTensor<2, float>(shade::Shape2(3, 5));
  RoundTripTensor<2, double>(shade::Shape2(4, 17));
  RoundTripTensor<3, int>(shade::Shape3(2, 3, 9));
  RoundTripTensor<4, shade::half_t>(shade::Shape4(2, 1, 3, 5));
  RoundTripTensor<2, std::uint8_t>(shade::Shape2(3, 0));
  RoundTripTensor<3, std::int64_t>(shade::Shape3(0, 2, 2));
}

TEST(BinaryTensor, FileStreamRoundTrip) {
  const std::string path = ::testing::TempDir() + "shade_binary.bin";
  TensorContainer<cpu, 3, float> src(shade::Shape3(2, 3, 4));
  FillTensor<3, float>(src, 1);
  {
    io::FileStream f(path, "w");
    shade::SaveBinary(f, src);
  }
  io::FileStream f(path, "r");
  TensorContainer<cpu, 3, float> dst;
  shade::LoadBinary(f, &dst);
  EXPECT_TRUE((SameValues<3, float>(src, dst)));
  std::remove(path.c_str());
}

TEST(BinaryTensor, Rejections) {
  TensorContainer<cpu, 2, float> src(shade::Shape2(3, 4));
  FillTensor<2, float>(src, 0);
  io::MemoryStream ms;
  shade::SaveBinary(ms, src);
  const std::string good = ms.buffer();
  {  // shape mismatch with pre_alloc
    Tensor<cpu, 2, float> pre(shade::Shape2(4, 3));
    shade::AllocSpace(&pre);
    io::MemoryViewStream v(good.data(), good.size());
    try {
      shade::LoadBinary(v, &pre, true);
      ADD_FAILURE();
    } catch (const shade::Error& e) {
      EXPECT_NE(std::string(e.what()).find("does not match the pre-allocated (4,3)"),
                std::string::npos)
          << e.what();
    }
    shade::FreeSpace(&pre);
  }
  {  // truncated rows: fresh allocation released (ASan proves no leak)
    io::MemoryViewStream v(good.data(), good.size() - 5);
    Tensor<cpu, 2, float> t;
    EXPECT_THROW(shade::LoadBinary(v, &t, false), shade::Error);
    io::MemoryViewStream v2(good.data(), 11);
    TensorContainer<cpu, 2, float> box;
    EXPECT_THROW(shade::LoadBinary(v2, &box), shade::Error);
  }
  {  // negative, overflowing and beyond-the-stream shapes
    for (auto dims : {std::vector<std::int32_t>{-1, 4}, std::vector<std::int32_t>{4, INT32_MIN},
                      std::vector<std::int32_t>{1000000, 1000000}}) {
      std::string bad(reinterpret_cast<const char*>(dims.data()), 8);
      io::MemoryViewStream v(bad.data(), bad.size());
      Tensor<cpu, 2, float> t;
      EXPECT_THROW(shade::LoadBinary(v, &t, false), shade::Error);
    }
  }
}

// ------------------------------------------------------------------ NDArray binary format

NDArray RandomArray(const TShape& shape, int flag, std::mt19937* rng) {
  NDArray a = NDArray::Empty(shade::IndexSpan(shape), flag);
  unsigned char* p = static_cast<unsigned char*>(a.data_ptr());
  for (std::size_t i = 0; i < a.nbytes(); ++i) {
    p[i] = static_cast<unsigned char>((*rng)() & (flag == shade::kBool ? 1u : 0xffu));
  }
  return a;
}

std::string Bytes(const NDArray& a) {
  if (a.numel() == 0) return std::string();
  const NDArray c = a.is_contiguous() ? a : a.contiguous();
  return std::string(static_cast<const char*>(c.raw_data()), c.nbytes());
}

TEST(NDArrayBinary, DocumentedLayout) {
  NDArray a = NDArray::Empty({2, 3}, shade::kInt16);
  std::int16_t* p = static_cast<std::int16_t*>(a.data_ptr());
  for (int i = 0; i < 6; ++i) p[i] = static_cast<std::int16_t>(i - 2);
  io::MemoryStream ms;
  io::SaveNDArray(&ms, a);
  const std::string& b = ms.buffer();
  ASSERT_EQ(b.size(), 24u + 16u + 12u);
  EXPECT_EQ(std::memcmp(b.data(), "SHADEND\0", 8), 0);
  const unsigned char want[16] = {1, 0, 0, 0, 9, 0, 0, 0,
                                  2, 0, 0, 0, 0, 0, 0, 0};  // v1, int16=9, rank 2
  EXPECT_EQ(std::memcmp(b.data() + 8, want, 16), 0);
  EXPECT_EQ(static_cast<unsigned char>(b[24]), 2);
  EXPECT_EQ(static_cast<unsigned char>(b[32]), 3);
  EXPECT_EQ(static_cast<unsigned char>(b[40]), 0xfe);  // -2 little-endian
  EXPECT_EQ(static_cast<unsigned char>(b[41]), 0xff);
}

TEST(NDArrayBinary, RoundTripEveryDtypeRank0To6NonContiguous) {
  std::mt19937 rng(4);
  const index_t full[6] = {2, 3, 1, 2, 2, 3};
  for (int flag = 0; flag < shade::kNumTypeFlags; ++flag) {
    for (int rank = 0; rank <= 6; ++rank) {
      const TShape shape(std::vector<index_t>(full, full + rank));
      for (int variant = 0; variant < 3; ++variant) {
        SCOPED_TRACE(std::string(shade::TypeFlagName(flag)) + " rank " + std::to_string(rank) +
                     " v" + std::to_string(variant));
        NDArray src = RandomArray(shape, flag, &rng);
        if (variant == 1 && rank > 0) {
          TShape wide = shape;
          wide[rank - 1] = shape[rank - 1] * 3;
          src = RandomArray(wide, flag, &rng).slice(rank - 1, 1, wide[rank - 1], 3);
        } else if (variant == 2 && rank > 1) {
          src = src.transpose(0, rank - 1);
        }
        io::MemoryStream ms;
        io::SaveNDArray(&ms, src);
        const NDArray back = io::LoadNDArrayFromMemory(ms.buffer().data(), ms.buffer().size());
        EXPECT_EQ(back.type_flag(), flag);
        EXPECT_EQ(back.shape(), src.shape());
        EXPECT_TRUE(back.is_contiguous());
        ASSERT_EQ(Bytes(back), Bytes(src));
      }
    }
  }
  const std::string path = ::testing::TempDir() + "shade_nd.bin";
  const NDArray a = RandomArray(TShape{0, 4}, shade::kBfloat16, &rng);
  io::SaveNDArray(path, a);
  EXPECT_EQ(io::LoadNDArray(path).shape(), a.shape());
  std::remove(path.c_str());
}

std::string Header(std::uint32_t version, std::uint32_t flag, std::uint32_t rank,
                   std::uint32_t reserved, const std::vector<std::int64_t>& sizes) {
  std::string h("SHADEND\0", 8);
  for (std::uint32_t v : {version, flag, rank, reserved})
    h.append(reinterpret_cast<const char*>(&v), 4);
  for (std::int64_t s : sizes) h.append(reinterpret_cast<const char*>(&s), 8);
  return h;
}

TEST(NDArrayBinary, BadInputsRejectedWithReason) {
  const std::string ok = Header(1, 0, 2, 0, {2, 2}) + std::string(16, '\0');
  EXPECT_EQ(io::LoadNDArrayFromMemory(ok.data(), ok.size()).numel(), 4);
  const struct {
    std::string bytes;
    const char* reason;
  } cases[] = {
      {"", "24-byte header"},
      {"SHADENX" + std::string(17, '\0'), "bad magic"},
      {Header(2, 0, 2, 0, {2, 2}) + std::string(16, '\0'), "unsupported NDArray format version"},
      {Header(1, 15, 1, 0, {2}) + std::string(8, '\0'), "unknown dtype flag"},
      {Header(1, 0xffffffffu, 1, 0, {2}), "unknown dtype flag"},
      {Header(1, 0, 65, 0, {}), "rank too large"},
      {Header(1, 0, 1, 7, {2}) + std::string(8, '\0'), "reserved header field"},
      {Header(1, 0, 2, 0, {2}), "NDArray sizes"},
      {Header(1, 0, 2, 0, {-2, 2}), "negative extent"},
      {Header(1, 0, 2, 0, {INT64_MAX, 4}), "element count overflows"},
      {Header(1, 0, 3, 0, {INT64_MAX / 2, 0, 4}), "strides would overflow"},
      {Header(1, 1, 1, 0, {INT64_MAX / 4}), "data size overflows"},
      {Header(1, 1, 2, 0, {1000000, 1000000}), "truncated"},
      {Header(1, 0, 2, 0, {2, 2}) + std::string(15, '\0'), "truncated"},
      {ok + "x", "unexpected bytes after"},
      {Header(1, 7, 1, 0, {3}) + std::string("\x00\x02\x01", 3), "only 0 and 1"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.reason);
    try {
      io::LoadNDArrayFromMemory(c.bytes.data(), c.bytes.size());
      ADD_FAILURE() << "accepted";
    } catch (const shade::Error& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("<memory>"), std::string::npos) << m;
      EXPECT_NE(m.find(c.reason), std::string::npos) << m;
    }
  }
  EXPECT_THROW(io::SaveNDArray(std::string("/nonexistent-dir-shade/x"),
                               NDArray::Empty({1}, shade::kFloat32)),
               shade::Error);
  EXPECT_THROW(io::LoadNDArray(std::string("/nonexistent-dir-shade/x")), shade::Error);
}

}  // namespace

// Found by binary_load_fuzzer (issue 21): a stored shape of many empty rows made LoadBinary loop
// over every (empty) row; it must load at once. mshadow's format stores int32 extents, so the
// most rows a file can claim is INT32_MAX (about 2^31 loop turns before the fix).
TEST(BinaryIO, ManyEmptyRowsLoadAtOnce) {
  const std::int32_t shape[2] = {std::numeric_limits<std::int32_t>::max(), 0};
  shade::io::MemoryViewStream in(shape, sizeof(shape));
  shade::TensorContainer<shade::cpu, 2, float> c;
  shade::LoadBinary(in, &c);
  EXPECT_EQ(c.size(0), std::numeric_limits<std::int32_t>::max());
  EXPECT_EQ(c.size(1), 0);
}
