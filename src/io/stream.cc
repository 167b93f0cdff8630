// Streams: stdio files, owning memory, read-only memory views.
#include "shade/io/stream.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "shade/base/error.h"

namespace shade {
namespace io {

SystemIOError::SystemIOError(const std::string& what, int os_errno)
    : IOError(what), os_errno_(os_errno) {}
SystemIOError::~SystemIOError() = default;

void detail::SystemIOErrorThrower::operator&(const ::shade::detail::ErrorMessage& msg) const {
  throw SystemIOError(msg.str(), os_errno);
}

namespace {
const std::string& MemoryName() {
  static const std::string name = "<memory>";
  return name;
}
}  // namespace

void Stream::ReadExact(void* ptr, std::size_t size, const char* what) {
  const std::size_t got = size == 0 ? 0 : Read(ptr, size);
  SHADE_CHECK_IO_EQ(got, size) << name() << ": file truncated while reading " << what << " (needed "
                               << size << " bytes, got " << got << ")";
}

FileStream::FileStream(const std::string& path, const char* mode) : path_(path) {
  SHADE_CHECK(mode != nullptr && (mode[0] == 'r' || mode[0] == 'w' || mode[0] == 'a'))
      << "FileStream: mode must start with r, w or a (file " << path << ")";
  std::string m(mode);
  if (m.find('b') == std::string::npos) m += 'b';  // never translate bytes
  fp_ = std::fopen(path.c_str(), m.c_str());
  if (fp_ == nullptr) {
    const int err = errno;
    SHADE_THROW_IO_ERRNO(err) << "FileStream: cannot open " << path << " with mode \"" << mode
                              << "\": " << std::strerror(err);
  }
  writable_ = mode[0] != 'r' || m.find('+') != std::string::npos;
}

FileStream::~FileStream() {
  if (fp_ != nullptr) std::fclose(fp_);
}

std::size_t FileStream::Read(void* ptr, std::size_t size) {
  SHADE_CHECK(fp_ != nullptr) << "FileStream: " << path_ << " is closed";
  const std::size_t got = std::fread(ptr, 1, size, fp_);
  if (got < size && std::ferror(fp_)) {
    const int err = errno;
    SHADE_THROW_IO << "FileStream: read error on " << path_ << ": " << std::strerror(err);
  }
  return got;
}

void FileStream::Write(const void* ptr, std::size_t size) {
  SHADE_CHECK(fp_ != nullptr) << "FileStream: " << path_ << " is closed";
  SHADE_CHECK(writable_) << "FileStream: " << path_ << " was opened read-only";
  if (size == 0) return;
  const std::size_t put = std::fwrite(ptr, 1, size, fp_);
  if (put != size) {
    const int err = errno;
    SHADE_THROW_IO << "FileStream: wrote " << put << " of " << size << " bytes to " << path_ << ": "
                   << std::strerror(err);
  }
}

bool FileStream::BytesLeft(std::uint64_t* out) const {
  if (fp_ == nullptr) return false;
  struct stat st;
  if (fstat(fileno(fp_), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  const long pos = std::ftell(fp_);
  if (pos < 0) return false;
  const std::uint64_t size = static_cast<std::uint64_t>(st.st_size);
  *out = static_cast<std::uint64_t>(pos) >= size ? 0 : size - static_cast<std::uint64_t>(pos);
  return true;
}

void FileStream::Close() {
  if (fp_ == nullptr) return;
  std::FILE* fp = fp_;
  fp_ = nullptr;
  if (std::fclose(fp) != 0) {
    const int err = errno;
    SHADE_THROW_IO << "FileStream: closing " << path_ << " failed: " << std::strerror(err);
  }
}

std::size_t MemoryStream::Read(void* ptr, std::size_t size) {
  const std::size_t left = buffer_.size() - pos_;
  const std::size_t n = size < left ? size : left;
  if (n != 0) std::memcpy(ptr, buffer_.data() + pos_, n);
  pos_ += n;
  return n;
}

void MemoryStream::Write(const void* ptr, std::size_t size) {
  if (size == 0) return;
  SHADE_CHECK_LE(size, buffer_.max_size() - pos_) << "MemoryStream: write would exceed max size";
  if (pos_ + size > buffer_.size()) buffer_.resize(pos_ + size);
  std::memcpy(&buffer_[pos_], ptr, size);
  pos_ += size;
}

bool MemoryStream::BytesLeft(std::uint64_t* out) const {
  *out = buffer_.size() - pos_;
  return true;
}

const std::string& MemoryStream::name() const {
  return MemoryName();
}

void MemoryStream::Seek(std::size_t pos) {
  SHADE_CHECK_LE(pos, buffer_.size()) << "MemoryStream::Seek past the end";
  pos_ = pos;
}

std::size_t MemoryViewStream::Read(void* ptr, std::size_t size) {
  const std::size_t left = size_ - pos_;
  const std::size_t n = size < left ? size : left;
  if (n != 0) std::memcpy(ptr, data_ + pos_, n);
  pos_ += n;
  return n;
}

void MemoryViewStream::Write(const void*, std::size_t size) {
  SHADE_THROW_IO << "MemoryViewStream: cannot write " << size << " bytes to a read-only view";
}

bool MemoryViewStream::BytesLeft(std::uint64_t* out) const {
  *out = size_ - pos_;
  return true;
}

const std::string& MemoryViewStream::name() const {
  return MemoryName();
}

}  // namespace io
}  // namespace shade
