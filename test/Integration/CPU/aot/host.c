/* A C host of an ahead-of-time compiled VRIR module (see aot.test):
 * passes NumPy-layout arrays as memref descriptors, calls the C interface
 * through vrir_rt_try, frees the returned array, and reports errors. */
#include "VRIR/Runtime/VRIRRuntime.h"

#include <stdint.h>
#include <stdio.h>

typedef struct {
  double *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} Vector;

/* The C interfaces `vr-run --emit-shared` exports for aot.mlir. */
void _mlir_ciface_scale(Vector *result, Vector *x, double factor);
double _mlir_ciface_at(Vector *x, int64_t i);

struct ScaleCall {
  Vector result, x;
  double factor;
};
static void scale(void *context) {
  struct ScaleCall *call = context;
  _mlir_ciface_scale(&call->result, &call->x, call->factor);
}

struct AtCall {
  Vector x;
  int64_t i;
  double value;
};
static void at(void *context) {
  struct AtCall *call = context;
  call->value = _mlir_ciface_at(&call->x, call->i);
}

int main(void) {
  double data[4] = {1, 2, 3, 4};
  Vector x = {data, data, 0, {4}, {1}};

  struct ScaleCall s = {.x = x, .factor = 2.5};
  if (vrir_rt_try(scale, &s) != 0)
    return 1;
  for (int i = 0; i < 4; ++i)
    printf("%g ", s.result.aligned[s.result.offset + i]);
  printf("\n");
  vrir_rt_free(s.result.allocated);

  struct AtCall a = {.x = x, .i = 2};
  if (vrir_rt_try(at, &a) != 0)
    return 1;
  printf("at(2) = %g\n", a.value);

  a.i = 9;
  int status = vrir_rt_try(at, &a);
  printf("at(9): status %d: %s\n", status, vrir_rt_last_error());
  return 0;
}
