//===- CompilerCAPITest.cpp - C API of the VRIR compiler ------------------===//
//
// Compiles modules with libVRIRCompiler.so, loads the shared libraries and
// calls their packed entry points through the runtime, as a host without
// MLIR (the Python frontend) does.
//
//===----------------------------------------------------------------------===//

#include "VRIR-c/Compiler.h"
#include "VRIR/Runtime/VRIRRuntime.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <cstdlib>
#include <dlfcn.h>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

// Ahead-of-time test module (`scale` and `at`), shared with the lit test.
std::string readAotModule() {
  std::ifstream file(VRIR_AOT_MODULE);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

const char *const kMixModule = R"mlir(
func.func @mix(%z: complex<f64>, %flag: i1, %n: i32)
    -> (f64, i1, complex<f64>) {
  %re = complex.re %z : complex<f64>
  %nf = arith.sitofp %n : i32 to f64
  %s = arith.addf %re, %nf : f64
  %true = arith.constant true
  %not = arith.xori %flag, %true : i1
  %w = complex.mul %z, %z : complex<f64>
  return %s, %not, %w : f64, i1, complex<f64>
}
)mlir";

using PackedFn = void (*)(void **);

struct Descriptor1D {
  double *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
};

class CompilerCAPITest : public ::testing::Test {
protected:
  void SetUp() override {
    char pattern[] = "/tmp/vrir-capi-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    directory = pattern;
  }
  void TearDown() override {
    for (void *handle : handles)
      dlclose(handle);
    std::string command = "rm -rf '" + directory + "'";
    EXPECT_EQ(std::system(command.c_str()), 0);
  }

  /// Compiles `text` for `entry`; on failure returns the message.
  int compile(const std::string &text, const char *entry, std::string &path,
              std::string &message) {
    path = directory + "/" + entry + ".so";
    VrirCompileOptions options;
    vrirCompileOptionsInit(&options);
    options.sourceName = "test.mlir";
    char *error = nullptr;
    int status = vrirCompileToSharedLibrary(text.data(), text.size(), entry,
                                            path.c_str(), &options, &error);
    if (error) {
      message = error;
      vrirFreeString(error);
    }
    return status;
  }

  PackedFn load(const std::string &path, const char *symbol) {
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    EXPECT_NE(handle, nullptr) << dlerror();
    if (!handle)
      return nullptr;
    handles.push_back(handle);
    return reinterpret_cast<PackedFn>(dlsym(handle, symbol));
  }

  std::string directory;
  std::vector<void *> handles;
};

TEST_F(CompilerCAPITest, CompilesAndCallsPackedEntryPoints) {
  std::string path, message;
  ASSERT_EQ(compile(readAotModule(), "scale", path, message), 0) << message;
  EXPECT_TRUE(message.empty());
  EXPECT_NE(access((path + ".o").c_str(), F_OK), 0) << "object left behind";

  // An array result comes back through a pointer: args[0] points at it.
  PackedFn scale = load(path, "_mlir__mlir_ciface_scale");
  ASSERT_NE(scale, nullptr);
  double data[4] = {1, 2, 3, 4};
  Descriptor1D x = {data, data, 0, {4}, {1}}, y = {};
  Descriptor1D *xp = &x, *yp = &y;
  double factor = 2.5;
  void *args[] = {&yp, &xp, &factor};
  ASSERT_EQ(vrir_rt_invoke(scale, args), 0) << vrir_rt_last_error();
  ASSERT_EQ(y.sizes[0], 4);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(y.aligned[y.offset + i * y.strides[0]], data[i] * 2.5);
  vrir_rt_free(y.allocated);

  // Every public function is exported; a scalar result lands in the slot
  // after the arguments. A bounds error comes back as a status.
  PackedFn at = load(path, "_mlir__mlir_ciface_at");
  ASSERT_NE(at, nullptr);
  int64_t index = 2;
  double element = 0;
  void *atArgs[] = {&xp, &index, &element};
  ASSERT_EQ(vrir_rt_invoke(at, atArgs), 0);
  EXPECT_EQ(element, 3);
  index = 9;
  EXPECT_NE(vrir_rt_invoke(at, atArgs), 0);
  EXPECT_NE(std::string(vrir_rt_last_error()).find("index out of bounds"),
            std::string::npos);
}

