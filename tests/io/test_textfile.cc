// Text files (io/textfile.h): loadtxt / genfromtxt / savetxt. Expected texts and messages were
// produced by NumPy 1.24 (stored here); round trips check the reader against the writer and
// the values against a naive loop; hostile inputs must throw shade::Error, never crash.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <sstream>
#include <string>

#include "shade/base/error.h"
#include "shade/io/textfile.h"
#include "shade/ndarray/shape_ops.h"

namespace {

using shade::NDArray;
namespace io = shade::io;

template <typename T>
T At(const NDArray& a, shade::index_t i, shade::index_t j) {
  const NDArray c = a.contiguous();
  return c.data<T>()[i * (a.dim() == 2 ? a.size(1) : 1) + j];
}

std::string Message(const std::function<void()>& f) {
  try {
    f();
  } catch (const shade::Error& e) {
    return e.what();
  }
  return "<no error>";
}

bool Contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(LoadTxt, ValuesAndDtypes) {
  const NDArray a = io::LoadTxtFromMemory("1 2.5 -3\n# c\n\n4 inf nan\n");
  ASSERT_EQ(a.dim(), 2);
  EXPECT_EQ(a.size(0), 2);
  EXPECT_EQ(a.size(1), 3);
  EXPECT_EQ(At<double>(a, 0, 1), 2.5);
  EXPECT_EQ(At<double>(a, 1, 0), 4.0);
  EXPECT_TRUE(std::isinf(At<double>(a, 1, 1)));
  EXPECT_TRUE(std::isnan(At<double>(a, 1, 2)));

  io::LoadTxtOptions o;
  o.dtype = shade::kInt8;
  const NDArray b = io::LoadTxtFromMemory("-128 127 +5", o);
  EXPECT_EQ(b.type_flag(), shade::kInt8);
  EXPECT_EQ(At<std::int8_t>(b, 0, 0), -128);
  EXPECT_EQ(At<std::int8_t>(b, 2, 0), 5);
  o.dtype = shade::kUint64;
  EXPECT_EQ(At<std::uint64_t>(io::LoadTxtFromMemory("18446744073709551615", o), 0, 0),
            std::numeric_limits<std::uint64_t>::max());
  o.dtype = shade::kBool;
  const NDArray c = io::LoadTxtFromMemory("1 0 -2", o);
  EXPECT_TRUE(At<bool>(c, 0, 0));
  EXPECT_FALSE(At<bool>(c, 1, 0));
  EXPECT_TRUE(At<bool>(c, 2, 0));
  o.dtype = shade::kFloat32;  // NumPy: parse as double, then round once to float32
  const NDArray d = io::LoadTxtFromMemory("0.1 3.4028235677973366e38 1e400 -1e-400", o);
  EXPECT_EQ(At<float>(d, 0, 0), 0.1f);
  EXPECT_TRUE(std::isinf(At<float>(d, 1, 0)));
  EXPECT_TRUE(std::isinf(At<float>(d, 2, 0)));
  EXPECT_EQ(At<float>(d, 3, 0), 0.0f);
  EXPECT_TRUE(std::signbit(At<float>(d, 3, 0)));
}

TEST(LoadTxt, NumPyMessages) {
  EXPECT_TRUE(Contains(Message([] { io::LoadTxtFromMemory("1 2\n3 x\n"); }),
                       "could not convert string 'x' to float64 at row 1, column 2."));
  EXPECT_TRUE(Contains(Message([] { io::LoadTxtFromMemory("#c\n1 2\n\n3 4 5\n"); }),
                       "the number of columns changed from 2 to 3 at row 2; use `usecols`"));
  io::LoadTxtOptions o;
  o.usecols = std::vector<shade::index_t>{5};
  EXPECT_TRUE(Contains(Message([&] { io::LoadTxtFromMemory("1 2 3\n", o); }),
                       "invalid column index 5 at row 1 with 3 columns"));
  o = io::LoadTxtOptions();
  o.delimiter = ",";
  EXPECT_TRUE(Contains(Message([&] { io::LoadTxtFromMemory("1,,2", o); }),
                       "could not convert string '' to float64 at row 0, column 2."));
  o.delimiter = "::";
  EXPECT_THROW(io::LoadTxtFromMemory("1", o), shade::TypeError);
  o.delimiter = "\n";
  EXPECT_THROW(io::LoadTxtFromMemory("1", o), shade::TypeError);
  o = io::LoadTxtOptions();
  o.ndmin = 3;
  EXPECT_THROW(io::LoadTxtFromMemory("1", o), shade::ValueError);
  o = io::LoadTxtOptions();
  o.comments = {""};
  EXPECT_THROW(io::LoadTxtFromMemory("1", o), shade::ValueError);
  o = io::LoadTxtOptions();
  o.dtype = shade::kInt8;  // out of range: an error, never wrapped
  EXPECT_TRUE(Contains(Message([&] { io::LoadTxtFromMemory("300", o); }),
                       "could not convert string '300' to int8 at row 0, column 1."));
  o.dtype = shade::kInt64;
  EXPECT_THROW(io::LoadTxtFromMemory("99999999999999999999", o), shade::ValueError);
  EXPECT_THROW(io::LoadTxtFromMemory("1.5", o), shade::ValueError);
  o.dtype = shade::kUint8;
  EXPECT_THROW(io::LoadTxtFromMemory("-1", o), shade::ValueError);
  // Python's repr of the field, at most 100 characters.
  const std::string long_msg = Message([] { io::LoadTxtFromMemory(std::string(5000, 'x')); });
  EXPECT_TRUE(Contains(long_msg, "'" + std::string(99, 'x') + " to float64"));
  EXPECT_TRUE(Contains(Message([] { io::LoadTxtFromMemory("'x\"\\"); }),
                       "could not convert string '\\'x\"\\\\' to float64"));
}

TEST(LoadTxt, ShapesAsNumPy) {
  io::LoadTxtOptions o;
  EXPECT_EQ(io::LoadTxtFromMemory("5", o).dim(), 0);
  EXPECT_EQ(io::LoadTxtFromMemory("1 2 3", o).shape(), shade::TShape({3}));
  EXPECT_EQ(io::LoadTxtFromMemory("1\n2", o).shape(), shade::TShape({2}));
  EXPECT_EQ(io::LoadTxtFromMemory("", o).shape(), shade::TShape({0}));
  o.ndmin = 2;
  EXPECT_EQ(io::LoadTxtFromMemory("", o).shape(), shade::TShape({0, 1}));
  EXPECT_EQ(io::LoadTxtFromMemory("5", o).shape(), shade::TShape({1, 1}));
  EXPECT_EQ(io::LoadTxtFromMemory("1 2 3", o).shape(), shade::TShape({1, 3}));
  o.ndmin = 1;
  EXPECT_EQ(io::LoadTxtFromMemory("5", o).shape(), shade::TShape({1}));
  o = io::LoadTxtOptions();
  o.usecols = std::vector<shade::index_t>{};
  EXPECT_EQ(io::LoadTxtFromMemory("1 2\n3 4", o).shape(), shade::TShape({2, 0}));
  o.usecols = std::vector<shade::index_t>{-1, 0};  // ragged rows are fine with usecols
  const NDArray u = io::LoadTxtFromMemory("1 2 3\n4 5", o);
  EXPECT_EQ(u.shape(), shade::TShape({2, 2}));
  EXPECT_EQ(At<double>(u, 0, 0), 3.0);
  EXPECT_EQ(At<double>(u, 1, 0), 5.0);
  o = io::LoadTxtOptions();
  o.unpack = true;
  const NDArray t = io::LoadTxtFromMemory("1 2\n3 4\n5 6", o);
  EXPECT_EQ(t.shape(), shade::TShape({2, 3}));
  EXPECT_EQ(At<double>(t, 0, 2), 5.0);
}

TEST(LoadTxt, LinesCommentsQuotes) {
  io::LoadTxtOptions o;
  o.skiprows = 2;  // counts comment and header lines
  o.max_rows = 2;  // counts data rows only
  const NDArray a = io::LoadTxtFromMemory("a b\n#c\n1 2\n\n# x\n3 4\n5 6\n", o);
  EXPECT_EQ(a.shape(), shade::TShape({2, 2}));
  EXPECT_EQ(At<double>(a, 1, 1), 4.0);
  o = io::LoadTxtOptions();
  o.comments = {"//", "#"};
  EXPECT_EQ(io::LoadTxtFromMemory("1 2 // c\r\n3 4 # d\r5 6", o).shape(), shade::TShape({3, 2}));
  o = io::LoadTxtOptions();
  o.delimiter = ",";
  o.quotechar = "\"";
  const NDArray q = io::LoadTxtFromMemory("\"1\",\"2\"\n3,\"4\"\n", o);
  EXPECT_EQ(q.shape(), shade::TShape({2, 2}));
  EXPECT_EQ(At<double>(q, 1, 1), 4.0);
  // Inside quotes the delimiter is data, and "" is one quote.
  EXPECT_TRUE(Contains(Message([&] { io::LoadTxtFromMemory("\"1,5\",2", o); }),
                       "could not convert string '1,5' to float64 at row 0, column 1."));
  EXPECT_TRUE(Contains(Message([&] { io::LoadTxtFromMemory("\"1\"\",5\",2", o); }),
                       "could not convert string '1\",5' to float64 at row 0, column 1."));
}

TEST(LoadTxt, HostileInputNeverCrashes) {
  // Huge exponents, huge integers, NUL bytes, invalid UTF-8, very long lines.
  EXPECT_TRUE(std::isinf(At<double>(io::LoadTxtFromMemory("1e99999999999999999999"), 0, 0)));
  EXPECT_EQ(At<double>(io::LoadTxtFromMemory("1e-99999999999999999999"), 0, 0), 0.0);
  EXPECT_EQ(At<double>(io::LoadTxtFromMemory("0." + std::string(400, '0') + "1e400"), 0, 0), 1e-1);
  io::LoadTxtOptions o;
  o.dtype = shade::kInt64;
  EXPECT_THROW(io::LoadTxtFromMemory(std::string(10000, '9'), o), shade::ValueError);
  EXPECT_THROW(io::LoadTxtFromMemory(std::string("1\0"
                                                 "2",
                                                 3)),
               shade::ValueError);
  const std::string bad_utf8 = Message([] { io::LoadTxtFromMemory("\xff\xfe\xe2\x82"); });
  EXPECT_TRUE(Contains(bad_utf8, "'\\xff\\xfe\\xe2\\x82'"));
  std::string wide;
  for (int i = 0; i < 20000; ++i) wide += "1 ";
  EXPECT_EQ(io::LoadTxtFromMemory(wide).shape(), shade::TShape({20000}));
  // Random bytes: a value or a shade::Error, nothing else.
  std::mt19937 rng(7);
  const char alphabet[] = "0123456789 \t\n\r,.-+eE#\"infa\xff";
  int parsed = 0;
  for (int n = 0; n < 3000; ++n) {
    std::string s(rng() % 40, ' ');
    for (char& ch : s) ch = alphabet[rng() % (sizeof(alphabet) - 1)];
    io::LoadTxtOptions r;
    r.dtype = n % 3 == 0 ? shade::kInt16 : shade::kFloat64;
    if (n % 2) r.delimiter = ",";
    if (n % 5 == 0) r.quotechar = "\"";
    try {
      io::LoadTxtFromMemory(s, r);
      ++parsed;
    } catch (const shade::Error&) {
    }
  }
  EXPECT_GT(parsed, 0);
}

TEST(TextFile, RoundTripAgainstNaiveLoop) {
  std::mt19937_64 rng(11);
  const shade::index_t dims[2] = {7, 5};
  NDArray a = NDArray::Empty(shade::IndexSpan(dims, 2), shade::kFloat64);
  double* p = a.mutable_data<double>();
  for (int i = 0; i < 35; ++i) {
    std::uint64_t bits = rng();
    std::memcpy(&p[i], &bits, 8);
    if (!std::isfinite(p[i])) p[i] = static_cast<double>(i) - 17.25;
  }
  const NDArray view = a.transpose(0, 1);  // non-contiguous
  const NDArray back = io::LoadTxtFromMemory(io::FormatTxt(view));
  ASSERT_EQ(back.shape(), shade::TShape({5, 7}));
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 7; ++j) EXPECT_EQ(At<double>(back, i, j), p[j * 5 + i]);
  }
  NDArray ints = NDArray::Empty(shade::IndexSpan(dims, 2), shade::kInt64);
  auto* q = ints.mutable_data<std::int64_t>();
  for (int i = 0; i < 35; ++i) q[i] = static_cast<std::int64_t>(rng());
  io::SaveTxtOptions so;
  so.fmt = {"%d"};
  so.delimiter = ",";
  io::LoadTxtOptions lo;
  lo.dtype = shade::kInt64;
  lo.delimiter = ",";
  const NDArray iback = io::LoadTxtFromMemory(io::FormatTxt(ints, so), lo);
  for (int i = 0; i < 35; ++i) EXPECT_EQ(iback.data<std::int64_t>()[i], q[i]);
}

