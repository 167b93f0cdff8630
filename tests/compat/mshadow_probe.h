// A probe of mshadow names whose printed results shade must reproduce. It uses only mshadow's
// public names, so it compiles against <mshadow/tensor.h> as well as against
// "shade/compat/mshadow.h". tests/data/compat/mshadow_probe.txt holds what it printed when built
// against dmlc/mshadow at bc49327 (g++ 12, x86-64, MSHADOW_STAND_ALONE=1, no BLAS/SSE/CUDA), and
// tests/data/compat/mshadow_savebinary.bin the bytes SaveBinary wrote there. The including file
// must have included the mshadow header first.
#ifndef SHADE_TESTS_COMPAT_MSHADOW_PROBE_H_
#define SHADE_TESTS_COMPAT_MSHADOW_PROBE_H_

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iomanip>
#include <limits>
#include <ostream>
#include <string>
#include <type_traits>

namespace mshadow_probe {

// An mshadow stream over a string: SaveBinary appends, LoadBinary reads from `pos`.
class StringStream : public mshadow::utils::IStream {
 public:
  std::string bytes;
  std::size_t pos = 0;
  size_t Read(void* ptr, size_t size) override {
    const size_t n = size < bytes.size() - pos ? size : bytes.size() - pos;
    std::memcpy(ptr, bytes.data() + pos, n);
    pos += n;
    return n;
  }
  void Write(const void* ptr, size_t size) override {
    bytes.append(static_cast<const char*>(ptr), size);
  }
};

template <int dim, typename DType>
void PrintValues(std::ostream& os, const char* name, mshadow::Tensor<mshadow::cpu, dim, DType> t) {
  mshadow::Tensor<mshadow::cpu, 2, DType> t2 = t.FlatTo2D();
  os << name << " shape";
  for (int i = 0; i < dim; ++i) os << ' ' << t.size(i);
  os << " values";
  for (mshadow::index_t i = 0; i < t2.size(0); ++i) {
    for (mshadow::index_t j = 0; j < t2.size(1); ++j) os << ' ' << static_cast<double>(t2[i][j]);
  }
  os << '\n';
}

inline std::string Hex(const std::string& bytes) {
  std::string out;
  char buf[4];
  for (unsigned char c : bytes) {
    std::snprintf(buf, sizeof(buf), "%02x", c);
    out += buf;
  }
  return out;
}

// Prints the probe's results to `os`; returns the bytes SaveBinary wrote.
inline std::string Run(std::ostream& os) {
  using namespace mshadow;        // NOLINT(build/namespaces)
  using namespace mshadow::expr;  // NOLINT(build/namespaces)
  os << std::setprecision(9);
  // ---- base.h: constants, flags, layouts, type switches, limits, savers, reducers
  os << "kPi " << kPi << " kRandBufferSize " << kRandBufferSize << '\n';
  os << "default_type_flag " << default_type_flag << " default_layout " << default_layout
     << " default_layout_5d " << default_layout_5d << '\n';
  os << "layouts " << kNCHW << ' ' << kNHWC << ' ' << kCHWN << ' ' << kNCW << ' ' << kNWC << ' '
     << kCWN << ' ' << kNCDHW << ' ' << kNDHWC << ' ' << kCDHWN << '\n';
  os << "LayoutType kNdim " << LayoutType<kNCHW>::kNdim << ' ' << LayoutType<kNHWC>::kNdim << ' '
     << LayoutType<kNCDHW>::kNdim << ' ' << LayoutType<kNDHWC>::kNdim << " kCudnnFlag "
     << LayoutType<kNCHW>::kCudnnFlag << '\n';
  os << "kLanes " << DataType<float>::kLanes << ' ' << DataType<half::half_t>::kLanes << ' '
     << DataType<half::half2_t>::kLanes << " half2 flag " << DataType<half::half2_t>::kFlag << '\n';
  os << "flags " << DataType<float>::kFlag << ' ' << DataType<double>::kFlag << ' '
     << DataType<half::half_t>::kFlag << ' ' << DataType<uint8_t>::kFlag << ' '
     << DataType<int32_t>::kFlag << ' ' << DataType<int8_t>::kFlag << ' '
     << DataType<int64_t>::kFlag << '\n';
  os << "mshadow_sizeof";
  for (int flag = kFloat32; flag <= kInt64; ++flag) os << ' ' << mshadow_sizeof(flag);
  os << '\n';
  for (int flag = kFloat32; flag <= kInt64; ++flag) {
    if (flag == kInt8) continue;  // not in this switch: mshadow aborts, shade throws
    MSHADOW_TYPE_SWITCH_WITH_HALF2(
        flag, DType, { os << "with_half2 " << flag << ' ' << sizeof(DType) << '\n'; });
  }
  for (int flag = kFloat32; flag <= kFloat16; ++flag) {
    MSHADOW_REAL_TYPE_SWITCH_EX(flag, DType, DLarge, {
      os << "real_ex " << flag << ' ' << sizeof(DType) << ' ' << sizeof(DLarge) << '\n';
    });
    MSHADOW_REAL_TYPE_SWITCH(flag, DType,
                             { os << "real " << flag << ' ' << sizeof(DType) << '\n'; });
  }
  for (int flag = kFloat32; flag <= kFloat64; ++flag) {
    MSHADOW_SGL_DBL_TYPE_SWITCH(flag, DType,
                                { os << "sgl_dbl " << flag << ' ' << sizeof(DType) << '\n'; });
  }
  const int layouts[4] = {kNCHW, kNHWC, kNCDHW, kNDHWC};
  for (int layout : layouts) {
    MSHADOW_LAYOUT_SWITCH(
        layout, Layout, { os << "layout " << Layout << ' ' << LayoutType<Layout>::kNdim << '\n'; });
  }
  MSHADOW_IDX_TYPE_SWITCH(kInt64, IType, { os << "idx " << sizeof(IType) << '\n'; });
  os << "MinValue " << red::limits::MinValue<float>() << ' ' << red::limits::MinValue<double>()
     << ' ' << static_cast<float>(red::limits::MinValue<half::half_t>()) << ' '
     << static_cast<int>(red::limits::MinValue<uint8_t>()) << ' '
     << static_cast<int>(red::limits::MinValue<int8_t>()) << ' ' << red::limits::MinValue<int32_t>()
     << ' ' << red::limits::MinValue<int64_t>() << '\n';
  os << "MaxValue " << red::limits::MaxValue<float>() << ' ' << red::limits::MaxValue<double>()
     << ' ' << static_cast<float>(red::limits::MaxValue<half::half_t>()) << ' '
     << static_cast<int>(red::limits::MaxValue<uint8_t>()) << ' '
     << static_cast<int>(red::limits::MaxValue<int8_t>()) << ' ' << red::limits::MaxValue<int32_t>()
     << ' ' << red::limits::MaxValue<int64_t>() << '\n';
  os << "AlphaBLAS " << sv::saveto::AlphaBLAS() << ' ' << sv::plusto::AlphaBLAS() << ' '
     << sv::minusto::AlphaBLAS() << " BetaBLAS " << sv::saveto::BetaBLAS() << ' '
     << sv::plusto::BetaBLAS() << ' ' << sv::minusto::BetaBLAS() << '\n';
  {  // compensated sum: 1e8 followed by ones, which a plain float sum loses
    float plain = 0, kahan = 0, residual = 0;
    red::sum::SetInitValue(kahan, residual);
    for (int i = 0; i < 20; ++i) {
      const float v = i == 0 ? 1e8f : 1.0f;
      red::sum::Reduce(plain, v);
      red::sum::Reduce(kahan, v, residual);
    }
    float other = 0, other_res = 0;
    for (int i = 0; i < 7; ++i) red::sum::Reduce(other, 0.1f, other_res);
    red::sum::Merge(kahan, residual, other, other_res);
    red::sum::Finalize(kahan, residual);
    os << "sum plain " << plain << " kahan " << kahan << " residual " << residual << '\n';
    float mx = 1, none = 0, mn = 1;
    red::maximum::Reduce(mx, 4.0f, none);
    float three = 3;
    red::maximum::Merge(mx, three);
    red::minimum::Reduce(mn, -2.0f);
    red::minimum::Merge(mn, none, three, none);
    red::maximum::Finalize(mx);
    os << "max " << mx << " min " << mn << '\n';
  }
  // ---- half.h / half2.h
  {
    const float inputs[] = {0.0f,     -0.0f,    1.0f,        0.1f,  -2.5f,           65504.0f,
                            65519.0f, 65520.0f, 1e-8f,       3e-8f, 5.96046448e-08f, 6.1e-5f,
                            2049.0f,  2051.0f,  1.0f / 3.0f, 1e5f,  -1e5f,           3.14159265f};
    os << "half bits";
    for (float f : inputs) {
      half::half_t h(f);
      os << ' ' << std::hex << h.half_ << std::dec << '=' << static_cast<float>(h);
    }
    os << '\n';
    // mshadow's two macros end in a semicolon, so they only work as a whole initialiser.
    const half::half_t hmin = MSHADOW_HALF_MIN const half::half_t hmax =
        MSHADOW_HALF_MAX os << "half min max " << static_cast<float>(hmin) << ' '
                            << static_cast<float>(hmax) << ' ' << std::hex << hmin.half_ << ' '
                            << hmax.half_ << std::dec << '\n';
    os << "half Binary " << static_cast<float>(half::half_t::Binary(0x3555)) << ' '
       << static_cast<float>(half::half_t::Binary(0x0001)) << '\n';
    half::half2_t a(half::half_t(1.5f), half::half_t(2.25f)),
        b(half::half_t(0.5f), half::half_t(-1.0f));
    half::half2_t sum = a + b, diff = a - b, prod = a * b, quot = a / b, mod = a % b;
    half::half2_t acc(3);
    acc += a;
    acc *= b;
    half::half2_t neg = -a;
    os << "half2 " << static_cast<float>(sum.half_t2[0]) << ','
       << static_cast<float>(sum.half_t2[1]) << ' ' << static_cast<float>(diff.half_t2[0]) << ','
       << static_cast<float>(diff.half_t2[1]) << ' ' << static_cast<float>(prod.half_t2[0]) << ','
       << static_cast<float>(prod.half_t2[1]) << ' ' << static_cast<float>(quot.half_t2[0]) << ','
       << static_cast<float>(quot.half_t2[1]) << ' ' << static_cast<float>(mod.half_t2[0]) << ','
       << static_cast<float>(mod.half_t2[1]) << ' ' << static_cast<float>(acc.half_t2[0]) << ','
       << static_cast<float>(acc.half_t2[1]) << ' ' << static_cast<float>(neg.half_t2[0]) << ','
       << static_cast<float>(neg.half_t2[1]) << " eq " << (a == a) << (a == b) << " size "
       << sizeof(half::half2_t) << '\n';
  }
  // ---- tensor.h / tensor_cpu-inl.h: MapReduceKeepLowest / KeepHighDim, AllocHost / FreeHost
  {
    Tensor<cpu, 2, float> src = NewTensor<cpu>(Shape2(3, 4), 0.0f);
    for (index_t i = 0; i < 3; ++i)
      for (index_t j = 0; j < 4; ++j) src[i][j] = static_cast<float>((i * 7 + j * 5) % 9) - 3.5f;
    Tensor<cpu, 1, float> low = NewTensor<cpu>(Shape1(4), 1.0f);
    MapReduceKeepLowest<sv::saveto, red::sum>(&low, src, 0.5f);
    PrintValues(os, "keep_lowest_sum", low);
    MapReduceKeepLowest<sv::plusto, red::maximum>(&low, src * 2.0f + 1.0f);
    PrintValues(os, "keep_lowest_max_plusto", low);
    Tensor<cpu, 4, float> img = NewTensor<cpu>(Shape4(2, 3, 2, 2), 0.0f);
    for (index_t n = 0; n < 2; ++n)
      for (index_t c = 0; c < 3; ++c)
        for (index_t y = 0; y < 2; ++y)
          for (index_t x = 0; x < 2; ++x)
            img[n][c][y][x] = static_cast<float>((n * 11 + c * 5 + y * 3 + x) % 7) - 2.0f;
    Tensor<cpu, 1, float> chan = NewTensor<cpu>(Shape1(3), 0.0f);
    MapReduceKeepHighDim<sv::saveto, red::sum, 1>(&chan, img, 2.0f);
    PrintValues(os, "keep_high_sum", chan);
    MapReduceKeepHighDim<sv::minusto, red::minimum, 1>(&chan, img);
    PrintValues(os, "keep_high_min_minusto", chan);
    Tensor<cpu, 1, float> batch = NewTensor<cpu>(Shape1(2), 0.0f);
    MapReduceKeepHighDim<sv::saveto, red::maximum, 0>(&batch, F<op::identity>(img));
    PrintValues(os, "keep_high0_max", batch);
    Tensor<cpu, 2, double> host(Shape2(3, 5));
    AllocHost<cpu>(&host);
    os << "AllocHost stride " << host.stride_ << " contiguous " << host.CheckContiguous() << '\n';
    FreeHost<cpu>(&host);
    os << "FreeHost null " << (host.dptr_ == NULL) << '\n';
    FreeSpace(&src);
    FreeSpace(&low);
    FreeSpace(&img);
    FreeSpace(&chan);
    FreeSpace(&batch);
  }
  // ---- io.h: SaveBinary / LoadBinary through an IStream, padded rows, several dtypes
  StringStream stream;
  {
    Tensor<cpu, 3, float> f = NewTensor<cpu>(Shape3(2, 3, 5), 0.0f);  // padded rows
    for (index_t i = 0; i < 2; ++i)
      for (index_t j = 0; j < 3; ++j)
        for (index_t k = 0; k < 5; ++k)
          f[i][j][k] = static_cast<float>(i * 100 + j * 10 + k) + 0.5f;
    Tensor<cpu, 1, double> d = NewTensor<cpu>(Shape1(3), 0.25);
    d[2] = -1e300;
    Tensor<cpu, 2, int> e = NewTensor<cpu>(Shape2(0, 4), 1);
    Tensor<cpu, 1, half::half_t> h = NewTensor<cpu>(Shape1(4), half::half_t(0.0f));
    h[0] = half::half_t(0.5f);
    h[1] = half::half_t(-2.0f);
    h[2] = half::half_t(65504.0f);
    h[3] = half::half_t(1e-5f);
    Tensor<cpu, 2, uint8_t> u = NewTensor<cpu>(Shape2(2, 3), static_cast<uint8_t>(7));
    u[1][2] = 255;
    Tensor<cpu, 4, int64_t> w = NewTensor<cpu>(Shape4(1, 2, 1, 2), static_cast<int64_t>(-3));
    w[0][1][0][1] = static_cast<int64_t>(1) << 40;
    SaveBinary(stream, f);
    SaveBinary(stream, d);
    SaveBinary(stream, e);
    SaveBinary(stream, h);
    SaveBinary(stream, u);
    SaveBinary(stream, w);
    os << "SaveBinary bytes " << stream.bytes.size() << ' ' << Hex(stream.bytes.substr(0, 16))
       << '\n';
    Tensor<cpu, 3, float> f2;
    Tensor<cpu, 1, double> d2;
    Tensor<cpu, 1, half::half_t> h2;
    Tensor<cpu, 2, uint8_t> u2;
    Tensor<cpu, 4, int64_t> w2 = NewTensor<cpu>(Shape4(1, 2, 1, 2), static_cast<int64_t>(0));
    LoadBinary(stream, &f2, false);
    LoadBinary(stream, &d2, false);
    stream.pos += 8;  // the 0x4 int tensor: its shape only
    LoadBinary(stream, &h2, false);
    LoadBinary(stream, &u2, false);
    LoadBinary(stream, &w2, true);
    PrintValues(os, "load_f", f2);
    PrintValues(os, "load_d", d2);
    PrintValues(os, "load_h", h2);
    PrintValues(os, "load_u", u2);
    PrintValues(os, "load_w", w2);
    os << "load consumed " << stream.pos << '\n';
    FreeSpace(&f);
    FreeSpace(&d);
    FreeSpace(&e);
    FreeSpace(&h);
    FreeSpace(&u);
    FreeSpace(&w);
    FreeSpace(&f2);
    FreeSpace(&d2);
    FreeSpace(&h2);
    FreeSpace(&u2);
    FreeSpace(&w2);
  }
  return stream.bytes;
}

// The kind of a result: which of the types the half_t operators can give.
template <typename T>
const char* Kind() {
  if (std::is_same<T, mshadow::half::half_t>::value) return "half";
  if (std::is_same<T, float>::value) return "float";
  if (std::is_same<T, double>::value) return "double";
  if (std::is_same<T, bool>::value) return "bool";
  if (std::is_same<T, int>::value) return "int";
  return "other";
}
// Prints " kind:value" of one expression.
#define MSHADOW_PROBE_SHOW(os, expr)                             \
  do {                                                           \
    auto probe_value_ = (expr);                                  \
    os << ' ' << Kind<decltype(probe_value_)>() << ':'           \
       << static_cast<double>(static_cast<float>(probe_value_)); \
  } while (0)

// Issue 17's additions: half_t mixed arithmetic, the reducers' initial values, Random's numbers.
inline void RunMore(std::ostream& os) {
  using namespace mshadow;        // NOLINT(build/namespaces)
  using namespace mshadow::expr;  // NOLINT(build/namespaces)
  os << std::setprecision(9);
  // ---- half.h: the operator templates (half_t with half_t, float, double, int)
  {
    half::half_t a(1.5f), b(0.1f);
    const float f = 1e-3f;
    const double d = 1e-3;
    const int i = 3;
    os << "half +";
    MSHADOW_PROBE_SHOW(os, a + b);
    MSHADOW_PROBE_SHOW(os, a + f);
    MSHADOW_PROBE_SHOW(os, f + a);
    MSHADOW_PROBE_SHOW(os, a + d);
    MSHADOW_PROBE_SHOW(os, d + a);
    MSHADOW_PROBE_SHOW(os, a + i);
    MSHADOW_PROBE_SHOW(os, i + a);
    os << "\nhalf -";
    MSHADOW_PROBE_SHOW(os, a - b);
    MSHADOW_PROBE_SHOW(os, a - f);
    MSHADOW_PROBE_SHOW(os, f - a);
    MSHADOW_PROBE_SHOW(os, a - d);
    MSHADOW_PROBE_SHOW(os, d - a);
    MSHADOW_PROBE_SHOW(os, a - i);
    MSHADOW_PROBE_SHOW(os, i - a);
    os << "\nhalf *";
    MSHADOW_PROBE_SHOW(os, a * b);
    MSHADOW_PROBE_SHOW(os, b * 1.001f);
    MSHADOW_PROBE_SHOW(os, 1.001f * b);
    MSHADOW_PROBE_SHOW(os, b * 1.001);
    MSHADOW_PROBE_SHOW(os, 1.001 * b);
    MSHADOW_PROBE_SHOW(os, b * 7);
    MSHADOW_PROBE_SHOW(os, 7 * b);
    os << "\nhalf /";
    MSHADOW_PROBE_SHOW(os, a / b);
    MSHADOW_PROBE_SHOW(os, a / 7.0f);
    MSHADOW_PROBE_SHOW(os, 1.0f / b);
    MSHADOW_PROBE_SHOW(os, a / 7.0);
    MSHADOW_PROBE_SHOW(os, 1.0 / b);
    MSHADOW_PROBE_SHOW(os, a / 7);
    MSHADOW_PROBE_SHOW(os, 1 / b);
    os << "\nhalf cmp";
    MSHADOW_PROBE_SHOW(os, a < b);
    MSHADOW_PROBE_SHOW(os, b < 0.1f);
    MSHADOW_PROBE_SHOW(os, 0.1f > b);
    MSHADOW_PROBE_SHOW(os, b <= 0.1);
    MSHADOW_PROBE_SHOW(os, a >= 2);
    MSHADOW_PROBE_SHOW(os, 1 <= a);
    MSHADOW_PROBE_SHOW(os, a == 1.5);
    MSHADOW_PROBE_SHOW(os, a != 1.5f);
    MSHADOW_PROBE_SHOW(os, a == b);
    os << "\nhalf unary";
    MSHADOW_PROBE_SHOW(os, -a);
    MSHADOW_PROBE_SHOW(os, +b);
    const half::half_t c(2.5f);
    MSHADOW_PROBE_SHOW(os, -c);  // mshadow's unary operators are non-const members
    half::half_t acc(1.0f);
    os << "\nhalf compound";
    MSHADOW_PROBE_SHOW(os, acc += f);
    MSHADOW_PROBE_SHOW(os, acc += 0.4);
    MSHADOW_PROBE_SHOW(os, acc -= 2);
    MSHADOW_PROBE_SHOW(os, acc *= b);
    MSHADOW_PROBE_SHOW(os, acc /= 3.0f);
    os << " bits " << std::hex << acc.half_ << std::dec;
    half::half_t nan_in(std::numeric_limits<float>::quiet_NaN()), d_in(1.0 + 1.0 / 2048 + 1e-12);
    os << "\nhalf from double " << std::hex << d_in.half_ << " nan " << nan_in.half_ << std::dec
       << '\n';
  }
  // ---- base.h: the reducers' initial values and reductions that start from them
  {
    float fmx, fmn;
    double dmx, dmn;
    int imx, imn;
    half::half_t hmx, hmn;
    red::maximum::SetInitValue(fmx);
    red::minimum::SetInitValue(fmn);
    red::maximum::SetInitValue(dmx);
    red::minimum::SetInitValue(dmn);
    red::maximum::SetInitValue(imx);
    red::minimum::SetInitValue(imn);
    red::maximum::SetInitValue(hmx);
    red::minimum::SetInitValue(hmn);
    os << "init max " << fmx << ' ' << dmx << ' ' << imx << ' ' << static_cast<float>(hmx)
       << " min " << fmn << ' ' << dmn << ' ' << imn << ' ' << static_cast<float>(hmn) << '\n';
    const float inf = std::numeric_limits<float>::infinity();
    Tensor<cpu, 2, float> src = NewTensor<cpu>(Shape2(2, 3), -inf);
    src[1][1] = inf;
    Tensor<cpu, 1, float> cols = NewTensor<cpu>(Shape1(3), 0.0f);
    MapReduceKeepLowest<sv::saveto, red::maximum>(&cols, src);
    PrintValues(os, "max_of_minus_inf", cols);
    MapReduceKeepLowest<sv::saveto, red::minimum>(&cols, src * -1.0f);
    PrintValues(os, "min_of_plus_inf", cols);
    Tensor<cpu, 2, float> empty = NewTensor<cpu>(Shape2(0, 3), 0.0f);
    Tensor<cpu, 1, float> rows = NewTensor<cpu>(Shape1(3), 0.0f);
    MapReduceKeepHighDim<sv::saveto, red::maximum, 1>(&rows, empty);
    PrintValues(os, "max_of_empty", rows);
    MapReduceKeepHighDim<sv::saveto, red::minimum, 1>(&rows, empty);
    PrintValues(os, "min_of_empty", rows);
    Tensor<cpu, 2, float> img = NewTensor<cpu>(Shape2(4, 4), -inf);
    img[3][3] = 2.0f;
    Tensor<cpu, 2, float> pooled = NewTensor<cpu>(Shape2(2, 2), 0.0f);
    pooled = pool<red::maximum>(img, 2, 2, 2, 2);
    PrintValues(os, "pool_max", pooled);
    Tensor<cpu, 1, float> axis = NewTensor<cpu>(Shape1(2), 0.0f);
    axis = reduce_with_axis<red::maximum, false>(src, 1);
    PrintValues(os, "reduce_with_axis_max", axis);
    FreeSpace(&src);
    FreeSpace(&cols);
    FreeSpace(&empty);
    FreeSpace(&rows);
    FreeSpace(&img);
    FreeSpace(&pooled);
    FreeSpace(&axis);
  }
  // ---- random.h: the same seed gives the same numbers
  {
    Random<cpu, float> rnd(17);
    os << "seed " << rnd.GetSeed() << " randint " << rnd.GetRandInt() << ' ' << rnd.GetRandInt()
       << '\n';
    Tensor<cpu, 2, float> t = NewTensor<cpu>(Shape2(2, 5), 0.0f);  // padded rows
    rnd.SampleUniform(&t, 0.0f, 1.0f);
    PrintValues(os, "uniform", t);
    rnd.SampleUniform(&t, -2.0, 3.0);
    PrintValues(os, "uniform_ab", t);
    rnd.SampleGaussian(&t, 1.0f, 2.0f);
    PrintValues(os, "gaussian", t);
    rnd.SampleGaussian(&t, 4.0f, 0.0f);
    PrintValues(os, "gaussian_sigma0", t);
    rnd.SampleGamma(&t, 2.0f, 0.5f);
    PrintValues(os, "gamma", t);
    rnd.SampleExponential(&t, 3.0f);
    PrintValues(os, "exponential", t);
    rnd.SamplePoisson(&t, 4.0f);
    PrintValues(os, "poisson", t);
    rnd.SampleNegativeBinomial(&t, 3, 0.4f);
    PrintValues(os, "negbinomial", t);
    rnd.SampleGeneralizedNegativeBinomial(&t, 2.0f, 0.5f);
    PrintValues(os, "gen_negbinomial", t);
    Tensor<cpu, 2, float> g = NewTensor<cpu>(Shape2(3, 2), 0.0f);
    g = rnd.gaussian(Shape2(3, 2)) * 1.0f;
    PrintValues(os, "gaussian_exp", g);
    g = rnd.uniform(Shape2(3, 2)) + 0.0f;
    PrintValues(os, "uniform_exp", g);
    unsigned ubuf[4];
    Tensor<cpu, 1, unsigned> u(ubuf, Shape1(4));
    rnd.GetRandInt(u);
    os << "randint_tensor " << ubuf[0] << ' ' << ubuf[1] << ' ' << ubuf[2] << ' ' << ubuf[3]
       << " engine " << rnd.GetRndEngine()() << '\n';
    rnd.Seed(17);
    os << "reseeded " << rnd.GetRandInt() << '\n';
    Random<cpu, double> rd(-5);
    Tensor<cpu, 1, double> td = NewTensor<cpu>(Shape1(4), 0.0);
    rd.SampleUniform(&td, 0.0, 1.0);
    PrintValues(os, "double_uniform", td);
    rd.SampleGaussian(&td, 0.0, 1.0);
    PrintValues(os, "double_gaussian", td);
    Random<cpu, int> ri(3);
    Tensor<cpu, 1, int> ti = NewTensor<cpu>(Shape1(6), 0);
    ri.SampleUniform(&ti, 0, 9);
    PrintValues(os, "int_uniform", ti);
    ri.SamplePoisson(&ti, 5);
    PrintValues(os, "int_poisson", ti);
    Random<cpu, half::half_t> rh(11);
    Tensor<cpu, 1, half::half_t> th = NewTensor<cpu>(Shape1(4), half::half_t(0.0f));
    rh.SampleUniform(&th, 0.0f, 1.0f);
    PrintValues(os, "half_uniform", th);
    FreeSpace(&t);
    FreeSpace(&g);
    FreeSpace(&td);
    FreeSpace(&ti);
    FreeSpace(&th);
  }
}

}  // namespace mshadow_probe

#endif  // SHADE_TESTS_COMPAT_MSHADOW_PROBE_H_
