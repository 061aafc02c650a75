; An amdgcn kernel: a flat (generic) load is left for the device runtime to
; place (space 4, 8 bytes: info 16 | 3<<7 = 400); reads of the dispatch packet are the
; launch's state, not traffic, and get no record; LDS (space 1) through
; addrspace(3): 4 | 32 | 256 = 292 for a store; s_barrier's record comes right after it.
; In the loop the load's value is used in the next iteration's address (a
; pointer chase): the wave waits (event kind 2) before that load each time.
; RUN-PASSES: dcucc-device
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8"
target triple = "amdgcn-amd-amdhsa"

@lds = internal addrspace(3) global [64 x i32] undef, align 4

; CHECK-DCUCC-DEVICE-LABEL: define amdgpu_kernel void @chase(ptr %p, i32 %n, ptr %dcucc.records)
define amdgpu_kernel void @chase(ptr %p, i32 %n) {
entry:
  %d = call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
  %wg = getelementptr i8, ptr addrspace(4) %d, i64 4
; CHECK-DCUCC-DEVICE-NOT: call void @__dcucc_mem(i64 %{{.*}}, i32 1288
  %size = load i16, ptr addrspace(4) %wg, align 4
  %s32 = zext i16 %size to i32
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 ptrtoint (ptr addrspace(3) @lds to i64), i32 292, i32 16,
  store i32 %s32, ptr addrspace(3) @lds, align 4
; CHECK-DCUCC-DEVICE: call void @llvm.amdgcn.s.barrier()
; CHECK-DCUCC-DEVICE-NOT: call
; CHECK-DCUCC-DEVICE: call void @__dcucc_event(i32 1, i32 32,
  call void @llvm.amdgcn.s.barrier()
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %q = phi ptr [ %p, %entry ], [ %next, %loop ]
; CHECK-DCUCC-DEVICE: loop:
; CHECK-DCUCC-DEVICE: call void @__dcucc_event(i32 2, i32 0,
; CHECK-DCUCC-DEVICE: call void @__dcucc_mem(i64 %{{.*}}, i32 400, i32 48,
  %next = load ptr, ptr %q, align 8
  %i1 = add i32 %i, 1
  %done = icmp eq i32 %i1, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

declare ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
declare void @llvm.amdgcn.s.barrier()
