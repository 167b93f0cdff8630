// Tests for shade::Parameter (seed note 004, dmlc-core parameter.h): declaration, Init
// options, every error text, docs, typed parsing, JSON, env helpers, threads, random input.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <locale>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "shade/param/json.h"
#include "shade/param/parameter.h"

namespace {

using shade::ParamError;
using shade::parameter::ParseStatus;
using KV = std::map<std::string, std::string>;

// The note's example struct, with descriptions and an enum field added.
struct NetParam : public shade::Parameter<NetParam> {
  float learning_rate;
  int num_hidden;
  std::string name;
  int act;
  SHADE_DECLARE_PARAMETER(NetParam) {
    SHADE_DECLARE_FIELD(num_hidden).set_range(0, 1000).describe("Number of hidden units.");
    SHADE_DECLARE_FIELD(learning_rate).set_default(0.01f).describe("Learning rate.");
    SHADE_DECLARE_FIELD(name).set_default("hello").describe("Name of the net.");
    SHADE_DECLARE_FIELD(act)
        .add_enum("relu", 0)
        .add_enum("sigmoid", 1)
        .set_default(0)
        .describe("Activation.");
    SHADE_DECLARE_ALIAS(num_hidden, nhidden);
  }
};
SHADE_REGISTER_PARAMETER(NetParam);

const char* const kNetDoc =
    "num_hidden : int, required\n"
    "    Number of hidden units.\n"
    "learning_rate : float, optional, default=0.00999999978\n"
    "    Learning rate.\n"
    "name : string, optional, default='hello'\n"
    "    Name of the net.\n"
    "act : {'relu', 'sigmoid'},optional, default='relu'\n"
    "    Activation.\n";

// One field of every supported type, all with defaults.
struct AllTypes : public shade::Parameter<AllTypes> {
  int i;
  unsigned u;
  std::int64_t l;
  std::uint64_t ul;
  std::int8_t i8;
  float f;
  double d;
  bool b;
  std::string s;
  shade::optional<int> oi;
  std::optional<double> od;
  shade::optional<int> oe;
  shade::TShape shape;
  std::vector<int> vi;
  std::vector<float> vf;
  double lower;
  float upper;
  SHADE_DECLARE_PARAMETER(AllTypes) {
    SHADE_DECLARE_FIELD(i).set_default(-3);
    SHADE_DECLARE_FIELD(u).set_default(7u);
    SHADE_DECLARE_FIELD(l).set_default(int64_t{1} << 40);
    SHADE_DECLARE_FIELD(ul).set_default(~std::uint64_t{0});
    SHADE_DECLARE_FIELD(i8).set_default(int8_t{-5});
    SHADE_DECLARE_FIELD(f).set_default(0.1f);
    SHADE_DECLARE_FIELD(d).set_default(1e-5);
    SHADE_DECLARE_FIELD(b).set_default(true);
    SHADE_DECLARE_FIELD(s).set_default("a b");
    SHADE_DECLARE_FIELD(oi).set_default(shade::optional<int>());
    SHADE_DECLARE_FIELD(od).set_default(std::optional<double>(2.5)).set_range(0.0, 10.0);
    SHADE_DECLARE_FIELD(oe).add_enum("min", 1).add_enum("max", 2).set_default(shade::nullopt);
    SHADE_DECLARE_FIELD(shape).set_default(shade::TShape{2, 3});
    SHADE_DECLARE_FIELD(vi).set_default(std::vector<int>{1, 2});
    SHADE_DECLARE_FIELD(vf).set_default(std::vector<float>{});
    SHADE_DECLARE_FIELD(lower).set_default(1.0).set_lower_bound(0.5).describe("lower bounded");
    SHADE_DECLARE_FIELD(upper).set_default(1.0f).set_upper_bound(2.0f).describe("upper bounded");
  }
};
SHADE_REGISTER_PARAMETER(AllTypes);

std::string ErrorOf(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const ParamError& e) {
    return e.what();
  }
  return "<no ParamError>";
}

std::string InitError(const KV& kv) {
  return ErrorOf([&] {
    AllTypes p;
    p.Init(kv);
  });
}

TEST(Parameter, ParamErrorIsShadeError) {
  static_assert(std::is_base_of<shade::Error, ParamError>::value, "ParamError must be an Error");
  NetParam p;
  EXPECT_THROW(p.Init(KV{}), shade::Error);
}

TEST(Parameter, NoteExampleDefaultsAndInit) {
  NetParam p;
  p.Init(KV{{"num_hidden", "100"}});
  EXPECT_EQ(p.num_hidden, 100);
  EXPECT_EQ(p.learning_rate, 0.01f);
  EXPECT_EQ(p.name, "hello");
  EXPECT_EQ(p.act, 0);
  // The note's main(): a vector of pairs, "0.1f" accepted for a float.
  std::vector<std::pair<std::string, std::string>> data = {
      {"num_hidden", "100"}, {"learning_rate", "0.1f"}, {"name", "MyNet"}, {"act", "sigmoid"}};
  p.Init(data);
  EXPECT_EQ(p.learning_rate, 0.1f);
  EXPECT_EQ(p.name, "MyNet");
  EXPECT_EQ(p.act, 1);
}

