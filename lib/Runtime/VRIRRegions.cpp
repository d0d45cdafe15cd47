//===- VRIRRegions.cpp - Run-time dispatch of specialised regions ---------===//
//
// The code cache of thesis 6.2.4: per region, the versions compiled so far
// keyed by the facts their code assumes, least recently used out.
//
//===----------------------------------------------------------------------===//

#include "VRIR/Runtime/VRIRRegions.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {
struct ArgumentKind {
  char kind = 'o'; // m (array), i (integer), f (float), o (other)
  int rank = 0;
  int bits = 0; // element bytes for arrays, bits for scalars
  bool criticalShape = false, criticalValue = false;
  int firstFact = 0;
};

struct Version {
  std::vector<int64_t> key;
  void *function;
  /// Compiling in the background: the generic version serves the key.
  bool pending = false;
};

struct RegionState {
  std::mutex mutex;
  std::string name;
  std::vector<ArgumentKind> arguments;
  /// The same with nothing critical: what aliasing-only versions see.
  std::vector<ArgumentKind> aliasingArguments;
  int factCount = 0;
  /// What the per-region mode chose: ALL, ALIASING, or OFF before the
  /// first compile.
  int chosen = VRIR_RT_SPECIALIZE_OFF;
  std::list<Version> versions; // most recently used first
  vrir_rt_region_stats stats{};
  /// The latest call's run time (any version), 0 before one returned.
  std::atomic<int64_t> runNs{0};
  /// The elements of that call's largest array (callElements).
  std::atomic<int64_t> runElements{0};
};

std::mutex registryMutex;
/// Regions live as long as the process (their code may run during static
/// destruction), and so does this list of them: never destroyed, it keeps
/// them reachable for LeakSanitizer.
std::vector<RegionState *> &registry() {
  static auto *regions = new std::vector<RegionState *>();
  return *regions;
}
std::atomic<vrir_rt_specializer> specializer{nullptr};

int readEnvironment(const char *name, int fallback) {
  const char *text = std::getenv(name);
  return text && *text ? std::atoi(text) : fallback;
}
/// VRIR_SPECIALIZE: 0 (off), 1 or `auto` (per region, the default), `all`
/// or `alias`.
int readMode() {
  const char *text = std::getenv("VRIR_SPECIALIZE");
  if (!text || !*text || std::strcmp(text, "auto") == 0)
    return VRIR_RT_SPECIALIZE_PER_REGION;
  if (std::strcmp(text, "all") == 0)
    return VRIR_RT_SPECIALIZE_ALL;
  if (std::strcmp(text, "alias") == 0)
    return VRIR_RT_SPECIALIZE_ALIASING;
  return std::atoi(text) ? VRIR_RT_SPECIALIZE_PER_REGION
                         : VRIR_RT_SPECIALIZE_OFF;
}
std::atomic<int> mode{readMode()};
std::atomic<int> cacheSize{
    std::max(1, readEnvironment("VRIR_REGION_CACHE", 5))};

std::atomic<bool> backgroundCompiles{
    readEnvironment("VRIR_SPECIALIZE_BACKGROUND", 1) != 0};

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// A version to compile in the background.
struct CompileJob {
  RegionState *state;
  std::string source, name, options, facts;
  std::vector<int64_t> key;
};

/// One worker thread compiles the jobs in order. Never destroyed: a
/// detached thread may use it until the process ends (atexit stops it
/// first; a forked child starts with a fresh one).
struct BackgroundCompiler {
  std::mutex mutex;
  std::condition_variable wake, idle;
  std::deque<CompileJob> jobs;
  bool started = false, busy = false, stopping = false, exited = false;
};
BackgroundCompiler *backgroundCompiler = new BackgroundCompiler;

/// Counts one call of the specializer (a version kept or not).
void countCompile(RegionState &state, const vrir_rt_compile_report &report) {
  ++state.stats.compiles;
  state.stats.compileMs += report.compileMs;
}
/// Counts the version a key gets (null: the compile failed).
void countVersion(RegionState &state, const vrir_rt_compile_report &report,
                  void *function) {
  state.stats.checks += report.checks;
  state.stats.proven += report.proven;
  if (!function)
    ++state.stats.compileFailures;
}