NDArray Row(std::initializer_list<double> v, int flag) {
  const shade::index_t dims[2] = {1, static_cast<shade::index_t>(v.size())};
  NDArray d = NDArray::Empty(shade::IndexSpan(dims, 2), shade::kFloat64);
  std::copy(v.begin(), v.end(), d.mutable_data<double>());
  return shade::astype(d, flag);
}

TEST(SaveTxt, NumPyTexts) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const shade::index_t dims[2] = {2, 3};
  NDArray x = NDArray::Empty(shade::IndexSpan(dims, 2), shade::kFloat64);
  const double xv[6] = {1.5, -2.0, nan, inf, -inf, 1e-300};
  std::copy(xv, xv + 6, x.mutable_data<double>());
  EXPECT_EQ(io::FormatTxt(x),
            "1.500000000000000000e+00 -2.000000000000000000e+00 nan\n"
            "inf -inf 1.000000000000000025e-300\n");
  io::SaveTxtOptions o;
  o.fmt = {"%+08.3f"};
  EXPECT_EQ(io::FormatTxt(x, o), "+001.500 -002.000 +0000nan\n+0000inf -0000inf +000.000\n");
  o.fmt = {"%s"};
  EXPECT_EQ(io::FormatTxt(Row({1e16, 1e-5, 0.0001, -0.0, 123456789.0, 0.1}, shade::kFloat32), o),
            "1e+16 1e-05 1e-04 -0.0 123456790.0 0.1\n");
  o.delimiter = ",";
  EXPECT_EQ(io::FormatTxt(Row({1e16, 1e-5, 0.0001, -0.0, 123456789.0, 0.1}, shade::kFloat64), o),
            "1e+16,1e-05,0.0001,-0.0,123456789.0,0.1\n");
  o = io::SaveTxtOptions();
  o.fmt = {"%s"};
  EXPECT_EQ(io::FormatTxt(Row({0.1, 65504}, shade::kFloat16), o), "0.1 65500.0\n");
  o.fmt = {"%#06x"};
  EXPECT_EQ(io::FormatTxt(Row({255, -255}, shade::kInt16), o), "0x00ff -0x0ff\n");
  o.fmt = {"%d"};
  EXPECT_EQ(io::FormatTxt(Row({1e30, -2.7}, shade::kFloat64), o),
            "1000000000000000019884624838656 -2\n");
  o.fmt = {"%s", "%d"};
  o.fmt_is_sequence = true;
  EXPECT_EQ(io::FormatTxt(Row({1, 0}, shade::kBool), o), "True 0\n");
  o = io::SaveTxtOptions();
  o.fmt = {"%5d"};
  o.header = "h1\nh2";
  o.footer = "end";
  o.comments = "// ";
  const shade::index_t n2[1] = {2};
  NDArray u = NDArray::Empty(shade::IndexSpan(n2, 1), shade::kUint64);
  u.mutable_data<std::uint64_t>()[0] = 1;
  u.mutable_data<std::uint64_t>()[1] = 2;
  EXPECT_EQ(io::FormatTxt(u, o), "// h1\n// h2\n    1\n    2\n// end\n");
}

