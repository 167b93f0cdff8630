// Atomic saves (issue 44): for each format, saves that fail on a full disk (RLIMIT_FSIZE in a
// child), in a read-only folder, by SIGKILL at random moments, and by an exception from the
// data must leave the old file byte for byte (or no file) and, except after SIGKILL, no
// temporary; a reader loading the path while another process saves over it never sees a torn
// file. The oracle is the pair of arrays written: every load must equal one of them exactly.
#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "shade/base/error.h"
#include "shade/io/atomic_file.h"
#include "shade/io/ndarray_io.h"
#include "shade/io/npy.h"
#include "shade/io/npz.h"
#include "shade/memory/allocator.h"

namespace {

using shade::NDArray;
namespace io = shade::io;

// 2 MiB of float32: beyond the writer's 1 MiB buffer, and a save takes long enough (tens of
// milliseconds, mostly fsync) for random kills to land inside the write.
constexpr std::int64_t kBig = 1 << 19;

struct Format {
  const char* name;
  std::function<void(const std::string&, const NDArray&)> save;
  std::function<NDArray(const std::string&)> load;
  std::int64_t n;  // elements of the arrays the fault tests save (deflate is slow: fewer)
};

std::vector<Format> Formats() {
  return {
      {"ndarray", [](const std::string& p, const NDArray& a) { io::SaveNDArray(p, a); },
       [](const std::string& p) { return io::LoadNDArray(p); }, kBig},
      {"npy", [](const std::string& p, const NDArray& a) { io::SaveNpy(p, a); },
       [](const std::string& p) { return io::LoadNpy(p); }, kBig},
      {"npz",
       [](const std::string& p, const NDArray& a) {
         io::SaveNpz(p, {{"a", a}}, false);
       },
       [](const std::string& p) { return io::LoadNpz(p).at("a"); }, kBig},
      {"npz_deflate",
       [](const std::string& p, const NDArray& a) {
         io::SaveNpz(p, {{"a", a}}, true);
       },
       [](const std::string& p) { return io::LoadNpz(p).at("a"); }, kBig / 64},
  };
}

std::string Bytes(const NDArray& a) {
  if (a.numel() == 0) return std::string();
  const NDArray c = a.is_contiguous() ? a : a.contiguous();
  return std::string(static_cast<const char*>(c.raw_data()), c.nbytes());
}

bool SameArray(const NDArray& a, const NDArray& b) {
  return a.type_flag() == b.type_flag() && a.shape() == b.shape() && Bytes(a) == Bytes(b);
}

// Pseudo-random float32 data (deflate must not shrink it to nothing, so the save takes time).
NDArray Pattern(std::int64_t n, unsigned seed) {
  NDArray a = NDArray::Empty({n}, shade::kFloat32);
  float* p = static_cast<float*>(a.data_ptr());
  std::mt19937 rng(seed);
  for (std::int64_t i = 0; i < n; ++i) p[i] = static_cast<float>(rng() % 100000) * 0.25f;
  return a;
}

// Random bytes of any dtype (bool: 0 or 1).
NDArray RandomOf(shade::IndexSpan shape, int flag, unsigned seed) {
  NDArray a = NDArray::Empty(shape, flag);
  unsigned char* p = static_cast<unsigned char*>(a.data_ptr());
  std::mt19937 rng(seed);
  for (std::size_t i = 0; i < a.nbytes(); ++i)
    p[i] = static_cast<unsigned char>(rng() & (flag == shade::kBool ? 1u : 0xffu));
  return a;
}

// A fresh folder per test, readable by everyone (the read-only test's child is not root).
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl =
        std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/shade_atomic_XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (mkdtemp(buf.data()) == nullptr) std::abort();
    path_ = buf.data();
    chmod(path_.c_str(), 0755);
  }
  ~TempDir() { RemoveTree(path_); }
  const std::string& path() const { return path_; }
  std::string Sub(const std::string& name) const { return path_ + "/" + name; }

  static void RemoveTree(const std::string& dir) {
    chmod(dir.c_str(), 0755);
    for (const std::string& e : Entries(dir)) {
      const std::string p = dir + "/" + e;
      struct stat st;
      if (lstat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
        RemoveTree(p);
      } else {
        unlink(p.c_str());
      }
    }
    rmdir(dir.c_str());
  }

  static std::vector<std::string> Entries(const std::string& dir) {
    std::vector<std::string> out;
    DIR* d = opendir(dir.c_str());
    if (d == nullptr) return out;
    while (dirent* e = readdir(d)) {
      const std::string n = e->d_name;
      if (n != "." && n != "..") out.push_back(n);
    }
    closedir(d);
    return out;
  }

 private:
  std::string path_;
};

