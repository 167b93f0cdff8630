/*!
 * \file idx.h
 * \brief Reader for the gzip-compressed IDX files of (Fashion-)MNIST, with every check a
 *  damaged or missing file can fail: each failure throws shade::Error naming the file, what
 *  was wrong and what to do.
 *
 * IDX layout (all integers big-endian): magic `0x000008TD` (T = 0x08 unsigned bytes, D = the
 * number of dimensions), then D 32-bit extents, then the bytes. Images are D = 3
 * (count, rows, cols), labels D = 1 (count).
 */
#ifndef SHADE_EXAMPLES_FASHION_MNIST_IDX_H_
#define SHADE_EXAMPLES_FASHION_MNIST_IDX_H_

#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "shade/base/checked.h"
#include "shade/base/error.h"
#include "shade/base/index.h"

namespace fashion_mnist {

/*! \brief Where Debian's dataset-fashion-mnist package installs the files. */
inline const char* kDefaultDataDir = "/usr/share/datasets/fashion-mnist";

/*! \brief What to tell a user whose data is missing or damaged. */
inline const char* kDataHint =
    "install the data with `apt-get install dataset-fashion-mnist` or point --data_dir at a "
    "directory holding the four *-ubyte.gz files";

/*! \brief Images of one IDX file: `count` images of rows x cols bytes, row-major. */
struct IdxImages {
  /*! \brief Number of images. */
  shade::index_t count = 0;
  /*! \brief Rows per image. */
  shade::index_t rows = 0;
  /*! \brief Columns per image. */
  shade::index_t cols = 0;
  /*! \brief count * rows * cols pixel bytes. */
  std::vector<std::uint8_t> pixels;
};

/*! \brief Labels of one IDX file. */
struct IdxLabels {
  /*! \brief One byte per example. */
  std::vector<std::uint8_t> labels;
};

namespace detail {

/*! \brief A gzip (or plain) file opened through zlib; closes itself. */
class GzFile {
 public:
  /*! \brief Opens `path`; throws naming the path and the reason when it cannot. */
  explicit GzFile(const std::string& path) : path_(path) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) {
      const int err = errno;
      SHADE_THROW << path << ": " << std::strerror(err) << "; " << kDataHint;
    }
    SHADE_CHECK(S_ISREG(st.st_mode)) << path << " is not a regular file; " << kDataHint;
    file_ = gzopen(path.c_str(), "rb");
    if (file_ == nullptr) {
      const int err = errno;
      SHADE_THROW << path << ": cannot open: " << (err != 0 ? std::strerror(err) : "out of memory")
                  << "; " << kDataHint;
    }
  }
  ~GzFile() {
    if (file_ != nullptr) gzclose(file_);
  }
  GzFile(const GzFile&) = delete;
  GzFile& operator=(const GzFile&) = delete;

  /*! \brief Reads up to `size` bytes; fewer only at the end. Throws on a corrupt stream. */
  std::size_t Read(void* dst, std::size_t size) {
    std::size_t done = 0;
    auto* out = static_cast<unsigned char*>(dst);
    while (done < size) {
      const std::size_t want = std::min<std::size_t>(size - done, 1u << 30);
      const int got = gzread(file_, out + done, static_cast<unsigned>(want));
      if (got < 0) {
        int code = 0;
        const char* msg = gzerror(file_, &code);
        SHADE_THROW << path_ << ": damaged gzip data (" << (msg != nullptr ? msg : "?") << "); "
                    << kDataHint;
      }
      if (got == 0) {
        // End of data: a gzip stream cut short reports Z_BUF_ERROR here.
        int code = 0;
        const char* msg = gzerror(file_, &code);
        SHADE_CHECK(code == Z_OK || code == Z_BUF_ERROR)
            << path_ << ": damaged gzip data (" << (msg != nullptr ? msg : "?") << "); "
            << kDataHint;
        break;
      }
      done += static_cast<std::size_t>(got);
    }
    return done;
  }
  /*! \brief Reads exactly `size` bytes; throws "truncated" naming `what` otherwise. */
  void ReadExact(void* dst, std::size_t size, const char* what) {
    const std::size_t got = Read(dst, size);
    SHADE_CHECK_EQ(got, size) << path_ << ": file truncated while reading " << what
                              << " (needed " << size << " bytes, found " << got << "); "
                              << kDataHint;
  }
  /*! \brief Throws when bytes remain after the data the header announced. */
  void ExpectEnd() {
    unsigned char extra = 0;
    SHADE_CHECK_EQ(Read(&extra, 1), 0u)
        << path_ << ": trailing bytes after the data the header announces (the header's count "
        << "is wrong or the file is damaged); " << kDataHint;
  }
  /*! \brief The path (for messages). */
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  gzFile file_ = nullptr;
};

/*! \brief Reads one big-endian 32-bit integer. */
inline std::uint32_t ReadBigEndian32(GzFile* f, const char* what) {
  unsigned char b[4];
  f->ReadExact(b, 4, what);
  return (std::uint32_t(b[0]) << 24) | (std::uint32_t(b[1]) << 16) | (std::uint32_t(b[2]) << 8) |
         std::uint32_t(b[3]);
}