TEST(SaveTxt, FormatsAreValidatedNotPassedToPrintf) {
  const NDArray x = Row({1, 2}, shade::kFloat64);
  io::SaveTxtOptions o;
  for (const char* bad : {"%n", "%p", "%*d", "%(a)s", "%", "%ll", "%c", "%.99999f", "%5$d"}) {
    o.fmt = {bad};
    EXPECT_THROW(io::FormatTxt(x, o), shade::Error) << bad;
  }
  o.fmt = {"%x"};
  EXPECT_THROW(io::FormatTxt(x, o), shade::TypeError);
  o.fmt = {"%e %e %e"};
  EXPECT_TRUE(Contains(Message([&] { io::FormatTxt(x, o); }),
                       "fmt has wrong number of % formats:  %e %e %e"));
  o.fmt = {"%d"};
  EXPECT_THROW(io::FormatTxt(Row({std::nan("")}, shade::kFloat64), o), shade::ValueError);
  const shade::index_t d3[3] = {1, 1, 1};
  EXPECT_THROW(io::FormatTxt(NDArray::Empty(shade::IndexSpan(d3, 3), shade::kFloat64)),
               shade::ValueError);
}

TEST(SaveTxt, AtomicReplace) {
  char tmpl[] = "/tmp/shade_textfile_XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const std::string path = std::string(tmpl) + "/a.txt";
  const NDArray x = Row({1, 2}, shade::kFloat64);
  io::SaveTxtOptions o;
  o.fmt = {"%g"};
  io::SaveTxt(path, x, o);
  EXPECT_EQ(At<double>(io::LoadTxt(path), 1, 0), 2.0);
  o.fmt = {"%q"};  // fails before the rename: the old file stays
  EXPECT_THROW(io::SaveTxt(path, x, o), shade::ValueError);
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_EQ(ss.str(), "1 2\n");
  EXPECT_THROW(io::LoadTxt(std::string(tmpl) + "/missing.txt"), shade::IOError);
  std::remove(path.c_str());
  rmdir(tmpl);
}

