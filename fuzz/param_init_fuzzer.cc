// libFuzzer target: Parameter Init from key/value strings and LoadJSON on arbitrary bytes, for a
// struct with one field of every supported type. A struct that initialises must save to JSON
// and key/values that load back to the same dictionary; failures must be shade::Error and leave
// the struct as it was (Init's strong guarantee).
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "shade/base/error.h"
#include "shade/param/parameter.h"

namespace {

// A reference UTF-8 check (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF).
bool IsUtf8(const std::string& text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    const unsigned c = p[i];
    std::size_t len = 0;
    unsigned code = 0, min = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xe0) == 0xc0) {
      len = 2, code = c & 0x1f, min = 0x80;
    } else if ((c & 0xf0) == 0xe0) {
      len = 3, code = c & 0x0f, min = 0x800;
    } else if ((c & 0xf8) == 0xf0) {
      len = 4, code = c & 0x07, min = 0x10000;
    } else {
      return false;
    }
    if (i + len > n) return false;
    for (std::size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xc0) != 0x80) return false;
      code = (code << 6) | (p[i + k] & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return false;
    i += len;
  }
  return true;
}

struct FuzzParam : public shade::Parameter<FuzzParam> {
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
  int act;
  shade::TShape shape;
  std::vector<int> vi;
  std::vector<float> vf;
  SHADE_DECLARE_PARAMETER(FuzzParam) {
    SHADE_DECLARE_FIELD(i).set_default(-3).set_range(-100, 100);
    SHADE_DECLARE_FIELD(u).set_default(7u);
    SHADE_DECLARE_FIELD(l).set_default(std::int64_t{1} << 40);
    SHADE_DECLARE_FIELD(ul).set_default(~std::uint64_t{0});
    SHADE_DECLARE_FIELD(i8).set_default(std::int8_t{-5});
    SHADE_DECLARE_FIELD(f).set_default(0.1f);
    SHADE_DECLARE_FIELD(d).set_default(1e-5).set_lower_bound(-1e300);
    SHADE_DECLARE_FIELD(b).set_default(true);
    SHADE_DECLARE_FIELD(s).set_default("a b");
    SHADE_DECLARE_FIELD(oi).set_default(shade::optional<int>());
    SHADE_DECLARE_FIELD(od).set_default(std::optional<double>(2.5)).set_range(0.0, 10.0);
    SHADE_DECLARE_FIELD(act).add_enum("relu", 0).add_enum("tanh", 1).set_default(0);
    SHADE_DECLARE_FIELD(shape).set_default(shade::TShape{2, 3});
    SHADE_DECLARE_FIELD(vi).set_default(std::vector<int>{1, 2});
    SHADE_DECLARE_FIELD(vf).set_default(std::vector<float>{});
    SHADE_DECLARE_ALIAS(i, alias_i);
  }
};
SHADE_REGISTER_PARAMETER(FuzzParam);

// Splits "k=v\nk=v..." (the first '=' separates key and value).
std::vector<std::pair<std::string, std::string>> SplitPairs(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> kv;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(pos, end - pos);
    const std::size_t eq = line.find('=');
    if (eq != std::string::npos) kv.emplace_back(line.substr(0, eq), line.substr(eq + 1));
    pos = end + 1;
  }
  return kv;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const int mode = data[0] % 3;
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  FuzzParam p;
  p.Init(std::map<std::string, std::string>{});
  const std::map<std::string, std::string> before = p.__DICT__();
  try {
    if (mode == 0) {
      p.LoadJSON(text);
    } else if (mode == 1) {
      p.Init(SplitPairs(text));
    } else {
      (void)p.InitAllowUnknown(SplitPairs(text));
    }
  } catch (const shade::Error&) {
    if (p.__DICT__() != before) __builtin_trap();  // strong guarantee
    return 0;
  }
  // Whatever initialised round-trips through JSON and through key/values.
  const std::map<std::string, std::string> dict = p.__DICT__();
  FuzzParam q;
  std::string saved;
  try {
    saved = p.SaveJSON();
  } catch (const shade::Error&) {
    // JSON text holds only UTF-8: a string value with other bytes (Init takes any bytes, as
    // dmlc-core does) must be the reason, and the only one.
    bool all_utf8 = true;
    for (const auto& kv : dict) all_utf8 = all_utf8 && IsUtf8(kv.second);
    if (all_utf8) __builtin_trap();
    return 0;
  }
  q.LoadJSON(saved);
  if (q.__DICT__() != dict) __builtin_trap();
  FuzzParam r;
  r.Init(dict);
  if (r.__DICT__() != dict) __builtin_trap();
  return 0;
}
