; Host code: clang's kernel stub calls cudaLaunchKernel with the stub's own
; address; the call goes to dcucc's host runtime with the kernel's two
; parameters and its mangled name (the stub's `_Z16__device_stub__kPfi` is
; kernel `_Z1kPfi`: the identifier loses its 15-letter prefix). A launch whose
; argument array cannot be seen passes -1 and no name.
; RUN-PASSES: dcucc-host
target triple = "x86_64-pc-linux-gnu"

; CHECK-DCUCC-HOST: @[[NAME:.*]] = private unnamed_addr constant [8 x i8] c"_Z1kPfi\00"
%dim3 = type { i32, i32, i32 }

define void @_Z16__device_stub__kPfi(ptr %a, i32 %b) {
  %args = alloca [2 x ptr], align 16
; CHECK-DCUCC-HOST: call i32 @__dcucc_cudaLaunchKernel(ptr @_Z16__device_stub__kPfi, i64 1, i32 1, i64 1, i32 1, ptr %args, i64 0, ptr null, i32 2, ptr @[[NAME]])
  %r = call i32 @cudaLaunchKernel(ptr @_Z16__device_stub__kPfi, i64 1, i32 1, i64 1, i32 1, ptr %args, i64 0, ptr null)
  ret void
}

define i32 @launch_from(ptr %f, ptr %args) {
; CHECK-DCUCC-HOST: call i32 @__dcucc_hipLaunchKernel(ptr %f, i64 1, i32 1, i64 1, i32 1, ptr %args, i64 0, ptr null, i32 -1, ptr null)
  %r = call i32 @hipLaunchKernel(ptr %f, i64 1, i32 1, i64 1, i32 1, ptr %args, i64 0, ptr null)
  ret i32 %r
}

declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)
declare i32 @hipLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)