void finishJob(CompileJob &job, void *function,
               const vrir_rt_compile_report &report) {
  RegionState &state = *job.state;
  std::lock_guard<std::mutex> lock(state.mutex);
  countCompile(state, report);
  countVersion(state, report, function);
  // Evicted meanwhile: its code stays mapped, unused.
  for (Version &version : state.versions)
    if (version.pending && version.key == job.key) {
      version.function = function;
      version.pending = false;
    }
}

void runBackgroundCompiler(BackgroundCompiler *compiler) {
  std::unique_lock<std::mutex> lock(compiler->mutex);
  for (;;) {
    compiler->wake.wait(
        lock, [&] { return compiler->stopping || !compiler->jobs.empty(); });
    if (compiler->stopping)
      break;
    CompileJob job = std::move(compiler->jobs.front());
    compiler->jobs.pop_front();
    compiler->busy = true;
    lock.unlock();
    vrir_rt_compile_report report{};
    vrir_rt_specializer compile = specializer.load();
    void *function =
        compile ? compile(job.source.c_str(), job.name.c_str(),
                          job.options.c_str(), job.facts.c_str(), &report)
                : nullptr;
    finishJob(job, function, report);
    lock.lock();
    compiler->busy = false;
    compiler->idle.notify_all();
  }
  compiler->exited = true;
  compiler->idle.notify_all();
}

/// Starts the worker if it is not running. Called with the mutex held.
void startBackgroundCompiler(BackgroundCompiler *compiler);

/// At exit: drop the queue and wait for the compile in flight, which uses
/// LLVM's globals that static destruction is about to tear down.
void stopBackgroundCompiler() {
  BackgroundCompiler *compiler = backgroundCompiler;
  std::unique_lock<std::mutex> lock(compiler->mutex);
  compiler->stopping = true;
  compiler->jobs.clear();
  compiler->wake.notify_all();
  compiler->idle.wait(lock,
                      [&] { return compiler->exited || !compiler->started; });
}

/// fork() while the worker compiles would leave the child with the
/// specializer's and LLVM's locks held by a thread it does not have: the
/// fork waits for the compile in flight and keeps the worker from starting
/// another until it is done.
void prepareFork() {
  BackgroundCompiler *compiler = backgroundCompiler;
  std::unique_lock<std::mutex> lock(compiler->mutex);
  compiler->idle.wait(lock, [&] { return !compiler->busy; });
  lock.release(); // unlocked after the fork
}
void resumeAfterForkInParent() { backgroundCompiler->mutex.unlock(); }
/// The child has no worker: it gets a new one (started on its next miss or
/// wait) with the jobs still queued.
void resumeAfterForkInChild() {
  BackgroundCompiler *inherited = backgroundCompiler;
  auto *compiler = new BackgroundCompiler;
  compiler->jobs = std::move(inherited->jobs);
  backgroundCompiler = compiler;
}

void startBackgroundCompiler(BackgroundCompiler *compiler) {
  if (compiler->started)
    return;
  static bool hooksInstalled = [] {
    std::atexit(stopBackgroundCompiler);
    pthread_atfork(prepareFork, resumeAfterForkInParent,
                   resumeAfterForkInChild);
    return true;
  }();
  (void)hooksInstalled;
  std::thread(runBackgroundCompiler, compiler).detach();
  compiler->started = true;
}

/// Queues a compile; false if the worker is stopping.
bool enqueueCompile(CompileJob job) {
  BackgroundCompiler *compiler = backgroundCompiler;
  std::lock_guard<std::mutex> lock(compiler->mutex);
  if (compiler->stopping)
    return false;
  startBackgroundCompiler(compiler);
  compiler->jobs.push_back(std::move(job));
  compiler->wake.notify_one();
  return true;
}

std::vector<ArgumentKind> parseSignature(const char *signature,
                                         int &factCount) {
  std::vector<ArgumentKind> arguments;
  factCount = 0;
  const char *p = signature;
  while (*p) {
    ArgumentKind argument;
    argument.kind = *p++;
    if (argument.kind == 'm') {
      argument.rank =
          static_cast<int>(std::strtol(p, const_cast<char **>(&p), 10));
      if (*p == ':')
        ++p;
      argument.bits =
          static_cast<int>(std::strtol(p, const_cast<char **>(&p), 10));
    } else if (argument.kind == 'i' || argument.kind == 'f') {
      argument.bits =
          static_cast<int>(std::strtol(p, const_cast<char **>(&p), 10));
    }
    for (; *p && *p != ','; ++p) {
      argument.criticalShape |= *p == 'S';
      argument.criticalValue |= *p == 'V';
    }
    if (*p == ',')
      ++p;
    argument.firstFact = factCount;
    factCount += argument.kind == 'm' ? 2 + 2 * argument.rank : 1;
    arguments.push_back(argument);
  }
  return arguments;
}