TEST(Parameter, AnyContainerOfPairs) {
  NetParam p;
  p.Init(std::unordered_map<std::string, std::string>{{"num_hidden", "3"}});
  EXPECT_EQ(p.num_hidden, 3);
  p.Init(std::vector<std::pair<const char*, const char*>>{{"num_hidden", "4"}, {"name", "x"}});
  EXPECT_EQ(p.num_hidden, 4);
  EXPECT_EQ(p.name, "x");
  p.Init({{"num_hidden", "5"}, {"num_hidden", "6"}});  // later pairs win
  EXPECT_EQ(p.num_hidden, 6);
  p.Init(KV{{"nhidden", "9"}});  // alias
  EXPECT_EQ(p.num_hidden, 9);
}

TEST(Parameter, RequiredMissing) {
  NetParam p;
  EXPECT_EQ(ErrorOf([&] {
              p.Init(KV{{"name", "x"}});
            }),
            "Required parameter num_hidden of int is not presented");
}

TEST(Parameter, RangeErrorsLiteral) {
  NetParam p;
  EXPECT_EQ(ErrorOf([&] {
              p.Init(KV{{"num_hidden", "1001"}});
            }),
            "value 1001 for Parameter num_hidden exceed bound [0,1000]\n"
            "num_hidden: Number of hidden units.");
  EXPECT_EQ(ErrorOf([&] {
              p.Init(KV{{"num_hidden", "-1"}});
            }),
            "value -1 for Parameter num_hidden exceed bound [0,1000]\n"
            "num_hidden: Number of hidden units.");
  p.Init(KV{{"num_hidden", "0"}});
  p.Init(KV{{"num_hidden", "1000"}});  // bounds are inclusive
  EXPECT_EQ(InitError({{"lower", "0.25"}}),
            "value 0.25 for Parameter lower should be greater equal to 0.5\nlower: lower bounded");
  EXPECT_EQ(InitError({{"upper", "2.5"}}),
            "value 2.5 for Parameter upper should be smaller equal to 2\nupper: upper bounded");
  EXPECT_EQ(InitError({{"od", "10.5"}}), "value 10.5 for Parameter od exceed bound [0,10]\nod: ");
}

TEST(Parameter, NaNNeverPassesARangeCheck) {
  EXPECT_EQ(InitError({{"od", "nan"}}), "value nan for Parameter od exceed bound [0,10]\nod: ");
  EXPECT_EQ(InitError({{"lower", "NaN"}}),
            "value nan for Parameter lower should be greater equal to 0.5\nlower: lower bounded");
  EXPECT_EQ(InitError({{"upper", "-nan"}}).substr(0, 30), "value -nan for Parameter upper");
  AllTypes p;
  p.Init(KV{{"f", "nan"}, {"d", "-inf"}});  // unbounded fields take them
  EXPECT_TRUE(std::isnan(p.f));
  EXPECT_EQ(p.d, -std::numeric_limits<double>::infinity());
}

TEST(Parameter, UnknownArgumentLiteral) {
  NetParam p;
  const std::string expect = std::string("Cannot find argument 'foo', Possible Arguments:\n") +
                             "----------------\n" + kNetDoc;
  EXPECT_EQ(ErrorOf([&] { p.Init(KV{{"num_hidden", "1"}, {"foo", "1"}}); }), expect);
  EXPECT_EQ(ErrorOf([&] {
              p.Init(KV{{"num_hidden", "1"}, {"foo", "1"}}, shade::parameter::kAllMatch);
            }),
            expect);
}

TEST(Parameter, InitOptions) {
  using namespace shade::parameter;  // NOLINT
  NetParam p;
  const KV hidden{{"num_hidden", "1"}, {"__hidden__", "x"}};
  p.Init(hidden);  // default kAllowHidden
  p.Init(hidden, kAllowHidden);
  p.Init(hidden, kAllowUnknown);
  EXPECT_THROW(p.Init(hidden, kAllMatch), ParamError);
  p.Init(KV{{"num_hidden", "1"}, {"foo", "x"}}, kAllowUnknown);
  EXPECT_THROW(p.Init(KV{{"num_hidden", "1"}, {"foo", "x"}}, kAllowHidden), ParamError);
  // Hidden means "__" + at least one character + "__".
  EXPECT_TRUE(IsHiddenKey("__a__"));
  EXPECT_FALSE(IsHiddenKey("____"));
  EXPECT_FALSE(IsHiddenKey("__a_"));
  EXPECT_FALSE(IsHiddenKey("_a__"));
  EXPECT_THROW(p.Init(KV{{"num_hidden", "1"}, {"____", "x"}}), ParamError);
}

TEST(Parameter, InitAllowUnknownAndUpdate) {
  NetParam p;
  auto unknown = p.InitAllowUnknown(std::vector<std::pair<std::string, std::string>>{
      {"zeta", "1"}, {"num_hidden", "10"}, {"__h__", "2"}, {"alpha", "3"}});
  ASSERT_EQ(unknown.size(), 3u);
  EXPECT_EQ(unknown[0], std::make_pair(std::string("zeta"), std::string("1")));
  EXPECT_EQ(unknown[1].first, "__h__");
  EXPECT_EQ(unknown[2].first, "alpha");
  EXPECT_EQ(p.num_hidden, 10);
  p.name = "kept";
  p.learning_rate = 0.5f;
  unknown = p.UpdateAllowUnknown(KV{{"num_hidden", "20"}, {"other", "x"}});
  EXPECT_EQ(p.num_hidden, 20);
  EXPECT_EQ(p.name, "kept");  // not reset to its default
  EXPECT_EQ(p.learning_rate, 0.5f);
  ASSERT_EQ(unknown.size(), 1u);
  EXPECT_EQ(unknown[0].first, "other");
  // Update still checks what it sets.
  EXPECT_THROW(p.UpdateAllowUnknown(KV{{"num_hidden", "5000"}}), ParamError);
  EXPECT_EQ(p.num_hidden, 20);
  // Required fields need not be given to an update.
  NetParam q;
  q.num_hidden = 3;
  q.UpdateAllowUnknown(KV{{"name", "n"}});
  EXPECT_EQ(q.num_hidden, 3);
}

