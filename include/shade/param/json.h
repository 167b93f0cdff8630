/*!
 * \file json.h
 * \brief Minimal JSON writer/reader for Parameter::Save / Load (dmlc-core's JSONWriter /
 *  JSONReader, as far as parameters need them), backed by nlohmann-json in the library so
 *  that this header stays light.
 */
#ifndef SHADE_PARAM_JSON_H_
#define SHADE_PARAM_JSON_H_

#include <istream>
#include <map>
#include <ostream>
#include <string>

#include "shade/param/parameter.h"

namespace shade {

/*! \brief Writes JSON values to a stream. */
class JSONWriter {
 public:
  /*! \brief Writes to `os` (not owned; must outlive the writer). */
  explicit JSONWriter(std::ostream* os) : os_(os) {}
  /*! \brief A JSON string; ParamError when `value` is not valid UTF-8. */
  void Write(const std::string& value);
  /*! \brief A JSON object of strings; ParamError when a text is not valid UTF-8. */
  void Write(const std::map<std::string, std::string>& value);

 private:
  std::ostream* os_;
};

/*! \brief Reads JSON values from a stream, one value per call. */
class JSONReader {
 public:
  /*! \brief Reads from `is` (not owned; must outlive the reader). */
  explicit JSONReader(std::istream* is) : is_(is) {}
  /*! \brief One JSON string; ParamError on malformed JSON or another type. */
  void Read(std::string* out);
  /*! \brief One JSON object of strings; ParamError on malformed JSON or other types. */
  void Read(std::map<std::string, std::string>* out);

 private:
  std::istream* is_;
};

}  // namespace shade

#endif  // SHADE_PARAM_JSON_H_