/// The elements of the largest array argument of a call (at least 1): what
/// a region's run time is scaled by to estimate it for other shapes.
int64_t callElements(const std::vector<ArgumentKind> &arguments,
                     const int64_t *facts) {
  int64_t largest = 1;
  for (const ArgumentKind &argument : arguments) {
    if (argument.kind != 'm')
      continue;
    const int64_t *f = facts + argument.firstFact;
    int64_t elements = 1;
    for (int d = 0; d < argument.rank; ++d)
      elements = f[2 + d] > 0 && elements < INT64_MAX / f[2 + d]
                     ? elements * f[2 + d]
                 : f[2 + d] > 0 ? INT64_MAX
                                : 0;
    largest = std::max(largest, elements);
  }
  return largest;
}

/// The bytes an array argument can touch, [low, high); empty for an array
/// with no elements.
std::pair<int64_t, int64_t> byteRange(const ArgumentKind &argument,
                                      const int64_t *facts) {
  const int64_t *f = facts + argument.firstFact;
  int64_t low = f[0] + f[1] * argument.bits, high = low;
  for (int d = 0; d < argument.rank; ++d) {
    int64_t size = f[2 + d], stride = f[2 + argument.rank + d];
    if (size <= 0)
      return {0, 0};
    int64_t reach = (size - 1) * stride * argument.bits;
    if (reach < 0)
      low += reach;
    else
      high += reach;
  }
  return {low, high + argument.bits};
}

bool overlap(std::pair<int64_t, int64_t> a, std::pair<int64_t, int64_t> b) {
  return a.first != a.second && b.first != b.second && a.first < b.second &&
         b.first < a.second;
}

/// The key: critical shapes and strides, critical values, and for each
/// array the first array it overlaps (itself if none before it). `noalias`
/// receives, per argument, whether it is an array no other array overlaps.
std::vector<int64_t> buildKey(const std::vector<ArgumentKind> &arguments,
                              const int64_t *facts,
                              std::vector<bool> &noalias) {
  std::vector<int64_t> key;
  std::vector<std::pair<int64_t, int64_t>> ranges;
  std::vector<size_t> arrays;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const ArgumentKind &argument = arguments[i];
    const int64_t *f = facts + argument.firstFact;
    if (argument.kind == 'm') {
      if (argument.criticalShape)
        key.insert(key.end(), f + 2, f + 2 + 2 * argument.rank);
      arrays.push_back(i);
      ranges.push_back(byteRange(argument, facts));
    } else if (argument.criticalValue) {
      key.push_back(f[0]);
    }
  }
  noalias.assign(arguments.size(), false);
  for (size_t a = 0; a < arrays.size(); ++a) {
    int64_t first = static_cast<int64_t>(a);
    bool alone = true;
    for (size_t b = 0; b < arrays.size(); ++b) {
      if (b == a || !overlap(ranges[a], ranges[b]))
        continue;
      alone = false;
      first = std::min(first, static_cast<int64_t>(b));
    }
    noalias[arrays[a]] = alone;
    key.push_back(first);
  }
  return key;
}

/// The facts as the specializer's MLIR attribute.
std::string describeFacts(const std::vector<ArgumentKind> &arguments,
                          const int64_t *facts,
                          const std::vector<bool> &noalias) {
  std::string text = "[";
  for (size_t i = 0; i < arguments.size(); ++i) {
    const ArgumentKind &argument = arguments[i];
    const int64_t *f = facts + argument.firstFact;
    std::string fields;
    auto add = [&](const std::string &field) {
      fields += (fields.empty() ? "" : ", ") + field;
    };
    if (argument.kind == 'm') {
      add("rank = " + std::to_string(argument.rank) + " : i64");
      if (argument.criticalShape) {
        std::string shape = "shape = array<i64",
                    strides = "strides = array<i64";
        for (int d = 0; d < argument.rank; ++d) {
          shape += (d ? ", " : ": ") + std::to_string(f[2 + d]);
          strides +=
              (d ? ", " : ": ") + std::to_string(f[2 + argument.rank + d]);
        }
        add(shape + ">");
        add(strides + ">");
      }
      if (noalias[i])
        add("noalias");
    } else if (argument.criticalValue && argument.kind == 'i') {
      add("value = " + std::to_string(f[0]) + " : i64");
    }
    text += (i ? ", {" : "{") + fields + "}";
  }
  return text + "]";
}

