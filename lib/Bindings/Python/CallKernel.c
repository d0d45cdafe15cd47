/*===- CallKernel.c - The Python frontend's call path, in C ---------------===*
 *
 * `vrir._call` (python/vrir/runtime.py loads it from the build directory):
 * what a call of a `@vrir.jit` function does on every call, written in C
 * because in Python it cost ~20 microseconds for three arrays (reading
 * `__array_interface__` alone took 2 per array):
 *
 *  - `signature_key(args)`: a bytes object that identifies the frontend
 *    types of the arguments (dtype, rank and layout of each array, the
 *    Python or NumPy type of each scalar), or None when an argument needs
 *    the Python path (unsupported, byte-swapped, an int beyond int64...).
 *    Equal keys mean equal types, so a key finds a compiled kernel in a
 *    dict without computing the types.
 *  - `Caller`: one per compiled kernel; calling it with the argument
 *    sequence writes the array descriptors and scalars into a context
 *    block laid out like the kernel's C interface, builds the `void **`
 *    of its packed entry point, and runs it through
 *    vrir_rt_try_interruptible with the GIL released.
 *
 *===----------------------------------------------------------------------===*/

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#include <numpy/arrayobject.h>
#include <numpy/arrayscalars.h>

#include "VRIR/Runtime/VRIRRuntime.h"

#include <stdint.h>
#include <string.h>

/* The kinds of argument fields of a context block (python/vrir/runtime.py
 * CALL_KINDS names them in this order). */
enum FieldKind {
  kArray,
  kF64,
  kF32,
  kI64,
  kI32,
  kI16,
  kI8,
  kU64,
  kU32,
  kU16,
  kU8,
  kBool,
  kC128,
  kC64,
  kNumKinds
};

enum Layout { kRowMajor, kColMajor, kStrided };

/* What a kernel returns, as far as the C side converts it: nothing, a
 * float64, an int64, a bool or one array (a NumPy array owning the
 * kernel's allocation, or a view of an array argument); anything else,
 * and an array result that is empty or unallocated, comes back as the
 * bytes of the whole context block for the Python side to read. */
enum ResultKind {
  kNoResult,
  kResultF64,
  kResultI64,
  kResultBool,
  kResultRaw,
  kResultArray
};

static PyObject *KernelError;

/* ------------------------------------------------------------------------ */
/* signature_key                                                             */

/* Appends one argument's part of the key; returns 0 when the argument
 * needs the Python path. */
static int appendKey(PyObject *value, unsigned char *out, Py_ssize_t *length) {
  unsigned char *p = out + *length;
  if (PyArray_Check(value)) {
    PyArrayObject *array = (PyArrayObject *)value;
    int rank = PyArray_NDIM(array);
    PyArray_Descr *descr = PyArray_DESCR(array);
    if (rank == 0 || rank > 255 || PyArray_ISBYTESWAPPED(array) ||
        descr->type_num > 255)
      return 0;
    int layout;
    if (PyArray_IS_C_CONTIGUOUS(array))
      layout = kRowMajor;
    else if (PyArray_IS_F_CONTIGUOUS(array))
      layout = kColMajor;
    else {
      layout = kStrided;
      npy_intp item = PyArray_ITEMSIZE(array);
      for (int k = 0; k < rank; ++k)
        if (item == 0 || PyArray_STRIDES(array)[k] % item)
          return 0;
    }
    p[0] = 'A';
    p[1] = (unsigned char)descr->type_num;
    p[2] = (unsigned char)rank;
    p[3] = (unsigned char)layout;
    *length += 4;
    return 1;
  }
  if (PyFloat_CheckExact(value)) {
    p[0] = 'f';
  } else if (PyBool_Check(value)) {
    p[0] = 'b';
  } else if (PyLong_CheckExact(value)) {
    int overflow;
    (void)PyLong_AsLongLongAndOverflow(value, &overflow);
    if (overflow)
      return 0;
    p[0] = 'i';
  } else if (PyComplex_CheckExact(value)) {
    p[0] = 'c';
  } else if (PyArray_IsScalar(value, Generic)) {
    PyArray_Descr *descr = PyArray_DescrFromScalar(value);
    if (!descr) {
      PyErr_Clear();
      return 0;
    }
    int typeNum = descr->type_num;
    Py_DECREF(descr);
    if (typeNum > 255)
      return 0;
    p[0] = 'g';
    p[1] = (unsigned char)typeNum;
    *length += 2;
    return 1;
  } else {
    return 0;
  }
  *length += 1;
  return 1;
}