TEST(GenFromTxt, MissingFillingInference) {
  io::GenFromTxtOptions o;
  o.delimiter = ",";
  const NDArray a = io::GenFromTxtFromMemory("1,,3\n4,abc,6\n", o);
  EXPECT_TRUE(std::isnan(At<double>(a, 0, 1)));
  EXPECT_TRUE(std::isnan(At<double>(a, 1, 1)));  // loose: unreadable -> filling value
  o.dtype = shade::kInt64;
  EXPECT_EQ(At<std::int64_t>(io::GenFromTxtFromMemory("1,,3", o), 1, 0), -1);
  o.filling_by_column[2] = 7;
  EXPECT_EQ(At<std::int64_t>(io::GenFromTxtFromMemory("1,2,", o), 2, 0), 7);
  o.dtype = shade::kInt8;
  EXPECT_THROW(io::GenFromTxtFromMemory("300,1,2", o), shade::ValueError);
  o = io::GenFromTxtOptions();
  o.dtype = -1;  // inference: bool < int64 < float64, one dtype for the array
  EXPECT_EQ(io::GenFromTxtFromMemory("1 2\n3 4").type_flag(), shade::kFloat64);
  EXPECT_EQ(io::GenFromTxtFromMemory("1 2\n3 4", o).type_flag(), shade::kInt64);
  EXPECT_EQ(io::GenFromTxtFromMemory("True false", o).type_flag(), shade::kBool);
  EXPECT_EQ(io::GenFromTxtFromMemory("1 2.5", o).type_flag(), shade::kFloat64);
  EXPECT_EQ(io::GenFromTxtFromMemory("99999999999999999999 1", o).type_flag(), shade::kFloat64);
  EXPECT_THROW(io::GenFromTxtFromMemory("1 abc", o), shade::NotImplementedError);
}