RegionState &getState(vrir_rt_region *region) {
  std::lock_guard<std::mutex> lock(registryMutex);
  if (!region->state) {
    auto *state = new RegionState;
    state->arguments = parseSignature(region->signature, state->factCount);
    state->aliasingArguments = state->arguments;
    for (ArgumentKind &argument : state->aliasingArguments)
      argument.criticalShape = argument.criticalValue = false;
    state->name = region->name;
    state->stats.name = state->name.c_str();
    registry().push_back(state);
    region->state = state;
  }
  return *static_cast<RegionState *>(region->state);
}
} // namespace

extern "C" {

void *vrir_rt_region_enter(vrir_rt_region *region, int64_t *facts) {
  RegionState &state = getState(region);
  std::lock_guard<std::mutex> lock(state.mutex);
  // The call's start, for vrir_rt_region_exit: after any compile here.
  auto start = [&](void *function) {
    facts[state.factCount] = nowNs();
    return function;
  };
  ++state.stats.calls;
  vrir_rt_specializer compile = specializer.load();
  int currentMode = mode.load();
  if (currentMode == VRIR_RT_SPECIALIZE_OFF || !compile) {
    ++state.stats.generic;
    return start(nullptr);
  }
  bool choosing = currentMode == VRIR_RT_SPECIALIZE_PER_REGION &&
                  state.chosen == VRIR_RT_SPECIALIZE_OFF;
  // Before its first version a per-region choice tries aliasing only.
  int factsMode = currentMode != VRIR_RT_SPECIALIZE_PER_REGION ? currentMode
                  : choosing ? VRIR_RT_SPECIALIZE_ALIASING
                             : state.chosen;
  auto argumentsFor = [&](int kind) -> const std::vector<ArgumentKind> & {
    return kind == VRIR_RT_SPECIALIZE_ALIASING ? state.aliasingArguments
                                               : state.arguments;
  };
  std::vector<bool> noalias;
  std::vector<int64_t> key = buildKey(argumentsFor(factsMode), facts, noalias);
  for (auto it = state.versions.begin(); it != state.versions.end(); ++it)
    if (it->key == key) {
      ++state.stats.hits;
      state.versions.splice(state.versions.begin(), state.versions, it);
      if (!it->function)
        ++state.stats.generic;
      return start(it->function);
    }
  ++state.stats.misses;
  auto evict = [&] {
    while (state.versions.size() > static_cast<size_t>(cacheSize.load()))
      state.versions.pop_back();
  };
  // A region that would run for less than its compiles take runs generic
  // while the version compiles (thesis 6.2.4): its latest run time, scaled
  // by how much larger this call's largest array is (a region last run on
  // a small input may be called on a large one). Its first miss has no
  // run time yet, and chooses the facts: that one waits.
  int64_t runNs = state.runNs.load(std::memory_order_relaxed);
  int64_t runElements =
      std::max<int64_t>(state.runElements.load(std::memory_order_relaxed), 1);
  double estimatedMs =
      runNs * 1e-6 *
      (static_cast<double>(callElements(state.arguments, facts)) /
       static_cast<double>(runElements));
  if (!choosing && backgroundCompiles.load() && state.stats.compiles > 0 &&
      runNs > 0 && estimatedMs < state.stats.compileMs / state.stats.compiles) {
    CompileJob job{&state,
                   region->source,
                   region->name,
                   region->options,
                   describeFacts(argumentsFor(factsMode), facts, noalias),
                   key};
    if (enqueueCompile(std::move(job))) {
      ++state.stats.backgroundCompiles;
      ++state.stats.generic;
      state.versions.push_front({std::move(key), nullptr, true});
      evict();
      return start(nullptr);
    }
  }
  auto compileFor = [&](int kind, std::vector<int64_t> &versionKey,
                        vrir_rt_compile_report &report) {
    std::vector<bool> versionNoalias;
    versionKey = buildKey(argumentsFor(kind), facts, versionNoalias);
    std::string described =
        describeFacts(argumentsFor(kind), facts, versionNoalias);
    report = {};
    void *function = compile(region->source, region->name, region->options,
                             described.c_str(), &report);
    countCompile(state, report);
    return function;
  };
  vrir_rt_compile_report report;
  void *function = compileFor(factsMode, key, report);
  if (choosing) {
    // Constant extents can cost (heat3d: 15-20%); they pay where they
    // prove checks that aliasing only leaves in the loops.
    state.chosen = VRIR_RT_SPECIALIZE_ALIASING;
    if (function && report.kept > 0) {
      std::vector<int64_t> allKey;
      vrir_rt_compile_report allReport;
      void *allFunction = compileFor(VRIR_RT_SPECIALIZE_ALL, allKey, allReport);
      if (allFunction && allReport.kept < report.kept) {
        state.chosen = VRIR_RT_SPECIALIZE_ALL;
        function = allFunction;
        key = std::move(allKey);
        report = allReport;
      }
    }
  }
  state.stats.facts = choosing ? state.chosen : factsMode;
  countVersion(state, report, function);
  if (!function)
    ++state.stats.generic;
  // A failed compile is remembered too: the generic version serves the key.
  // Evicted code stays mapped (another thread may be running it).
  state.versions.push_front({std::move(key), function});
  evict();
  return start(function);
}

void vrir_rt_region_exit(vrir_rt_region *region, const int64_t *facts) {
  auto *state = static_cast<RegionState *>(region->state);
  if (!state || !facts[state->factCount])
    return;
  state->runNs.store(nowNs() - facts[state->factCount],
                     std::memory_order_relaxed);
  state->runElements.store(callElements(state->arguments, facts),
                           std::memory_order_relaxed);
}

void vrir_rt_set_background_compiles(int enabled) {
  backgroundCompiles.store(enabled != 0);
}

void vrir_rt_region_wait(void) {
  BackgroundCompiler *compiler = backgroundCompiler;
  std::unique_lock<std::mutex> lock(compiler->mutex);
  if (!compiler->jobs.empty() && !compiler->stopping)
    startBackgroundCompiler(compiler); // jobs a forked child inherited
  compiler->idle.wait(lock, [&] {
    return compiler->exited || (compiler->jobs.empty() && !compiler->busy);
  });
}

void vrir_rt_set_specializer(vrir_rt_specializer newSpecializer) {
  specializer.store(newSpecializer);
}

void vrir_rt_set_specialization(int newMode, int size) {
  mode.store(newMode == VRIR_RT_SPECIALIZE_ALIASING ||
                     newMode == VRIR_RT_SPECIALIZE_PER_REGION
                 ? newMode
             : newMode ? VRIR_RT_SPECIALIZE_ALL
                       : VRIR_RT_SPECIALIZE_OFF);
  if (size > 0)
    cacheSize.store(size);
}

int vrir_rt_region_count(void) {
  std::lock_guard<std::mutex> lock(registryMutex);
  return static_cast<int>(registry().size());
}

int vrir_rt_region_get_stats(int index, vrir_rt_region_stats *stats) {
  RegionState *state;
  {
    std::lock_guard<std::mutex> lock(registryMutex);
    if (index < 0 || index >= static_cast<int>(registry().size()))
      return 1;
    state = registry()[index];
  }
  std::lock_guard<std::mutex> lock(state->mutex);
  *stats = state->stats;
  stats->cached = state->versions.size();
  stats->runMs = state->runNs.load(std::memory_order_relaxed) * 1e-6;
  return 0;
}

void vrir_rt_region_reset_stats(void) {
  std::lock_guard<std::mutex> lock(registryMutex);
  for (RegionState *state : registry()) {
    std::lock_guard<std::mutex> regionLock(state->mutex);
    const char *name = state->stats.name;
    int facts = state->stats.facts;
    state->stats = {};
    state->stats.name = name;
    state->stats.facts = facts;
  }
}

} // extern "C"
