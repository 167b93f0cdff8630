// dmlc-core style parameter code, unchanged but for the include: it must compile and behave
// as it did against <dmlc/parameter.h>, <dmlc/optional.h> and <dmlc/json.h>.
#include <gtest/gtest.h>
#include <shade/compat/dmlc.h>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

struct LearningParam : public dmlc::Parameter<LearningParam> {
  float float_param;
  double double_param;
  int num_hidden;
  dmlc::optional<int> opt_int;
  dmlc::optional<float> opt_float;
  std::string name;
  int act_type;
  dmlc::optional<int> pool;
  bool flag;
  uint64_t workspace;
  DMLC_DECLARE_PARAMETER(LearningParam) {
    DMLC_DECLARE_FIELD(float_param).set_default(0.01f).describe("A float.");
    DMLC_DECLARE_FIELD(double_param).set_default(0.1).describe("A double.");
    DMLC_DECLARE_FIELD(num_hidden).set_range(0, 1000).describe("Hidden units.");
    DMLC_DECLARE_FIELD(opt_int).set_default(dmlc::optional<int>()).describe("Maybe an int.");
    DMLC_DECLARE_FIELD(opt_float).set_default(dmlc::optional<float>(1.5f));
    DMLC_DECLARE_FIELD(name).set_default("hello");
    DMLC_DECLARE_FIELD(act_type)
        .add_enum("relu", 1)
        .add_enum("sigmoid", 2)
        .add_enum("tanh", 3)
        .set_default(1)
        .describe("Activation function.");
    DMLC_DECLARE_FIELD(pool).add_enum("avg", 0).add_enum("max", 1).set_default(dmlc::nullopt);
    DMLC_DECLARE_FIELD(flag).set_default(false);
    DMLC_DECLARE_FIELD(workspace).set_default(1024).set_lower_bound(1);
    DMLC_DECLARE_ALIAS(num_hidden, nhidden);
    DMLC_DECLARE_ALIAS(float_param, lr);
  }
};

DMLC_REGISTER_PARAMETER(LearningParam);

TEST(DmlcCompat, InitDefaultsAndAliases) {
  LearningParam param;
  std::map<std::string, std::string> kwargs;
  kwargs["nhidden"] = "100";
  kwargs["lr"] = "0.5f";
  param.Init(kwargs);
  EXPECT_EQ(param.num_hidden, 100);
  EXPECT_EQ(param.float_param, 0.5f);
  EXPECT_EQ(param.double_param, 0.1);
  EXPECT_FALSE(param.opt_int.has_value());
  EXPECT_TRUE(param.opt_float.has_value());
  EXPECT_EQ(param.opt_float.value(), 1.5f);
  EXPECT_EQ(param.name, "hello");
  EXPECT_EQ(param.act_type, 1);
  EXPECT_FALSE(param.pool);
  EXPECT_EQ(param.workspace, 1024u);
}

TEST(DmlcCompat, ErrorsAreParamErrors) {
  LearningParam param;
  std::map<std::string, std::string> kwargs;
  kwargs["num_hidden"] = "100";
  kwargs["float_param"] = "1e-100";
  try {
    param.Init(kwargs);
    FAIL() << "1e-100 does not fit a float";
  } catch (dmlc::ParamError& e) {
    EXPECT_EQ(std::string(e.what()), "Out of range value for float_param, value='1e-100'");
  }
  kwargs["float_param"] = "0.1";
  kwargs["num_hidden"] = "-1";
  try {
    param.Init(kwargs);
    FAIL();
  } catch (dmlc::Error& e) {  // ParamError is a dmlc::Error
    EXPECT_EQ(std::string(e.what()),
              "value -1 for Parameter num_hidden exceed bound [0,1000]\nnum_hidden: Hidden units.");
  }
  kwargs["num_hidden"] = "10";
  kwargs["act_type"] = "gelu";
  try {
    param.Init(kwargs);
    FAIL();
  } catch (dmlc::ParamError& e) {
    EXPECT_EQ(std::string(e.what()),
              "Invalid Input: 'gelu', valid values are: {'relu', 'sigmoid', 'tanh'}");
  }
  kwargs.erase("act_type");
  kwargs["workspace"] = "0";
  try {
    param.Init(kwargs);
    FAIL();
  } catch (dmlc::ParamError& e) {
    EXPECT_EQ(std::string(e.what()),
              "value 0 for Parameter workspace should be greater equal to 1\nworkspace: ");
  }
  kwargs.erase("workspace");
  kwargs["flag"] = "maybe";
  EXPECT_THROW(param.Init(kwargs), dmlc::ParamError);
}