TEST(Parameter, FailedInitLeavesStructUnchanged) {
  NetParam p;
  p.Init(KV{{"num_hidden", "7"}, {"name", "orig"}});
  EXPECT_THROW(p.Init(KV{{"name", "changed"}, {"num_hidden", "abc"}}), ParamError);
  EXPECT_EQ(p.num_hidden, 7);
  EXPECT_EQ(p.name, "orig");
}

TEST(Parameter, InvalidFormatLiteral) {
  NetParam p;
  EXPECT_EQ(ErrorOf([&] {
              p.Init(KV{{"num_hidden", "1.5"}});
            }),
            "Invalid Parameter format for num_hidden expect int but value='1.5'");
  EXPECT_EQ(ErrorOf([&] {
              p.Init(KV{{"num_hidden", "1"}, {"learning_rate", "1.2e10foo"}});
            }),
            "Some trailing characters could not be parsed: 'oo'");  // 'f' is a float suffix
  EXPECT_EQ(InitError({{"b", "yes"}}),
            "Invalid Parameter format for b expect boolean but value='yes'");
  EXPECT_EQ(InitError({{"u", "12abc"}}),
            "Invalid Parameter format for u expect int (non-negative) but value='12abc'");
  EXPECT_EQ(InitError({{"ul", "x"}}),
            "Invalid Parameter format for ul expect long (non-negative) but value='x'");
  EXPECT_EQ(InitError({{"l", ""}}), "Invalid Parameter format for l expect long but value=''");
  EXPECT_EQ(InitError({{"d", "1,5"}}), "Some trailing characters could not be parsed: ',5'");
  EXPECT_EQ(InitError({{"d", "2.5 "}}), "Some trailing characters could not be parsed: ' '");
  EXPECT_EQ(InitError({{"d", "abc"}}),
            "Invalid Parameter format for d expect double but value='abc'");
  EXPECT_EQ(InitError({{"shape", "(3,a)"}}),
            "Invalid Parameter format for shape expect Shape(tuple) but value='(3,a)'");
  EXPECT_EQ(InitError({{"vi", "(1,,2)"}}),
            "Invalid Parameter format for vi expect tuple of <int> but value='(1,,2)'");
  EXPECT_EQ(InitError({{"oi", "none"}}),
            "Invalid Parameter format for oi expect int or None but value='none'");
}

TEST(Parameter, OutOfRangeLiteral) {
  EXPECT_EQ(InitError({{"f", "1e-100"}}), "Out of range value for f, value='1e-100'");
  EXPECT_EQ(InitError({{"f", "3.5e+38"}}), "Out of range value for f, value='3.5e+38'");
  EXPECT_EQ(InitError({{"d", "1e-400"}}), "Out of range value for d, value='1e-400'");
  // Integers: dmlc-core's stream reports overflow as a format error, and so does shade
  // ("-1" for an unsigned field too, which dmlc-core's stream would wrap to 2^32-1).
  EXPECT_EQ(InitError({{"i", "2147483648"}}),
            "Invalid Parameter format for i expect int but value='2147483648'");
  EXPECT_EQ(InitError({{"i", "-2147483649"}}),
            "Invalid Parameter format for i expect int but value='-2147483649'");
  EXPECT_EQ(InitError({{"u", "-1"}}),
            "Invalid Parameter format for u expect int (non-negative) but value='-1'");
  EXPECT_EQ(InitError({{"u", "4294967296"}}),
            "Invalid Parameter format for u expect int (non-negative) but value='4294967296'");
  EXPECT_EQ(InitError({{"i8", "128"}}),
            "Invalid Parameter format for i8 expect int but value='128'");
  EXPECT_EQ(InitError({{"l", "9223372036854775808"}}),
            "Invalid Parameter format for l expect long but value='9223372036854775808'");
  EXPECT_EQ(InitError({{"ul", "18446744073709551616"}}),
            "Invalid Parameter format for ul expect long (non-negative) but "
            "value='18446744073709551616'");
  EXPECT_EQ(InitError({{"vf", "(1, 1e-100)"}}), "Out of range value for vf, value='(1, 1e-100)'");
}

TEST(Parameter, InvalidEnumLiteral) {
  NetParam p;
  EXPECT_EQ(ErrorOf([&] {
              p.Init(KV{{"num_hidden", "1"}, {"act", "tanh"}});
            }),
            "Invalid Input: 'tanh' for Parameter act, valid values are: {'relu', 'sigmoid'}");
  // Enum fields take names only, not the integers behind them.
  EXPECT_EQ(ErrorOf([&] {
              p.Init(KV{{"num_hidden", "1"}, {"act", "1"}});
            }),
            "Invalid Input: '1' for Parameter act, valid values are: {'relu', 'sigmoid'}");
  EXPECT_EQ(InitError({{"oe", "avg"}}),
            "Invalid Input: 'avg' for Parameter oe, valid values are: {None, 'max', 'min'}");
  AllTypes a;
  a.Init(KV{{"oe", "max"}});
  EXPECT_EQ(*a.oe, 2);
  EXPECT_EQ(a.__DICT__()["oe"], "max");
  a.Init(KV{{"oe", "None"}});
  EXPECT_FALSE(a.oe.has_value());
  EXPECT_EQ(a.__DICT__()["oe"], "None");
  // A value assigned in code that is no declared enum cannot be printed as a name.
  NetParam q;
  q.Init(KV{{"num_hidden", "1"}});
  q.act = 7;
  EXPECT_THROW(q.__DICT__(), ParamError);
}

