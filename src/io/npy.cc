// .npy reading and writing. The header parser is hand-written and strict: a .npy file is
// hostile input, and NumPy's own loader runs a Python literal evaluator on it.
#include "shade/io/npy.h"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <type_traits>
#include <vector>

#include "shade/base/checked.h"
#include "shade/base/device.h"
#include "shade/base/error.h"
#include "shade/io/ndarray_io.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "shade's .npy code assumes a little-endian host");

namespace shade {
namespace io {

namespace {

const char kMagic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

// NumPy kind letter of a shade dtype: b(ool), i(nt), u(int), f(loat); 0 when NumPy has none.
char NpyKind(int type_flag) {
  return DispatchDType(type_flag, [](auto tag) -> char {
    using T = typename decltype(tag)::type;
    if (std::is_same<T, bool>::value) return 'b';
    if (std::is_same<T, bf16_t>::value) return 0;
    if (kIsFloating<T>) return 'f';
    if (std::is_signed<T>::value) return 'i';
    return 'u';
  });
}

// The shade flag of NumPy kind + itemsize, or -1.
int FlagOfKind(char kind, std::size_t size) {
  for (int f = 0; f < kNumTypeFlags; ++f) {
    if (NpyKind(f) == kind && TypeFlagSize(f) == size) return f;
  }
  return -1;
}

// Cursor over the dict text; every failure names the source and the byte offset.
class DictParser {
 public:
  DictParser(const char* text, std::size_t len, const std::string& name)
      : p_(text), len_(len), name_(name) {}

  NpyHeader Parse() {
    for (std::size_t i = 0; i < len_; ++i) {
      const unsigned char c = static_cast<unsigned char>(p_[i]);
      if (c >= 0x80 || (c < 0x20 && c != '\n' && c != '\t' && c != '\r')) {
        pos_ = i;
        std::ostringstream os;
        os << "unexpected byte 0x" << std::hex << int(c) << " in the header dict";
        Throw(os.str());
      }
    }
    NpyHeader h;
    bool seen_descr = false, seen_fortran = false, seen_shape = false;
    SkipSpace();
    Expect('{', "the header must be a dict starting with '{'");
    SkipSpace();
    while (Peek() != '}') {
      const std::string key = ParseString("a key");
      SkipSpace();
      Expect(':', "expected ':' after a key");
      SkipSpace();
      if (key == "descr") {
        if (seen_descr) Throw(std::string() + "duplicate key 'descr'");
        seen_descr = true;
        ParseDescr(&h);
      } else if (key == "fortran_order") {
        if (seen_fortran) Throw(std::string() + "duplicate key 'fortran_order'");
        seen_fortran = true;
        h.fortran_order = ParseBool();
      } else if (key == "shape") {
        if (seen_shape) Throw(std::string() + "duplicate key 'shape'");
        seen_shape = true;
        h.shape = ParseShape();
      } else {
        Throw(std::string() + "unknown key '" + key + "' (only descr, fortran_order, shape are allowed)");
      }
      SkipSpace();
      if (Peek() == ',') {
        ++pos_;
        SkipSpace();
      } else if (Peek() != '}') {
        Throw(std::string() + "expected ',' or '}' after the value of '" + key + "'");
      }
    }
    ++pos_;  // '}'
    SkipSpace();
    if (pos_ != len_) Throw(std::string() + "unexpected text after the closing '}'");
    if (!seen_descr) Throw(std::string() + "missing key 'descr'");
    if (!seen_fortran) Throw(std::string() + "missing key 'fortran_order'");
    if (!seen_shape) Throw(std::string() + "missing key 'shape'");
    return h;
  }

 private:
  char Peek() const { return pos_ < len_ ? p_[pos_] : '\0'; }
  void SkipSpace() {
    while (pos_ < len_ && (p_[pos_] == ' ' || p_[pos_] == '\t' || p_[pos_] == '\n' || p_[pos_] == '\r'))
      ++pos_;
  }
  void Expect(char c, const char* why) {
    if (Peek() != c || pos_ >= len_) Throw(why);
    ++pos_;
  }
  [[noreturn]] void Throw(const std::string& why) const {
    SHADE_THROW << name_ << ": invalid .npy header: " << why << " (at byte " << pos_
                << " of the header dict)";
  }

