# RUN: %vrir_emit %s checked --args "f64[:], i64" | FileCheck %s --check-prefix=CHECKED
# RUN: %vrir_emit %s unchecked --args "f64[:], i64" | FileCheck %s --check-prefix=UNCHECKED
# RUN: %vrir_emit %s unchecked --args "f64[:], i64" | vr-opt > /dev/null
# @vrir.jit(boundscheck=False) drops the lower/upper checks of every index;
# negative indices still wrap (#vrir.index<negative>).
import vrir


@vrir.jit
def checked(x, i):
    x[i] = x[i - 1]
    return x[1:i]


@vrir.jit(boundscheck=False, target="cpu")
def unchecked(x, i):
    x[i] = x[i - 1]
    return x[1:i]

# CHECKED: vrir.load {{.*}} flags [#vrir.index<lower|upper|negative>]
# CHECKED: vrir.store {{.*}} flags [#vrir.index<lower|upper|negative>]
# CHECKED: vrir.slice {{.*}} flags [#vrir.index<lower|upper|negative>]

# UNCHECKED-NOT: lower|upper
# UNCHECKED: vrir.load {{.*}} flags [#vrir.index<negative>]
# UNCHECKED: vrir.store {{.*}} flags [#vrir.index<negative>]
# UNCHECKED: vrir.slice {{.*}} flags [#vrir.index<negative>]
# UNCHECKED-NOT: lower|upper
