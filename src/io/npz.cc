// .npz through libzip: each member is streamed into the .npy loader, which checks its
// declared data size against the member's declared uncompressed size before allocating.
#include "shade/io/npz.h"

#include <zip.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "shade/base/error.h"
#include "shade/io/atomic_file.h"
#include "shade/io/stream.h"

namespace shade {
namespace io {

namespace {

// Deflate cannot expand data by more than about 1032:1; a member claiming more is a lie
// (a zip bomb header), refused before anything is allocated for it.
constexpr std::uint64_t kMaxDeflateRatio = 1032;

const char kNpySuffix[] = ".npy";

// A read stream over one opened member; the member's declared size bounds BytesLeft.
class ZipMemberStream : public Stream {
 public:
  ZipMemberStream(zip_file_t* file, std::uint64_t size, std::string name)
      : file_(file), left_(size), name_(std::move(name)) {}
  ~ZipMemberStream() override { zip_fclose(file_); }
  std::size_t Read(void* ptr, std::size_t size) override {
    if (size > left_) size = static_cast<std::size_t>(left_);
    std::size_t done = 0;
    while (done < size) {
      const zip_int64_t got = zip_fread(file_, static_cast<char*>(ptr) + done, size - done);
      if (got < 0) {
        SHADE_THROW_IO << name_ << ": cannot read member data: "
                       << zip_error_strerror(zip_file_get_error(file_));
      }
      if (got == 0) break;
      done += static_cast<std::size_t>(got);
    }
    left_ -= done;
    return done;
  }
  void Write(const void*, std::size_t) override {
    SHADE_THROW_IO << name_ << ": npz members are read-only";
  }
  bool BytesLeft(std::uint64_t* out) const override {
    *out = left_;
    return true;
  }
  const std::string& name() const override { return name_; }

 private:
  zip_file_t* file_;
  std::uint64_t left_;
  std::string name_;
};

struct ZipCloser {
  void operator()(zip_t* z) const { zip_discard(z); }
};

struct SourceFreer {
  void operator()(zip_source_t* s) const { zip_source_free(s); }
};

std::map<std::string, NDArray> ReadArchive(zip_t* raw, const std::string& archive) {
  std::unique_ptr<zip_t, ZipCloser> za(raw);
  std::map<std::string, NDArray> out;
  const zip_int64_t n = zip_get_num_entries(za.get(), 0);
  SHADE_CHECK_IO_GE(n, 0) << archive << ": cannot list the zip entries";
  for (zip_int64_t i = 0; i < n; ++i) {
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(za.get(), static_cast<zip_uint64_t>(i), 0, &st) != 0) {
      SHADE_THROW_IO << archive << ": cannot read entry " << i << ": " << zip_strerror(za.get());
    }
    SHADE_CHECK_IO((st.valid & ZIP_STAT_NAME) && (st.valid & ZIP_STAT_SIZE) &&
                   (st.valid & ZIP_STAT_COMP_SIZE))
        << archive << ": entry " << i << " lacks a name or sizes";
    const std::string member = st.name;
    const std::string where = archive + ":" + member;
    const std::size_t sl = sizeof(kNpySuffix) - 1;
    SHADE_CHECK_IO(member.size() > sl && member.compare(member.size() - sl, sl, kNpySuffix) == 0)
        << where << ": npz member is not a .npy file (name must end in .npy)";
    const std::string key = member.substr(0, member.size() - sl);
    SHADE_CHECK_IO(out.find(key) == out.end()) << where << ": duplicate npz member name";
    if (st.comp_method != ZIP_CM_STORE) {
      SHADE_CHECK_IO_LE(st.size, st.comp_size * kMaxDeflateRatio + 1024)
          << where << ": declared uncompressed size is impossible for its compressed size "
          << st.comp_size;
    } else {
      SHADE_CHECK_IO_EQ(st.size, st.comp_size) << where << ": stored member with mismatched sizes";
    }
    zip_file_t* zf = zip_fopen_index(za.get(), static_cast<zip_uint64_t>(i), 0);
    if (zf == nullptr) {
      SHADE_THROW_IO << where << ": cannot open npz member: " << zip_strerror(za.get());
    }
    ZipMemberStream ms(zf, st.size, where);
    NDArray arr = LoadNpy(&ms);
    std::uint64_t left = 0;
    ms.BytesLeft(&left);
    SHADE_CHECK_IO_EQ(left, 0u) << where << ": unexpected bytes after the .npy data";
    out.emplace(key, std::move(arr));
  }
  return out;
}

}  // namespace

std::map<std::string, NDArray> LoadNpz(const std::string& path) {
  // Open the file once and let libzip size it with fstat: zip_open(path) stats the *name* and
  // opens it later, so an archive atomically replaced in between by one of another size was
  // read with the old size ("Not a zip archive").
  std::FILE* fp = std::fopen(path.c_str(), "rb");
  if (fp == nullptr) {
    const int err = errno;
    SHADE_THROW_IO_ERRNO(err) << path << ": cannot open npz archive: " << std::strerror(err);
  }
  zip_error_t zerr;
  zip_error_init(&zerr);
  zip_source_t* src = zip_source_filep_create(fp, 0, -1, &zerr);
  if (src == nullptr) {
    std::fclose(fp);
    const std::string msg = zip_error_strerror(&zerr);
    zip_error_fini(&zerr);
    SHADE_THROW_IO << path << ": cannot open npz archive: " << msg;
  }
  zip_t* za = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &zerr);
  if (za == nullptr) {
    zip_source_free(src);  // closes fp
    const std::string msg = zip_error_strerror(&zerr);
    zip_error_fini(&zerr);
    SHADE_THROW_IO << path << ": cannot open as an npz (zip) archive: " << msg;
  }
  zip_error_fini(&zerr);
  return ReadArchive(za, path);
}