  std::string ParseString(const char* what) {
    const char q = Peek();
    if (q != '\'' && q != '"' ) Throw(std::string("expected a quoted string for ") + what);
    const std::size_t start = ++pos_;
    while (pos_ < len_ && p_[pos_] != q) {
      if (p_[pos_] == '\\') Throw("escape sequences are not allowed in header strings");
      if (p_[pos_] == '\n') Throw("unterminated string");
      ++pos_;
    }
    if (pos_ >= len_) Throw("unterminated string");
    std::string s(p_ + start, pos_ - start);
    ++pos_;
    return s;
  }

  bool ParseBool() {
    if (len_ - pos_ >= 4 && std::memcmp(p_ + pos_, "True", 4) == 0) {
      pos_ += 4;
      return true;
    }
    if (len_ - pos_ >= 5 && std::memcmp(p_ + pos_, "False", 5) == 0) {
      pos_ += 5;
      return false;
    }
    Throw("fortran_order must be True or False");
  }

  void ParseDescr(NpyHeader* h) {
    if (Peek() == '[') Throw("structured dtypes (a descr list) are not supported");
    const std::string d = ParseString("descr");
    if (d.size() < 2) Throw("descr '" + d + "' is too short");
    const char order = d[0];
    if (order != '<' && order != '>' && order != '|') {
      Throw("descr '" + d + "' must start with a byte order '<', '>' or '|'");
    }
    const char kind = d[1];
    if (kind == 'O') Throw("object dtype '" + d + "' is refused (it holds Python pointers)");
    if (kind != 'b' && kind != 'i' && kind != 'u' && kind != 'f') {
      Throw("unsupported dtype '" + d + "' (kinds b, i, u, f only)");
    }
    std::size_t size = 0;
    if (d.size() < 3 || d.size() > 4) Throw("descr '" + d + "' has no valid item size");
    for (std::size_t i = 2; i < d.size(); ++i) {
      if (d[i] < '0' || d[i] > '9') Throw("descr '" + d + "' has no valid item size");
      size = size * 10 + static_cast<std::size_t>(d[i] - '0');
    }
    const int flag = FlagOfKind(kind, size);
    if (flag < 0) Throw("unsupported dtype '" + d + "' (no shade dtype of that kind and size)");
    if (size > 1 && order == '|') Throw("descr '" + d + "': '|' is only valid for one-byte types");
    h->type_flag = flag;
    h->byte_order = size == 1 ? '|' : order;
  }

  index_t ParseInt() {
    if (Peek() == '-') Throw("negative extent in shape");
    if (Peek() < '0' || Peek() > '9') Throw("expected an integer in shape");
    index_t v = 0;
    while (Peek() >= '0' && Peek() <= '9') {
      if (__builtin_mul_overflow(v, index_t(10), &v) ||
          __builtin_add_overflow(v, index_t(Peek() - '0'), &v)) {
        Throw("shape extent overflows int64");
      }
      ++pos_;
    }
    return v;
  }

  TShape ParseShape() {
    Expect('(', "shape must be a tuple");
    std::vector<index_t> dims;
    SkipSpace();
    bool trailing_comma = false;
    while (Peek() != ')') {
      if (static_cast<index_t>(dims.size()) >= kNpyMaxNDim) {
        std::ostringstream os;
        os << "shape has more than " << kNpyMaxNDim << " dimensions";
        Throw(os.str());
      }
      dims.push_back(ParseInt());
      SkipSpace();
      trailing_comma = false;
      if (Peek() == ',') {
        ++pos_;
        trailing_comma = true;
        SkipSpace();
      } else if (Peek() != ')') {
        Throw("expected ',' or ')' in shape");
      }
    }
    if (dims.size() == 1 && !trailing_comma) Throw("shape (n) is not a tuple: write (n,)");
    ++pos_;
    TShape s(dims);
    // The element count must fit in int64 (it is multiplied by the item size later), and so
    // must the product of the non-zero extents: strides are built from it even when a zero
    // extent makes the array empty.
    std::uint64_t count = 1;
    for (index_t d : dims) {
      const std::uint64_t f = static_cast<std::uint64_t>(d == 0 ? 1 : d);
      if (__builtin_mul_overflow(count, f, &count) || count > static_cast<std::uint64_t>(INT64_MAX)) {
        Throw("shape element count overflows int64");
      }
    }
    return s;
  }