static PyObject *signatureKey(PyObject *self, PyObject *args) {
  (void)self;
  Py_ssize_t count = PyTuple_GET_SIZE(args);
  unsigned char small[256];
  unsigned char *key = count * 4 <= (Py_ssize_t)sizeof(small)
                           ? small
                           : PyMem_Malloc((size_t)count * 4);
  if (!key)
    return PyErr_NoMemory();
  Py_ssize_t length = 0;
  int described = 1;
  for (Py_ssize_t i = 0; described && i < count; ++i)
    described = appendKey(PyTuple_GET_ITEM(args, i), key, &length);
  PyObject *result = described
                         ? PyBytes_FromStringAndSize((const char *)key, length)
                         : Py_NewRef(Py_None);
  if (key != small)
    PyMem_Free(key);
  return result;
}

/* ------------------------------------------------------------------------ */
/* Caller                                                                    */

typedef struct {
  Py_ssize_t offset; /* of the field in the context block */
  int kind;          /* enum FieldKind */
  int rank, layout;  /* arrays */
  int typeNum;       /* arrays: the NumPy type number of the element */
} ArgumentField;

typedef struct {
  Py_ssize_t offset; /* the field a slot points at */
  Py_ssize_t cell;   /* -1, or the slot holding the field's address */
} Slot;

typedef struct {
  PyObject_HEAD void (*entry)(void *);
  Py_ssize_t contextSize;
  Py_ssize_t argumentCount;
  ArgumentField *arguments;
  Py_ssize_t slotCount; /* slots of the plan, then cells */
  Py_ssize_t planLength;
  Slot *plan;
  int resultKind;
  Py_ssize_t resultOffset;
  int resultRank, resultTypeNum; /* kResultArray */
} Caller;

static void callerDealloc(Caller *self) {
  PyMem_Free(self->arguments);
  PyMem_Free(self->plan);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Caller(entry, context_size, arguments, plan, result_kind, result_offset
 *        [, result_rank, result_type_num]):
 * `entry` the address of the packed entry point, `arguments` a sequence of
 * (offset, kind, rank, layout, type_num), `plan` a sequence of
 * (offset, through_cell) as runtime.slot_plan computes it; an array result
 * has a rank and a NumPy type number. */
static int callerInit(Caller *self, PyObject *args, PyObject *kwargs) {
  (void)kwargs;
  unsigned long long entry;
  PyObject *arguments, *plan;
  self->resultRank = 0;
  self->resultTypeNum = 0;
  if (!PyArg_ParseTuple(args, "KnOOin|ii", &entry, &self->contextSize,
                        &arguments, &plan, &self->resultKind,
                        &self->resultOffset, &self->resultRank,
                        &self->resultTypeNum))
    return -1;
  if (self->contextSize <= 0 || self->resultKind < kNoResult ||
      self->resultKind > kResultArray ||
      (self->resultKind == kResultArray &&
       (self->resultRank < 1 || self->resultRank > NPY_MAXDIMS ||
        self->resultOffset < 0 ||
        self->resultOffset + (Py_ssize_t)sizeof(int64_t) *
                                 (3 + 2 * (Py_ssize_t)self->resultRank) >
            self->contextSize))) {
    PyErr_SetString(PyExc_ValueError, "Caller: bad context size or result");
    return -1;
  }
  self->entry = (void (*)(void *))(uintptr_t)entry;
  PyObject *argumentList = PySequence_Fast(arguments, "arguments: a sequence");
  if (!argumentList)
    return -1;
  self->argumentCount = PySequence_Fast_GET_SIZE(argumentList);
  self->arguments =
      PyMem_Calloc((size_t)self->argumentCount + 1, sizeof(ArgumentField));
  for (Py_ssize_t i = 0; i < self->argumentCount; ++i) {
    ArgumentField *field = &self->arguments[i];
    if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(argumentList, i), "niiii",
                          &field->offset, &field->kind, &field->rank,
                          &field->layout, &field->typeNum)) {
      Py_DECREF(argumentList);
      return -1;
    }
    if (field->kind < 0 || field->kind >= kNumKinds || field->rank < 0 ||
        field->offset < 0 || field->offset >= self->contextSize) {
      Py_DECREF(argumentList);
      PyErr_SetString(PyExc_ValueError, "Caller: bad argument field");
      return -1;
    }
  }
  Py_DECREF(argumentList);

  PyObject *planList = PySequence_Fast(plan, "plan: a sequence");
  if (!planList)
    return -1;
  self->planLength = PySequence_Fast_GET_SIZE(planList);
  self->plan = PyMem_Calloc((size_t)self->planLength + 1, sizeof(Slot));
  Py_ssize_t cell = self->planLength;
  for (Py_ssize_t i = 0; i < self->planLength; ++i) {
    int throughCell;
    if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(planList, i), "np",
                          &self->plan[i].offset, &throughCell)) {
      Py_DECREF(planList);
      return -1;
    }
    self->plan[i].cell = throughCell ? cell++ : -1;
  }
  Py_DECREF(planList);
  self->slotCount = cell;
  return 0;
}