// Names in `dir` other than `keep` (left-over temporaries).
std::vector<std::string> Strays(const std::string& dir, const std::set<std::string>& keep) {
  std::vector<std::string> out;
  for (const std::string& e : TempDir::Entries(dir))
    if (keep.count(e) == 0) out.push_back(e);
  return out;
}

bool Contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// Runs `body` in a forked child; returns its exit status (or 128 + signal). The child reports
// through its exit code only: 0 = the expected outcome.
int InChild(const std::function<int()>& body) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    int rc = 99;
    try {
      rc = body();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "child: unexpected exception: %s\n", e.what());
      rc = 98;
    }
    std::fflush(nullptr);
    _exit(rc);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// A save expected to fail with IOError naming the path and `os_error`: 0 if so.
int ExpectIOError(const Format& f, const std::string& path, const NDArray& a,
                  const char* os_error) {
  try {
    f.save(path, a);
  } catch (const shade::IOError& e) {
    if (Contains(e.what(), path) && Contains(e.what(), os_error)) return 0;
    std::fprintf(stderr, "child: IOError without the path or '%s': %s\n", os_error, e.what());
    return 2;
  }
  std::fprintf(stderr, "child: the save succeeded\n");
  return 3;
}

void ExpectNoFile(const Format& f, const std::string& path) {
  try {
    f.load(path);
    ADD_FAILURE() << path << " exists after a failed save";
  } catch (const shade::IOError& e) {
    EXPECT_TRUE(Contains(e.what(), "No such file") || Contains(e.what(), "Not found") ||
                Contains(e.what(), "not exist"))
        << e.what();
  }
}

TEST(AtomicSave, RoundTripsDtypesRanksAndLayouts) {
  TempDir dir;
  const NDArray base = Pattern(24, 1).reshape({2, 3, 4});
  std::vector<NDArray> cases = {
      base,
      base.transpose(0, 2),  // non-contiguous
      RandomOf({5, 7}, shade::kInt64, 2),
      RandomOf({9}, shade::kUint8, 3),
      RandomOf({3, 3}, shade::kBool, 4),
      RandomOf({4, 2}, shade::kFloat64, 5).transpose(0, 1),
      RandomOf({0, 3}, shade::kInt32, 6),  // empty
      RandomOf({}, shade::kFloat64, 7),    // rank 0
  };
  for (const Format& f : Formats()) {
    const std::string path = dir.Sub(std::string("t.") + f.name);
    for (std::size_t i = 0; i < cases.size(); ++i) {
      SCOPED_TRACE(std::string(f.name) + " case " + std::to_string(i));
      f.save(path, cases[i]);
      EXPECT_TRUE(SameArray(f.load(path), cases[i]));
    }
  }
  EXPECT_EQ(Strays(dir.path(), {"t.ndarray", "t.npy", "t.npz", "t.npz_deflate"}),
            std::vector<std::string>());
}