TEST(DmlcCompat, InitOptionsAndUnknown) {
  LearningParam param;
  std::vector<std::pair<std::string, std::string>> kwargs = {
      {"num_hidden", "3"}, {"__ctx__", "cpu"}, {"unknown", "1"}};
  EXPECT_THROW(param.Init(kwargs), dmlc::ParamError);
  param.Init(kwargs, dmlc::parameter::kAllowUnknown);
  kwargs.pop_back();
  param.Init(kwargs, dmlc::parameter::kAllowHidden);
  EXPECT_THROW(param.Init(kwargs, dmlc::parameter::kAllMatch), dmlc::ParamError);
  kwargs.emplace_back("unknown", "1");
  std::vector<std::pair<std::string, std::string>> unknown = param.InitAllowUnknown(kwargs);
  ASSERT_EQ(unknown.size(), 2u);
  EXPECT_EQ(unknown[0].first, "__ctx__");
  EXPECT_EQ(unknown[1].first, "unknown");
  dmlc::parameter::ParamInitOption opt = dmlc::parameter::kAllMatch;
  EXPECT_EQ(opt, dmlc::parameter::kAllMatch);
}

TEST(DmlcCompat, DocFieldsAndDict) {
  std::vector<dmlc::ParamFieldInfo> fields = LearningParam::__FIELDS__();
  ASSERT_EQ(fields.size(), 10u);
  EXPECT_EQ(fields[3].name, "opt_int");
  EXPECT_EQ(fields[3].type, "int or None");
  EXPECT_EQ(fields[3].type_info_str, "int or None, optional, default='None'");
  EXPECT_EQ(fields[6].type_info_str, "{'relu', 'sigmoid', 'tanh'},optional, default='relu'");
  EXPECT_EQ(fields[7].type_info_str, "{None, 'avg', 'max'},optional, default='None'");
  EXPECT_EQ(fields[9].type, "long (non-negative)");
  const std::string doc = LearningParam::__DOC__();
  EXPECT_NE(doc.find("float_param : float, optional, default=0.00999999978\n    A float.\n"),
            std::string::npos);
  EXPECT_NE(doc.find("flag : boolean, optional, default=0\n"), std::string::npos);

  LearningParam param;
  param.Init(std::map<std::string, std::string>{{"num_hidden", "7"}, {"pool", "max"}});
  std::map<std::string, std::string> dict = param.__DICT__();
  EXPECT_EQ(dict["num_hidden"], "7");
  EXPECT_EQ(dict["float_param"], "0.00999999978");
  EXPECT_EQ(dict["lr"], "0.00999999978");  // aliases are in dmlc-core's __DICT__
  EXPECT_EQ(dict["opt_int"], "None");
  EXPECT_EQ(dict["opt_float"], "1.5");
  EXPECT_EQ(dict["act_type"], "relu");
  EXPECT_EQ(dict["pool"], "max");
  EXPECT_EQ(dict["flag"], "0");
}

TEST(DmlcCompat, SaveLoadThroughJSONWriterReader) {
  LearningParam param;
  std::map<std::string, std::string> kwargs = {{"num_hidden", "42"},    {"opt_int", "-3"},
                                               {"name", "net \"one\""}, {"act_type", "tanh"},
                                               {"flag", "TRUE"},        {"double_param", "1e-300"}};
  param.Init(kwargs);
  std::ostringstream os;
  dmlc::JSONWriter writer(&os);
  param.Save(&writer);

  std::istringstream is(os.str());
  dmlc::JSONReader reader(&is);
  LearningParam loaded;
  loaded.Load(&reader);
  EXPECT_EQ(loaded.__DICT__(), param.__DICT__());
  EXPECT_EQ(loaded.num_hidden, 42);
  EXPECT_EQ(loaded.opt_int.value(), -3);
  EXPECT_EQ(loaded.name, "net \"one\"");
  EXPECT_EQ(loaded.act_type, 3);
  EXPECT_TRUE(loaded.flag);
  EXPECT_EQ(loaded.double_param, 1e-300);

  std::istringstream bad("{\"num_hidden\": ");
  dmlc::JSONReader bad_reader(&bad);
  EXPECT_THROW(loaded.Load(&bad_reader), dmlc::ParamError);
}

TEST(DmlcCompat, Optional) {
  dmlc::optional<int> x;
  std::ostringstream os;
  os << x;
  EXPECT_EQ(os.str(), "None");
  x = 5;
  EXPECT_TRUE(x.has_value());
  EXPECT_EQ(*x, 5);
  os.str("");
  os << x;
  EXPECT_EQ(os.str(), "5");
  x = dmlc::nullopt;
  EXPECT_FALSE(x);
  std::istringstream is("None 7");
  dmlc::optional<int> a(1), b;
  is >> a >> b;
  EXPECT_FALSE(a.has_value());
  EXPECT_EQ(b.value(), 7);
  EXPECT_TRUE(dmlc::optional<int>(3) == dmlc::optional<int>(3));
  EXPECT_FALSE(dmlc::optional<int>(3) == dmlc::optional<int>());
}

