// The C++ entry points of shade.loadtxt / genfromtxt / savetxt (io/textfile.h). The NumPy
// signatures, file objects, lists of lines and encodings are handled in shade/_textfile.py;
// these take the text (or a path) and plain options, and release the GIL while they parse.
#include <pybind11/stl.h>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "shade/io/atomic_file.h"
#include "shade/io/textfile.h"
#include "shade_py.h"

namespace shade {
namespace python {

void BindTextFile(py::module_& m) {
  m.def(
      "_loadtxt",
      [](const std::string& source, bool is_path, py::handle dtype,
         std::vector<std::string> comments, std::string delimiter, index_t skiprows,
         std::optional<std::vector<index_t>> usecols, bool unpack, int ndmin,
         std::optional<index_t> max_rows, std::string quotechar) {
        io::LoadTxtOptions o;
        o.dtype = ParseDType(dtype);
        o.comments = std::move(comments);
        o.delimiter = std::move(delimiter);
        o.skiprows = skiprows;
        o.usecols = std::move(usecols);
        o.unpack = unpack;
        o.ndmin = ndmin;
        o.max_rows = max_rows;
        o.quotechar = std::move(quotechar);
        NDArray r;
        {
          py::gil_scoped_release release;
          r = is_path ? io::LoadTxt(source, o) : io::LoadTxtFromMemory(source, o);
        }
        return Wrap(std::move(r));
      },
      "loadtxt's parser (shade.loadtxt is the NumPy-signature wrapper).");
  m.def(
      "_genfromtxt",
      [](const std::string& source, bool is_path, py::handle dtype, std::string comments,
         std::string delimiter, std::vector<index_t> widths, index_t skip_header,
         index_t skip_footer, std::vector<std::string> missing_values,
         std::map<index_t, std::vector<std::string>> missing_by_column,
         std::optional<double> filling_value, std::map<index_t, double> filling_by_column,
         std::optional<std::vector<index_t>> usecols, bool invalid_raise, bool loose,
         std::optional<index_t> max_rows, bool unpack, int ndmin) {
        io::GenFromTxtOptions o;
        o.dtype = dtype.is_none() ? -1 : ParseDType(dtype);
        o.comments = std::move(comments);
        o.delimiter = std::move(delimiter);
        o.widths = std::move(widths);
        o.skip_header = skip_header;
        o.skip_footer = skip_footer;
        o.missing_values = std::move(missing_values);
        o.missing_by_column = std::move(missing_by_column);
        o.filling_value = filling_value;
        o.filling_by_column = std::move(filling_by_column);
        o.usecols = std::move(usecols);
        o.invalid_raise = invalid_raise;
        o.loose = loose;
        o.max_rows = max_rows;
        o.unpack = unpack;
        o.ndmin = ndmin;
        NDArray r;
        std::string dropped;
        {
          py::gil_scoped_release release;
          r = is_path ? io::GenFromTxt(source, o, &dropped)
                      : io::GenFromTxtFromMemory(source, o, &dropped);
        }
        return py::make_tuple(Wrap(std::move(r)), dropped);
      },
      "genfromtxt's parser: (array, warning text of dropped rows).");
  m.def(
      "_savetxt",
      [](std::optional<std::string> path, py::handle x, std::vector<std::string> fmt,
         bool fmt_is_sequence, std::string delimiter, std::string newline, std::string header,
         std::string footer, std::string comments) -> py::object {
        io::SaveTxtOptions o;
        o.fmt = std::move(fmt);
        o.fmt_is_sequence = fmt_is_sequence;
        o.delimiter = std::move(delimiter);
        o.newline = std::move(newline);
        o.header = std::move(header);
        o.footer = std::move(footer);
        o.comments = std::move(comments);
        const NDArray a = AsNDArray(x);
        if (path) {
          py::gil_scoped_release release;
          io::SaveTxt(*path, a, o);
          return py::none();
        }
        std::string text;
        {
          py::gil_scoped_release release;
          text = io::FormatTxt(a, o);
        }
        return py::str(text);
      },
      "savetxt's writer: to `path` atomically, or the text when path is None.");
  m.def(
      "_write_file_atomically",
      [](const std::string& path, py::bytes data) {
        const std::string bytes = data;
        py::gil_scoped_release release;
        io::WriteFileAtomically(path,
                                [&](io::Stream* strm) { strm->Write(bytes.data(), bytes.size()); });
      },
      "Replaces `path` with `data` atomically (savetxt with an encoding or compression).");
}

}  // namespace python
}  // namespace shade