TEST(Parameter, DocAndFields) {
  EXPECT_EQ(NetParam::__DOC__(), kNetDoc);
  const std::vector<shade::ParamFieldInfo> fields = NetParam::__FIELDS__();
  ASSERT_EQ(fields.size(), 4u);
  EXPECT_EQ(fields[0].name, "num_hidden");
  EXPECT_EQ(fields[0].type, "int");
  EXPECT_EQ(fields[0].type_info_str, "int, required");
  EXPECT_EQ(fields[0].description, "Number of hidden units.");
  EXPECT_EQ(fields[1].type_info_str, "float, optional, default=0.00999999978");
  EXPECT_EQ(fields[2].type, "string");
  EXPECT_EQ(fields[3].type, "int");
  EXPECT_EQ(fields[3].type_info_str, "{'relu', 'sigmoid'},optional, default='relu'");

  std::map<std::string, std::string> info;
  for (const auto& f : AllTypes::__FIELDS__()) info[f.name] = f.type_info_str;
  EXPECT_EQ(info["i"], "int, optional, default='-3'");  // dmlc-core quotes int defaults
  EXPECT_EQ(info["u"], "int (non-negative), optional, default=7");
  EXPECT_EQ(info["l"], "long, optional, default=1099511627776");
  EXPECT_EQ(info["ul"], "long (non-negative), optional, default=18446744073709551615");
  EXPECT_EQ(info["f"], "float, optional, default=0.100000001");
  EXPECT_EQ(info["d"], "double, optional, default=1.0000000000000001e-05");
  EXPECT_EQ(info["b"], "boolean, optional, default=1");
  EXPECT_EQ(info["s"], "string, optional, default='a b'");
  EXPECT_EQ(info["oi"], "int or None, optional, default='None'");
  EXPECT_EQ(info["od"], "double or None, optional, default=2.5");
  EXPECT_EQ(info["oe"], "{None, 'max', 'min'},optional, default='None'");
  EXPECT_EQ(info["shape"], "Shape(tuple), optional, default=(2,3)");
  EXPECT_EQ(info["vi"], "tuple of <int>, optional, default=(1,2)");
  EXPECT_EQ(info["vf"], "tuple of <float>, optional, default=()");
}

TEST(Parameter, DictHasEveryKeyAliasesIncludedAndRoundTrips) {
  NetParam p;
  p.Init(KV{{"nhidden", "100"}});
  const KV dict = p.__DICT__();
  EXPECT_EQ(dict, (KV{{"num_hidden", "100"},
                      {"nhidden", "100"},
                      {"learning_rate", "0.00999999978"},
                      {"name", "hello"},
                      {"act", "relu"}}));
  NetParam q;
  q.Init(dict);
  EXPECT_EQ(q.__DICT__(), dict);
  KV merged{{"extra", "kept"}};
  p.UpdateDict(&merged);
  EXPECT_EQ(merged.size(), 6u);
  EXPECT_EQ(merged["extra"], "kept");
  EXPECT_EQ(merged["act"], "relu");

  AllTypes a;
  a.Init(KV{});
  const KV all = a.__DICT__();
  EXPECT_EQ(all.at("ul"), "18446744073709551615");
  EXPECT_EQ(all.at("b"), "1");
  EXPECT_EQ(all.at("oi"), "None");
  EXPECT_EQ(all.at("f"), "0.100000001");
  EXPECT_EQ(all.at("shape"), "(2,3)");
  AllTypes b;
  b.Init(all);
  EXPECT_EQ(b.__DICT__(), all);
}