TEST(DmlcCompat, Env) {
  dmlc::SetEnv("SHADE_COMPAT_ENV", 64);
  EXPECT_EQ(dmlc::GetEnv("SHADE_COMPAT_ENV", 1), 64);
  unsetenv("SHADE_COMPAT_ENV");
  EXPECT_EQ(dmlc::GetEnv("SHADE_COMPAT_ENV", std::string("none")), "none");
  setenv("SHADE_COMPAT_ENV", "x", 1);
  EXPECT_THROW(dmlc::GetEnv("SHADE_COMPAT_ENV", 1.0), dmlc::ParamError);
  unsetenv("SHADE_COMPAT_ENV");
}

// ---------------------------------------------------------------------------------------------
// Byte-for-byte transcript: the program below was compiled against dmlc-core (dmlc/dmlc-core at
// 5295de9, include/dmlc/parameter.h and json.h) outside this repository; kDmlcTranscript is
// what it printed. The same code through shade/compat/dmlc.h must print exactly that. It
// covers every field type (int, unsigned, long, size_t, float, double, bool, string,
// optional<int/float/double/bool>), enums and optional enums, ranges and bounds, aliases,
// __DOC__ / __FIELDS__ / __DICT__, every error message, InitAllowUnknown, UpdateDict,
// Save / Load through JSONWriter / JSONReader, optional streaming and GetEnv / SetEnv.
// The deliberate differences are tested separately below.
namespace dmlc_transcript {
struct DmlcProbeP : public dmlc::Parameter<DmlcProbeP> {
  float f;
  double d;
  int n;
  int64_t l;
  uint64_t ws;
  bool b;
  std::string s;
  int act;
  dmlc::optional<int> oi;
  dmlc::optional<int> oi5;
  dmlc::optional<float> of;
  dmlc::optional<double> od;
  dmlc::optional<bool> ob;
  dmlc::optional<int> pool;
  dmlc::optional<int> pool2;
  int req;
  float fr;
  DMLC_DECLARE_PARAMETER(DmlcProbeP) {
    DMLC_DECLARE_FIELD(f).set_default(0.01f).describe("A float.");
    DMLC_DECLARE_FIELD(d).set_default(0.1).set_range(0.0, 1.0).describe("A double in range.");
    DMLC_DECLARE_FIELD(n).set_range(0, 1000).set_default(10).describe("Hidden units.");
    DMLC_DECLARE_FIELD(l).set_default(-5).set_lower_bound(-10);
    DMLC_DECLARE_FIELD(ws).set_default(1024).set_lower_bound(1).describe("Workspace.");
    DMLC_DECLARE_FIELD(b).set_default(false).describe("A flag.");
    DMLC_DECLARE_FIELD(s).set_default("hello").describe("A string.");
    DMLC_DECLARE_FIELD(act)
        .add_enum("relu", 1)
        .add_enum("sigmoid", 2)
        .add_enum("tanh", 3)
        .set_default(1)
        .describe("Activation.");
    DMLC_DECLARE_FIELD(oi).set_default(dmlc::optional<int>()).describe("Maybe an int.");
    DMLC_DECLARE_FIELD(oi5).set_default(dmlc::optional<int>(5));
    DMLC_DECLARE_FIELD(of).set_default(dmlc::optional<float>(1.5f));
    DMLC_DECLARE_FIELD(od).set_default(dmlc::optional<double>());
    DMLC_DECLARE_FIELD(ob).set_default(dmlc::optional<bool>(true));
    DMLC_DECLARE_FIELD(pool).add_enum("avg", 0).add_enum("max", 1).set_default(
        dmlc::optional<int>());
    DMLC_DECLARE_FIELD(pool2).add_enum("avg", 0).add_enum("max", 1).set_default(
        dmlc::optional<int>(1));
    DMLC_DECLARE_FIELD(req).describe("Required.");
    DMLC_DECLARE_FIELD(fr).set_range(0.5f, 2.5f).set_default(1.0f);
    DMLC_DECLARE_ALIAS(n, nhidden);
    DMLC_DECLARE_ALIAS(f, lr);
  }
};
DMLC_REGISTER_PARAMETER(DmlcProbeP);

struct DmlcProbeQ : public dmlc::Parameter<DmlcProbeQ> {
  unsigned u;
  size_t sz;
  int64_t big;
  dmlc::optional<float> ofr;
  float nn;
  double dd;
  DMLC_DECLARE_PARAMETER(DmlcProbeQ) {
    DMLC_DECLARE_FIELD(u).set_default(3u).set_range(1u, 10u).describe("Unsigned.");
    DMLC_DECLARE_FIELD(sz).set_default(0);
    DMLC_DECLARE_FIELD(big).set_default(int64_t(1) << 40).set_range(-5, int64_t(1) << 50);
    DMLC_DECLARE_FIELD(ofr).set_default(dmlc::optional<float>(0.1f)).describe("Optional float.");
    DMLC_DECLARE_FIELD(nn).set_default(-2.5e-7f);
    DMLC_DECLARE_FIELD(dd).set_default(1e300).set_lower_bound(-1);
    DMLC_DECLARE_ALIAS(u, unsigned_alias);
  }
};
DMLC_REGISTER_PARAMETER(DmlcProbeQ);

static void TryQ(std::ostream& out, const char* what, std::map<std::string, std::string> kw) {
  DmlcProbeQ p;
  try {
    p.Init(kw, dmlc::parameter::kAllowHidden);
    out << "[Q " << what << "] ok\n";
    for (auto& kv : p.__DICT__()) out << "  " << kv.first << "=" << kv.second << "\n";
  } catch (const std::exception& e) {
    out << "[Q " << what << "] Error: " << e.what() << "\n";
  }
}

static void Try(std::ostream& out, const char* what, std::map<std::string, std::string> kw) {
  DmlcProbeP p;
  try {
    p.Init(kw);
    out << "[" << what << "] ok\n";
    for (auto& kv : p.__DICT__()) out << "  " << kv.first << "=" << kv.second << "\n";
  } catch (const dmlc::ParamError& e) {
    out << "[" << what << "] ParamError: " << e.what() << "\n";
  } catch (const std::exception& e) {
    out << "[" << what << "] Error: " << e.what() << "\n";
  }
}

void Transcript(std::ostream& out) {
  out << "DOC:\n" << DmlcProbeP::__DOC__() << "\n---\n";
  for (auto& fi : DmlcProbeP::__FIELDS__()) {
    out << "FIELD name=" << fi.name << "|type=" << fi.type << "|info=" << fi.type_info_str
        << "|desc=" << fi.description << "\n";
  }
  Try(out, "basic", {{"req", "3"}});
  Try(out, "alias", {{"req", "3"}, {"nhidden", "100"}, {"lr", "0.5"}});
  Try(out, "missing", {});
  Try(out, "unknown", {{"req", "1"}, {"zzz", "1"}});
  Try(out, "range_hi", {{"req", "1"}, {"n", "1001"}});
  Try(out, "range_lo", {{"req", "1"}, {"n", "-1"}});
  Try(out, "range_d", {{"req", "1"}, {"d", "1.5"}});
  Try(out, "range_f", {{"req", "1"}, {"fr", "3"}});
  Try(out, "lower", {{"req", "1"}, {"l", "-11"}});
  Try(out, "lower_u", {{"req", "1"}, {"ws", "0"}});
  Try(out, "bad_int", {{"req", "x"}});
  Try(out, "trail_int", {{"req", "3x"}});
  Try(out, "bad_float", {{"req", "1"}, {"f", "abc"}});
  Try(out, "trail_float", {{"req", "1"}, {"f", "1.5q"}});
  Try(out, "bad_bool", {{"req", "1"}, {"b", "maybe"}});
  Try(out, "bool_forms", {{"req", "1"}, {"b", "1"}});
  Try(out, "bool_true", {{"req", "1"}, {"b", "True"}});
  Try(out, "bool_lower", {{"req", "1"}, {"b", "true"}});
  Try(out, "enum_bad", {{"req", "1"}, {"act", "softmax"}});
  Try(out, "enum_ok", {{"req", "1"}, {"act", "tanh"}});
  Try(out, "enum_int", {{"req", "1"}, {"act", "2"}});
  Try(out, "opt_none", {{"req", "1"}, {"oi5", "None"}});
  Try(out, "opt_val", {{"req", "1"}, {"oi", "7"}, {"of", "2.5"}, {"od", "None"}, {"ob", "0"}});
  Try(out, "opt_bad", {{"req", "1"}, {"oi", "x"}});
  Try(out, "opt_enum", {{"req", "1"}, {"pool", "max"}, {"pool2", "None"}});
  Try(out, "opt_enum_bad", {{"req", "1"}, {"pool", "sum"}});
  Try(out, "int_overflow", {{"req", "99999999999"}});
  Try(out, "float_big", {{"req", "1"}, {"f", "1e100"}});
  Try(out, "float_small", {{"req", "1"}, {"f", "1e-100"}});
  Try(out, "str", {{"req", "1"}, {"s", "a b\"c"}});
  Try(out, "spaces", {{"req", " 4 "}});
  out << "QDOC:\n" << DmlcProbeQ::__DOC__() << "\n---\n";
  TryQ(out, "defaults", {});
  TryQ(out, "hidden", {{"__ctx__", "x"}, {"unsigned_alias", "4"}});
  TryQ(out, "hidden_bad", {{"__ctx", "x"}});
  TryQ(out, "u_range", {{"u", "11"}});
  TryQ(out, "u_zero", {{"u", "0"}});
  TryQ(out, "big_range", {{"big", "-6"}});
  TryQ(out, "dd_low", {{"dd", "-2"}});
  TryQ(out, "nn_f", {{"nn", "0.5f"}});
  TryQ(out, "nn_space", {{"nn", " 0.5 "}});
  TryQ(out, "ofr_none", {{"ofr", "None"}});
  TryQ(out, "ofr_val", {{"ofr", "3.25"}});
  TryQ(out, "ofr_bad", {{"ofr", "abc"}});
  TryQ(out, "sz_big", {{"sz", "18446744073709551615"}});
  TryQ(out, "big_hex", {{"big", "0x10"}});
  TryQ(out, "u_plus", {{"u", "+5"}});
  TryQ(out, "empty", {{"u", ""}});
  // InitAllowUnknown and UpdateDict
  {
    DmlcProbeP p;
    auto unk = p.InitAllowUnknown(
        std::map<std::string, std::string>{{"req", "2"}, {"zz", "1"}, {"lr", "0.25"}});
    out << "unknown:";
    for (auto& kv : unk) out << " " << kv.first << "=" << kv.second;
    out << "\n";
    std::map<std::string, std::string> dict{{"extra", "1"}, {"nhidden", "4"}};
    p.UpdateDict(&dict);
    for (auto& kv : dict) out << "  upd " << kv.first << "=" << kv.second << "\n";
    std::ostringstream os;
    dmlc::JSONWriter w(&os);
    p.Save(&w);
    out << "JSON:" << os.str() << "\n";
    DmlcProbeP q;
    std::istringstream is(os.str());
    dmlc::JSONReader r(&is);
    q.Load(&r);
    out << "reloaded n=" << q.n << " f=" << q.f << "\n";
    std::istringstream bad("{\"req\": \"1\", \"zzz\": \"2\"}");
    dmlc::JSONReader r2(&bad);
    try {
      q.Load(&r2);
      out << "load unknown ok\n";
    } catch (const std::exception& e) {
      out << "load err: " << e.what() << "\n";
    }
  }
  // optional printing
  {
    dmlc::optional<int> a, b(3);
    std::ostringstream os;
    os << a << "," << b;
    out << "optional: " << os.str() << "\n";
    dmlc::optional<int> c;
    std::istringstream is("None");
    is >> c;
    out << "read None: " << c.has_value() << "\n";
  }
  // env
  {
    dmlc::SetEnv("PROBE_ENV", 42);
    out << "env int " << dmlc::GetEnv("PROBE_ENV", 1) << "\n";
    dmlc::SetEnv("PROBE_ENV", std::string("abc"));
    out << "env str " << dmlc::GetEnv("PROBE_ENV", std::string("x")) << "\n";
    out << "env missing " << dmlc::GetEnv("PROBE_ENV_MISSING", 7) << "\n";
    dmlc::SetEnv("PROBE_ENV", 2.5);
    out << "env dbl " << dmlc::GetEnv("PROBE_ENV", 1.0) << "\n";
    dmlc::SetEnv("PROBE_ENV", true);
    out << "env bool " << dmlc::GetEnv("PROBE_ENV", false) << " raw=" << getenv("PROBE_ENV")
        << "\n";
    setenv("PROBE_ENV", "zz", 1);
    try {
      out << "env bad " << dmlc::GetEnv("PROBE_ENV", 1) << "\n";
    } catch (const std::exception& e) {
      out << "env bad err: " << e.what() << "\n";
    }
  }
}

const char* const kDmlcTranscript = R"dmlc(DOC:
f : float, optional, default=0.00999999978
    A float.
d : double, optional, default=0.10000000000000001
    A double in range.
n : int, optional, default='10'
    Hidden units.
l : long, optional, default=-5
ws : long (non-negative), optional, default=1024
    Workspace.
b : boolean, optional, default=0
    A flag.
s : string, optional, default='hello'
    A string.
act : {'relu', 'sigmoid', 'tanh'},optional, default='relu'
    Activation.
oi : int or None, optional, default='None'
    Maybe an int.
oi5 : int or None, optional, default='5'
of : float or None, optional, default=1.5
od : double or None, optional, default=None
ob : boolean or None, optional, default=1
pool : {None, 'avg', 'max'},optional, default='None'
pool2 : {None, 'avg', 'max'},optional, default='max'
req : int, required
    Required.
fr : float, optional, default=1

---
FIELD name=f|type=float|info=float, optional, default=0.00999999978|desc=A float.
FIELD name=d|type=double|info=double, optional, default=0.10000000000000001|desc=A double in range.
FIELD name=n|type=int|info=int, optional, default='10'|desc=Hidden units.
FIELD name=l|type=long|info=long, optional, default=-5|desc=
FIELD name=ws|type=long (non-negative)|info=long (non-negative), optional, default=1024|desc=Workspace.
FIELD name=b|type=boolean|info=boolean, optional, default=0|desc=A flag.
FIELD name=s|type=string|info=string, optional, default='hello'|desc=A string.
FIELD name=act|type=int|info={'relu', 'sigmoid', 'tanh'},optional, default='relu'|desc=Activation.
FIELD name=oi|type=int or None|info=int or None, optional, default='None'|desc=Maybe an int.
FIELD name=oi5|type=int or None|info=int or None, optional, default='5'|desc=
FIELD name=of|type=float or None|info=float or None, optional, default=1.5|desc=
FIELD name=od|type=double or None|info=double or None, optional, default=None|desc=
FIELD name=ob|type=boolean or None|info=boolean or None, optional, default=1|desc=
FIELD name=pool|type=int or None|info={None, 'avg', 'max'},optional, default='None'|desc=
FIELD name=pool2|type=int or None|info={None, 'avg', 'max'},optional, default='max'|desc=
FIELD name=req|type=int|info=int, required|desc=Required.
FIELD name=fr|type=float|info=float, optional, default=1|desc=
[basic] ok
  act=relu
  b=0
  d=0.10000000000000001
  f=0.00999999978
  fr=1
  l=-5
  lr=0.00999999978
  n=10
  nhidden=10
  ob=1
  od=None
  of=1.5
  oi=None
  oi5=5
  pool=None
  pool2=max
  req=3
  s=hello
  ws=1024
[alias] ok
  act=relu
  b=0
  d=0.10000000000000001
  f=0.5
  fr=1
  l=-5
  lr=0.5
  n=100
  nhidden=100
  ob=1
  od=None
  of=1.5
  oi=None
  oi5=5
  pool=None
  pool2=max
  req=3
  s=hello
  ws=1024
[missing] ParamError: Required parameter req of int is not presented
[unknown] ParamError: Cannot find argument 'zzz', Possible Arguments:
----------------
f : float, optional, default=0.00999999978
    A float.
d : double, optional, default=0.10000000000000001
    A double in range.
n : int, optional, default='10'
    Hidden units.
l : long, optional, default=-5
ws : long (non-negative), optional, default=1024
    Workspace.
b : boolean, optional, default=0
    A flag.
s : string, optional, default='hello'
    A string.
act : {'relu', 'sigmoid', 'tanh'},optional, default='relu'
    Activation.
oi : int or None, optional, default='None'
    Maybe an int.
oi5 : int or None, optional, default='5'
of : float or None, optional, default=1.5
od : double or None, optional, default=None
ob : boolean or None, optional, default=1
pool : {None, 'avg', 'max'},optional, default='None'
pool2 : {None, 'avg', 'max'},optional, default='max'
req : int, required
    Required.
fr : float, optional, default=1

[range_hi] ParamError: value 1001 for Parameter n exceed bound [0,1000]
n: Hidden units.
[range_lo] ParamError: value -1 for Parameter n exceed bound [0,1000]
n: Hidden units.
[range_d] ParamError: value 1.5 for Parameter d exceed bound [0,1]
d: A double in range.
[range_f] ParamError: value 3 for Parameter fr exceed bound [0.5,2.5]
fr: 
[lower] ParamError: value -11 for Parameter l should be greater equal to -10
l: 
[lower_u] ParamError: value 0 for Parameter ws should be greater equal to 1
ws: Workspace.
[bad_int] ParamError: Invalid Parameter format for req expect int but value='x'
[trail_int] ParamError: Invalid Parameter format for req expect int but value='3x'
[bad_float] ParamError: Invalid Parameter format for f expect float but value='abc'
[trail_float] ParamError: Some trailing characters could not be parsed: 'q'
[bad_bool] ParamError: Invalid Parameter format for b expect boolean but value='maybe'
[bool_forms] ok
  act=relu
  b=1
  d=0.10000000000000001
  f=0.00999999978
  fr=1
  l=-5
  lr=0.00999999978
  n=10
  nhidden=10
  ob=1
  od=None
  of=1.5
  oi=None
  oi5=5
  pool=None
  pool2=max
  req=1
  s=hello
  ws=1024
[bool_true] ok
  act=relu
  b=1
  d=0.10000000000000001
  f=0.00999999978
  fr=1
  l=-5
  lr=0.00999999978
  n=10
  nhidden=10
  ob=1
  od=None
  of=1.5
  oi=None
  oi5=5
  pool=None
  pool2=max
  req=1
  s=hello
  ws=1024
[bool_lower] ok
  act=relu
  b=1
  d=0.10000000000000001
  f=0.00999999978
  fr=1
  l=-5
  lr=0.00999999978
  n=10
  nhidden=10
  ob=1
  od=None
  of=1.5
  oi=None
  oi5=5
  pool=None
  pool2=max
  req=1
  s=hello
  ws=1024
[enum_bad] ParamError: Invalid Input: 'softmax', valid values are: {'relu', 'sigmoid', 'tanh'}
[enum_ok] ok
  act=tanh
  b=0
  d=0.10000000000000001
  f=0.00999999978
  fr=1
  l=-5
  lr=0.00999999978
  n=10
  nhidden=10
  ob=1
  od=None
  of=1.5
  oi=None
  oi5=5
  pool=None
  pool2=max
  req=1
  s=hello
  ws=1024
[enum_int] ParamError: Invalid Input: '2', valid values are: {'relu', 'sigmoid', 'tanh'}
[opt_none] ok
  act=relu
  b=0
  d=0.10000000000000001
  f=0.00999999978
  fr=1
  l=-5
  lr=0.00999999978
  n=10
  nhidden=10
  ob=1
  od=None
  of=1.5
  oi=None
  oi5=None
  pool=None
  pool2=max
  req=1
  s=hello
  ws=1024
[opt_val] ok
  act=relu
  b=0
  d=0.10000000000000001
  f=0.00999999978
  fr=1
  l=-5
  lr=0.00999999978
  n=10
  nhidden=10
  ob=0
  od=None
  of=2.5
  oi=7
  oi5=5
  pool=None
  pool2=max
  req=1
  s=hello
  ws=1024
[opt_bad] ParamError: Invalid Parameter format for oi expect int or None but value='x'
[opt_enum] ok
  act=relu
  b=0
  d=0.10000000000000001
  f=0.00999999978
  fr=1
  l=-5
  lr=0.00999999978
  n=10
  nhidden=10
  ob=1
  od=None
  of=1.5
  oi=None
  oi5=5
  pool=max
  pool2=None
  req=1
  s=hello
  ws=1024
[opt_enum_bad] ParamError: Invalid Input: 'sum', valid values are: {None, 'avg', 'max'}
[int_overflow] ParamError: Invalid Parameter format for req expect int but value='99999999999'
[float_big] ParamError: Out of range value for f, value='1e100'
[float_small] ParamError: Out of range value for f, value='1e-100'
[str] ok
  act=relu
  b=0
  d=0.10000000000000001
  f=0.00999999978
  fr=1
  l=-5
  lr=0.00999999978
  n=10
  nhidden=10
  ob=1
  od=None
  of=1.5
  oi=None
  oi5=5
  pool=None
  pool2=max
  req=1
  s=a b"c
  ws=1024
[spaces] ok
  act=relu
  b=0
  d=0.10000000000000001
  f=0.00999999978
  fr=1
  l=-5
  lr=0.00999999978
  n=10
  nhidden=10
  ob=1
  od=None
  of=1.5
  oi=None
  oi5=5
  pool=None
  pool2=max
  req=4
  s=hello
  ws=1024
QDOC:
u : int (non-negative), optional, default=3
    Unsigned.
sz : long (non-negative), optional, default=0
big : long, optional, default=1099511627776
ofr : float or None, optional, default=0.1
    Optional float.
nn : float, optional, default=-2.49999999e-07
dd : double, optional, default=1.0000000000000001e+300

---
[Q defaults] ok
  big=1099511627776
  dd=1.0000000000000001e+300
  nn=-2.49999999e-07
  ofr=0.1
  sz=0
  u=3
  unsigned_alias=3
[Q hidden] ok
  big=1099511627776
  dd=1.0000000000000001e+300
  nn=-2.49999999e-07
  ofr=0.1
  sz=0
  u=4
  unsigned_alias=4
[Q hidden_bad] Error: Cannot find argument '__ctx', Possible Arguments:
----------------
u : int (non-negative), optional, default=3
    Unsigned.
sz : long (non-negative), optional, default=0
big : long, optional, default=1099511627776
ofr : float or None, optional, default=0.1
    Optional float.
nn : float, optional, default=-2.49999999e-07
dd : double, optional, default=1.0000000000000001e+300

[Q u_range] Error: value 11 for Parameter u exceed bound [1,10]
u: Unsigned.
[Q u_zero] Error: value 0 for Parameter u exceed bound [1,10]
u: Unsigned.
[Q big_range] Error: value -6 for Parameter big exceed bound [-5,1125899906842624]
big: 
[Q dd_low] Error: value -2 for Parameter dd should be greater equal to -1
dd: 
[Q nn_f] ok
  big=1099511627776
  dd=1.0000000000000001e+300
  nn=0.5
  ofr=0.1
  sz=0
  u=3
  unsigned_alias=3
[Q nn_space] Error: Some trailing characters could not be parsed: ' '
[Q ofr_none] ok
  big=1099511627776
  dd=1.0000000000000001e+300
  nn=-2.49999999e-07
  ofr=None
  sz=0
  u=3
  unsigned_alias=3
[Q ofr_val] ok
  big=1099511627776
  dd=1.0000000000000001e+300
  nn=-2.49999999e-07
  ofr=3.25
  sz=0
  u=3
  unsigned_alias=3
[Q ofr_bad] Error: Invalid Parameter format for ofr expect float or None but value='abc'
[Q sz_big] ok
  big=1099511627776
  dd=1.0000000000000001e+300
  nn=-2.49999999e-07
  ofr=0.1
  sz=18446744073709551615
  u=3
  unsigned_alias=3
[Q big_hex] Error: Invalid Parameter format for big expect long but value='0x10'
[Q u_plus] ok
  big=1099511627776
  dd=1.0000000000000001e+300
  nn=-2.49999999e-07
  ofr=0.1
  sz=0
  u=5
  unsigned_alias=5
[Q empty] Error: Invalid Parameter format for u expect int (non-negative) but value=''
unknown: zz=1
  upd act=relu
  upd b=0
  upd d=0.10000000000000001
  upd extra=1
  upd f=0.25
  upd fr=1
  upd l=-5
  upd lr=0.25
  upd n=10
  upd nhidden=10
  upd ob=1
  upd od=None
  upd of=1.5
  upd oi=None
  upd oi5=5
  upd pool=None
  upd pool2=max
  upd req=2
  upd s=hello
  upd ws=1024
JSON:{
  "act": "relu", 
  "b": "0", 
  "d": "0.10000000000000001", 
  "f": "0.25", 
  "fr": "1", 
  "l": "-5", 
  "lr": "0.25", 
  "n": "10", 
  "nhidden": "10", 
  "ob": "1", 
  "od": "None", 
  "of": "1.5", 
  "oi": "None", 
  "oi5": "5", 
  "pool": "None", 
  "pool2": "max", 
  "req": "2", 
  "s": "hello", 
  "ws": "1024"
}
reloaded n=10 f=0.25
load err: Cannot find argument 'zzz', Possible Arguments:
----------------
f : float, optional, default=0.00999999978
    A float.
d : double, optional, default=0.10000000000000001
    A double in range.
n : int, optional, default='10'
    Hidden units.
l : long, optional, default=-5
ws : long (non-negative), optional, default=1024
    Workspace.
b : boolean, optional, default=0
    A flag.
s : string, optional, default='hello'
    A string.
act : {'relu', 'sigmoid', 'tanh'},optional, default='relu'
    Activation.
oi : int or None, optional, default='None'
    Maybe an int.
oi5 : int or None, optional, default='5'
of : float or None, optional, default=1.5
od : double or None, optional, default=None
ob : boolean or None, optional, default=1
pool : {None, 'avg', 'max'},optional, default='None'
pool2 : {None, 'avg', 'max'},optional, default='max'
req : int, required
    Required.
fr : float, optional, default=1

optional: None,3
read None: 0
env int 42
env str abc
env missing 7
env dbl 2.5
env bool 1 raw=1
env bad env bad err: Invalid Parameter format for PROBE_ENV expect int but value='zz'
)dmlc";

}  // namespace dmlc_transcript

