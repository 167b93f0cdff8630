// TypeMeta: names, sizes, flags <-> TypeMeta, raw types pay nothing, std::string works.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "shade/base/type_meta.h"

namespace {

using shade::TypeMeta;

struct Pod {
  int a;
  float b;
};

TEST(TypeMeta, UninitializedByDefault) {
  TypeMeta m;
  EXPECT_FALSE(m.initialized());
  EXPECT_EQ(m.itemsize(), 0u);
  EXPECT_EQ(m.flag(), -1);
  EXPECT_STREQ(m.name(), "nullptr (uninitialized)");
}

TEST(TypeMeta, NumericTypesMapToFlagsBothWays) {
  auto check = [](auto tag) {
    using T = typename decltype(tag)::type;
    const TypeMeta m = TypeMeta::Make<T>();
    EXPECT_EQ(m.flag(), shade::DataType<T>::kFlag);
    EXPECT_EQ(m.itemsize(), sizeof(T));
    EXPECT_STREQ(m.name(), shade::DataType<T>::kName);
    EXPECT_TRUE(TypeMeta::FromFlag(m.flag()) == m);
    EXPECT_TRUE(m.Match<T>());
    // Raw bytes: no construction, destruction or copy code.
    EXPECT_EQ(m.ctor(), nullptr);
    EXPECT_EQ(m.dtor(), nullptr);
    EXPECT_EQ(m.copy(), nullptr);
  };
  for (int f = 0; f < shade::kNumTypeFlags; ++f) shade::DispatchDTypeWithComplex(f, check);
  EXPECT_FALSE(TypeMeta::Make<float>() == TypeMeta::Make<double>());
  EXPECT_TRUE(TypeMeta::Make<float>() != TypeMeta::Make<std::int32_t>());
}

TEST(TypeMeta, UnknownFlagThrowsNamingIt) {
  try {
    TypeMeta::FromFlag(42);
    FAIL();
  } catch (const shade::Error& e) {
    EXPECT_NE(std::string(e.what()).find("42"), std::string::npos);
  }
  EXPECT_THROW(TypeMeta::FromFlag(-1), shade::Error);
}

TEST(TypeMeta, PodStructIsRawButNotNumeric) {
  const TypeMeta m = TypeMeta::Make<Pod>();
  EXPECT_EQ(m.flag(), -1);
  EXPECT_EQ(m.itemsize(), sizeof(Pod));
  EXPECT_EQ(m.ctor(), nullptr);
  EXPECT_NE(std::string(m.name()).find("Pod"), std::string::npos);
}

TEST(TypeMeta, StringConstructsCopiesAndDestroys) {
  const TypeMeta m = TypeMeta::Make<std::string>();
  EXPECT_STREQ(m.name(), "std::string");
  EXPECT_EQ(m.flag(), -1);
  ASSERT_NE(m.ctor(), nullptr);
  ASSERT_NE(m.dtor(), nullptr);
  ASSERT_NE(m.copy(), nullptr);
  alignas(std::string) unsigned char a[3 * sizeof(std::string)];
  alignas(std::string) unsigned char b[3 * sizeof(std::string)];
  m.ctor()(a, 3);
  m.ctor()(b, 3);
  auto* sa = reinterpret_cast<std::string*>(a);
  auto* sb = reinterpret_cast<std::string*>(b);
  EXPECT_TRUE(sa[0].empty());
  sa[0] = "x";
  sa[1] = std::string(100, 'y');  // heap-allocated: leaks would show under ASan
  sa[2] = "z";
  m.CopyItems(a, b, 3);
  EXPECT_EQ(sb[1], std::string(100, 'y'));
  EXPECT_EQ(sb[2], "z");
  m.dtor()(a, 3);
  m.dtor()(b, 3);
}

TEST(TypeMeta, TypeNameMatchesMake) {
  EXPECT_STREQ(TypeMeta::TypeName<float>(), "float32");
  EXPECT_STREQ(TypeMeta::TypeName<std::int64_t>(), "int64");
  EXPECT_STREQ(TypeMeta::TypeName<shade::half_t>(), "float16");
}

}  // namespace