  const char* p_;
  std::size_t len_;
  std::size_t pos_ = 0;
  const std::string& name_;
};

std::uint32_t LoadLE(const unsigned char* b, int n) {
  std::uint32_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | b[i];
  return v;
}

}  // namespace

std::uint64_t NpyHeader::NumElements() const {
  return static_cast<std::uint64_t>(CheckedProduct(shape.data(), shape.ndim(), ".npy element count"));
}

std::uint64_t NpyHeader::DataBytes() const {
  return static_cast<std::uint64_t>(CheckedMul(static_cast<index_t>(NumElements()),
                                               static_cast<index_t>(TypeFlagSize(type_flag)),
                                               ".npy data size"));
}

NpyHeader ParseNpyHeaderDict(const char* text, std::size_t len, const std::string& name) {
  return DictParser(text, len, name).Parse();
}

NpyHeader ReadNpyHeader(Stream* strm) {
  const std::string& name = strm->name();
  unsigned char pre[8];
  const std::size_t got = strm->Read(pre, sizeof(pre));
  SHADE_CHECK_EQ(got, sizeof(pre)) << name << ": not a .npy file: only " << got
                                   << " bytes where the 8-byte preamble should be";
  SHADE_CHECK(std::memcmp(pre, kMagic, sizeof(kMagic)) == 0)
      << name << ": not a .npy file: bad magic (expected \\x93NUMPY)";
  const int major = pre[6], minor = pre[7];
  SHADE_CHECK(major >= 1 && major <= 3 && minor == 0)
      << name << ": unsupported .npy format version " << major << "." << minor
      << " (1.0, 2.0 and 3.0 are supported)";
  const int len_bytes = major == 1 ? 2 : 4;
  unsigned char lb[4];
  strm->ReadExact(lb, static_cast<std::size_t>(len_bytes), "the .npy header length");
  const std::uint32_t hlen = LoadLE(lb, len_bytes);
  SHADE_CHECK_LE(hlen, kNpyMaxHeaderLen) << name << ": .npy header length " << hlen
                                         << " exceeds the limit of " << kNpyMaxHeaderLen << " bytes";
  std::uint64_t left = 0;
  if (strm->BytesLeft(&left)) {
    SHADE_CHECK_LE(hlen, left) << name << ": .npy header length " << hlen
                               << " is beyond the end of the file (" << left << " bytes left)";
  }
  std::string dict(hlen, '\0');
  strm->ReadExact(&dict[0], hlen, "the .npy header dict");
  NpyHeader h = ParseNpyHeaderDict(dict.data(), dict.size(), name);
  h.major_version = major;
  h.minor_version = minor;
  h.data_offset = 8u + static_cast<unsigned>(len_bytes) + hlen;
  // Check the byte size now, naming the file, rather than at allocation.
  index_t bytes = 0;
  SHADE_CHECK(!__builtin_mul_overflow(static_cast<index_t>(h.NumElements()),
                                      static_cast<index_t>(TypeFlagSize(h.type_flag)), &bytes))
      << name << ": .npy data size overflows int64 (shape " << h.shape << ", "
      << TypeFlagName(h.type_flag) << ")";
  return h;
}

void CheckNpyDataAvailable(Stream* strm, const NpyHeader& header, bool exact) {
  std::uint64_t left = 0;
  if (!strm->BytesLeft(&left)) return;
  const std::uint64_t need = header.DataBytes();
  SHADE_CHECK_LE(need, left) << strm->name() << ": .npy file truncated: the header declares "
                             << need << " data bytes (shape " << header.shape << ", "
                             << TypeFlagName(header.type_flag) << ") but only " << left
                             << " remain";
  if (exact) {
    SHADE_CHECK_EQ(need, left) << strm->name() << ": " << (left - need)
                               << " unexpected bytes after the .npy data";
  }
}

void ByteSwapInPlace(void* data, std::size_t itemsize, std::uint64_t count) {
  unsigned char* p = static_cast<unsigned char*>(data);
  if (itemsize <= 1) return;
  for (std::uint64_t i = 0; i < count; ++i, p += itemsize) std::reverse(p, p + itemsize);
}

void ReadNpyData(Stream* strm, const NpyHeader& header, void* dst) {
  const std::uint64_t bytes = header.DataBytes();
  strm->ReadExact(dst, static_cast<std::size_t>(bytes), "the .npy data");
  if (header.byte_order == '>') {
    ByteSwapInPlace(dst, TypeFlagSize(header.type_flag), header.NumElements());
  }
}

std::string NpyDescr(int type_flag, char byte_order) {
  const char kind = NpyKind(type_flag);
  SHADE_CHECK(kind != 0) << "dtype " << TypeFlagName(type_flag)
                         << " has no NumPy equivalent and cannot be written to .npy";
  SHADE_CHECK(byte_order == '<' || byte_order == '>')
      << "npy byte order must be '<' or '>', got '" << byte_order << "'";
  const std::size_t size = TypeFlagSize(type_flag);
  std::string d;
  d += size == 1 ? '|' : byte_order;
  d += kind;
  d += std::to_string(size);
  return d;
}

std::string MakeNpyHeader(int type_flag, const TShape& shape, bool fortran_order,
                          const NpyWriteOptions& opts) {
  SHADE_CHECK(opts.version >= 0 && opts.version <= 3)
      << "npy version must be 0 (auto), 1, 2 or 3, got " << opts.version;
  std::ostringstream dict;
  dict << "{'descr': '" << NpyDescr(type_flag, opts.byte_order) << "', 'fortran_order': "
       << (fortran_order ? "True" : "False") << ", 'shape': (";
  for (index_t i = 0; i < shape.ndim(); ++i) {
    SHADE_CHECK_GE(shape.data()[i], 0) << "npy: negative extent in shape " << shape;
    dict << (i ? ", " : "") << shape.data()[i];
  }
  dict << (shape.ndim() == 1 ? ",), }" : "), }");
  const std::string text = dict.str();
  auto pad_for = [&](std::size_t len_bytes) {
    const std::size_t unpadded = 8 + len_bytes + text.size() + 1;  // + '\n'
    return (kNpyDataAlign - unpadded % kNpyDataAlign) % kNpyDataAlign;
  };
  int version = opts.version;
  if (version == 0) version = text.size() + 1 + pad_for(2) <= 0xffff ? 1 : 2;
  const std::size_t len_bytes = version == 1 ? 2 : 4;
  const std::size_t hlen = text.size() + pad_for(len_bytes) + 1;
  SHADE_CHECK(version != 1 || hlen <= 0xffff)
      << "npy: header of " << hlen << " bytes does not fit version 1.0";
  std::string out(kMagic, sizeof(kMagic));
  out += static_cast<char>(version);
  out += '\0';
  for (std::size_t i = 0; i < len_bytes; ++i) out += static_cast<char>((hlen >> (8 * i)) & 0xff);
  out += text;
  out.append(pad_for(len_bytes), ' ');
  out += '\n';
  SHADE_DCHECK(out.size() % kNpyDataAlign == 0);
  return out;
}

void WriteNpy(Stream* strm, int type_flag, const TShape& shape, const void* data,
              bool fortran_order, const NpyWriteOptions& opts) {
  const std::string head = MakeNpyHeader(type_flag, shape, fortran_order, opts);
  const std::size_t itemsize = TypeFlagSize(type_flag);
  const std::uint64_t count = shape.Size();
  const std::size_t bytes = static_cast<std::size_t>(
      CheckedMul(static_cast<index_t>(count), static_cast<index_t>(itemsize), "npy data size"));
  strm->Write(head.data(), head.size());
  if (opts.byte_order == '>' && itemsize > 1) {
    // Swap through a bounded scratch buffer so a big array is never copied whole.
    const unsigned char* src = static_cast<const unsigned char*>(data);
    std::vector<unsigned char> chunk;
    const std::size_t step = (std::size_t(1) << 16) / itemsize * itemsize;
    for (std::size_t off = 0; off < bytes; off += step) {
      const std::size_t n = std::min(step, bytes - off);
      chunk.assign(src + off, src + off + n);
      ByteSwapInPlace(chunk.data(), itemsize, n / itemsize);
      strm->Write(chunk.data(), n);
    }
  } else {
    strm->Write(data, bytes);
  }
}

std::vector<unsigned char> ReadBounded(Stream* strm, std::uint64_t size, const char* what) {
  constexpr std::uint64_t kChunk = std::uint64_t(1) << 20;
  std::vector<unsigned char> out;
  while (out.size() < size) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, size - out.size()));
    const std::size_t at = out.size();
    out.resize(at + n);
    const std::size_t got = strm->Read(out.data() + at, n);
    SHADE_CHECK_EQ(got, n) << strm->name() << ": file truncated while reading " << what << " (needed "
                           << size << " bytes, got " << at + got << ")";
  }
  return out;
}

