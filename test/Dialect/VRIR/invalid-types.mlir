// RUN: vr-opt %s -split-input-file -verify-diagnostics
//
// Verifier errors of the VRIR types (VRIRTypes.cpp) and of the ODS type
// constraints that a frontend hits when it builds ill-typed IR.

// Element types outside the set: i4, f16.
// expected-error @+1 {{array element type must be i1, i8, i16, i32, i64, f32, f64 or complex<i32|i64|f32|f64>, got 'i4'}}
func.func private @array_i4(!vrir.array<i4, 1, row_major>)

// -----

// Complex parts are i32, i64, f32 or f64.
// expected-error @+1 {{array element type must be i1, i8, i16, i32, i64, f32, f64 or complex<i32|i64|f32|f64>, got 'complex<i8>'}}
func.func private @array_complex_i8(!vrir.array<complex<i8>, 1, row_major>)

// -----

// expected-error @+1 {{array element type must be i1, i8, i16, i32, i64, f32, f64 or complex<i32|i64|f32|f64>, got 'f16'}}
func.func private @array_f16(!vrir.array<f16, 2, col_major>)

// -----

// Integers are signless: unsigned ones are not VRIR element types.
// expected-error @+1 {{array element type must be i1, i8, i16, i32, i64, f32, f64 or complex<i32|i64|f32|f64>, got 'ui32'}}
func.func private @array_ui32(!vrir.array<ui32, 1, row_major>)

// -----

// Complex of a type that is not a numeric element type.
// expected-error @+1 {{array element type must be i1, i8, i16, i32, i64, f32, f64 or complex<i32|i64|f32|f64>, got 'complex<f16>'}}
func.func private @array_complex_f16(!vrir.array<complex<f16>, 1, row_major>)

// -----

// Arrays do not nest.
// expected-error @+1 {{array element type must be i1, i8, i16, i32, i64, f32, f64 or complex<i32|i64|f32|f64>, got '!vrir.array<f64, 1, row_major>'}}
func.func private @array_of_array(!vrir.array<!vrir.array<f64, 1, row_major>, 1, row_major>)

// -----

// expected-error @+1 {{a domain has at least one dimension}}
func.func private @domain_rank0(!vrir.domain<0>)

// -----

// The domain type is checked where it is the result of vrir.domain too.
func.func @domain_op_rank0() {
  // expected-error @+1 {{a domain has at least one dimension}}
  %d = vrir.domain : !vrir.domain<0>
  return
}

// -----

// expected-error @+1 {{array rank 4294967295 is larger than the supported maximum 32}}
func.func private @negative_rank(!vrir.array<f64, -1, row_major>)

// -----

// expected-error @+1 {{domain rank 33 is larger than the supported maximum 32}}
func.func private @huge_domain(!vrir.domain<33>)
