// Seed note 004, last part (dmlc-core/parameter.h): the note's Param struct and main(),
// each behaviour the note walks through (FieldEntry Set/SetDefault/Check/GetFieldInfo,
// the int/bool/string specialisations, ParamManager AddEntry/AddAlias/PrintDocString/GetDict/
// RunInit, Parameter Init/__DICT__/__FIELDS__/__DOC__/InitAllowUnknown/Save/Load), and the
// corrections to its doubts (NaN bounds, abort on duplicate keys, 9-digit floats).
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "shade/param/json.h"
#include "shade/param/parameter.h"

namespace {

// Section 9, verbatim but for the namespace and macro prefix.
struct Param : public shade::Parameter<Param> {
  float learning_rate;
  int num_hidden;
  std::string name;
  // declare parameters in header file
  SHADE_DECLARE_PARAMETER(Param) {
    SHADE_DECLARE_FIELD(num_hidden).set_range(0, 1000);
    SHADE_DECLARE_FIELD(learning_rate).set_default(0.01f);
    SHADE_DECLARE_FIELD(name).set_default("hello");
  }
};
// register it in cc file
SHADE_REGISTER_PARAMETER(Param);

std::string What(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const shade::ParamError& e) {
    return e.what();
  }
  return "<no error>";
}

// 9.1.2: the note's main().
TEST(SeedParameter, NoteMain) {
  Param param;
  std::vector<std::pair<std::string, std::string>> param_data = {
      {"num_hidden", "100"}, {"learning_rate", "0.1f"}, {"name", "MyNet"}};
  param.Init(param_data);
  EXPECT_EQ(param.num_hidden, 100);
  EXPECT_EQ(param.learning_rate, 0.1f);
  EXPECT_EQ(param.name, "MyNet");
}

// 3.2.6 SetDefault: fields not given take their default; none means "required".
TEST(SeedParameter, SetDefaultAndRequired) {
  Param param;
  param.Init(std::map<std::string, std::string>{{"num_hidden", "10"}});
  EXPECT_EQ(param.learning_rate, 0.01f);
  EXPECT_EQ(param.name, "hello");
  EXPECT_EQ(What([&] { param.Init(std::map<std::string, std::string>{}); }),
            "Required parameter num_hidden of int is not presented");
}

// 3.2.3 Set: spaces after the value are fine, anything else after it is an error.
TEST(SeedParameter, SetRejectsTrailingCharacters) {
  Param param;
  param.Init({{"num_hidden", "12  "}});
  EXPECT_EQ(param.num_hidden, 12);
  EXPECT_EQ(What([&] {
              param.Init({{"num_hidden", "12a"}});
            }),
            "Invalid Parameter format for num_hidden expect int but value='12a'");
}

// 4.3.3 Check, with the note's message (plus the space it lacked) and the description line.
TEST(SeedParameter, CheckRange) {
  Param param;
  EXPECT_EQ(What([&] {
              param.Init({{"num_hidden", "1001"}});
            }),
            "value 1001 for Parameter num_hidden exceed bound [0,1000]\nnum_hidden: ");
}

// 5.3 strings keep spaces; 5.4 bool accepts true/false/1/0 in any case, prints True/False.
struct FlagParam : public shade::Parameter<FlagParam> {
  bool flag;
  std::string text;
  int mode;
  SHADE_DECLARE_PARAMETER(FlagParam) {
    SHADE_DECLARE_FIELD(flag).set_default(false).describe("A switch.");
    SHADE_DECLARE_FIELD(text).set_default("a b").describe("Some text.");
    // The note quotes dmlc-core's enum error, which names no field: use_dmlc_messages().
    SHADE_DECLARE_FIELD(mode)
        .use_dmlc_messages()
        .add_enum("fast", 0)
        .add_enum("exact", 1)
        .describe("How.");
  }
};
SHADE_REGISTER_PARAMETER(FlagParam);

TEST(SeedParameter, StringBoolEnumSpecialisations) {
  FlagParam p;
  p.Init({{"flag", "TRUE"}, {"text", " two words "}, {"mode", "exact"}});
  EXPECT_TRUE(p.flag);
  EXPECT_EQ(p.text, " two words ");
  EXPECT_EQ(p.mode, 1);
  // The note's PrintValue printed True/False; dmlc-core prints 1/0 since its #314 (2017),
  // and shade follows dmlc-core.
  EXPECT_EQ(p.__DICT__()["flag"], "1");
  EXPECT_EQ(p.__DICT__()["mode"], "exact");
  for (const char* t : {"false", "False", "0"}) {
    p.Init({{"flag", t}, {"mode", "fast"}});
    EXPECT_FALSE(p.flag);
  }
  EXPECT_EQ(What([&] {
              p.Init({{"flag", "on"}, {"mode", "fast"}});
            }),
            "Invalid Parameter format for flag expect boolean but value='on'");
  // 5.2.3.1: a name that is no enum lists the valid ones (5.2.3.5 PrintEnums).
  EXPECT_EQ(What([&] {
              p.Init({{"mode", "slow"}});
            }),
            "Invalid Input: 'slow', valid values are: {'exact', 'fast'}");
  // 5.2.3.6 / 6.3.5: the doc string.
  EXPECT_EQ(FlagParam::__DOC__(),
            "flag : boolean, optional, default=0\n"
            "    A switch.\n"
            "text : string, optional, default='a b'\n"
            "    Some text.\n"
            "mode : {'exact', 'fast'}, required\n"
            "    How.\n");
}