TEST_F(CompilerCAPITest, PacksScalarsComplexNumbersAndSeveralResults) {
  std::string path, message;
  ASSERT_EQ(compile(kMixModule, "mix", path, message), 0) << message;
  PackedFn mix = load(path, "_mlir__mlir_ciface_mix");
  ASSERT_NE(mix, nullptr);
  // Several results: one struct, in C layout, through a pointer.
  struct {
    double sum;
    bool negated;
    double square[2];
  } results = {};
  void *resultPointer = &results;
  double z[2] = {1.5, 2};
  bool flag = false;
  int32_t n = 3;
  void *args[] = {&resultPointer, z, &flag, &n};
  ASSERT_EQ(vrir_rt_invoke(mix, args), 0) << vrir_rt_last_error();
  EXPECT_EQ(results.sum, 4.5);
  EXPECT_TRUE(results.negated);
  EXPECT_EQ(results.square[0], 1.5 * 1.5 - 2 * 2);
  EXPECT_EQ(results.square[1], 2 * 1.5 * 2);
}

TEST_F(CompilerCAPITest, ParseErrorsComeBackAsDiagnostics) {
  std::string path, message;
  EXPECT_NE(compile("func.func @f(%x: f64) -> f64 {\n"
                    "  %y = arith.addf %x : f64\n"
                    "  return %y : f64\n"
                    "}\n",
                    "f", path, message),
            0);
  EXPECT_EQ(message.rfind("test.mlir:2:21: error: expected ','", 0), 0)
      << message;
  EXPECT_NE(access(path.c_str(), F_OK), 0);
}

TEST_F(CompilerCAPITest, VerifierAndEntryErrorsComeBackAsDiagnostics) {
  std::string path, message;
  EXPECT_NE(compile("func.func @f(%x: !vrir.array<f64, 1, row_major>, "
                    "%i: f32) -> f64 {\n"
                    "  %a = vrir.load %x[%i] : !vrir.array<f64, 1, "
                    "row_major>[f32]\n"
                    "  return %a : f64\n"
                    "}\n",
                    "f", path, message),
            0);
  EXPECT_EQ(message.rfind("test.mlir:2:8: error: 'vrir.load' op operand #1 "
                          "must be variadic of index",
                          0),
            0)
      << message;

  message.clear();
  EXPECT_NE(compile(kMixModule, "missing", path, message), 0);
  EXPECT_NE(message.find("error: no function definition named 'missing'"),
            std::string::npos)
      << message;

  // Options may be NULL; errors may be ignored.
  std::string text = "not mlir";
  EXPECT_NE(vrirCompileToSharedLibrary(text.data(), text.size(), "f",
                                       (directory + "/x.so").c_str(), nullptr,
                                       nullptr),
            0);
  vrirFreeString(nullptr);
}

TEST_F(CompilerCAPITest, UnknownGPUTargetIsAnError) {
  VrirCompileOptions options;
  vrirCompileOptionsInit(&options);
  EXPECT_EQ(options.gpuTarget, VRIR_TARGET_CPU);
  options.gpuTarget = 42;
  char *error = nullptr;
  std::string text = "func.func @f() { return }";
  EXPECT_NE(vrirCompileToSharedLibrary(text.data(), text.size(), "f",
                                       (directory + "/t.so").c_str(), &options,
                                       &error),
            0);
  ASSERT_NE(error, nullptr);
  EXPECT_STREQ(error, "error: unknown GPU target 42");
  vrirFreeString(error);
}

} // namespace
