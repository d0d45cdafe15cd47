/*===- VRIRRegions.h - Run-time dispatch of specialised regions ----*- C -*-===*
 *
 * Thesis 6.2.4: each region outlined by `vrir-outline-regions` is called
 * through a dispatcher that keeps a code cache keyed by the sizes and
 * strides of its critical shape arguments, the values of its critical value
 * arguments and the aliasing of its array arguments. On a miss it asks the
 * specializer (installed by the compiler in the process: vr-run, the Python
 * frontend's compiler library) for a version compiled for that key; without
 * a specializer, or when that compile fails, the generic version runs.
 *
 * Part of libvrir_runtime.so (no MLIR dependency).
 *
 *===----------------------------------------------------------------------===*/

#ifndef VRIR_RUNTIME_VRIRREGIONS_H
#define VRIR_RUNTIME_VRIRREGIONS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One outlined region, a mutable global of the generated module. */
typedef struct vrir_rt_region {
  /* The region function's symbol. */
  const char *name;
  /* One entry per argument, separated by ',': `m<rank>:<element bytes>`
   * for an array, `i<bits>` for an integer, `f<bits>` for a float, `o`
   * for anything else, each followed by `S` if it is a critical shape and
   * `V` if it is a critical value. */
  const char *signature;
  /* Pipeline options of the module (`target=cpu openmp=1 bce=1 ...`). */
  const char *options;
  /* The region function and what it calls, as a VRIR module. */
  const char *source;
  /* The dispatcher's cache; null until the first call. */
  void *state;
} vrir_rt_region;

/* Called by a region's dispatch wrapper with the facts of its arguments, in
 * order: for an array its aligned pointer, offset, sizes and strides (2 +
 * 2 x rank values); for a scalar its value (integers sign-extended, floats
 * as their bits); then one slot more, where the dispatcher notes when the
 * call started. Returns the specialised function for these facts (same
 * signature as the generic one), or null to run the generic one. */
void *vrir_rt_region_enter(vrir_rt_region *region, int64_t *facts);

/* Called by the wrapper when the version it ran returns, with the same
 * facts: the region's run time, which decides whether a later miss waits
 * for its compile or runs the generic version while the version compiles
 * in the background (when the region runs for less than a compile takes,
 * thesis 6.2.4). */
void vrir_rt_region_exit(vrir_rt_region *region, const int64_t *facts);

/* What a specialization cost and removed. */
typedef struct vrir_rt_compile_report {
  double compileMs;
  /* Bounds checks of the specialised code: all, proven never to fail, and
   * kept where they were (neither proven nor hoisted before their loop:
   * tested on every iteration). */
  uint64_t checks, proven, kept;
} vrir_rt_compile_report;

/* Compiles `name` of `source` with `facts` (an MLIR attribute: one
 * dictionary per argument with `rank`, `shape`, `strides`, `noalias` for
 * arrays and `value` for critical scalars) and the pipeline `options`;
 * returns the function or null, filling `report`. */
typedef void *(*vrir_rt_specializer)(const char *source, const char *name,
                                     const char *options, const char *facts,
                                     vrir_rt_compile_report *report);
void vrir_rt_set_specializer(vrir_rt_specializer specializer);

/* What versions are compiled for: none (the generic code runs), every
 * fact (shapes and strides of critical arrays, critical values, aliasing),
 * the aliasing of the arrays only (one version per overlap pattern,
 * whatever the shapes: `noalias` without constant extents), or either,
 * chosen per region on its first call: aliasing only, unless that version
 * keeps bounds checks in its loops and one with every fact keeps fewer.
 * (Constant extents pay where they prove checks; elsewhere they can cost:
 * see benchmarks/README.md, heat3d.) */
enum {
  VRIR_RT_SPECIALIZE_OFF = 0,
  VRIR_RT_SPECIALIZE_ALL = 1,
  VRIR_RT_SPECIALIZE_ALIASING = 2,
  VRIR_RT_SPECIALIZE_PER_REGION = 3
};

/* Sets the mode (above), and how many versions each region keeps (least
 * recently used out; the thesis kept 5). The environment variables
 * VRIR_SPECIALIZE (`0`, `1` or `auto` for per region, the default; `all`;
 * `alias`) and VRIR_REGION_CACHE set the defaults. */
void vrir_rt_set_specialization(int mode, int cacheSize);

/* Whether misses of regions that run for less than their compiles take
 * are compiled in the background (the default; VRIR_SPECIALIZE_BACKGROUND=0
 * turns it off): the generic version runs until the version is ready. A
 * region's first miss always waits (its run time is not known yet). */
void vrir_rt_set_background_compiles(int enabled);
/* Waits until no version is being compiled in the background. */
void vrir_rt_region_wait(void);

/* Counters per region, in order of first call. */
typedef struct vrir_rt_region_stats {
  const char *name;
  uint64_t calls, hits, misses, generic, compileFailures;
  /* Time in the specializer, every compile counted. */
  double compileMs;
  /* Bounds checks of the versions the region ran (all, proven): not of a
   * version compiled to choose the facts and then dropped. */
  uint64_t checks, proven;
  /* Versions held now. */
  uint64_t cached;
  /* Calls of the specializer (a per-region choice can compile two versions
   * on the first call), and what the region's versions are compiled for
   * (VRIR_RT_SPECIALIZE_ALL or _ALIASING; OFF before its first version). */
  uint64_t compiles;
  int facts;
  /* Compiles started in the background, and the region's latest run time
   * (any version; 0 before one returned). */
  uint64_t backgroundCompiles;
  double runMs;
} vrir_rt_region_stats;
int vrir_rt_region_count(void);
/* Fills `stats` for region `index`; 0 on success. */
int vrir_rt_region_get_stats(int index, vrir_rt_region_stats *stats);
/* Forgets every region's counters (not its cached versions). */
void vrir_rt_region_reset_stats(void);

#ifdef __cplusplus
}
#endif

#endif /* VRIR_RUNTIME_VRIRREGIONS_H */