// 6.3.8 RunInit: unknown keys list the possible arguments; hidden keys pass by default.
TEST(SeedParameter, RunInitUnknownAndHidden) {
  Param param;
  EXPECT_EQ(What([&] {
              param.Init({{"num_hidden", "1"}, {"dropout", "0.5"}});
            }),
            "Cannot find argument 'dropout', Possible Arguments:\n"
            "----------------\n"
            "num_hidden : int, required\n"
            "learning_rate : float, optional, default=0.00999999978\n"
            "name : string, optional, default='hello'\n");
  param.Init({{"num_hidden", "1"}, {"__layout__", "NCHW"}});
  EXPECT_THROW(
      param.Init({{"num_hidden", "1"}, {"__layout__", "NCHW"}}, shade::parameter::kAllMatch),
      shade::ParamError);
  const auto unknown = param.InitAllowUnknown(
      std::map<std::string, std::string>{{"num_hidden", "2"}, {"dropout", "0.5"}});
  ASSERT_EQ(unknown.size(), 1u);
  EXPECT_EQ(unknown[0].first, "dropout");
  EXPECT_EQ(param.num_hidden, 2);
}

// 6.3.2 AddAlias, 9.1.4 __DICT__, 9.1.5 __FIELDS__.
struct AliasParam : public shade::Parameter<AliasParam> {
  int num_hidden;
  SHADE_DECLARE_PARAMETER(AliasParam) {
    SHADE_DECLARE_FIELD(num_hidden).set_default(4);
    SHADE_DECLARE_ALIAS(num_hidden, nhid);
  }
};
SHADE_REGISTER_PARAMETER(AliasParam);

TEST(SeedParameter, AliasDictFields) {
  AliasParam p;
  p.Init({{"nhid", "8"}});
  EXPECT_EQ(p.num_hidden, 8);
  // dmlc-core's __DICT__ walks its key map, aliases included.
  EXPECT_EQ(p.__DICT__(), (std::map<std::string, std::string>{{"nhid", "8"}, {"num_hidden", "8"}}));
  const auto fields = Param::__FIELDS__();
  ASSERT_EQ(fields.size(), 3u);
  EXPECT_EQ(fields[1].name, "learning_rate");
  EXPECT_EQ(fields[1].type, "float");
  // dmlc-core prints max_digits10 digits since its #529 (2019).
  EXPECT_EQ(fields[1].type_info_str, "float, optional, default=0.00999999978");
  EXPECT_EQ(fields[1].description, "");
}

// Missing Component: Save / Load through the JSON writer and reader.
TEST(SeedParameter, SaveLoad) {
  Param a;
  a.Init({{"num_hidden", "64"}, {"learning_rate", "0.001"}, {"name", "resnet"}});
  std::ostringstream os;
  shade::JSONWriter writer(&os);
  a.Save(&writer);
  std::istringstream is(os.str());
  shade::JSONReader reader(&is);
  Param b;
  b.Load(&reader);
  EXPECT_EQ(b.num_hidden, 64);
  EXPECT_EQ(b.learning_rate, 0.001f);
  EXPECT_EQ(b.name, "resnet");
}

// The note's Check compares `v < begin_ || v > end_`, which NaN slips through.
struct RateParam : public shade::Parameter<RateParam> {
  float rate;
  SHADE_DECLARE_PARAMETER(RateParam) { SHADE_DECLARE_FIELD(rate).set_range(0.0f, 1.0f); }
};
SHADE_REGISTER_PARAMETER(RateParam);

TEST(SeedParameter, NaNFailsRange) {
  RateParam p;
  EXPECT_EQ(What([&] {
              p.Init({{"rate", "nan"}});
            }),
            "value nan for Parameter rate exceed bound [0,1]\nrate: ");
  p.Init({{"rate", "0.5"}});
  EXPECT_EQ(p.rate, 0.5f);
}

// 6.3.1: the note aborts (LOG(FATAL)) on a duplicate key; here it is a catchable ParamError.
struct TwiceParam : public shade::Parameter<TwiceParam> {
  int a;
  SHADE_DECLARE_PARAMETER(TwiceParam) {
    SHADE_DECLARE_FIELD(a);
    SHADE_DECLARE_FIELD(a);
  }
};
SHADE_REGISTER_PARAMETER(TwiceParam);

TEST(SeedParameter, DuplicateKeyThrows) {
  EXPECT_EQ(What([] { TwiceParam::__DOC__(); }), "key a has already been registered in TwiceParam");
}

}  // namespace