TEST(Parameter, TypedParsing) {
  AllTypes p;
  p.Init(KV{{"i", " +42 \t"},
            {"u", "-0"},
            {"l", "-9223372036854775808"},
            {"ul", "18446744073709551615"},
            {"i8", "-128"},
            {"f", "1e-40"},
            {"d", "  -Infinity"},  // leading space only: dmlc-core refuses trailing text
            {"b", "FALSE"},
            {"s", "  spaced  "},
            {"oi", "5"},
            {"od", "None"},
            {"shape", "(3, 4L, 5)"},
            {"vi", "[1, -2, 3,]"},
            {"vf", "0.5"}});
  EXPECT_EQ(p.i, 42);
  EXPECT_EQ(p.u, 0u);
  EXPECT_EQ(p.l, std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(p.ul, std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(p.i8, -128);
  EXPECT_EQ(p.f, 1e-40f);  // subnormal, representable: accepted
  EXPECT_EQ(p.d, -std::numeric_limits<double>::infinity());
  EXPECT_FALSE(p.b);
  EXPECT_EQ(p.s, "  spaced  ");
  EXPECT_EQ(p.oi.value(), 5);
  EXPECT_FALSE(p.od.has_value());
  EXPECT_EQ(p.shape, (shade::TShape{3, 4, 5}));
  EXPECT_EQ(p.vi, (std::vector<int>{1, -2, 3}));
  EXPECT_EQ(p.vf, (std::vector<float>{0.5f}));
  const KV d = p.__DICT__();
  EXPECT_EQ(d.at("d"), "-inf");
  EXPECT_EQ(d.at("b"), "0");  // dmlc-core prints bools as 0/1
  EXPECT_EQ(d.at("vi"), "(1,-2,3)");
  EXPECT_EQ(d.at("vf"), "(0.5,)");
  EXPECT_EQ(d.at("shape"), "(3,4,5)");
  EXPECT_EQ(d.at("oi"), "5");
  EXPECT_EQ(d.at("od"), "None");

  for (const char* t : {"true", "TRUE", "True", "1", " tRuE "}) {
    p.Init(KV{{"b", t}});
    EXPECT_TRUE(p.b) << t;
  }
  for (const char* t : {"false", "False", "0", "FaLsE"}) {
    p.Init(KV{{"b", t}});
    EXPECT_FALSE(p.b) << t;
  }
  for (const char* t : {"2", "yes", "", "t", "01", "true1"}) {
    EXPECT_THROW(p.Init(KV{{"b", t}}), ParamError) << t;
  }
  p.Init(KV{{"shape", "()"}, {"vi", "()"}});
  EXPECT_EQ(p.shape.ndim(), 0);
  EXPECT_TRUE(p.vi.empty());
  p.Init(KV{{"shape", "7"}, {"vi", "(7,)"}});
  EXPECT_EQ(p.shape, (shade::TShape{7}));
  EXPECT_EQ(p.vi, (std::vector<int>{7}));
  EXPECT_EQ(p.__DICT__().at("vi"), "(7,)");
}

// Every float spelling dmlc-core accepts, and junk it must not.
TEST(Parameter, StrictNumberParsing) {
  using shade::parameter::ParseDouble;
  using shade::parameter::ParseFloat;
  using shade::parameter::ParseInt64;
  float f = 0;
  for (const char* t : {"inf", "INF", "Infinity", "-inf", "+inf", "nan", "NAN", "-nan", "0.1f",
                        "1.5F", "+.5", "1.", "1e5", " 2 ", "3.4e38", "-0", "1f "}) {
    EXPECT_EQ(ParseFloat(t, &f), ParseStatus::kOk) << t;
  }
  for (const char* t : {"", " ", "f", "1ff", "1.2e10foo", "0x10", "1e", "--1", "+-1", "++1", "1 2",
                        "1,5", "inf1", "nana", ".", "e5", "1 f"}) {
    EXPECT_EQ(ParseFloat(t, &f), ParseStatus::kBadFormat) << t;
  }
  EXPECT_EQ(ParseFloat("1e-100", &f), ParseStatus::kOutOfRange);
  EXPECT_EQ(ParseFloat("-3.5e+38", &f), ParseStatus::kOutOfRange);
  double d = 0;
  EXPECT_EQ(ParseDouble("1e-100", &d), ParseStatus::kOk);
  EXPECT_EQ(d, 1e-100);
  EXPECT_EQ(ParseDouble("1e309", &d), ParseStatus::kOutOfRange);
  std::int64_t v = 0;
  for (const char* t : {"1.5", "1e3", "0x10", "12abc", "", "+", "-", "+-1", "1 2", "٣"}) {
    EXPECT_EQ(ParseInt64(t, &v), ParseStatus::kBadFormat) << t;
  }
  EXPECT_EQ(ParseInt64("99999999999999999999", &v), ParseStatus::kOutOfRange);
  EXPECT_EQ(ParseInt64("99999999999999999999x", &v), ParseStatus::kBadFormat);
  EXPECT_EQ(ParseInt64(" -17\n", &v), ParseStatus::kOk);
  EXPECT_EQ(v, -17);
}

// dmlc-core's printing: max_digits10 significant digits (%.9g for float, %.17g for double,
// checked against printf), and every printed float reads back to the identical bits.
TEST(Parameter, MaxDigitsFloatPrinting) {
  using shade::parameter::FormatDouble;
  using shade::parameter::FormatFloat;
  auto printf_g = [](int digits, double v) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.*g", digits, v);
    return std::string(buf);
  };
  for (float x : {0.01f, 0.1f, 1e-5f, 100.0f, -0.0f, 3.4e38f, 1.17549435e-38f, 7.0f}) {
    EXPECT_EQ(FormatFloat(x), printf_g(9, x));
  }
  EXPECT_EQ(FormatFloat(0.01f), "0.00999999978");
  for (double x : {0.1, 1.0 / 3.0, 1e300, -2.5, 5e-324})
    EXPECT_EQ(FormatDouble(x), printf_g(17, x));
  EXPECT_EQ(FormatDouble(std::numeric_limits<double>::infinity()), "inf");
  std::mt19937 rng(4);
  for (int k = 0; k < 2000; ++k) {
    std::uint32_t bits = rng();
    float x;
    std::memcpy(&x, &bits, sizeof(x));
    if (std::isnan(x)) continue;
    float back = 0;
    ASSERT_EQ(shade::parameter::ParseFloat(FormatFloat(x), &back), ParseStatus::kOk) << x;
    EXPECT_EQ(std::memcmp(&x, &back, sizeof(x)), 0) << FormatFloat(x);
  }
}

// Neither the global C++ locale nor its numpunct facet changes parsing or printing.
TEST(Parameter, LocaleIndependent) {
  struct CommaDecimal : std::numpunct<char> {
    char do_decimal_point() const override { return ','; }
    char do_thousands_sep() const override { return '.'; }
    std::string do_grouping() const override { return "\3"; }
  };
  const std::locale old =
      std::locale::global(std::locale(std::locale::classic(), new CommaDecimal));
  AllTypes p;
  p.Init(KV{{"d", "1.5"}, {"i", "1234567"}, {"shape", "(1234567,2)"}});
  EXPECT_EQ(p.d, 1.5);
  const KV d = p.__DICT__();
  EXPECT_EQ(d.at("d"), "1.5");
  EXPECT_EQ(d.at("i"), "1234567");
  EXPECT_EQ(d.at("shape"), "(1234567,2)");
  EXPECT_THROW(p.Init(KV{{"d", "1,5"}}), ParamError);
  std::locale::global(old);
}

TEST(Parameter, JsonSaveLoadRoundTrip) {
  AllTypes a;
  a.Init(KV{{"s", "quote\" backslash\\ tab\t"}, {"oi", "3"}, {"vf", "(0.1,2)"}, {"f", "0.01"}});
  const std::string json = a.SaveJSON();
  EXPECT_NE(json.find("\"f\":\"0.00999999978\""), std::string::npos) << json;
  AllTypes b;
  b.LoadJSON(json);
  EXPECT_EQ(b.__DICT__(), a.__DICT__());
  EXPECT_EQ(b.s, a.s);
  EXPECT_EQ(b.f, 0.01f);

  // Through the stream writer/reader, two values back to back.
  std::ostringstream os;
  shade::JSONWriter writer(&os);
  a.Save(&writer);
  writer.Write(std::string("tail"));
  std::istringstream is(os.str());
  shade::JSONReader reader(&is);
  AllTypes c;
  c.Load(&reader);
  std::string tail;
  reader.Read(&tail);
  EXPECT_EQ(tail, "tail");
  EXPECT_EQ(c.__DICT__(), a.__DICT__());
}

// JSON written by hand: numbers and booleans load as their JSON text, parsed by each field (the
// oracle is the same dict given as strings).
TEST(Parameter, JsonNumbersAndBooleansLoad) {
  AllTypes typed, strings;
  typed.LoadJSON(
      "{\"i\": -12, \"u\": 9, \"l\": 1099511627777, \"f\": 0.25, \"d\": -1e-7, "
      "\"b\": false, \"od\": 3.5, \"oi\": 4}");
  strings.LoadJSON(
      "{\"i\": \"-12\", \"u\": \"9\", \"l\": \"1099511627777\", \"f\": \"0.25\", "
      "\"d\": \"-1e-07\", \"b\": \"false\", \"od\": \"3.5\", \"oi\": \"4\"}");
  EXPECT_EQ(typed.__DICT__(), strings.__DICT__());
  EXPECT_EQ(typed.i, -12);
  EXPECT_EQ(typed.l, (int64_t{1} << 40) + 1);
  EXPECT_FALSE(typed.b);
  EXPECT_DOUBLE_EQ(typed.d, -1e-7);
  typed.LoadJSON("{\"b\": true}");
  EXPECT_TRUE(typed.b);
  // The field's own checks still apply: a float for an int field, a range.
  EXPECT_THROW(typed.LoadJSON("{\"i\": 1.5}"), ParamError);
  EXPECT_THROW(typed.LoadJSON("{\"od\": 11}"), ParamError);
}

TEST(Parameter, MalformedJson) {
  AllTypes a;
  for (const char* bad : {"", "{", "not json", "{\"i\": }", "{\"i\": \"1\",}"}) {
    const std::string msg = ErrorOf([&] { a.LoadJSON(bad); });
    EXPECT_EQ(msg.rfind("malformed JSON", 0), 0u) << bad << " -> " << msg;
  }
  EXPECT_EQ(ErrorOf([&] { a.LoadJSON("[1]"); }),
            "expected a JSON object of string, number or boolean values, got a JSON array");
  EXPECT_EQ(ErrorOf([&] { a.LoadJSON("{\"i\": [1]}"); }),
            "JSON value of key 'i' must be a string, a number or a boolean, got [1]");
  EXPECT_EQ(ErrorOf([&] { a.LoadJSON("{\"i\": null}"); }),
            "JSON value of key 'i' must be a string, a number or a boolean, got null");
  EXPECT_THROW(a.LoadJSON("{\"nope\": \"1\"}"), ParamError);  // unknown key via Init
  std::istringstream is("[\"x\"]");
  shade::JSONReader reader(&is);
  std::string s;
  EXPECT_THROW(reader.Read(&s), ParamError);
  // Bytes that are not UTF-8 cannot be written as JSON text.
  a.Init(KV{{"s", std::string("\xff\xfe")}});
  EXPECT_THROW(a.SaveJSON(), ParamError);
  try {
    (void)a.SaveJSON();
  } catch (const ParamError& e) {
    EXPECT_NE(std::string(e.what()).find("the value of s is not valid UTF-8"), std::string::npos)
        << e.what();
  }
}

// --- broken declarations: each throws ParamError at first use (and again at every use).
int g_not_a_member = 0;
struct DupParam : public shade::Parameter<DupParam> {
  int x;
  SHADE_DECLARE_PARAMETER(DupParam) {
    SHADE_DECLARE_FIELD(x).set_default(1);
    SHADE_DECLARE_FIELD(x).set_default(2);
  }
};
SHADE_REGISTER_PARAMETER(DupParam);
struct BadAliasParam : public shade::Parameter<BadAliasParam> {
  int x;
  SHADE_DECLARE_PARAMETER(BadAliasParam) {
    SHADE_DECLARE_FIELD(x).set_default(1);
    SHADE_DECLARE_ALIAS(y, z);
  }
};
SHADE_REGISTER_PARAMETER(BadAliasParam);
struct DupAliasParam : public shade::Parameter<DupAliasParam> {
  int x, y;
  SHADE_DECLARE_PARAMETER(DupAliasParam) {
    SHADE_DECLARE_FIELD(x).set_default(1);
    SHADE_DECLARE_FIELD(y).set_default(1);
    SHADE_DECLARE_ALIAS(x, y);
  }
};
SHADE_REGISTER_PARAMETER(DupAliasParam);
struct DupEnumParam : public shade::Parameter<DupEnumParam> {
  int x;
  SHADE_DECLARE_PARAMETER(DupEnumParam) {
    SHADE_DECLARE_FIELD(x).add_enum("a", 0).add_enum("b", 0);
  }
};
SHADE_REGISTER_PARAMETER(DupEnumParam);
struct NoneEnumParam : public shade::Parameter<NoneEnumParam> {
  shade::optional<int> x;
  SHADE_DECLARE_PARAMETER(NoneEnumParam) { SHADE_DECLARE_FIELD(x).add_enum("None", 0); }
};
SHADE_REGISTER_PARAMETER(NoneEnumParam);
struct BadEnumValueParam : public shade::Parameter<BadEnumValueParam> {
  std::uint8_t x;
  SHADE_DECLARE_PARAMETER(BadEnumValueParam) { SHADE_DECLARE_FIELD(x).add_enum("big", 256); }
};
SHADE_REGISTER_PARAMETER(BadEnumValueParam);
struct BadRangeParam : public shade::Parameter<BadRangeParam> {
  float x;
  SHADE_DECLARE_PARAMETER(BadRangeParam) { SHADE_DECLARE_FIELD(x).set_range(5, 1); }
};
SHADE_REGISTER_PARAMETER(BadRangeParam);
struct NotMemberParam : public shade::Parameter<NotMemberParam> {
  int x;
  SHADE_DECLARE_PARAMETER(NotMemberParam) {
    SHADE_DECLARE_FIELD(x).set_default(0);
    this->DECLARE(manager, "g", g_not_a_member);
  }
};
SHADE_REGISTER_PARAMETER(NotMemberParam);

TEST(Parameter, BrokenDeclarationsThrow) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    EXPECT_EQ(ErrorOf([] { DupParam::__DOC__(); }),
              "key x has already been registered in DupParam");
  }
  DupParam d;
  EXPECT_THROW(d.Init(KV{}), ParamError);
  EXPECT_EQ(ErrorOf([] { BadAliasParam::__DOC__(); }),
            "key y has not been registered in BadAliasParam");
  EXPECT_EQ(ErrorOf([] { DupAliasParam::__DOC__(); }),
            "Alias y has already been registered in DupAliasParam");
  EXPECT_EQ(ErrorOf([] { DupEnumParam::__DOC__(); }),
            "Enum (b: 0) already exists in Parameter x\nEnums: (a: 0), ");
  EXPECT_EQ(ErrorOf([] { NoneEnumParam::__DOC__(); }),
            "add_enum for Parameter x: 'None' is reserved for the empty optional");
  EXPECT_EQ(ErrorOf([] { BadEnumValueParam::__DOC__(); }),
            "add_enum for Parameter x: value 256 of 'big' does not fit int (non-negative)");
  EXPECT_EQ(ErrorOf([] { BadRangeParam::__DOC__(); }),
            "set_range for Parameter x: begin 5 is not <= end 1");
  EXPECT_EQ(ErrorOf([] { NotMemberParam::__DOC__(); }),
            "field g declared in NotMemberParam is not a member of it");
}

}  // namespace

