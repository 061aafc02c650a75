; Host code: the host calls dcucc records go to the host runtime's `__dcucc_NAME`
; with their own arguments, unchanged (no launch arguments appended): a
; synchronous and an asynchronous copy, a page-locked allocation with flags,
; a stream's creation and wait, an event's record and wait, a mapped pointer,
; the device's wait, and HIP's forms. An invoke stays an invoke, with its two
; destinations. Other CUDA and HIP calls (cudaMemset, cudaMalloc, hipGetLastError)
; go through `dcucc.api.NAME`, which brackets them with __dcucc_api_enter and
; _exit (API time, not host time), one per callee; other functions (malloc) and
; definitions are left as they are.
; RUN-PASSES: dcucc-host
target triple = "x86_64-pc-linux-gnu"

define i32 @phase(ptr %d, ptr %h, ptr %s, ptr %e, ptr %pp) {
; CHECK-DCUCC-HOST: call i32 @__dcucc_cudaHostAlloc(ptr %pp, i64 8388608, i32 4)
  %a = call i32 @cudaHostAlloc(ptr %pp, i64 8388608, i32 4)
; CHECK-DCUCC-HOST: call i32 @__dcucc_cudaStreamCreate(ptr %pp)
  %b = call i32 @cudaStreamCreate(ptr %pp)
; CHECK-DCUCC-HOST: call i32 @__dcucc_cudaMemcpy(ptr %d, ptr %h, i64 4096, i32 1)
  %c = call i32 @cudaMemcpy(ptr %d, ptr %h, i64 4096, i32 1)
; CHECK-DCUCC-HOST: call i32 @dcucc.api.cudaMemset(ptr %d, i32 0, i64 4096)
  %m = call i32 @cudaMemset(ptr %d, i32 0, i64 4096)
; CHECK-DCUCC-HOST: call i32 @__dcucc_cudaMemcpyAsync(ptr %h, ptr %d, i64 64, i32 2, ptr %s)
  %f = call i32 @cudaMemcpyAsync(ptr %h, ptr %d, i64 64, i32 2, ptr %s)
; CHECK-DCUCC-HOST: call i32 @__dcucc_cudaEventRecord(ptr %e, ptr %s)
  %g = call i32 @cudaEventRecord(ptr %e, ptr %s)
; CHECK-DCUCC-HOST: call i32 @__dcucc_cudaEventSynchronize(ptr %e)
  %i = call i32 @cudaEventSynchronize(ptr %e)
; CHECK-DCUCC-HOST: call i32 @__dcucc_cudaStreamSynchronize(ptr %s)
  %j = call i32 @cudaStreamSynchronize(ptr %s)
; CHECK-DCUCC-HOST: call i32 @__dcucc_cudaHostGetDevicePointer(ptr %pp, ptr %h, i32 0)
  %k = call i32 @cudaHostGetDevicePointer(ptr %pp, ptr %h, i32 0)
; CHECK-DCUCC-HOST: call i32 @__dcucc_cudaDeviceSynchronize()
  %l = call i32 @cudaDeviceSynchronize()
; CHECK-DCUCC-HOST: call i32 @dcucc.api.cudaMalloc(ptr %pp, i64 16)
  %n = call i32 @cudaMalloc(ptr %pp, i64 16)
; CHECK-DCUCC-HOST: call i32 @dcucc.api.cudaMalloc(ptr %pp, i64 32)
  %o = call i32 @cudaMalloc(ptr %pp, i64 32)
; CHECK-DCUCC-HOST: call ptr @malloc(i64 8)
  %p = call ptr @malloc(i64 8)
; CHECK-DCUCC-HOST: call i32 @hipInline()
  %q = call i32 @hipInline()
  ret i32 %c
}

define i32 @hip(ptr %d, ptr %h, ptr %s, ptr %pp) {
; CHECK-DCUCC-HOST: call i32 @__dcucc_hipHostMalloc(ptr %pp, i64 64, i32 2)
  %a = call i32 @hipHostMalloc(ptr %pp, i64 64, i32 2)
; CHECK-DCUCC-HOST: call i32 @__dcucc_hipMemcpyAsync(ptr %d, ptr %h, i64 64, i32 1, ptr %s)
  %b = call i32 @hipMemcpyAsync(ptr %d, ptr %h, i64 64, i32 1, ptr %s)
; CHECK-DCUCC-HOST: call i32 @__dcucc_hipStreamDestroy(ptr %s)
  %c = call i32 @hipStreamDestroy(ptr %s)
; CHECK-DCUCC-HOST: call i32 @__dcucc_hipHostFree(ptr %h)
  %e = call i32 @hipHostFree(ptr %h)
; CHECK-DCUCC-HOST: call i32 @dcucc.api.hipGetLastError()
  %f = call i32 @hipGetLastError()
  ret i32 %a
}

define i32 @throws(ptr %s) personality ptr @__gxx_personality_v0 {
; CHECK-DCUCC-HOST: invoke i32 @__dcucc_cudaStreamSynchronize(ptr %s)
; CHECK-DCUCC-HOST-NEXT: to label %ok unwind label %bad
  %r = invoke i32 @cudaStreamSynchronize(ptr %s)
          to label %ok unwind label %bad
ok:
  ret i32 %r
bad:
  %lp = landingpad { ptr, i32 } cleanup
  ret i32 -1
}

; CHECK-DCUCC-HOST: declare i32 @__dcucc_cudaHostAlloc(ptr, i64, i32)
; CHECK-DCUCC-HOST-LABEL: define internal i32 @dcucc.api.cudaMemset(ptr %0, i32 %1, i64 %2)
; CHECK-DCUCC-HOST-NEXT: call void @__dcucc_api_enter()
; CHECK-DCUCC-HOST-NEXT: %4 = call i32 @cudaMemset(ptr %0, i32 %1, i64 %2)
; CHECK-DCUCC-HOST-NEXT: call void @__dcucc_api_exit()
; CHECK-DCUCC-HOST-NEXT: ret i32 %4
; CHECK-DCUCC-HOST-LABEL: define internal i32 @dcucc.api.cudaMalloc(ptr %0, i64 %1)
; CHECK-DCUCC-HOST-NOT: define internal i32 @dcucc.api.cudaMalloc
declare i32 @cudaHostAlloc(ptr, i64, i32)
declare i32 @cudaStreamCreate(ptr)
declare i32 @cudaMemcpy(ptr, ptr, i64, i32)
declare i32 @cudaMemset(ptr, i32, i64)
declare i32 @cudaMemcpyAsync(ptr, ptr, i64, i32, ptr)
declare i32 @cudaEventRecord(ptr, ptr)
declare i32 @cudaEventSynchronize(ptr)
declare i32 @cudaStreamSynchronize(ptr)
declare i32 @cudaHostGetDevicePointer(ptr, ptr, i32)
declare i32 @cudaDeviceSynchronize()
declare i32 @cudaMalloc(ptr, i64)
declare i32 @hipHostMalloc(ptr, i64, i32)
declare i32 @hipMemcpyAsync(ptr, ptr, i64, i32, ptr)
declare i32 @hipStreamDestroy(ptr)
declare i32 @hipHostFree(ptr)
declare ptr @malloc(i64)

; A definition named hip* (an inline function of HIP's headers) is no API call.
define i32 @hipInline() {
  ret i32 0
}
declare i32 @hipGetLastError()
declare i32 @__gxx_personality_v0(...)