TEST(AtomicSave, NewFileModeFollowsUmaskAndSymlinkTargetIsReplaced) {
  TempDir dir;
  const NDArray a = Pattern(10, 2), b = Pattern(10, 3);
  for (mode_t mask : {mode_t(022), mode_t(077)}) {
    const mode_t old = umask(mask);
    const std::string path = dir.Sub("m" + std::to_string(mask) + ".npy");
    io::SaveNpy(path, a);
    umask(old);
    struct stat st;
    ASSERT_EQ(stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask);
  }
  // Saving through a symbolic link replaces the file it points to; the link stays a link.
  const std::string real = dir.Sub("real.npy"), link = dir.Sub("link.npy");
  io::SaveNpy(real, a);
  ASSERT_EQ(symlink("real.npy", link.c_str()), 0);
  io::SaveNpy(link, b);
  struct stat st;
  ASSERT_EQ(lstat(link.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_TRUE(SameArray(io::LoadNpy(real), b));
}

TEST(AtomicSave, UnwritablePathsThrowIOErrorNamingPathAndReason) {
  TempDir dir;
  const NDArray a = Pattern(10, 2);
  for (const Format& f : Formats()) {
    SCOPED_TRACE(f.name);
    const std::string missing = dir.Sub("no/such/folder/x.bin");
    try {
      f.save(missing, a);
      ADD_FAILURE() << "saved into a missing folder";
    } catch (const io::SystemIOError& e) {  // an IOError carrying errno (Python: its OSError)
      EXPECT_EQ(e.os_errno(), ENOENT);
      EXPECT_TRUE(Contains(e.what(), missing)) << e.what();
      EXPECT_TRUE(Contains(e.what(), "No such file or directory")) << e.what();
    }
    // A folder at the target: the rename fails, the folder and its contents stay.
    const std::string sub = dir.Sub("folder");
    mkdir(sub.c_str(), 0755);
    EXPECT_THROW(f.save(sub, a), shade::IOError);
    EXPECT_THROW(f.save(sub + "/", a), shade::IOError);
    struct stat st;
    ASSERT_EQ(stat(sub.c_str(), &st), 0);
    EXPECT_TRUE(S_ISDIR(st.st_mode));
    EXPECT_EQ(Strays(dir.path(), {"folder"}), std::vector<std::string>());
  }
}

// (a) Full disk: RLIMIT_FSIZE below the new file's size makes write() fail with EFBIG.
TEST(AtomicSave, FullDiskKeepsOldFile) {
  TempDir dir;
  for (const Format& f : Formats()) {
    const NDArray a = Pattern(f.n, 10), b = Pattern(f.n, 11);
    for (bool had_old : {true, false}) {
      SCOPED_TRACE(std::string(f.name) + (had_old ? " over an old file" : " new file"));
      const std::string name = std::string("full.") + f.name, path = dir.Sub(name);
      unlink(path.c_str());
      if (had_old) f.save(path, a);
      const int rc = InChild([&] {
        signal(SIGXFSZ, SIG_IGN);  // else the kernel kills the writer instead of EFBIG
        struct rlimit lim = {16 * 1024, 16 * 1024};  // every file saved here is larger
        if (setrlimit(RLIMIT_FSIZE, &lim) != 0) return 97;
        return ExpectIOError(f, path, b, "File too large");
      });
      EXPECT_EQ(rc, 0);
      if (had_old) {
        EXPECT_TRUE(SameArray(f.load(path), a));
      } else {
        ExpectNoFile(f, path);
      }
      EXPECT_EQ(Strays(dir.path(), had_old ? std::set<std::string>{name} : std::set<std::string>{}),
                std::vector<std::string>());
      unlink(path.c_str());
    }
  }
}

// (b) Read-only folder. The tests run as root, whom a mode of 0555 does not stop
// (CAP_DAC_OVERRIDE), so the child drops to uid/gid 65534 (nobody) first: the folder, owned by
// root with mode 0555, then really refuses it a new file (EACCES), exactly as for any user.
TEST(AtomicSave, ReadOnlyFolderKeepsOldFile) {
  TempDir dir;
  for (const Format& f : Formats()) {
    const NDArray a = Pattern(f.n, 20), b = Pattern(f.n, 21);
    for (bool had_old : {true, false}) {
      SCOPED_TRACE(std::string(f.name) + (had_old ? " over an old file" : " new file"));
      const std::string sub = dir.Sub(std::string("ro_") + f.name + (had_old ? "_old" : "_new"));
      ASSERT_EQ(mkdir(sub.c_str(), 0755), 0);
      const std::string path = sub + "/target";
      if (had_old) f.save(path, a);
      ASSERT_EQ(chmod(sub.c_str(), 0555), 0);
      const int rc = InChild([&] {
        if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) return 96;
        return ExpectIOError(f, path, b, "Permission denied");
      });
      // Root without CAP_SETUID (a restricted container) cannot test this: skip, not pass.
      if (rc == 96) GTEST_SKIP() << "could not drop root privileges in the child";
      EXPECT_EQ(rc, 0);
      if (had_old) {
        EXPECT_TRUE(SameArray(f.load(path), a));
      } else {
        ExpectNoFile(f, path);
      }
      EXPECT_EQ(Strays(sub, had_old ? std::set<std::string>{"target"} : std::set<std::string>{}),
                std::vector<std::string>());
    }
  }
}

// (c) SIGKILL at random moments: a child saves B and A over the path in a loop and is killed
// after a random delay spread over its first save (B over A) and the start of the second; the path
// then holds A or B exactly.
TEST(AtomicSave, SigkillAtRandomMomentsNeverTearsTheFile) {
  TempDir dir;
  // kWriters writers (each over its own path) are killed per round, so the 50 kills of a format
  // cost about 10 save cycles of wall time. A kill during fsync takes effect when fsync returns.
  const int kWriters = 5, kRounds = 10;
  std::mt19937 rng(44);
  for (const Format& f : Formats()) {
    const NDArray a = Pattern(f.n, 30), b = Pattern(f.n, 31);
    SCOPED_TRACE(f.name);
    std::vector<std::string> names, paths;
    for (int w = 0; w < kWriters; ++w) {
      names.push_back("kill" + std::to_string(w) + "." + f.name);
      paths.push_back(dir.Sub(names.back()));
    }
    const auto t0 = std::chrono::steady_clock::now();
    f.save(paths[0], b);
    f.save(paths[0], a);
    const long cycle = static_cast<long>(
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0)
            .count());
    for (const std::string& p : paths) f.save(p, a);
    std::uniform_int_distribution<long> delay(0, 2 * cycle + 500);
    int old_seen = 0, new_seen = 0, strays = 0, kills = 0;
    for (int round = 0; round < kRounds; ++round) {
      std::vector<std::pair<long, pid_t>> plan;
      std::fflush(nullptr);
      const auto start = std::chrono::steady_clock::now();
      for (int w = 0; w < kWriters; ++w) {
        const pid_t pid = fork();
        if (pid == 0) {
          try {
            for (;;) {
              f.save(paths[static_cast<std::size_t>(w)], b);
              f.save(paths[static_cast<std::size_t>(w)], a);
            }
          } catch (...) {
          }
          _exit(1);
        }
        plan.emplace_back(delay(rng), pid);
      }
      std::sort(plan.begin(), plan.end());
      for (const auto& kv : plan) {
        std::this_thread::sleep_until(start + std::chrono::microseconds(kv.first));
        kill(kv.second, SIGKILL);
      }
      for (const auto& kv : plan) {
        int status = 0;
        waitpid(kv.second, &status, 0);
        EXPECT_TRUE(WIFSIGNALED(status)) << "a writer stopped by itself (a failed save)";
        ++kills;
      }
      for (int w = 0; w < kWriters; ++w) {
        const NDArray got = f.load(paths[static_cast<std::size_t>(w)]);
        const bool is_a = SameArray(got, a), is_b = SameArray(got, b);
        ASSERT_TRUE(is_a || is_b) << "round " << round << ", writer " << w
                                  << ": the file is neither array";
        (is_a ? old_seen : new_seen)++;
      }
      // A writer killed between linkat and rename (or anywhere, without O_TMPFILE) leaves a
      // named temporary: count and remove it.
      for (const std::string& s : Strays(dir.path(), {names.begin(), names.end()})) {
        EXPECT_EQ(s.rfind(".kill", 0), 0u) << "unexpected file " << s;
        EXPECT_NE(s.find(".tmp-"), std::string::npos) << "unexpected file " << s;
        unlink(dir.Sub(s).c_str());
        ++strays;
      }
    }
    io::AtomicFileStream probe(dir.Sub("probe"));
    std::printf(
        "[ fault (c) ] %-12s %d kills survived (file = old A %d, new B %d), temporaries left by "
        "killed writers: %d (O_TMPFILE %s), save cycle %ld us\n",
        f.name, kills, old_seen, new_seen, strays, probe.unnamed_temporary() ? "on" : "off", cycle);
    EXPECT_GE(kills, 50);
    for (const std::string& p : paths) unlink(p.c_str());
  }
}