TEST(GenFromTxt, RowsFootersAndMessages) {
  io::GenFromTxtOptions o;
  const std::string m = Message([&] {
    io::GenFromTxtOptions x;
    x.skip_header = 1;
    io::GenFromTxtFromMemory("#h\n1 2\n\n3\n3 4 5\n6 7", x);
  });
  EXPECT_TRUE(Contains(m,
                       "Some errors were detected !\n    Line #4 (got 1 columns instead of 2)\n"
                       "    Line #5 (got 3 columns instead of 2)"));
  o.invalid_raise = false;
  std::string dropped;
  const NDArray a = io::GenFromTxtFromMemory("1 2\n3 4 5\n6 7", o, &dropped);
  EXPECT_EQ(a.shape(), shade::TShape({2, 2}));
  EXPECT_TRUE(Contains(dropped, "Line #2 (got 3 columns instead of 2)"));
  o = io::GenFromTxtOptions();
  o.skip_footer = 1;
  EXPECT_EQ(io::GenFromTxtFromMemory("1 2\n3 4\n\n5 6\n#x", o).shape(), shade::TShape({2, 2}));
  o.max_rows = 1;
  EXPECT_THROW(io::GenFromTxtFromMemory("1", o), shade::ValueError);
  o = io::GenFromTxtOptions();
  o.widths = {1, 2, 2};
  const NDArray w = io::GenFromTxtFromMemory("12345", o);
  EXPECT_EQ(w.shape(), shade::TShape({3}));
  EXPECT_EQ(At<double>(w, 1, 0), 23.0);
  EXPECT_EQ(io::GenFromTxtFromMemory("").shape(), shade::TShape({0}));
}

}  // namespace