/* Writes an integer argument of `bytes` bytes, checking its range. */
static int writeInteger(PyObject *value, char *to, int bytes, int isUnsigned,
                        Py_ssize_t index) {
  if (isUnsigned && bytes == 8) {
    PyObject *asInt = PyNumber_Index(value);
    if (!asInt)
      return -1;
    unsigned long long v = PyLong_AsUnsignedLongLong(asInt);
    Py_DECREF(asInt);
    if (v == (unsigned long long)-1 && PyErr_Occurred())
      return -1;
    memcpy(to, &v, 8);
    return 0;
  }
  long long v;
  if (PyLong_CheckExact(value)) {
    v = PyLong_AsLongLong(value);
  } else {
    PyObject *asInt = PyNumber_Index(value);
    if (!asInt)
      return -1;
    v = PyLong_AsLongLong(asInt);
    Py_DECREF(asInt);
  }
  if (v == -1 && PyErr_Occurred())
    return -1;
  int bits = 8 * bytes;
  long long lo =
      isUnsigned ? 0 : (bytes == 8 ? INT64_MIN : -(1LL << (bits - 1)));
  long long hi =
      bytes == 8 ? INT64_MAX
                 : (isUnsigned ? (1LL << bits) - 1 : (1LL << (bits - 1)) - 1);
  if (v < lo || v > hi) {
    PyErr_Format(PyExc_OverflowError,
                 "argument %zd: %lld does not fit in a %s%d", index + 1, v,
                 isUnsigned ? "uint" : "int", bits);
    return -1;
  }
  switch (bytes) {
  case 1: {
    int8_t b = (int8_t)v;
    memcpy(to, &b, 1);
    break;
  }
  case 2: {
    int16_t h = (int16_t)v;
    memcpy(to, &h, 2);
    break;
  }
  case 4: {
    int32_t w = (int32_t)v;
    memcpy(to, &w, 4);
    break;
  }
  default:
    memcpy(to, &v, 8);
  }
  return 0;
}

static int writeArray(PyObject *value, const ArgumentField *field, char *to,
                      Py_ssize_t index) {
  if (!PyArray_Check(value)) {
    PyErr_Format(PyExc_TypeError,
                 "argument %zd: expected a NumPy array, got %s", index + 1,
                 Py_TYPE(value)->tp_name);
    return -1;
  }
  PyArrayObject *array = (PyArrayObject *)value;
  int rank = PyArray_NDIM(array);
  int layoutOk = field->layout == kRowMajor   ? PyArray_IS_C_CONTIGUOUS(array)
                 : field->layout == kColMajor ? PyArray_IS_F_CONTIGUOUS(array)
                                              : 1;
  if (rank != field->rank || !layoutOk ||
      !PyArray_EquivTypenums(PyArray_DESCR(array)->type_num, field->typeNum) ||
      PyArray_ISBYTESWAPPED(array)) {
    PyErr_Format(PyExc_TypeError,
                 "argument %zd: the array's dtype, rank or layout is not the "
                 "one the kernel was compiled for",
                 index + 1);
    return -1;
  }
  /* The descriptor: allocated, aligned, offset, sizes[rank], strides[rank]
   * (in elements). */
  int64_t words[3 + 2 * 255];
  intptr_t data = (intptr_t)PyArray_DATA(array);
  words[0] = data;
  words[1] = data;
  words[2] = 0;
  const npy_intp *shape = PyArray_DIMS(array);
  const npy_intp *strides = PyArray_STRIDES(array);
  npy_intp item = PyArray_ITEMSIZE(array);
  for (int k = 0; k < rank; ++k)
    words[3 + k] = shape[k];
  if (field->layout == kStrided) {
    for (int k = 0; k < rank; ++k) {
      if (strides[k] % item) {
        PyErr_Format(PyExc_TypeError,
                     "argument %zd: array strides must be multiples of the "
                     "element size",
                     index + 1);
        return -1;
      }
      words[3 + rank + k] = strides[k] / item;
    }
  } else {
    /* The strides of the layout (NumPy may report others on dimensions of
     * size 1). */
    int64_t step = 1;
    for (int j = 0; j < rank; ++j) {
      int k = field->layout == kRowMajor ? rank - 1 - j : j;
      words[3 + rank + k] = step;
      step *= shape[k];
    }
  }
  memcpy(to, words, sizeof(int64_t) * (3 + 2 * (size_t)rank));
  return 0;
}

