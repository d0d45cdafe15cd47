# Prints a function whose body nests N scf.execute_region ops (argv[1]).
import sys

depth = int(sys.argv[1])
print("func.func @f() -> f64 {")
print("scf.execute_region {\n" * depth, end="")
print("scf.yield\n}\n" * depth, end="")
print("%c = arith.constant 2.5 : f64\nreturn %c : f64\n}")
