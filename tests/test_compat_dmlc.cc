// dmlc-core style parameter code, unchanged but for the include: it must compile and behave
// as it did against <dmlc/parameter.h>, <dmlc/optional.h> and <dmlc/json.h>.
#include <shade/compat/dmlc.h>

#include <gtest/gtest.h>

#include <cstdlib>
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
  EXPECT_EQ(fields[3].type_info_str, "int or None, optional, default=None");
  EXPECT_EQ(fields[6].type_info_str, "{'relu', 'sigmoid', 'tanh'},optional, default='relu'");
  EXPECT_EQ(fields[7].type_info_str, "{None, 'avg', 'max'},optional, default='None'");
  EXPECT_EQ(fields[9].type, "long (non-negative)");
  const std::string doc = LearningParam::__DOC__();
  EXPECT_NE(doc.find("float_param : float, optional, default=0.01\n    A float.\n"),
            std::string::npos);
  EXPECT_NE(doc.find("flag : boolean, optional, default=False\n"), std::string::npos);

  LearningParam param;
  param.Init(std::map<std::string, std::string>{{"num_hidden", "7"}, {"pool", "max"}});
  std::map<std::string, std::string> dict = param.__DICT__();
  EXPECT_EQ(dict["num_hidden"], "7");
  EXPECT_EQ(dict["float_param"], "0.01");
  EXPECT_EQ(dict["opt_int"], "None");
  EXPECT_EQ(dict["opt_float"], "1.5");
  EXPECT_EQ(dict["act_type"], "relu");
  EXPECT_EQ(dict["pool"], "max");
  EXPECT_EQ(dict["flag"], "False");
}

TEST(DmlcCompat, SaveLoadThroughJSONWriterReader) {
  LearningParam param;
  std::map<std::string, std::string> kwargs = {
      {"num_hidden", "42"}, {"opt_int", "-3"}, {"name", "net \"one\""}, {"act_type", "tanh"},
      {"flag", "TRUE"},     {"double_param", "1e-300"}};
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