static const char *const kKindNames[kNumKinds] = {
    "array", "f64",  "f32",  "i64", "i32", "i16",          "i8",
    "ui64",  "ui32", "ui16", "ui8", "i1",  "complex<f64>", "complex<f32>"};

static int writeScalar(PyObject *value, const ArgumentField *field, char *to,
                       Py_ssize_t index);

static int writeArgument(PyObject *value, const ArgumentField *field,
                         char *context, Py_ssize_t index) {
  char *to = context + field->offset;
  if (field->kind == kArray)
    return writeArray(value, field, to, index);
  if (writeScalar(value, field, to, index) == 0)
    return 0;
  if (PyErr_ExceptionMatches(PyExc_TypeError)) {
    /* Name the argument and what it should have been. */
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "argument %zd: expected %s, got %s",
                 index + 1, kKindNames[field->kind], Py_TYPE(value)->tp_name);
  }
  return -1;
}

static int writeScalar(PyObject *value, const ArgumentField *field, char *to,
                       Py_ssize_t index) {
  switch (field->kind) {
  case kF64:
  case kF32: {
    double v = PyFloat_AsDouble(value);
    if (v == -1.0 && PyErr_Occurred())
      return -1;
    if (field->kind == kF64) {
      memcpy(to, &v, 8);
    } else {
      float f = (float)v;
      memcpy(to, &f, 4);
    }
    return 0;
  }
  case kI64:
  case kI32:
  case kI16:
  case kI8:
  case kU64:
  case kU32:
  case kU16:
  case kU8: {
    /* kI64 ... kI8 then kU64 ... kU8: 8, 4, 2, 1 bytes */
    int rank = field->kind - kI64;
    return writeInteger(value, to, 8 >> (rank % 4), rank >= 4, index);
  }
  case kBool: {
    int truth = PyObject_IsTrue(value);
    if (truth < 0)
      return -1;
    *to = (char)truth;
    return 0;
  }
  case kC128:
  case kC64: {
    Py_complex z = PyComplex_AsCComplex(value);
    if (z.real == -1.0 && PyErr_Occurred())
      return -1;
    if (field->kind == kC128) {
      double parts[2] = {z.real, z.imag};
      memcpy(to, parts, 16);
    } else {
      float parts[2] = {(float)z.real, (float)z.imag};
      memcpy(to, parts, 8);
    }
    return 0;
  }
  }
  PyErr_SetString(PyExc_SystemError, "Caller: unknown argument kind");
  return -1;
}

/* Frees a kernel's allocation when the array result that owns it dies. */
static void freeKernelBuffer(PyObject *capsule) {
  vrir_rt_free(PyCapsule_GetPointer(capsule, "vrir.buffer"));
}

/* The result with descriptor `words` (in elements) that is a view of the
 * array argument `argument` (a new reference): `argument` itself when it
 * is all of it, as for `return x`, else a view whose base is `argument`,
 * writable when it is (NumPy's semantics of `return x[1:]`). */