// (d) An exception thrown by the data while the save runs. Two real paths: a non-contiguous
// array whose C-order copy exceeds the allocation cap (the library's own path: the NDArray
// format has written its header by then), and a writer callback of WriteFileAtomically that
// throws after 2 MiB of a .npy image have reached the temporary.
TEST(AtomicSave, ExceptionFromTheDataKeepsOldFile) {
  TempDir dir;
  // Neither C- nor Fortran-contiguous: every format must copy it, which the cap refuses.
  const NDArray b = Pattern(kBig, 41).reshape({128, 64, 64}).transpose(0, 1);
  ASSERT_FALSE(b.is_contiguous());
  for (const Format& f : Formats()) {
    const NDArray a = Pattern(f.n, 40);
    for (bool had_old : {true, false}) {
      SCOPED_TRACE(std::string(f.name) + (had_old ? " over an old file" : " new file"));
      const std::string name = std::string("exc.") + f.name, path = dir.Sub(name);
      unlink(path.c_str());
      if (had_old) f.save(path, a);
      const std::size_t old_cap = shade::SetMaxAllocationBytes(1 << 20);
      bool threw = false;
      try {
        f.save(path, b);
      } catch (const shade::Error& e) {
        threw = true;
        EXPECT_TRUE(Contains(e.what(), "1048576")) << e.what();  // the cap's own message
      }
      shade::SetMaxAllocationBytes(old_cap);
      EXPECT_TRUE(threw);
      if (had_old) {
        EXPECT_TRUE(SameArray(f.load(path), a));
      } else {
        ExpectNoFile(f, path);
      }
      EXPECT_EQ(Strays(dir.path(), had_old ? std::set<std::string>{name} : std::set<std::string>{}),
                std::vector<std::string>());
      unlink(path.c_str());
    }
  }
  // The generic writer: the callback's own exception propagates unchanged.
  const std::string path = dir.Sub("cb.npy");
  const NDArray a = Pattern(kBig, 40);
  io::SaveNpy(path, a);
  const NDArray big = Pattern(4 * kBig, 42);
  EXPECT_THROW(io::WriteFileAtomically(path,
                                       [&](io::Stream* s) {
                                         io::MemoryStream image;
                                         io::SaveNpy(&image, big);
                                         s->Write(image.buffer().data(), 2u << 20);
                                         throw std::runtime_error("data source failed");
                                       }),
               std::runtime_error);
  EXPECT_TRUE(SameArray(io::LoadNpy(path), a));
  EXPECT_EQ(Strays(dir.path(), {"cb.npy"}), std::vector<std::string>());
  // And a callback that completes commits.
  io::WriteFileAtomically(path, [&](io::Stream* s) { io::SaveNpy(s, big); });
  EXPECT_TRUE(SameArray(io::LoadNpy(path), big));
}

