// Seed note 001 (Torch TH tensors): every example of the note, on NDArray.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "shade/ndarray/apply.h"
#include "shade/ndarray/ndarray.h"

namespace {

using shade::index_t;
using shade::NDArray;

// THTensor_(newWithSize*) for real = double.
NDArray NewWithSize(shade::IndexSpan sizes) { return NDArray::Empty<double>(sizes); }

std::string PrintMatrix(const NDArray& t) {
  // The note's printMatrix: get2d over both dims, rank checked.
  if (t.ndim() != 2) throw std::runtime_error("dimension error");
  std::ostringstream os;
  for (index_t i = 0; i != t.size(0); ++i) {
    for (index_t j = 0; j != t.size(1); ++j) os << t.get({i, j}) << ' ';
    os << '\n';
  }
  return os.str();
}

TEST(SeedTH, Set1dGet1dPrintsZeroToNine) {
  NDArray tensor1 = NewWithSize({10});
  for (index_t i = 0; i != 10; ++i) tensor1.set({i}, static_cast<double>(i));
  std::ostringstream os;
  for (index_t i = 0; i != 10; ++i) os << tensor1.get({i}) << ' ';
  EXPECT_EQ(os.str(), "0 1 2 3 4 5 6 7 8 9 ");
}

TEST(SeedTH, ApplyFillsZeroToNine) {
  // TH_TENSOR_APPLY(real, tensor1, *tensor1_data = (real)i; ++i;) - order matters, so ordered.
  NDArray tensor1 = NewWithSize({10});
  int i = 0;
  shade::ApplyOptions ordered;
  ordered.ordered = true;
  shade::ApplyElementwise<double>([&i](double& x) { x = static_cast<double>(i); ++i; }, ordered, tensor1);
  std::ostringstream os;
  for (index_t k = 0; k != 10; ++k) os << tensor1.get({k}) << ' ';
  EXPECT_EQ(os.str(), "0 1 2 3 4 5 6 7 8 9 ");
  EXPECT_EQ(i, 10);
}

TEST(SeedTH, FillThroughTheStoragePointer) {
  NDArray tensor1 = NewWithSize({10});
  const shade::Storage& s = tensor1.storage();
  double* data = static_cast<double*>(s.data());
  const index_t size = static_cast<index_t>(s.capacity() / s.itemsize());
  EXPECT_EQ(size, 10);
  for (index_t i = 0; i != size; ++i) data[i] = static_cast<double>(i);
  for (index_t i = 0; i != 10; ++i) EXPECT_EQ(tensor1.at<double>(i), static_cast<double>(i));
}

TEST(SeedTH, StridesOf8x4x6x7AndSet4dOffset) {
  NDArray ts = NewWithSize({8, 4, 6, 7});
  const index_t stride1 = ts.stride(0), stride2 = ts.stride(1), stride3 = ts.stride(2),
                stride4 = ts.stride(3);
  std::ostringstream os;
  os << "strides: " << stride1 << ' ' << stride2 << ' ' << stride3 << ' ' << stride4;
  EXPECT_EQ(os.str(), "strides: 168 42 7 1");
  double* data = ts.data<double>();
  const int a = 2, b = 3, c = 5, d = 2;
  ts.set({a, b, c, d}, 12);
  EXPECT_EQ(data[a * stride1 + b * stride2 + c * stride3 + d * stride4], 12);
  // The last stride of a fresh tensor is 1; stride[d] = size[d+1] * stride[d+1].
  for (int k = 0; k < 3; ++k) EXPECT_EQ(ts.stride(k), ts.size(k + 1) * ts.stride(k + 1));
}

TEST(SeedTH, DataIsStorageDataPlusOffset) {
  NDArray ts = NewWithSize({8, 4, 6, 7});
  NDArray sub = ts.narrow(0, 3, 2).select(1, 2);
  EXPECT_EQ(sub.storage_offset(), 3 * 168 + 2 * 42);
  EXPECT_EQ(sub.data<double>(), static_cast<double*>(ts.storage().data()) + sub.storage_offset());
  NDArray lazy({3});  // no storage data yet: THTensor_(data) returns NULL
  EXPECT_EQ(lazy.data_ptr(), nullptr);
}

TEST(SeedTH, TransposeSharesStorageWithStrides1And4) {
  NDArray tensor1 = NewWithSize({3, 4});
  const shade::Storage& s = tensor1.storage();
  std::ostringstream before;
  before << "strides: " << tensor1.stride(0) << ' ' << tensor1.stride(1);
  EXPECT_EQ(before.str(), "strides: 4 1");
  double* data = static_cast<double*>(s.data());
  for (index_t i = 0; i != 12; ++i) data[i] = static_cast<double>(i);
  const std::string content = "0 1 2 3 \n4 5 6 7 \n8 9 10 11 \n";
  EXPECT_EQ(PrintMatrix(tensor1), content);
  NDArray tensor2 = tensor1.transpose(0, 1);
  std::ostringstream after;
  after << "strides: " << tensor2.stride(0) << ' ' << tensor2.stride(1);
  EXPECT_EQ(after.str(), "strides: 1 4");
  EXPECT_TRUE(tensor2.storage().is_alias_of(tensor1.storage()));
  EXPECT_EQ(tensor1.storage().use_count(), 2);
  EXPECT_EQ(PrintMatrix(tensor1), content);  // the original is unchanged
  EXPECT_EQ(PrintMatrix(tensor2), "0 4 8 \n1 5 9 \n2 6 10 \n3 7 11 \n");
  EXPECT_FALSE(tensor2.is_contiguous());
}

TEST(SeedTH, CounterWalkOfTheTransposedMatrix) {
  // The counter loop of the note visits the transposed matrix in its logical order.
  NDArray tensor1 = NewWithSize({3, 4});
  for (index_t i = 0; i != 12; ++i) tensor1.data<double>()[i] = static_cast<double>(i);
  NDArray tensor2 = tensor1.transpose(0, 1);
  std::vector<double> seen;
  shade::ApplyOptions ordered;
  ordered.ordered = true;
  shade::ApplyElementwise<double>([&seen](double& x) { seen.push_back(x); }, ordered, tensor2);
  EXPECT_EQ(seen, (std::vector<double>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
}

TEST(SeedTH, LargestContiguousSectionAsTHComputesIt) {
  index_t dim, size, stride;
  // Fresh 8x4x6x7: the whole tensor is one section, no counters left.
  shade::THContiguousSection({8, 4, 6, 7}, {168, 42, 7, 1}, &dim, &size, &stride);
  EXPECT_EQ(dim, -1);
  EXPECT_EQ(size, 1344);
  EXPECT_EQ(stride, 1);
  // Transposed 3x4 (sizes 4x3, strides 1,4): first stride 4, section of one element.
  shade::THContiguousSection({4, 3}, {1, 4}, &dim, &size, &stride);
  EXPECT_EQ(stride, 4);
  EXPECT_EQ(size, 1);
  EXPECT_EQ(dim, 1);
  // Trailing size-1 dims are skipped; a narrowed row keeps its inner section.
  shade::THContiguousSection({3, 5, 1}, {10, 1, 1}, &dim, &size, &stride);
  EXPECT_EQ(stride, 1);
  EXPECT_EQ(size, 5);
  EXPECT_EQ(dim, 0);
}

TEST(SeedTH, ApplyVisitsEveryElementOfA4dTensorOnce) {
  // The apply engine over the permuted 8x4x6x7 tensor: each storage slot written exactly once.
  NDArray ts = NDArray::Empty<double>({8, 4, 6, 7});
  ts.Fill(0);
  NDArray perm = ts.permute({2, 0, 3, 1});
  shade::ApplyElementwise<double>([](double& x) { x += 1; }, shade::ApplyOptions(), perm);
  const double* d = ts.data<double>();
  for (index_t i = 0; i < ts.numel(); ++i) ASSERT_EQ(d[i], 1.0) << i;
}

}  // namespace