static PyObject *viewOfArgument(PyArrayObject *argument, const Caller *self,
                                const int64_t *words) {
  int rank = self->resultRank;
  PyArray_Descr *descr = PyArray_DescrFromType(self->resultTypeNum);
  if (!descr)
    return NULL;
  npy_intp item = PyDataType_ELSIZE(descr);
  char *data = (char *)(intptr_t)words[1] + words[2] * item;
  npy_intp shape[NPY_MAXDIMS], strides[NPY_MAXDIMS];
  int whole = PyArray_NDIM(argument) == rank &&
              PyArray_TYPE(argument) == self->resultTypeNum &&
              PyArray_DATA(argument) == data;
  for (int d = 0; d < rank; ++d) {
    shape[d] = (npy_intp)words[3 + d];
    strides[d] = (npy_intp)words[3 + rank + d] * item;
    whole = whole && PyArray_DIM(argument, d) == shape[d] &&
            PyArray_STRIDE(argument, d) == strides[d];
  }
  if (whole) {
    Py_DECREF(descr);
    Py_INCREF(argument);
    return (PyObject *)argument;
  }
  /* Steals descr. */
  PyObject *view = PyArray_NewFromDescr(
      &PyArray_Type, descr, rank, shape, strides, data,
      PyArray_ISWRITEABLE(argument) ? NPY_ARRAY_WRITEABLE : 0, NULL);
  if (!view)
    return NULL;
  Py_INCREF(argument);
  /* Steals the reference to argument, also when it fails. */
  if (PyArray_SetBaseObject((PyArrayObject *)view, (PyObject *)argument) < 0) {
    Py_DECREF(view);
    return NULL;
  }
  return view;
}

/* The array result whose descriptor is at `at` (allocated, aligned, offset,
 * sizes, strides, in elements), owning the allocation; NULL without an
 * error when the Python side must build it (see ResultKind). */
static PyObject *readArrayResult(const Caller *self, const char *at,
                                 PyObject *const *arguments) {
  int rank = self->resultRank;
  int64_t words[3 + 2 * NPY_MAXDIMS];
  memcpy(words, at, sizeof(int64_t) * (3 + 2 * (size_t)rank));
  void *allocated = (void *)(intptr_t)words[0];
  if (!allocated)
    return NULL;
  for (Py_ssize_t i = 0; i < self->argumentCount; ++i)
    if (self->arguments[i].kind == kArray &&
        PyArray_DATA((PyArrayObject *)arguments[i]) == allocated)
      return viewOfArgument((PyArrayObject *)arguments[i], self, words);
  PyArray_Descr *descr = PyArray_DescrFromType(self->resultTypeNum);
  if (!descr) {
    vrir_rt_free(allocated);
    return NULL;
  }
  npy_intp shape[NPY_MAXDIMS], strides[NPY_MAXDIMS];
  npy_intp item = PyDataType_ELSIZE(descr);
  for (int d = 0; d < rank; ++d) {
    shape[d] = (npy_intp)words[3 + d];
    strides[d] = (npy_intp)words[3 + rank + d] * item;
    if (shape[d] == 0) {
      Py_DECREF(descr);
      return NULL;
    }
  }
  char *data = (char *)(intptr_t)words[1] + words[2] * item;
  PyObject *owner = PyCapsule_New(allocated, "vrir.buffer", freeKernelBuffer);
  if (!owner) {
    Py_DECREF(descr);
    vrir_rt_free(allocated);
    return NULL;
  }
  /* Steals descr; the flags (contiguity, alignment) follow from strides. */
  PyObject *array =
      PyArray_NewFromDescr(&PyArray_Type, descr, rank, shape, strides, data,
                           NPY_ARRAY_WRITEABLE, NULL);
  if (!array) {
    Py_DECREF(owner); /* frees the allocation */
    return NULL;
  }
  /* Steals owner, also when it fails. */
  if (PyArray_SetBaseObject((PyArrayObject *)array, owner) < 0) {
    Py_DECREF(array);
    return NULL;
  }
  return array;
}

static PyObject *readResult(const Caller *self, const char *context,
                            PyObject *const *arguments) {
  const char *at = context + self->resultOffset;
  switch (self->resultKind) {
  case kNoResult:
    Py_RETURN_NONE;
  case kResultF64: {
    double v;
    memcpy(&v, at, 8);
    return PyFloat_FromDouble(v);
  }
  case kResultI64: {
    int64_t v;
    memcpy(&v, at, 8);
    return PyLong_FromLongLong(v);
  }
  case kResultBool:
    return PyBool_FromLong(*at & 1);
  case kResultArray: {
    PyObject *array = readArrayResult(self, at, arguments);
    if (array || PyErr_Occurred())
      return array;
    return PyBytes_FromStringAndSize(context, self->contextSize);
  }
  default:
    return PyBytes_FromStringAndSize(context, self->contextSize);
  }
}