// The named-temporary path (filesystems without O_TMPFILE): the temporary is visible while the
// save runs, removed when it is abandoned or fails (EFBIG in a child), and renamed at Commit().
TEST(AtomicSave, NamedTemporaryFallback) {
  TempDir dir;
  const std::string path = dir.Sub("named.npy");
  const NDArray a = Pattern(kBig, 60), b = Pattern(kBig, 61);
  io::SaveNpy(path, a);
  io::MemoryStream image;
  io::SaveNpy(&image, b);
  {
    io::AtomicFileStream s(path, false);
    EXPECT_FALSE(s.unnamed_temporary());
    EXPECT_EQ(s.temporary_name().rfind(".named.npy.tmp-", 0), 0u) << s.temporary_name();
    s.Write(image.buffer().data(), image.buffer().size());
    EXPECT_EQ(Strays(dir.path(), {"named.npy"}), std::vector<std::string>{s.temporary_name()});
  }  // abandoned
  EXPECT_TRUE(SameArray(io::LoadNpy(path), a));
  EXPECT_EQ(Strays(dir.path(), {"named.npy"}), std::vector<std::string>());
  const int rc = InChild([&] {
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim = {16 * 1024, 16 * 1024};
    if (setrlimit(RLIMIT_FSIZE, &lim) != 0) return 97;
    try {
      io::AtomicFileStream s(path, false);
      s.Write(image.buffer().data(), image.buffer().size());
      s.Commit();
    } catch (const shade::IOError& e) {
      return Contains(e.what(), path) && Contains(e.what(), "File too large") ? 0 : 2;
    }
    return 3;
  });
  EXPECT_EQ(rc, 0);
  EXPECT_TRUE(SameArray(io::LoadNpy(path), a));
  EXPECT_EQ(Strays(dir.path(), {"named.npy"}), std::vector<std::string>());
  {
    io::AtomicFileStream s(path, false);
    s.Write(image.buffer().data(), image.buffer().size());
    s.Commit();
    EXPECT_THROW(s.Write("x", 1), shade::IOError);  // committed: no more writes
    EXPECT_THROW(s.Commit(), shade::IOError);
  }
  EXPECT_TRUE(SameArray(io::LoadNpy(path), b));
  EXPECT_EQ(Strays(dir.path(), {"named.npy"}), std::vector<std::string>());
  char byte;
  io::AtomicFileStream w(path);
  EXPECT_THROW(w.Read(&byte, 1), shade::IOError);  // write-only
}