namespace {

std::vector<index_t> ReversedAxes(index_t ndim) {
  std::vector<index_t> axes(static_cast<std::size_t>(ndim));
  for (index_t i = 0; i < ndim; ++i) axes[static_cast<std::size_t>(i)] = ndim - 1 - i;
  return axes;
}

NDArray LoadNpyImpl(Stream* strm, bool exact) {
  const NpyHeader h = ReadNpyHeader(strm);
  CheckNpyDataAvailable(strm, h, exact);
  std::uint64_t left = 0;
  const bool sized = strm->BytesLeft(&left);
  // Fortran order: the file holds the transpose in C order; read that, then view it reversed.
  TShape alloc_shape = h.shape;
  if (h.fortran_order) std::reverse(alloc_shape.data(), alloc_shape.data() + alloc_shape.ndim());
  NDArray out;
  if (sized) {
    // The stream holds the bytes (checked above): allocating the declared size is safe.
    out = NDArray::Empty(IndexSpan(alloc_shape), h.type_flag);
    ReadNpyData(strm, h, out.data_ptr());
  } else {
    std::vector<unsigned char> bytes = ReadBounded(strm, h.DataBytes(), "the .npy data");
    if (h.byte_order == '>') ByteSwapInPlace(bytes.data(), TypeFlagSize(h.type_flag), h.NumElements());
    out = NDArray::Empty(IndexSpan(alloc_shape), h.type_flag);
    if (!bytes.empty()) std::memcpy(out.data_ptr(), bytes.data(), bytes.size());
  }
  if (h.type_flag == kBool) CheckBoolBytes(out.data_ptr(), h.NumElements(), strm->name());
  if (h.fortran_order && h.shape.ndim() > 1) out = out.permute(IndexSpan(ReversedAxes(h.shape.ndim())));
  return out;
}

}  // namespace