static PyObject *callerCall(Caller *self, PyObject *args, PyObject *kwargs) {
  PyObject *values;
  if (kwargs && PyDict_GET_SIZE(kwargs)) {
    PyErr_SetString(PyExc_TypeError, "Caller takes no keyword arguments");
    return NULL;
  }
  if (!PyArg_UnpackTuple(args, "Caller", 1, 1, &values))
    return NULL;
  PyObject *sequence =
      PySequence_Fast(values, "Caller: a sequence of arguments");
  if (!sequence)
    return NULL;
  if (PySequence_Fast_GET_SIZE(sequence) != self->argumentCount) {
    PyErr_Format(PyExc_TypeError, "the kernel takes %zd arguments, got %zd",
                 self->argumentCount, PySequence_Fast_GET_SIZE(sequence));
    Py_DECREF(sequence);
    return NULL;
  }
  /* The context block and the slots live on the stack when small: a call
   * needs no allocation, and threads calling one kernel share nothing. */
  _Alignas(16) char contextOnStack[1024];
  void *slotsOnStack[64];
  char *context = self->contextSize <= (Py_ssize_t)sizeof(contextOnStack)
                      ? contextOnStack
                      : PyMem_Calloc(1, (size_t)self->contextSize);
  void **slots = self->slotCount <= 64
                     ? slotsOnStack
                     : PyMem_Calloc((size_t)self->slotCount, sizeof(void *));
  PyObject *result = NULL;
  if (!context || !slots) {
    PyErr_NoMemory();
    goto done;
  }
  if (context == contextOnStack)
    memset(context, 0, (size_t)self->contextSize);
  PyObject **items = PySequence_Fast_ITEMS(sequence);
  for (Py_ssize_t i = 0; i < self->argumentCount; ++i)
    if (writeArgument(items[i], &self->arguments[i], context, i) != 0)
      goto done;
  for (Py_ssize_t i = 0; i < self->planLength; ++i) {
    const Slot *slot = &self->plan[i];
    if (slot->cell < 0) {
      slots[i] = context + slot->offset;
    } else {
      slots[slot->cell] = context + slot->offset;
      slots[i] = &slots[slot->cell];
    }
  }
  int status;
  Py_BEGIN_ALLOW_THREADS status =
      vrir_rt_try_interruptible(self->entry, (void *)slots);
  Py_END_ALLOW_THREADS if (status != 0) {
    PyErr_SetString(KernelError, vrir_rt_last_error());
    goto done;
  }
  result = readResult(self, context, items);
done:
  if (context && context != contextOnStack)
    PyMem_Free(context);
  if (slots && slots != slotsOnStack)
    PyMem_Free(slots);
  Py_DECREF(sequence);
  return result;
}

static PyTypeObject CallerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "vrir._call.Caller",
    .tp_basicsize = sizeof(Caller),
    .tp_dealloc = (destructor)callerDealloc,
    .tp_call = (ternaryfunc)callerCall,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Calls one compiled kernel with a sequence of arguments.",
    .tp_init = (initproc)callerInit,
    .tp_new = PyType_GenericNew,
};

static PyMethodDef methods[] = {
    {"signature_key", signatureKey, METH_VARARGS,
     "signature_key(*args): bytes naming the argument types, or None"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_call",
    .m_doc = "The per-call path of @vrir.jit.",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__call(void) {
  import_array();
  if (PyType_Ready(&CallerType) < 0)
    return NULL;
  PyObject *m = PyModule_Create(&module);
  if (!m)
    return NULL;
  KernelError = PyErr_NewException("vrir._call.KernelError", NULL, NULL);
  if (PyModule_AddObjectRef(m, "KernelError", KernelError) < 0 ||
      PyModule_AddObjectRef(m, "Caller", (PyObject *)&CallerType) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  PyObject *kinds = Py_BuildValue(
      "{sisisisisisisisisisisisisisi}", "array", kArray, "f64", kF64, "f32",
      kF32, "i64", kI64, "i32", kI32, "i16", kI16, "i8", kI8, "ui64", kU64,
      "ui32", kU32, "ui16", kU16, "ui8", kU8, "i1", kBool, "complex<f64>",
      kC128, "complex<f32>", kC64);
  if (!kinds || PyModule_AddObject(m, "FIELD_KINDS", kinds) < 0) {
    Py_XDECREF(kinds);
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
