//===- DiskCache.cpp - Compiled GPU programs kept across processes --------===//
//
// Files in $VRIR_CACHE_DIR/gpu (default $XDG_CACHE_HOME/vrir/gpu, else
// ~/.cache/vrir/gpu), named by a hash of everything the compiled form
// depends on (driver, device, options, kernel text). Entries are written to
// a temporary file and renamed, so a reader never sees half an entry; each
// starts with the length of the data, so a truncated file is a miss.
// VRIR_GPU_DISK_CACHE=0 turns the cache off.
//
//===----------------------------------------------------------------------===//

#include "GPURuntimeInternal.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace vrir::gpu {

namespace {

// The cache directory, created on first use; "" when off or unusable.
const std::string &cacheDirectory() {
  static const std::string directory = [] {
    const char *off = std::getenv("VRIR_GPU_DISK_CACHE");
    if (off && std::strcmp(off, "0") == 0)
      return std::string();
    std::string base;
    if (const char *dir = std::getenv("VRIR_CACHE_DIR"); dir && *dir)
      base = dir;
    else if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
      base = std::string(xdg) + "/vrir";
    else if (const char *home = std::getenv("HOME"); home && *home)
      base = std::string(home) + "/.cache/vrir";
    else
      return std::string();
    // Each level may exist already; the last one must exist afterwards.
    std::string path;
    for (size_t start = 0; start <= base.size();) {
      size_t slash = base.find('/', start + 1);
      path = base.substr(0, slash);
      ::mkdir(path.c_str(), 0755);
      if (slash == std::string::npos)
        break;
      start = slash;
    }
    std::string gpu = base + "/gpu";
    ::mkdir(gpu.c_str(), 0755);
    struct stat info;
    if (::stat(gpu.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
      return std::string();
    return gpu;
  }();
  return directory;
}

uint64_t fnv1a(uint64_t hash, std::string_view bytes) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

} // namespace

std::string diskCacheKey(std::initializer_list<std::string_view> parts) {
  // Two FNV-1a hashes with different seeds over the parts and their
  // lengths: 128 bits.
  uint64_t first = 0xcbf29ce484222325ull, second = 0x84222325cbf29ce4ull;
  for (std::string_view part : parts) {
    std::string length = std::to_string(part.size()) + ":";
    first = fnv1a(fnv1a(first, length), part);
    second = fnv1a(fnv1a(second, part), length);
  }
  return formatString("%016llx%016llx", static_cast<unsigned long long>(first),
                      static_cast<unsigned long long>(second));
}

bool diskCacheRead(const std::string &key, std::string &data) {
  const std::string &directory = cacheDirectory();
  if (directory.empty())
    return false;
  std::FILE *file = std::fopen((directory + "/" + key).c_str(), "rb");
  if (!file)
    return false;
  uint64_t size = 0;
  bool ok = std::fread(&size, sizeof(size), 1, file) == 1 &&
            size < (uint64_t(1) << 32);
  if (ok) {
    data.resize(static_cast<size_t>(size));
    ok = std::fread(data.data(), 1, data.size(), file) == data.size() &&
         std::fgetc(file) == EOF;
  }
  std::fclose(file);
  return ok;
}

void diskCacheWrite(const std::string &key, std::string_view data) {
  const std::string &directory = cacheDirectory();
  if (directory.empty())
    return;
  std::string path = directory + "/" + key;
  std::string temporary = path + ".tmp.XXXXXX";
  int fd = ::mkstemp(temporary.data());
  if (fd < 0)
    return;
  uint64_t size = data.size();
  bool ok = ::write(fd, &size, sizeof(size)) == sizeof(size) &&
            ::write(fd, data.data(), data.size()) ==
                static_cast<ssize_t>(data.size());
  ok = ::close(fd) == 0 && ok;
  if (!ok || std::rename(temporary.c_str(), path.c_str()) != 0)
    ::unlink(temporary.c_str());
}

} // namespace vrir::gpu