TEST(DmlcCompat, TranscriptEqualsDmlcCoreByteForByte) {
  std::ostringstream out;
  dmlc_transcript::Transcript(out);
  const std::string got = out.str();
  const std::string want = dmlc_transcript::kDmlcTranscript;
  EXPECT_EQ(got, want);
  // On a mismatch, name the first differing line (the full texts are long).
  std::istringstream g(got), w(want);
  std::string gl, wl;
  for (int line = 1; std::getline(w, wl); ++line) {
    if (!std::getline(g, gl) || gl != wl) {
      ADD_FAILURE() << "line " << line << ": dmlc-core '" << wl << "', shade '" << gl << "'";
      break;
    }
  }
}

// Where shade deliberately differs from dmlc-core (each would be a silent wrong value there).
TEST(DmlcCompat, DeliberateDifferences) {
  dmlc_transcript::DmlcProbeP p;
  // dmlc-core's stream wraps "-3" to 18446744073709551613 for an unsigned field.
  try {
    p.Init(std::map<std::string, std::string>{{"req", "1"}, {"ws", "-3"}});
    ADD_FAILURE() << "accepted -3 for an unsigned field";
  } catch (const dmlc::ParamError& e) {
    EXPECT_EQ(std::string(e.what()),
              "Invalid Parameter format for ws expect long (non-negative) but value='-3'");
  }
  // dmlc-core lets NaN through a range check (v < begin is false for NaN).
  dmlc_transcript::DmlcProbeQ q;
  EXPECT_THROW(q.Init(std::map<std::string, std::string>{{"dd", "nan"}}), dmlc::ParamError);
  // dmlc-core's stod reports "inf" as out of range only when errno happens to hold ERANGE
  // from an earlier call; shade always accepts an explicit infinity where no bound forbids it.
  q.Init(std::map<std::string, std::string>{{"dd", "inf"}});
  EXPECT_TRUE(std::isinf(q.dd));
}
