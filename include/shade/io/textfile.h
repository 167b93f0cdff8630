/*!
 * \file textfile.h
 * \brief Delimited text files: `LoadTxt` (numpy.loadtxt), `GenFromTxt` (numpy.genfromtxt for
 *  numeric columns) and `SaveTxt` / `FormatTxt` (numpy.savetxt).
 *
 * A text file is hostile input. The readers hold the text and one line's fields at a time;
 * the result grows with the values actually read (nothing in the input sizes an allocation),
 * and every failure is a shade::Error that names the row or line and the column, in NumPy's
 * words ("could not convert string 'x' to float64 at row 1, column 2."). Numbers are read
 * with std::from_chars (no locale); integers out of the dtype's range are errors, never
 * wrapped (NumPy 1.24 wraps them through a deprecated float fallback).
 *
 * The writer's formats are parsed here, directive by directive (`%[flags][width][.prec]conv`,
 * conv one of d i u o x X e E f F g G s r a, and `%%`), and each value is printed by shade's code
 * with Python's `%` rules; a format string never reaches printf as such.
 *
 * Line ends: "\n", "\r\n" and a lone "\r" (Python's universal newlines). Text is bytes in
 * UTF-8; whitespace is Python's (ASCII and the Unicode spaces).
 */
#ifndef SHADE_IO_TEXTFILE_H_
#define SHADE_IO_TEXTFILE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shade/base/dtype.h"
#include "shade/ndarray/ndarray.h"

namespace shade {
namespace io {

/*! \brief Options of LoadTxt, named and defaulted as numpy.loadtxt's arguments. */
struct LoadTxtOptions {
  /*! \brief Element dtype (any shade dtype; bool reads integers, nonzero is true). */
  int dtype = kFloat64;
  /*! \brief Comment markers: a line is cut at the first one (empty: no comments). */
  std::vector<std::string> comments = {"#"};
  /*! \brief One character (UTF-8) separating fields; empty: runs of whitespace. */
  std::string delimiter;
  /*! \brief Lines skipped at the start, comments and empty lines included. */
  index_t skiprows = 0;
  /*! \brief Columns to read (negative from the end); unset: all, and rows must agree. */
  std::optional<std::vector<index_t>> usecols;
  /*! \brief Return the transpose (numpy's unpack=True). */
  bool unpack = false;
  /*! \brief At least this many dimensions (0, 1 or 2); sizes of 1 are squeezed above it. */
  int ndmin = 0;
  /*! \brief Data rows read at most (empty and comment lines are not counted); unset: all. */
  std::optional<index_t> max_rows;
  /*! \brief One character opening and closing a quoted field ("" inside is one quote). */
  std::string quotechar;
};

/*! \brief Options of GenFromTxt, named and defaulted as numpy.genfromtxt's arguments. */
struct GenFromTxtOptions {
  /*! \brief Element dtype, or -1 to infer one from the values (bool, then int64, float64). */
  int dtype = kFloat64;
  /*! \brief Comment marker (empty: none); a line is cut at its first occurrence. */
  std::string comments = "#";
  /*! \brief Field separator of any length; empty: runs of whitespace (see widths). */
  std::string delimiter;
  /*! \brief Fixed field widths in bytes instead of a delimiter (one width repeats). */
  std::vector<index_t> widths;
  /*! \brief Lines skipped at the start (negative counts as 0). */
  index_t skip_header = 0;
  /*! \brief Valid rows dropped at the end. */
  index_t skip_footer = 0;
  /*! \brief Strings that count as missing in every column ("" always does). */
  std::vector<std::string> missing_values;
  /*! \brief More missing strings by output column position (negative from the end). */
  std::map<index_t, std::vector<std::string>> missing_by_column;
  /*! \brief Value of a missing or unreadable field in every column; unset: numpy's default
   *  (nan for floats, -1 for integers, false for bool). */
  std::optional<double> filling_value;
  /*! \brief Filling values by output column position (negative from the end). */
  std::map<index_t, double> filling_by_column;
  /*! \brief Columns to read (negative from the end of the first row); unset: all. */
  std::optional<std::vector<index_t>> usecols;
  /*! \brief True: a row with the wrong number of fields is an error (else it is dropped and
   *  listed in `*dropped_rows_message` of GenFromTxt). */
  bool invalid_raise = true;
  /*! \brief True (numpy's default): a field that does not convert becomes the filling value;
   *  false: an error naming its line and column. */
  bool loose = true;
  /*! \brief Valid rows read at most (>= 1; not with skip_footer); unset: all. */
  std::optional<index_t> max_rows;
  /*! \brief Return the transpose. */
  bool unpack = false;
  /*! \brief At least this many dimensions (0, 1 or 2). */
  int ndmin = 0;
};

/*!
 * \brief Reads a text file as numpy.loadtxt does. Throws shade::IOError (with errno) when the
 *  file cannot be read, shade::ValueError for contents that do not convert or rows of
 *  different lengths (naming the row and column), shade::TypeError for a bad delimiter,
 *  comment or quote character.
 */
NDArray LoadTxt(const std::string& path, const LoadTxtOptions& opts = LoadTxtOptions());
/*! \brief LoadTxt of text held in memory. */
NDArray LoadTxtFromMemory(std::string_view text, const LoadTxtOptions& opts = LoadTxtOptions());

/*!
 * \brief Reads numeric text as numpy.genfromtxt does (plain arrays only: no names, no
 *  structured or string results). When rows were dropped (invalid_raise false),
 *  `*dropped_rows_message` (if given) receives numpy's warning text; else it is cleared.
 */
NDArray GenFromTxt(const std::string& path, const GenFromTxtOptions& opts = GenFromTxtOptions(),
                   std::string* dropped_rows_message = nullptr);
/*! \brief GenFromTxt of text held in memory. */
NDArray GenFromTxtFromMemory(std::string_view text,
                             const GenFromTxtOptions& opts = GenFromTxtOptions(),
                             std::string* dropped_rows_message = nullptr);

/*! \brief Options of SaveTxt, named and defaulted as numpy.savetxt's arguments. */
struct SaveTxtOptions {
  /*!
   * \brief One format for every column, a whole-row format with one directive per column
   *  (when `fmt_is_sequence` is false: numpy's str fmt), or one format per column (true).
   */
  std::vector<std::string> fmt = {"%.18e"};
  /*! \brief True when `fmt` is numpy's sequence form (one entry per column). */
  bool fmt_is_sequence = false;
  /*! \brief Between the columns. */
  std::string delimiter = " ";
  /*! \brief After every row. */
  std::string newline = "\n";
  /*! \brief Written first, each of its lines after `comments` (nothing when empty). */
  std::string header;
  /*! \brief Written last, as the header. */
  std::string footer;
  /*! \brief Prefix of the header and footer lines. */
  std::string comments = "# ";
};

/*!
 * \brief The text numpy.savetxt writes for a 1-D (one value per row) or 2-D array of a real
 *  dtype. Throws shade::ValueError for another rank or a bad format, shade::TypeError when a
 *  format does not fit the dtype (%x of a float) or the column count.
 */
std::string FormatTxt(const NDArray& array, const SaveTxtOptions& opts = SaveTxtOptions());

/*! \brief Writes FormatTxt's text to `path` atomically (io/atomic_file.h). */
void SaveTxt(const std::string& path, const NDArray& array,
             const SaveTxtOptions& opts = SaveTxtOptions());

}  // namespace io
}  // namespace shade

#endif  // SHADE_IO_TEXTFILE_H_
