// Atomic file replacement (see atomic_file.h).
//
// Why O_TMPFILE, then linkat to a unique name, then rename: the temporary should exist under no
// name while it is written, so that a writer killed by SIGKILL (which cannot clean up) leaves
// nothing behind; O_TMPFILE gives exactly that. But linkat cannot replace an existing file
// (it fails with EEXIST), and Linux has no call that atomically puts an unnamed file over an
// existing name. renameat2(RENAME_EXCHANGE) swaps two *names*, so it too needs the new file to
// have one, and afterwards leaves the old file under the temporary's name to be unlinked: no
// gain over a plain rename. So the complete, fsynced file is linked to a fresh unique name and
// renamed over the target at once: a kill can leave a temporary only in the few microseconds
// between linkat and rename, instead of during the whole write. Where the filesystem lacks
// O_TMPFILE (or /proc is not mounted, which linkat needs to name the open file without
// CAP_DAC_READ_SEARCH), the temporary is created under its unique name from the start.
#include "shade/io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <string>

#include "shade/base/error.h"

namespace shade {
namespace io {

namespace {

constexpr std::size_t kBufferBytes = std::size_t(1) << 20;
// Keeps the temporary's name within NAME_MAX whatever the target's name.
constexpr std::size_t kMaxBaseInTemp = 160;

std::string OsError(int err) {
  return std::strerror(err);
}

// A name no other writer uses: pid, a per-process counter and clock bits (the counter alone
// repeats across processes; the pid alone across forks that each save).
std::string UniqueTempName(const std::string& base) {
  static std::atomic<unsigned long> counter{0};
  const unsigned long n = counter.fetch_add(1);
  const auto ticks =
      static_cast<unsigned long long>(std::chrono::steady_clock::now().time_since_epoch().count());
  std::string name = "." + base.substr(0, kMaxBaseInTemp) + ".tmp-" +
                     std::to_string(static_cast<long>(getpid())) + "-" + std::to_string(n) + "-";
  static const char kHex[] = "0123456789abcdef";
  for (int i = 0; i < 8; ++i) name += kHex[(ticks >> (4 * i)) & 15u];
  return name;
}

bool ProcFdAvailable() {
  static const bool available = access("/proc/self/fd", X_OK) == 0;
  return available;
}

// Follows a symbolic link at the target, so that saving through a link replaces the file it
// points to (as fopen(path, "wb") did) instead of the link.
std::string ResolveTarget(const std::string& path) {
  struct stat st;
  if (lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
  char* real = realpath(path.c_str(), nullptr);
  if (real == nullptr) return path;  // a dangling link: replaced by the new file
  std::string out(real);
  std::free(real);
  return out;
}

}  // namespace

AtomicFileStream::AtomicFileStream(const std::string& path, bool allow_unnamed) : path_(path) {
  SHADE_CHECK_IO(!path.empty()) << "cannot save to an empty path";
  const std::string target = ResolveTarget(path);
  const std::size_t slash = target.find_last_of('/');
  const std::string dir =
      slash == std::string::npos ? "." : (slash == 0 ? "/" : target.substr(0, slash));
  base_ = slash == std::string::npos ? target : target.substr(slash + 1);
  SHADE_CHECK_IO(!base_.empty() && base_ != "." && base_ != "..")
      << "cannot save to " << path << ": the path names a folder, not a file";
  dir_fd_ = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd_ < 0) {
    const int err = errno;
    SHADE_THROW_IO_ERRNO(err) << "cannot save to " << path << ": cannot open its folder " << dir
                              << ": " << OsError(err);
  }
  try {
    if (allow_unnamed && ProcFdAvailable()) {
      fd_ = openat(dir_fd_, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
      // Only "this filesystem or kernel has no O_TMPFILE" falls back; EACCES, EROFS, ENOSPC ...
      // would fail the named temporary the same way.
      if (fd_ < 0 && errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
        const int err = errno;
        SHADE_THROW_IO_ERRNO(err) << "cannot save to " << path << ": cannot create a file in "
                                  << dir << ": " << OsError(err);
      }
      unnamed_ = fd_ >= 0;
    }
    for (int attempt = 0; fd_ < 0; ++attempt) {
      const std::string name = UniqueTempName(base_);
      fd_ = openat(dir_fd_, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd_ >= 0) {
        temp_ = name;
      } else if (errno != EEXIST || attempt >= 100) {
        const int err = errno;
        SHADE_THROW_IO_ERRNO(err) << "cannot save to " << path
                                  << ": cannot create a temporary file in " << dir << ": "
                                  << OsError(err);
      }
    }
  } catch (...) {
    Abandon();
    throw;
  }
  buffer_.resize(kBufferBytes);
}

AtomicFileStream::~AtomicFileStream() {
  if (!committed_) Abandon();
}

void AtomicFileStream::Abandon() noexcept {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  if (!temp_.empty() && dir_fd_ >= 0) unlinkat(dir_fd_, temp_.c_str(), 0);
  temp_.clear();
  if (dir_fd_ >= 0) close(dir_fd_);
  dir_fd_ = -1;
}

std::size_t AtomicFileStream::Read(void*, std::size_t size) {
  SHADE_THROW_IO << "cannot read " << size << " bytes from " << path_
                 << ": it is being saved (write-only stream)";
}

void AtomicFileStream::WriteAll(const void* ptr, std::size_t size) {
  const char* p = static_cast<const char*>(ptr);
  while (size != 0) {
    const ssize_t put = write(fd_, p, size);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) {
      const int err = put < 0 ? errno : ENOSPC;  // write() returning 0 means no room
      SHADE_THROW_IO_ERRNO(err) << "cannot save to " << path_ << ": write failed: " << OsError(err);
    }
    p += put;
    size -= static_cast<std::size_t>(put);
  }
}

void AtomicFileStream::FlushBuffer() {
  const std::size_t n = used_;
  used_ = 0;
  WriteAll(buffer_.data(), n);
}

void AtomicFileStream::Write(const void* ptr, std::size_t size) {
  SHADE_CHECK_IO(fd_ >= 0 && !committed_)
      << "cannot save to " << path_ << ": the stream is already committed or failed";
  if (size == 0) return;
  if (used_ + size <= buffer_.size()) {
    std::memcpy(buffer_.data() + used_, ptr, size);
    used_ += size;
    return;
  }
  FlushBuffer();
  if (size < buffer_.size()) {
    std::memcpy(buffer_.data(), ptr, size);
    used_ = size;
  } else {
    WriteAll(ptr, size);  // large blocks skip the copy
  }
}

void AtomicFileStream::Commit() {
  SHADE_CHECK_IO(fd_ >= 0 && !committed_)
      << "cannot save to " << path_ << ": the stream is already committed or failed";
  try {
    FlushBuffer();
    if (fsync(fd_) != 0) {
      const int err = errno;
      SHADE_THROW_IO_ERRNO(err) << "cannot save to " << path_ << ": fsync failed: " << OsError(err);
    }
    if (unnamed_) {
      const std::string proc = "/proc/self/fd/" + std::to_string(fd_);
      for (int attempt = 0; temp_.empty(); ++attempt) {
        const std::string name = UniqueTempName(base_);
        if (linkat(AT_FDCWD, proc.c_str(), dir_fd_, name.c_str(), AT_SYMLINK_FOLLOW) == 0) {
          temp_ = name;
        } else if (errno != EEXIST || attempt >= 100) {
          const int err = errno;
          SHADE_THROW_IO_ERRNO(err) << "cannot save to " << path_
                                    << ": cannot give the temporary file a name: " << OsError(err);
        }
      }
    }
    if (renameat(dir_fd_, temp_.c_str(), dir_fd_, base_.c_str()) != 0) {
      const int err = errno;
      SHADE_THROW_IO_ERRNO(err) << "cannot save to " << path_
                                << ": rename over the target failed: " << OsError(err);
    }
  } catch (...) {
    Abandon();
    throw;
  }
  // The new file is in place: nothing below may remove it.
  temp_.clear();
  committed_ = true;
  const int close_rc = close(fd_);
  const int close_err = errno;
  fd_ = -1;
  const int sync_rc = fsync(dir_fd_);
  const int sync_err = errno;
  close(dir_fd_);
  dir_fd_ = -1;
  // EINVAL: the filesystem cannot sync a folder (it needs no such sync to keep the rename).
  if (sync_rc != 0 && sync_err != EINVAL) {
    SHADE_THROW_IO_ERRNO(sync_err) << "saved " << path_ << " but syncing its folder failed (the "
                                   << "rename may not survive a crash): " << OsError(sync_err);
  }
  if (close_rc != 0) {
    SHADE_THROW_IO_ERRNO(close_err)
        << "saved " << path_ << " but closing the file failed: " << OsError(close_err);
  }
}

void WriteFileAtomically(const std::string& path, const std::function<void(Stream*)>& write) {
  AtomicFileStream out(path);
  write(&out);  // an exception leaves `out` uncommitted: its destructor removes the temporary
  out.Commit();
}

}  // namespace io
}  // namespace shade