NDArray LoadNpy(const std::string& path) {
  FileStream f(path, "rb");
  return LoadNpyImpl(&f, true);
}

NDArray LoadNpy(Stream* strm) { return LoadNpyImpl(strm, false); }

NDArray LoadNpyFromMemory(const void* data, std::size_t size) {
  MemoryViewStream v(data, size);
  return LoadNpyImpl(&v, true);
}

void SaveNpy(Stream* strm, const NDArray& array, const NpyWriteOptions& opts) {
  SHADE_CHECK(array.defined()) << "SaveNpy: undefined NDArray (writing " << strm->name() << ")";
  SHADE_CHECK_EQ(array.dev_mask(), cpu::kDevMask)
      << "SaveNpy: only CPU arrays can be written (writing " << strm->name() << ")";
  const int flag = array.type_flag();
  SHADE_CHECK(IsValidTypeFlag(flag)) << "SaveNpy: element type " << array.dtype().name()
                                     << " is not a numeric dtype (writing " << strm->name() << ")";
  const TShape shape = array.shape();
  const index_t nd = shape.ndim();
  bool fortran = opts.fortran_order && nd > 1;
  NDArray src = array;
  if (nd > 1) {
    const NDArray reversed = array.permute(IndexSpan(ReversedAxes(nd)));
    if (!fortran && !array.is_contiguous() && reversed.is_contiguous()) fortran = true;
    // In Fortran order the file holds the reversed-axes array in C order.
    if (fortran) src = reversed;
  }
  if (!src.is_contiguous()) src = src.contiguous();
  WriteNpy(strm, flag, shape, src.numel() == 0 ? nullptr : src.raw_data(), fortran, opts);
}

void SaveNpy(const std::string& path, const NDArray& array, const NpyWriteOptions& opts) {
  FileStream f(path, "wb");
  SaveNpy(&f, array, opts);
  f.Close();
}

}  // namespace io
}  // namespace shade