// A user type with stream operators and a declared name works as a field type.
struct Point {
  int x = 0, y = 0;
};
std::istream& operator>>(std::istream& is, Point& p) {
  char open = 0, comma = 0, close = 0;
  if (is >> open >> p.x >> comma >> p.y >> close) {
    if (open != '<' || comma != ';' || close != '>') is.setstate(std::ios::failbit);
  }
  return is;
}
std::ostream& operator<<(std::ostream& os, const Point& p) {
  return os << '<' << p.x << ';' << p.y << '>';
}
template <>
struct shade::parameter::type_name_helper<Point> {
  static std::string value() { return "point"; }
};

namespace {

struct PointParam : public shade::Parameter<PointParam> {
  Point where;
  SHADE_DECLARE_PARAMETER(PointParam) { SHADE_DECLARE_FIELD(where).set_default(Point{1, 2}); }
};
SHADE_REGISTER_PARAMETER(PointParam);

TEST(Parameter, UserTypeThroughStreams) {
  EXPECT_EQ(PointParam::__DOC__(), "where : point, optional, default=<1;2>\n");
  PointParam p;
  p.Init(KV{{"where", " <3;-4> "}});
  EXPECT_EQ(p.where.x, 3);
  EXPECT_EQ(p.where.y, -4);
  EXPECT_EQ(p.__DICT__().at("where"), "<3;-4>");
  EXPECT_EQ(ErrorOf([&] {
              p.Init(KV{{"where", "<3;4>x"}});
            }),
            "Invalid Parameter format for where expect point but value='<3;4>x'");
  EXPECT_THROW(p.Init(KV{{"where", "<3,4>"}}), ParamError);
}

TEST(Parameter, EnvHelpers) {
  ::unsetenv("SHADE_TEST_PARAM_ENV");
  EXPECT_EQ(shade::GetEnv("SHADE_TEST_PARAM_ENV", 7), 7);
  shade::SetEnv("SHADE_TEST_PARAM_ENV", 0.01f);
  EXPECT_STREQ(std::getenv("SHADE_TEST_PARAM_ENV"), "0.00999999978");
  EXPECT_EQ(shade::GetEnv("SHADE_TEST_PARAM_ENV", 1.0f), 0.01f);
  EXPECT_EQ(
      ErrorOf([] { shade::GetEnv("SHADE_TEST_PARAM_ENV", 1); }),
      "Invalid Parameter format for SHADE_TEST_PARAM_ENV expect int but value='0.00999999978'");
  shade::SetEnv("SHADE_TEST_PARAM_ENV", true);
  EXPECT_STREQ(std::getenv("SHADE_TEST_PARAM_ENV"), "1");
  EXPECT_TRUE(shade::GetEnv("SHADE_TEST_PARAM_ENV", false));
  shade::SetEnv("SHADE_TEST_PARAM_ENV", std::string(""));
  EXPECT_EQ(shade::GetEnv("SHADE_TEST_PARAM_ENV", std::string("dflt")), "dflt");  // empty = unset
  EXPECT_THROW(shade::SetEnv("BAD=NAME", 1), ParamError);
  ::unsetenv("SHADE_TEST_PARAM_ENV");
}

// A struct whose manager is built lazily (no eager registration), so that the threads below
// race on its first construction.
struct LazyParam : public shade::Parameter<LazyParam> {
  int a;
  double b;
  std::string c;
  SHADE_DECLARE_PARAMETER(LazyParam) {
    SHADE_DECLARE_FIELD(a).set_range(0, 1 << 20);
    SHADE_DECLARE_FIELD(b).set_default(0.5);
    SHADE_DECLARE_FIELD(c).set_default("c");
  }
};
shade::parameter::ParamManager* LazyParam::__MANAGER__() {
  static shade::parameter::ParamManagerSingleton<LazyParam> inst("LazyParam");
  return &inst.manager;
}

TEST(Parameter, ThreadSafety) {
  NetParam shared;
  shared.Init(KV{{"num_hidden", "5"}, {"act", "sigmoid"}});
  const KV shared_dict = shared.__DICT__();
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([t, &shared, &shared_dict, &failures] {
      for (int k = 0; k < 150; ++k) {
        LazyParam lazy;
        lazy.Init(KV{{"a", std::to_string(t * 1000 + k)}});
        if (lazy.a != t * 1000 + k || lazy.b != 0.5) ++failures;
        NetParam own;
        own.Init(KV{{"num_hidden", std::to_string(k)}, {"learning_rate", "0.25"}});
        if (own.num_hidden != k || own.learning_rate != 0.25f) ++failures;
        try {
          own.Init(KV{{"num_hidden", "2000"}});
          ++failures;
        } catch (const ParamError&) {
        }
        if (shared.__DICT__() != shared_dict) ++failures;  // concurrent const reads
        if (NetParam::__DOC__() != kNetDoc) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

// Random text into Init never crashes and only ever throws ParamError; whatever succeeds
// prints to a dict (and JSON, when the text is UTF-8) that reads back to the same values.
TEST(Parameter, RandomInputOnlyParamError) {
  std::mt19937 rng(20261122);
  const std::vector<std::string> keys = {"i",  "u",     "l",     "ul",    "i8", "f",     "d",
                                         "b",  "s",     "oi",    "od",    "oe", "shape", "vi",
                                         "vf", "lower", "upper", "__x__", "zz", ""};
  const std::string alphabet = "0123456789+-.eEfFinaNIAL ()[],xNone\t\xff";
  const std::vector<std::string> seeds = {"None",
                                          "max",
                                          "min",
                                          "nan",
                                          "inf",
                                          "1e-100",
                                          "3.5e38",
                                          "(1,2)",
                                          "[3]",
                                          "()",
                                          "true",
                                          "-0",
                                          "18446744073709551616"};
  auto random_value = [&]() {
    std::string v;
    switch (rng() % 4) {
      case 0:
        v = seeds[rng() % seeds.size()];
        break;
      case 1:
        for (int n = rng() % 12; n > 0; --n) v += alphabet[rng() % alphabet.size()];
        break;
      case 2:
        for (int n = rng() % 8; n > 0; --n) v += static_cast<char>(rng() % 256);
        break;
      default:
        v = std::to_string(static_cast<std::int64_t>(rng()) - (1LL << 31));
        if (rng() % 2) v += seeds[rng() % seeds.size()];
    }
    return v;
  };
  int ok = 0, rejected = 0;
  for (int k = 0; k < 3000; ++k) {
    std::vector<std::pair<std::string, std::string>> kv;
    for (int n = 1 + rng() % 3; n > 0; --n)
      kv.emplace_back(keys[rng() % keys.size()], random_value());
    const auto option = static_cast<shade::parameter::ParamInitOption>(rng() % 3);
    AllTypes p;
    try {
      p.Init(kv, option);
    } catch (const ParamError&) {
      ++rejected;
      continue;
    } catch (...) {
      ADD_FAILURE() << "non-ParamError exception for case " << k;
      continue;
    }
    ++ok;
    const KV dict = p.__DICT__();
    AllTypes q;
    ASSERT_NO_THROW(q.Init(dict));
    EXPECT_EQ(q.__DICT__(), dict);
    try {
      const std::string json = p.SaveJSON();
      AllTypes r;
      r.LoadJSON(json);
      EXPECT_EQ(r.__DICT__(), dict);
    } catch (const ParamError&) {
      // only text that is not UTF-8 may be refused by JSON (all of it is in the string s)
      EXPECT_TRUE(std::any_of(p.s.begin(), p.s.end(),
                              [](char c) { return static_cast<unsigned char>(c) >= 0x80; }));
    }
  }
  EXPECT_GT(ok, 100);
  EXPECT_GT(rejected, 100);
}

}  // namespace
