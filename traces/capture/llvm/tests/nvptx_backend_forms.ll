; Accesses as the NVPTX backend issues them (info words as in nvptx_spaces.ll):
;   a load whose one use truncates it to 32 bits is issued 4 bytes wide: global ld.b32 = 256,
;   also through a bitcast of a vector load; a truncation to 16 bits keeps the whole
;   8-byte load: 3<<7 = 384;
;   a 16-byte memcpy of align 16 is copied in 8-byte pieces from the last down: a
;   load 384 at +8, a wait, a store 32|384 = 416 at +8, then the same at +0 (AMDGPU
;   would copy 16 bytes at once);
;   a 16-byte memset is one 16-byte store, 32|512 = 544;
;   a barrier's record (kind 1) comes right after the barrier.
; RUN-PASSES: dcucc-device
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-DCUCC-DEVICE-LABEL: define void @forms(
; Three parameter loads at entry take PCs 16, 32, 48.
define void @forms(ptr addrspace(1) %g, ptr addrspace(1) %h, ptr addrspace(1) %out) {
entry:
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 %{{.*}}, i32 256, i32 64,
  %w = load i64, ptr addrspace(1) %g, align 8
  %lo = trunc i64 %w to i32
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 %{{.*}}, i32 256, i32 80,
  %v = load <2 x i32>, ptr addrspace(1) %h, align 8
  %vb = bitcast <2 x i32> %v to i64
  %vlo = trunc i64 %vb to i32
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 %{{.*}}, i32 384, i32 96,
  %x = load i64, ptr addrspace(1) %h, align 8
  %x16 = trunc i64 %x to i16
  %sum = add i32 %lo, %vlo
  %x32 = zext i16 %x16 to i32
  %all = add i32 %sum, %x32
  store i32 %all, ptr addrspace(1) %out, align 4
; CHECK-DCUCC-DEVICE: [[S8:%.*]] = add i64 %{{.*}}, 8
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 [[S8]], i32 384,
; CHECK-DCUCC-DEVICE: call void @__dcucc_event(i32 2,
; CHECK-DCUCC-DEVICE: [[D8:%.*]] = add i64 %{{.*}}, 8
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 [[D8]], i32 416,
; CHECK-DCUCC-DEVICE: [[S0:%.*]] = ptrtoint ptr addrspace(1) %h to i64
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 [[S0]], i32 384,
; CHECK-DCUCC-DEVICE: call void @__dcucc_event(i32 2,
; CHECK-DCUCC-DEVICE: [[D0:%.*]] = ptrtoint ptr addrspace(1) %g to i64
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 [[D0]], i32 416,
; CHECK-DCUCC-DEVICE-NOT: i32 512
  call void @llvm.memcpy.p1.p1.i64(ptr addrspace(1) align 16 %g, ptr addrspace(1) align 16 %h, i64 16, i1 false)
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 %{{.*}}, i32 544,
; CHECK-DCUCC-DEVICE-NOT: __dcucc_mem
  call void @llvm.memset.p1.i64(ptr addrspace(1) align 16 %g, i8 0, i64 16, i1 false)
; CHECK-DCUCC-DEVICE: call void @llvm.nvvm.barrier0()
; CHECK-DCUCC-DEVICE-NOT: call
; CHECK-DCUCC-DEVICE: call void @__dcucc_event(i32 1,
  call void @llvm.nvvm.barrier0()
  ret void
}

declare void @llvm.memcpy.p1.p1.i64(ptr addrspace(1), ptr addrspace(1), i64, i1)
declare void @llvm.memset.p1.i64(ptr addrspace(1), i8, i64, i1)
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @forms, !"kernel", i32 1}