std::map<std::string, NDArray> LoadNpzFromMemory(const void* data, std::size_t size) {
  static const std::string kName = "<memory>";
  zip_error_t zerr;
  zip_error_init(&zerr);
  zip_source_t* src = zip_source_buffer_create(data, size, 0, &zerr);
  if (src == nullptr) {
    const std::string msg = zip_error_strerror(&zerr);
    zip_error_fini(&zerr);
    SHADE_THROW_IO << kName << ": cannot read npz from memory: " << msg;
  }
  zip_t* za = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &zerr);
  if (za == nullptr) {
    zip_source_free(src);
    const std::string msg = zip_error_strerror(&zerr);
    zip_error_fini(&zerr);
    SHADE_THROW_IO << kName << ": cannot open as an npz (zip) archive: " << msg;
  }
  zip_error_fini(&zerr);
  return ReadArchive(za, kName);
}

void SaveNpz(const std::string& path, const NamedArrays& arrays, bool compress) {
  // Serialize every member first: libzip reads the buffers at zip_close.
  std::vector<std::string> images;
  images.reserve(arrays.size());
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const std::string& name = arrays[i].first;
    SHADE_CHECK(!name.empty()) << "SaveNpz(" << path << "): array " << i << " has an empty name";
    for (std::size_t j = 0; j < i; ++j) {
      SHADE_CHECK(arrays[j].first != name)
          << "SaveNpz(" << path << "): duplicate name '" << name << "'";
    }
    MemoryStream ms;
    SaveNpy(&ms, arrays[i].second);
    images.push_back(ms.buffer());
  }
  // libzip writes the archive into a memory source (its own file output would bypass the
  // atomic writer: it neither fsyncs nor reports where it left its temporary), which is then
  // copied to the atomic stream. Creating the temporary first makes an unwritable folder fail
  // before any compression work.
  AtomicFileStream out(path);
  zip_error_t zerr;
  zip_error_init(&zerr);
  zip_source_t* buffer = zip_source_buffer_create(nullptr, 0, 0, &zerr);
  if (buffer == nullptr) {
    const std::string msg = zip_error_strerror(&zerr);
    zip_error_fini(&zerr);
    SHADE_THROW_IO << path << ": cannot create the npz archive in memory: " << msg;
  }
  // Keep a reference of our own: zip_close releases the archive's, and the bytes are read after.
  zip_source_keep(buffer);
  std::unique_ptr<zip_source_t, SourceFreer> keep(buffer);
  zip_t* raw = zip_open_from_source(buffer, ZIP_TRUNCATE, &zerr);
  if (raw == nullptr) {
    zip_source_free(buffer);  // the reference the archive would have taken
    const std::string msg = zip_error_strerror(&zerr);
    zip_error_fini(&zerr);
    SHADE_THROW_IO << path << ": cannot create npz archive: " << msg;
  }
  zip_error_fini(&zerr);
  std::unique_ptr<zip_t, ZipCloser> za(raw);
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const std::string member = arrays[i].first + kNpySuffix;
    zip_source_t* src = zip_source_buffer(za.get(), images[i].data(), images[i].size(), 0);
    if (src == nullptr)
      SHADE_THROW_IO << path << ": zip source for " << member << ": " << zip_strerror(za.get());
    const zip_int64_t idx =
        zip_file_add(za.get(), member.c_str(), src, ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE);
    if (idx < 0) {
      zip_source_free(src);
      SHADE_THROW_IO << path << ": cannot add " << member << ": " << zip_strerror(za.get());
    }
    if (zip_set_file_compression(za.get(), static_cast<zip_uint64_t>(idx),
                                 compress ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0) != 0) {
      SHADE_THROW_IO << path << ": cannot set compression of " << member << ": "
                     << zip_strerror(za.get());
    }
  }
  zip_t* z = za.release();
  if (zip_close(z) != 0) {
    const std::string msg = zip_strerror(z);
    zip_discard(z);
    SHADE_THROW_IO << path << ": writing the npz archive failed: " << msg;
  }
  std::vector<std::string>().swap(images);  // the archive holds them now
  if (zip_source_open(buffer) != 0) {
    SHADE_THROW_IO << path << ": cannot read the npz archive back from memory: "
                   << zip_error_strerror(zip_source_error(buffer));
  }
  std::vector<char> chunk(std::size_t(1) << 20);
  for (;;) {
    const zip_int64_t got = zip_source_read(buffer, chunk.data(), chunk.size());
    if (got < 0) {
      const std::string msg = zip_error_strerror(zip_source_error(buffer));
      zip_source_close(buffer);
      SHADE_THROW_IO << path << ": cannot read the npz archive back from memory: " << msg;
    }
    if (got == 0) break;
    out.Write(chunk.data(), static_cast<std::size_t>(got));
  }
  zip_source_close(buffer);
  out.Commit();
}

}  // namespace io
}  // namespace shade
