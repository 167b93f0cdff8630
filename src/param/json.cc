// JSON for parameters: nlohmann-json behind a small interface, every failure a ParamError.
#include "shade/param/json.h"

#include <nlohmann/json.hpp>

namespace shade {
namespace {

using nlohmann::json;

std::string Dump(const json& j) {
  try {
    return j.dump();
  } catch (const json::exception& e) {
    // dump throws on invalid UTF-8; JSON text cannot hold such bytes faithfully.
    throw ParamError(std::string("cannot write parameters as JSON: ") + e.what());
  }
}

json ObjectOfStrings(const std::map<std::string, std::string>& dict) {
  json j = json::object();
  for (const auto& kv : dict) j[kv.first] = kv.second;
  return j;
}

std::map<std::string, std::string> ToDict(const json& j) {
  if (!j.is_object()) {
    throw ParamError(
        std::string("expected a JSON object of string, number or boolean values, got a JSON ") +
        j.type_name());
  }
  std::map<std::string, std::string> out;
  for (auto it = j.begin(); it != j.end(); ++it) {
    // Strings as dmlc-core writes them; numbers and booleans as people write JSON by hand
    // (their JSON text, e.g. 3, 0.01, true, is what the field parsers read).
    const json& v = it.value();
    if (v.is_string()) {
      out[it.key()] = v.get<std::string>();
    } else if (v.is_number() || v.is_boolean()) {
      out[it.key()] = Dump(v);
    } else {
      throw ParamError("JSON value of key '" + it.key() +
                       "' must be a string, a number or a boolean, got " + Dump(v));
    }
  }
  return out;
}

json ReadValue(std::istream* is) {
  json j;
  try {
    *is >> j;
  } catch (const json::exception& e) {
    throw ParamError(std::string("malformed JSON: ") + e.what());
  }
  return j;
}

}  // namespace

namespace parameter {

std::string ParamDictToJSON(const std::map<std::string, std::string>& dict) {
  const json object = ObjectOfStrings(dict);
  try {
    return object.dump();
  } catch (const json::exception&) {
    // Name the first field whose text JSON cannot hold (only on this failure path).
    for (const auto& kv : dict) {
      try {
        (void)json(kv.second).dump();
      } catch (const json::exception& e) {
        throw ParamError("cannot write parameters as JSON: the value of " + kv.first +
                         " is not valid UTF-8 text (" + e.what() + ")");
      }
    }
    return Dump(object);  // a key, then: Dump reports it
  }
}

std::map<std::string, std::string> ParamDictFromJSON(const std::string& text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    throw ParamError(std::string("malformed JSON: ") + e.what());
  }
  return ToDict(j);
}

}  // namespace parameter

void JSONWriter::Write(const std::string& value) {
  *os_ << Dump(json(value));
}

void JSONWriter::Write(const std::map<std::string, std::string>& value) {
  // dmlc-core's layout: one "key": "value" per line, indented 2, ", " before each newline;
  // keys raw, values with \r \n \\ \t \" escaped and every other byte as is.
  std::string out = "{";
  bool first = true;
  for (const auto& kv : value) {
    out += first ? "\n  \"" : ", \n  \"";
    first = false;
    out += kv.first;
    out += "\": \"";
    for (char c : kv.second) {
      switch (c) {
        case '\r':
          out += "\\r";
          break;
        case '\n':
          out += "\\n";
          break;
        case '\\':
          out += "\\\\";
          break;
        case '\t':
          out += "\\t";
          break;
        case '"':
          out += "\\\"";
          break;
        default:
          out += c;
      }
    }
    out += '"';
  }
  if (!first) out += '\n';
  out += '}';
  *os_ << out;
}

void JSONReader::Read(std::string* out) {
  const json j = ReadValue(is_);
  if (!j.is_string()) {
    throw ParamError(std::string("expected a JSON string, got a JSON ") + j.type_name());
  }
  *out = j.get<std::string>();
}

void JSONReader::Read(std::map<std::string, std::string>* out) {
  *out = ToDict(ReadValue(is_));
}

}  // namespace shade