/*! \brief Reads and checks the magic number: unsigned bytes with `dims` dimensions. */
inline void ReadMagic(GzFile* f, int dims, const char* kind) {
  const std::uint32_t magic = ReadBigEndian32(f, "the magic number");
  const std::uint32_t want = 0x00000800u | static_cast<std::uint32_t>(dims);
  if (magic != want) {
    char got_hex[16], want_hex[16];
    std::snprintf(got_hex, sizeof(got_hex), "0x%08x", magic);
    std::snprintf(want_hex, sizeof(want_hex), "0x%08x", want);
    SHADE_THROW << f->path() << ": wrong magic number " << got_hex << " (an IDX " << kind
                << " file starts with " << want_hex << "); is this the right file? " << kDataHint;
  }
}

/*!
 * \brief Reads `total` payload bytes in chunks, so a header that claims more than the file
 *  holds fails as "truncated" before a huge allocation is made.
 */
inline void ReadPayload(GzFile* f, shade::index_t total, std::vector<std::uint8_t>* out,
                        const char* what) {
  constexpr std::size_t kChunk = std::size_t(1) << 22;
  out->clear();
  std::size_t left = static_cast<std::size_t>(total);
  while (left > 0) {
    const std::size_t n = std::min(left, kChunk);
    const std::size_t old = out->size();
    out->resize(old + n);
    const std::size_t got = f->Read(out->data() + old, n);
    SHADE_CHECK_EQ(got, n) << f->path() << ": file truncated while reading " << what << " ("
                           << total << " bytes announced by the header, found "
                           << (old + got) << "); " << kDataHint;
    left -= n;
  }
}

}  // namespace detail

/*! \brief Reads an IDX image file (magic 0x00000803). Throws shade::Error on any defect. */
inline IdxImages LoadIdxImages(const std::string& path) {
  detail::GzFile f(path);
  detail::ReadMagic(&f, 3, "image");
  IdxImages img;
  img.count = detail::ReadBigEndian32(&f, "the image count");
  img.rows = detail::ReadBigEndian32(&f, "the image height");
  img.cols = detail::ReadBigEndian32(&f, "the image width");
  SHADE_CHECK(img.rows > 0 && img.cols > 0)
      << path << ": image size " << img.rows << "x" << img.cols << " has no pixels; " << kDataHint;
  const shade::index_t dims[3] = {img.count, img.rows, img.cols};
  const shade::index_t total = shade::CheckedProduct(dims, 3, "IDX image payload");
  detail::ReadPayload(&f, total, &img.pixels, "the pixels");
  f.ExpectEnd();
  return img;
}

/*! \brief Reads an IDX label file (magic 0x00000801). Throws shade::Error on any defect. */
inline IdxLabels LoadIdxLabels(const std::string& path) {
  detail::GzFile f(path);
  detail::ReadMagic(&f, 1, "label");
  const shade::index_t count = detail::ReadBigEndian32(&f, "the label count");
  IdxLabels lab;
  detail::ReadPayload(&f, count, &lab.labels, "the labels");
  f.ExpectEnd();
  return lab;
}

/*! \brief One split of the data set: images scaled to [0, 1] and labels 0..9. */
struct Split {
  /*! \brief Number of examples. */
  shade::index_t count = 0;
  /*! \brief count * 784 floats, row-major. */
  std::vector<float> images;
  /*! \brief count labels. */
  std::vector<std::uint8_t> labels;
};

/*! \brief Pixels per Fashion-MNIST image. */
constexpr shade::index_t kImageSide = 28;
/*! \brief Pixels per image, the MLP's input width. */
constexpr shade::index_t kImageSize = kImageSide * kImageSide;
/*! \brief Number of classes. */
constexpr int kClasses = 10;

/*!
 * \brief Loads `<dir>/<prefix>-images-idx3-ubyte.gz` and the matching labels, checking that
 *  the images are 28x28, that both files hold the same number of examples and that every
 *  label is a class 0..9.
 */
inline Split LoadSplit(const std::string& dir, const std::string& prefix) {
  const std::string ipath = dir + "/" + prefix + "-images-idx3-ubyte.gz";
  const std::string lpath = dir + "/" + prefix + "-labels-idx1-ubyte.gz";
  IdxImages img = LoadIdxImages(ipath);
  SHADE_CHECK(img.rows == kImageSide && img.cols == kImageSide)
      << ipath << ": images are " << img.rows << "x" << img.cols << ", Fashion-MNIST's are "
      << kImageSide << "x" << kImageSide << "; " << kDataHint;
  IdxLabels lab = LoadIdxLabels(lpath);
  const shade::index_t nlab = static_cast<shade::index_t>(lab.labels.size());
  SHADE_CHECK_EQ(img.count, nlab) << "counts disagree: " << ipath << " holds " << img.count
                                  << " images but " << lpath << " holds " << nlab
                                  << " labels; " << kDataHint;
  for (shade::index_t i = 0; i < nlab; ++i) {
    SHADE_CHECK_LT(int(lab.labels[i]), kClasses)
        << lpath << ": label " << int(lab.labels[i]) << " of example " << i
        << " is not a class 0.." << kClasses - 1 << "; " << kDataHint;
  }
  Split s;
  s.count = img.count;
  s.images.resize(img.pixels.size());
  for (std::size_t i = 0; i < img.pixels.size(); ++i) s.images[i] = img.pixels[i] / 255.0f;
  s.labels = std::move(lab.labels);
  return s;
}

}  // namespace fashion_mnist

#endif  // SHADE_EXAMPLES_FASHION_MNIST_IDX_H_
