// Files the book tools write: whole-file reads, atomic replacement that never writes through a
// symlink or over a non-regular file, and the one-writer lock of a database.
#pragma once

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace yav::book {

inline bool readWholeFile(const std::string& path, std::string& bytes, std::string& error) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    error = path + ": cannot open (" + std::strerror(errno) + ")";
    return false;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  bytes = ss.str();
  return true;
}

inline std::string directoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

// Replaces `path` by `bytes`: a temporary file in the same directory, synced, renamed over it, then
// the directory synced, so that a crash leaves either the old or the new file. Refuses when `path`
// is a symlink or exists and is not a regular file (a device, a directory): the rename would
// replace the link or the device node instead of writing where the user expects.
inline bool writeFileAtomically(const std::string& path, const std::string& bytes, std::string& error) {
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode)) return error = path + ": is a symbolic link; refusing to replace it", false;
    if (!S_ISREG(st.st_mode)) return error = path + ": is not a regular file; refusing to replace it", false;
  }
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  ::unlink(tmp.c_str());  // a leftover of a killed writer with this pid (removes a link, not its target)
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
  if (fd < 0) return error = tmp + ": cannot create (" + std::strerror(errno) + ")", false;
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (w <= 0) break;
    done += size_t(w);
  }
  const bool written = done == bytes.size() && ::fsync(fd) == 0;
  ::close(fd);
  if (!written || std::rename(tmp.c_str(), path.c_str()) != 0) {
    error = path + ": write failed (" + std::strerror(errno) + ")";
    ::unlink(tmp.c_str());
    return false;
  }
  const int dir = ::open(directoryOf(path).c_str(), O_RDONLY | O_DIRECTORY);
  if (dir >= 0) ::fsync(dir), ::close(dir);
  return true;
}

// The one-writer lock of a database: flock on `DB.lock`, which holds the owner's pid for the
// message. The kernel drops the lock when its process dies, so a lock file left behind by a
// killed writer is stale by construction and simply taken over.
class FileLock {
 public:
  FileLock() = default;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock() { release(); }

  static std::string lockPath(const std::string& dbPath) { return dbPath + ".lock"; }

  // The lock file exists only while a writer holds it: release() removes it. A process that
  // opened the file just before it was removed would lock a file no longer at the path, so after
  // locking, the file at the path must be the one locked; otherwise it starts again.
  bool acquire(const std::string& dbPath, std::string& error) {
    release();
    const std::string path = lockPath(dbPath);
    dbPath_ = dbPath;
    for (;;) {
      fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW, 0644);
      if (fd_ < 0) return error = path + ": cannot open the lock file (" + std::strerror(errno) + ")", false;
      if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        char owner[32] = {0};
        const ssize_t n = ::pread(fd_, owner, sizeof owner - 1, 0);
        std::string pid = n > 0 ? std::string(owner, size_t(n)) : std::string("unknown");
        while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
        ::close(fd_), fd_ = -1;
        error = dbPath + " is being written by another process (pid " + pid + ", lock " + path +
                "); wait for it to finish or stop it";
        return false;
      }
      struct stat locked {
      }, atPath{};
      if (::fstat(fd_, &locked) == 0 && ::stat(path.c_str(), &atPath) == 0 && locked.st_dev == atPath.st_dev &&
          locked.st_ino == atPath.st_ino)
        break;
      ::close(fd_), fd_ = -1;  // removed by its previous holder meanwhile: lock the new one
    }
    const std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, pid.data(), pid.size(), 0) != ssize_t(pid.size())) {
      // The pid is only for the message; the lock itself is held.
    }
    return true;
  }
  // Removes the lock file while still holding the lock (see acquire), then unlocks.
  void release() {
    if (fd_ < 0) return;
    ::unlink(lockPath(dbPath_).c_str());
    ::close(fd_), fd_ = -1;  // closing drops the flock
  }
  bool held() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
  std::string dbPath_;
};

}  // namespace yav::book