// A reader loading the path in a loop while another process saves A and B over it in a loop
// sees only complete files.
TEST(AtomicSave, ConcurrentReaderNeverSeesATornFile) {
  TempDir dir;
  for (const Format& f : Formats()) {
    const NDArray a = Pattern(f.n / 2, 50), b = Pattern(f.n / 2, 51);
    SCOPED_TRACE(f.name);
    const std::string path = dir.Sub(std::string("race.") + f.name);
    f.save(path, a);
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
      try {
        for (;;) {
          f.save(path, b);
          f.save(path, a);
        }
      } catch (...) {
      }
      _exit(1);
    }
    int loads = 0, seen_a = 0, seen_b = 0;
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(700);
    bool torn = false;
    while (std::chrono::steady_clock::now() < end && !torn) {
      const NDArray got = f.load(path);
      ++loads;
      if (SameArray(got, a)) {
        ++seen_a;
      } else if (SameArray(got, b)) {
        ++seen_b;
      } else {
        torn = true;
      }
    }
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    EXPECT_FALSE(torn) << "load " << loads << " saw a file that is neither array";
    EXPECT_GT(loads, 0);
    std::printf("[ reader    ] %-12s %d loads while saving: A %d, B %d, torn 0\n", f.name, loads,
                seen_a, seen_b);
    unlink(path.c_str());
  }
}

}  // namespace
